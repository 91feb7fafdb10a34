"""Content Management (/admin/content, content:read): the tabs Organizations, Projects, Products, Website and
Newsletter.

Each tab is its own feature with its own state, views and dialogs (app/ui/admin/organizations, projects, products,
subscribers; the Website tab is app/ui/admin/site_editor.py). This page only switches tabs and loads the one shown:
a tab's list is fetched, one page at a time, when it is opened.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.organizations.state import OrganizationListState
from app.ui.admin.organizations.views import organizations_panel
from app.ui.admin.products.state import ProductListState
from app.ui.admin.products.views import products_panel
from app.ui.admin.projects.state import ProjectListState
from app.ui.admin.projects.views import projects_panel
from app.ui.admin.site_editor import SiteEditorState, site_editor_panel
from app.ui.admin.state import AdminState
from app.ui.admin.subscribers.state import SubscriberListState
from app.ui.admin.subscribers.views import subscribers_panel
from app.ui.admin.widgets import page_header

TABS = [
    ("organizations", "Organizations"),
    ("projects", "Projects"),
    ("products", "Products"),
    ("site", "Website"),
    ("newsletter", "Newsletter"),
]
TAB = "shrink-0 cursor-pointer rounded-md px-2.5 py-1.5 text-sm font-medium sm:px-3"


class ContentState(AdminState):
    tab: str = "organizations"

    async def _loader(self, *, fresh: bool) -> Any:
        """Close the shown tab's dialogs now and return its loader: the first page when the page loads (`fresh`),
        else its current page. The loader is a chained event, so a click queued before it (opening a dialog) may run
        first: it must not be the one that closes dialogs."""
        if self.tab == "site":
            (await self.get_state(SiteEditorState)).close_dialogs()
            return SiteEditorState.load
        tabs = {"projects": ProjectListState, "products": ProductListState, "newsletter": SubscriberListState}
        state = tabs.get(self.tab, OrganizationListState)
        (await self.get_state(state)).close_dialogs()
        return state.load if fresh else state.show

    @rx.event
    async def load(self) -> Any:
        return await self._loader(fresh=True)

    @rx.event
    async def set_tab(self, value: str) -> Any:
        self.tab = value if value in dict(TABS) else "organizations"
        return await self._loader(fresh=False)


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
