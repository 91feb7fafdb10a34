"""The services section (home and /services): six cards from the database, the popular one badged."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar
from reflex_components_core.react_router import ReactRouterLink

from app.services.site import site_content
from app.services.site.site_content import ServiceCard
from app.ui import routes
from app.ui.components.blocks import card_grid, home_section
from app.ui.site.content import SNAPSHOT
from app.ui.state.calls import call
from app.ui.styles import BUTTON_OUTLINE, BUTTON_PRIMARY, TEXT_LINK


class ServicesState(rx.State):
    """The active service cards in display order."""

    services: list[ServiceCard] = SNAPSHOT.services
    loaded: bool = bool(SNAPSHOT.services)

    @rx.event
    async def load(self) -> None:
        self.services = await call(site_content.services)
        self.loaded = True


def service_icon(name: rx.Var, *, size: int = 24) -> rx.Component:
    return rx.match(
        name,
        *[(icon, rx.icon(icon, size=size, aria_hidden="true")) for icon in site_content.SERVICE_ICONS],
        rx.icon("sparkles", size=size, aria_hidden="true"),
    )


def _feature(text: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.icon("circle-check", size=16, class_name="mt-0.5 shrink-0 text-emerald-600", aria_hidden="true"),
        rx.el.span(text),
        class_name="flex items-start gap-2 text-sm text-slate-700",
    )


def _card(service: ObjectVar[ServiceCard]) -> rx.Component:
    popular = service.popular.to(bool)
    return rx.el.article(
        rx.cond(
            popular,
            rx.el.p(
                rx.icon("star", size=12, class_name="fill-current", aria_hidden="true"),
                "Most Popular",
                class_name=(
                    "absolute -top-3 left-1/2 inline-flex -translate-x-1/2 items-center gap-1 rounded-full "
                    "bg-amber-400 px-3 py-1 text-xs font-bold whitespace-nowrap text-slate-950 shadow-sm"
                ),
            ),
        ),
        rx.el.div(
            service_icon(service.icon.to(str)),
            class_name=rx.cond(
                popular,
                "flex size-12 items-center justify-center rounded-xl bg-blue-800 text-white",
                "flex size-12 items-center justify-center rounded-xl bg-blue-50 text-blue-800",
            ),
        ),
        rx.el.h3(service.title, class_name="mt-5 text-xl font-bold text-slate-900"),
        rx.el.p(service.description, class_name="mt-2 leading-relaxed text-slate-600"),
        rx.el.ul(
            rx.foreach(service.features.to(list[str]), _feature),
            aria_label="Features",
            class_name="mt-5 space-y-2",
        ),
        rx.el.div(
            ReactRouterLink.create(
                "Learn More",
                rx.el.span(" about ", service.title, class_name="sr-only"),
                to=routes.CONTACT,
                class_name=f"{TEXT_LINK} text-sm",
            ),
            ReactRouterLink.create(
                "Get Custom Quote",
                rx.el.span(" for ", service.title, class_name="sr-only"),
                to=routes.CONTACT,
                class_name=rx.cond(
                    popular,
                    f"{BUTTON_PRIMARY} h-10 px-4 text-sm",
                    f"{BUTTON_OUTLINE} h-10 px-4 text-sm",
                ),
            ),
            class_name="mt-auto flex flex-wrap items-center justify-between gap-3 pt-6",
        ),
        data_service_card=True,
        class_name=rx.cond(
            popular,
            "relative flex flex-col rounded-2xl border-2 border-blue-800 bg-white p-6 shadow-lg shadow-blue-900/10",
            "relative flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm",
        ),
    )


def services_grid() -> rx.Component:
    """The cards (skeletons until the first load when nothing was prerendered)."""
    return card_grid(
        ServicesState.loaded,
        ServicesState.services,
        _card,
        label="Loading services",
        class_name="grid gap-x-6 gap-y-8 md:grid-cols-2 lg:grid-cols-3",
        skeleton_class="grid gap-6 md:grid-cols-2 lg:grid-cols-3",
    )


def services_section(*, with_title: bool = True) -> rx.Component:
    """The section; /services shows it under its own page title, so without the section's heading."""
    return home_section(
        services_grid(),
        name="services",
        heading=(
            "What we do",
            "Technology services built around your business",
            "Web development, hosting, BI reporting, mobile apps, database design and digital transformation, "
            "delivered by a local team that knows your market.",
        ),
        with_title=with_title,
        hidden_title="All services",
        spacing="mt-14",
        class_name="bg-slate-50 py-20 sm:py-24",
    )
