"""Content Management: the page content: the tab list and the shown tab's panel."""

from __future__ import annotations

import reflex as rx

from app.ui.admin.content.state import TABS, ContentState
from app.ui.admin.organizations.views import organizations_panel
from app.ui.admin.products.views import products_panel
from app.ui.admin.projects.views import projects_panel
from app.ui.admin.site_editor.views import site_editor_panel
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


def content_content() -> rx.Component:
    return rx.el.div(
        page_header(
            "Content Management",
            "Organizations, client projects, the product catalogue, the public website's content and the newsletter's "
            "subscribers.",
        ),
        rx.el.div(
            *[_tab_button(k, label) for k, label in TABS],
            role="tablist",
            # Five tabs do not fit a phone's width in one row: they wrap rather than scroll some out of sight.
            class_name="mb-4 inline-flex max-w-full flex-wrap gap-1 rounded-lg bg-slate-100 p-1",
        ),
        rx.match(
            S.tab,
            ("site", site_editor_panel()),
            ("projects", projects_panel()),
            ("products", products_panel()),
            ("newsletter", subscribers_panel()),
            organizations_panel(),
        ),
    )
