"""/careers: hero, culture (four perks) and the open positions from the database; Apply Now opens /apply in a new
tab."""

from __future__ import annotations

import copy

import reflex as rx
from reflex.vars.object import ObjectVar

from app.services.careers.careers import JobPublic
from app.services.site import site_content
from app.ui import routes
from app.ui.components.blocks import band, icon_cards, new_tab_link, page_hero, section_heading, skeleton_grid
from app.ui.layouts.site import site_layout
from app.ui.seo import public_page
from app.ui.site.content import SNAPSHOT
from app.ui.state.calls import call
from app.ui.state.company import AT_BUILD
from app.ui.styles import BUTTON_ACCENT, BUTTON_LG, BUTTON_PRIMARY, FOCUS_RING

PERKS: list[tuple[str, str, str]] = [
    (
        "heart-pulse",
        "Health & Wellness",
        "Health, dental and vision insurance for you and your family, plus a yearly wellness allowance.",
    ),
    (
        "laptop",
        "Flexible Work",
        "Remote-friendly roles and flexible hours: we care about results, not about when you are online.",
    ),
    (
        "users",
        "Team Culture",
        "A small, supportive team with code reviews, pairing, lunch-and-learns and a yearly team retreat.",
    ),
    (
        "wallet",
        "Competitive Pay",
        "Salaries benchmarked to the market, performance bonuses and an annual learning and conference budget.",
    ),
]
POSITIONS_ID = "open-positions"


class CareersState(rx.State):
    """The open positions."""

    # Each visitor's state starts from its own copy of the snapshot (as a plain default would be copied).
    jobs: rx.Field[list[JobPublic]] = rx.field(default_factory=lambda: copy.deepcopy(SNAPSHOT.jobs))
    loaded: bool = bool(SNAPSHOT.jobs)

    @rx.event
    async def load(self) -> None:
        self.jobs = await call(site_content.open_jobs)
        self.loaded = True


def _fact(icon: str, value: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.icon(icon, size=16, class_name="shrink-0 text-blue-800", aria_hidden="true"),
        value,
        class_name="flex items-center gap-1.5",
    )


def _job(job: ObjectVar[JobPublic]) -> rx.Component:
    title = job.title.to(str)
    return rx.el.article(
        rx.el.div(
            rx.el.div(
                rx.el.h3(title, class_name="text-xl font-bold text-slate-900"),
                rx.el.ul(
                    _fact("briefcase", job.department.to(str)),
                    _fact("map-pin", job.location.to(str)),
                    _fact("clock", job.type.to(str)),
                    _fact("wallet", job.salary.to(str)),
                    aria_label="Position details",
                    class_name="mt-3 flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-700",
                ),
            ),
            new_tab_link(
                "Apply Now",
                rx.icon("external-link", size=16, aria_hidden="true"),
                announced=(" for ", title),
                href=f"{routes.APPLY}?jobId=" + job.id.to(str),
                rel="noopener",
                data_apply_link=job.id.to(str),
                class_name=f"{BUTTON_PRIMARY} h-11 shrink-0 px-5 text-sm",
            ),
            class_name="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between",
        ),
        rx.el.p(job.description, class_name="mt-4 leading-relaxed text-slate-600"),
        rx.el.details(
            rx.el.summary(
                "Requirements and benefits",
                class_name=f"cursor-pointer rounded-sm text-sm font-semibold text-blue-800 {FOCUS_RING}",
            ),
            rx.el.div(
                rx.el.div(
                    rx.el.h4("Requirements", class_name="text-sm font-semibold text-slate-900"),
                    rx.el.ul(
                        rx.foreach(job.requirements.to(list[str]), lambda r: rx.el.li(r)),
                        class_name="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600",
                    ),
                ),
                rx.el.div(
                    rx.el.h4("Benefits", class_name="text-sm font-semibold text-slate-900"),
                    rx.el.ul(
                        rx.foreach(job.benefits.to(list[str]), lambda b: rx.el.li(b)),
                        class_name="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600",
                    ),
                ),
                class_name="mt-4 grid gap-6 md:grid-cols-2",
            ),
            class_name="mt-4 border-t border-slate-100 pt-4",
        ),
        data_job=job.id.to(str),
        class_name="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm",
    )


def _culture() -> rx.Component:
    return band(
        section_heading(
            "Life at " + AT_BUILD.name,
            "A culture that puts people first",
            "We're a small team that does big work. Here's what you can expect when you join us.",
            heading_id="culture-heading",
        ),
        icon_cards(PERKS),
        labelled_by="culture-heading",
    )


def _positions() -> rx.Component:
    return band(
        section_heading(
            "Join us",
            "Open Positions",
            "Don't see the right role? We're always happy to hear from talented people: send us a general application.",
            heading_id="positions-heading",
        ),
        rx.el.div(
            rx.cond(
                CareersState.loaded,
                rx.cond(
                    CareersState.jobs.length() > 0,
                    rx.el.div(rx.foreach(CareersState.jobs, _job), class_name="space-y-6"),
                    rx.el.p(
                        "There are no open positions right now. Check back soon, or send us a general application.",
                        class_name="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center "
                        "text-slate-600",
                    ),
                ),
                skeleton_grid(3, label="Loading open positions", class_name="space-y-6"),
            ),
            rx.el.p(
                rx.el.a(
                    "Send a general application",
                    href=routes.APPLY,
                    target="_blank",
                    rel="noopener",
                    class_name="font-semibold text-blue-800 underline underline-offset-4 hover:text-blue-900",
                ),
                class_name="mt-8 text-center text-sm",
            ),
            class_name="mx-auto mt-14 max-w-4xl",
        ),
        id=POSITIONS_ID,
        labelled_by="positions-heading",
        class_name="bg-slate-50 py-20 sm:py-24",
    )


@public_page(
    routes.CAREERS,
    f"Careers | {AT_BUILD.name}",
    f"Join {AT_BUILD.name}: open positions in engineering and design, remote-friendly work, health "
    "benefits and a supportive team on Florida's Treasure Coast.",
    on_load=CareersState.load,
)
def careers_page() -> rx.Component:
    return site_layout(
        page_hero(
            "Careers",
            "Build the future of local business with us",
            "We're growing. Join a team of engineers, designers and consultants who help Treasure Coast businesses "
            "thrive with modern technology.",
            rx.el.div(
                rx.el.a("View Open Positions", href=f"#{POSITIONS_ID}", class_name=f"{BUTTON_ACCENT} {BUTTON_LG}"),
                class_name="mt-8",
            ),
        ),
        _culture(),
        _positions(),
    )
