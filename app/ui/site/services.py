"""/services: the title band and the services section without its own heading."""

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.ui import routes
from app.ui.components.blocks import page_hero
from app.ui.layouts.site import section_page
from app.ui.seo import public_page
from app.ui.site.sections.services import ServicesState, services_section
from app.ui.state.company import AT_BUILD
from app.ui.styles import BUTTON_ACCENT, BUTTON_GHOST_ON_DARK, BUTTON_LG


@public_page(
    routes.SERVICES,
    f"Services | {AT_BUILD.name}",
    "Web development, website hosting, BI reports, mobile apps, database design and digital transformation for "
    "businesses in Port St. Lucie and the Treasure Coast.",
    on_load=ServicesState.load,
)
def services_page() -> rx.Component:
    return section_page(
        page_hero(
            "Our services",
            "Technology services built around your business",
            "From your first website to a fully automated back office: pick one service or let us combine them "
            "into one plan that fits your goals and budget.",
            rx.el.div(
                ReactRouterLink.create(
                    "Get a Free Quote", to=routes.CONTACT, class_name=f"{BUTTON_ACCENT} {BUTTON_LG}"
                ),
                ReactRouterLink.create(
                    "See Our Work", to=routes.PORTFOLIO, class_name=f"{BUTTON_GHOST_ON_DARK} {BUTTON_LG}"
                ),
                class_name="mt-8 flex flex-wrap gap-3",
            ),
        ),
        services_section(with_title=False),
    )
