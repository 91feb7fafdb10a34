"""/portfolio: the title band and the portfolio section (filter, projects) without its own heading."""

import reflex as rx

from app.ui import routes
from app.ui.components.blocks import page_hero
from app.ui.layouts.site import section_page
from app.ui.seo import public_page
from app.ui.site.sections.portfolio import PortfolioState, portfolio_section
from app.ui.state.company import AT_BUILD


@public_page(
    routes.PORTFOLIO,
    f"Portfolio | {AT_BUILD.name}",
    "Websites, mobile apps, dashboards and campaigns we have built for businesses across Florida's Treasure "
    "Coast, filtered by industry.",
    on_load=PortfolioState.load,
)
def portfolio_page() -> rx.Component:
    return section_page(
        page_hero(
            "Portfolio",
            "Our work",
            "Websites, apps and dashboards we've delivered for local businesses. Filter by industry to find "
            "projects like yours.",
        ),
        portfolio_section(with_title=False),
    )
