"""Content Management: state: the shown tab, and loading it when it is opened."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.organizations.state import OrganizationListState
from app.ui.admin.paged import PagedTab
from app.ui.admin.products.state import ProductListState
from app.ui.admin.projects.state import ProjectListState
from app.ui.admin.site_editor.state import SiteEditorState
from app.ui.admin.state import AdminState
from app.ui.admin.subscribers.state import SubscriberListState

TABS = [
    ("organizations", "Organizations"),
    ("projects", "Projects"),
    ("products", "Products"),
    ("site", "Website"),
    ("newsletter", "Newsletter"),
]


class ContentState(AdminState):
    tab: str = "organizations"

    async def _loader(self, *, fresh: bool) -> Any:
        """Close the shown tab's dialogs now and return its loader: the first page when the page loads (`fresh`),
        else its current page. The loader is a chained event, so a click queued before it (opening a dialog) may run
        first: it must not be the one that closes dialogs."""
        if self.tab == "site":
            (await self.get_state(SiteEditorState)).close_dialogs()
            return SiteEditorState.load
        tabs: dict[str, type[PagedTab]] = {
            "projects": ProjectListState,
            "products": ProductListState,
            "newsletter": SubscriberListState,
        }
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
