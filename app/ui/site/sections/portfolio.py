"""The portfolio section (home and /portfolio): category filter, project cards, and 'Be Our First' when empty."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.services.site import site_content
from app.services.site.site_content import PortfolioCard
from app.ui.components.blocks import badge, contact_cta, home_section, new_tab_link, skeleton_grid, tag_list
from app.ui.site.content import SNAPSHOT
from app.ui.state.calls import call
from app.ui.styles import BUTTON_OUTLINE, BUTTON_PRIMARY, FOCUS_RING

CATEGORIES: list[str] = site_content.PORTFOLIO_CATEGORIES  # "All" first, then the spec's six
_CATEGORY_ICONS = {
    "Web Development": "code",
    "Marketing": "megaphone",
    "Healthcare": "stethoscope",
    "FinTech": "landmark",
    "Education": "graduation-cap",
    "IoT": "cpu",
}
# A colour per industry (decorative: the thumbnails carry no text); class strings written out for Tailwind.
_THUMB = "flex aspect-[2/1] items-center justify-center bg-linear-to-br text-white/90"
_GRADIENTS = {
    "Web Development": "from-blue-900 via-blue-800 to-sky-600",
    "Marketing": "from-indigo-900 via-violet-800 to-fuchsia-600",
    "Healthcare": "from-teal-900 via-teal-700 to-emerald-500",
    "FinTech": "from-slate-900 via-slate-700 to-amber-500",
    "Education": "from-sky-900 via-cyan-700 to-teal-500",
    "IoT": "from-emerald-900 via-emerald-700 to-lime-500",
}


class PortfolioState(rx.State):
    """Every published project; the filter is applied here, so switching needs no database round trip."""

    projects: list[PortfolioCard] = SNAPSHOT.portfolio
    category: str = "All"
    loaded: bool = bool(SNAPSHOT.portfolio)

    @rx.var
    def visible(self) -> list[PortfolioCard]:
        if self.category == "All":
            return self.projects
        return [p for p in self.projects if p.category == self.category]

    @rx.event
    async def load(self) -> None:
        self.projects = await call(site_content.portfolio_projects)
        self.loaded = True

    @rx.event
    def choose(self, category: str) -> None:
        self.category = category if category in CATEGORIES else "All"

    @rx.event
    def show_all(self) -> None:
        self.category = "All"


def _filter_button(category: str) -> rx.Component:
    active = PortfolioState.category == category
    return rx.el.button(
        category,
        type="button",
        on_click=PortfolioState.choose(category),
        aria_pressed=rx.cond(active, "true", "false"),
        class_name=(
            "h-10 rounded-full border px-4 text-sm font-semibold transition-colors "
            "border-slate-300 bg-white text-slate-700 hover:border-blue-800 hover:text-blue-800 "
            "aria-pressed:border-blue-800 aria-pressed:bg-blue-800 aria-pressed:text-white "
            f"{FOCUS_RING}"
        ),
    )


def _thumbnail(project: ObjectVar[PortfolioCard]) -> rx.Component:
    category = project.category.to(str)
    return rx.el.div(
        rx.match(
            category,
            *[(c, rx.icon(icon, size=44, aria_hidden="true")) for c, icon in _CATEGORY_ICONS.items()],
            rx.icon("briefcase", size=44, aria_hidden="true"),
        ),
        class_name=rx.match(
            category,
            *[(c, f"{_THUMB} {gradient}") for c, gradient in _GRADIENTS.items()],
            f"{_THUMB} from-blue-900 via-blue-800 to-sky-600",
        ),
    )


def _project_card(project: ObjectVar[PortfolioCard]) -> rx.Component:
    live = project.live & project.link.bool()
    return rx.el.article(
        _thumbnail(project),
        rx.el.div(
            rx.el.div(
                badge(project.category.to(str)),
                rx.cond(live, badge("Live", tone="green", icon="circle-check"), badge("In progress", tone="slate")),
                class_name="flex flex-wrap items-center gap-2",
            ),
            rx.el.h3(project.title, class_name="mt-4 text-lg font-bold text-slate-900"),
            rx.el.p(project.description, class_name="mt-2 text-sm leading-relaxed text-slate-600"),
            tag_list(
                project.tags,
                label="Technologies",
                tag_class="rounded-md bg-slate-100 px-2 py-1 text-xs font-medium text-slate-700",
                class_name="mt-4 flex flex-wrap gap-1.5",
            ),
            rx.el.div(
                rx.cond(
                    live,
                    new_tab_link(
                        "Visit Site",
                        rx.icon("external-link", size=16, aria_hidden="true"),
                        announced=(": ", project.title),
                        href=project.link.to(str),
                        class_name=f"{BUTTON_PRIMARY} h-10 px-4 text-sm",
                    ),
                    rx.el.span(
                        rx.icon("clock", size=16, aria_hidden="true"),
                        "Coming Soon",
                        class_name=(
                            "inline-flex h-10 items-center gap-2 rounded-lg bg-slate-100 px-4 text-sm font-semibold "
                            "text-slate-600"
                        ),
                    ),
                ),
                class_name="mt-auto pt-6",
            ),
            class_name="flex flex-1 flex-col p-6",
        ),
        data_project_card=True,
        class_name="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm",
    )


def _be_our_first() -> rx.Component:
    return rx.el.article(
        rx.el.div(
            rx.icon("sparkles", size=28, aria_hidden="true"),
            class_name="flex size-14 items-center justify-center rounded-2xl bg-amber-100 text-amber-700",
        ),
        rx.el.h3("Be Our First", class_name="mt-5 text-xl font-bold text-slate-900"),
        rx.el.p(
            "We haven't published a ",
            rx.el.strong(PortfolioState.category, class_name="font-semibold text-slate-800"),
            " project yet. Yours could be the first: tell us what you have in mind and we'll show you how we'd "
            "build it.",
            class_name="mt-2 max-w-md leading-relaxed text-slate-600",
        ),
        contact_cta("Start Your Project", icon_size=16, class_name=f"{BUTTON_PRIMARY} mt-6 h-11 px-5 text-sm"),
        data_be_our_first=True,
        class_name=(
            "flex flex-col items-center rounded-2xl border-2 border-dashed border-slate-300 bg-white px-6 py-12 "
            "text-center md:col-span-2 lg:col-span-3"
        ),
    )


def portfolio_body() -> rx.Component:
    """Filter buttons, the grid (or 'Be Our First') and the View All Projects reset."""
    return rx.el.div(
        rx.el.div(
            *[_filter_button(c) for c in CATEGORIES],
            role="group",
            aria_label="Filter projects by category",
            class_name="flex flex-wrap justify-center gap-2",
        ),
        rx.el.div(
            rx.cond(
                PortfolioState.loaded,
                rx.el.div(
                    rx.cond(
                        PortfolioState.visible.length() > 0,
                        rx.foreach(PortfolioState.visible, _project_card),
                        _be_our_first(),
                    ),
                    id="portfolio-grid",
                    aria_live="polite",
                    class_name="grid gap-6 md:grid-cols-2 lg:grid-cols-3",
                ),
                skeleton_grid(3, label="Loading projects", class_name="grid gap-6 md:grid-cols-2 lg:grid-cols-3"),
            ),
            class_name="mt-10",
        ),
        rx.el.div(
            rx.el.button(
                "View All Projects",
                type="button",
                on_click=PortfolioState.show_all,
                aria_controls="portfolio-grid",
                class_name=f"{BUTTON_OUTLINE} h-11 px-5 text-sm",
            ),
            class_name="mt-12 flex justify-center",
        ),
    )


def portfolio_section(*, with_title: bool = True) -> rx.Component:
    return home_section(
        portfolio_body(),
        name="portfolio",
        heading=(
            "Our work",
            "Projects that move local businesses forward",
            "A selection of websites, apps and dashboards we've built for clients across the Treasure Coast.",
        ),
        with_title=with_title,
        hidden_title="Projects",
        spacing="mt-12",
        class_name="bg-white py-20 sm:py-24",
    )
