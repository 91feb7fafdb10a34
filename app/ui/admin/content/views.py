"""Content Management: the page content: the tab list and the shown tab's panel."""

from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.admin.content.state import TABS, ContentState
from app.ui.admin.organizations.views import organizations_panel
from app.ui.admin.projects.views import projects_panel
from app.ui.admin.site_editor.views import site_editor_panel
from app.ui.admin.state import AdminState
from app.ui.admin.subscribers.views import subscribers_panel
from app.ui.admin.widgets import page_header

TAB = "shrink-0 cursor-pointer rounded-md px-2.5 py-1.5 text-sm font-medium sm:px-3"

S = ContentState


def _tab_button(key: str, label: str) -> rx.Component:
    return rx.el.button(
        label,
        on_click=S.set_tab(key),
        role="tab",
        aria_selected=S.tab == key,
        class_name=rx.cond(
            S.tab == key,
            f"{TAB} bg-white text-slate-900 shadow-sm",
            f"{TAB} text-slate-600 hover:text-slate-900",
        ),
        data_testid=f"tab-{key}",
    )


def _products_link() -> rx.Component:
    """Where the Products tab was: a link to the one place products are edited, Products & Services (ADR 0090), for
    those who may open it. A link, not a tab: it leaves the page."""
    return rx.cond(
        AdminState.visible_sections.contains("products"),
        rx.link(
            rx.icon("package", size=16),
            "Products & prices",
            rx.icon("arrow-right", size=14),
            href=routes.ADMIN_PRODUCTS,
            class_name="inline-flex shrink-0 items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium "
            "text-blue-700 hover:bg-slate-100 sm:px-3",
            data_testid="content-products-link",
        ),
        rx.fragment(),
    )


def content_content() -> rx.Component:
    return rx.el.div(
        page_header(
            "Content Management",
            "Organizations, client projects, the public website's content and the newsletter's subscribers. "
            "Products and their prices are edited in Products & Services.",
        ),
        rx.el.div(
            rx.el.div(
                *[_tab_button(k, label) for k, label in TABS],
                role="tablist",
                # The tabs do not fit a phone's width in one row: they wrap rather than scroll some out of sight.
                class_name="inline-flex max-w-full flex-wrap gap-1 rounded-lg bg-slate-100 p-1",
            ),
            _products_link(),
            class_name="mb-4 flex flex-wrap items-center gap-2",
        ),
        rx.match(
            S.tab,
            ("site", site_editor_panel()),
            ("projects", projects_panel()),
            ("newsletter", subscribers_panel()),
            organizations_panel(),
        ),
    )
