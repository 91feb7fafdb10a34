"""Content Management: state: the shown tab, and loading it when it is opened (or named in the address)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.admin.organizations.state import OrganizationListState
from app.ui.admin.paged import PagedTab
from app.ui.admin.projects.state import ProjectListState
from app.ui.admin.site_editor.state import SiteEditorState
from app.ui.admin.state import AdminState
from app.ui.admin.subscribers.state import SubscriberListState

# Products are not a tab: the catalogue is edited in one place, Products & Services (ADR 0090).
TABS = [
    ("organizations", "Organizations"),
    ("projects", "Projects"),
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
            "newsletter": SubscriberListState,
        }
        state = tabs.get(self.tab, OrganizationListState)
        (await self.get_state(state)).close_dialogs()
        return state.load if fresh else state.show

    @rx.event
    async def load(self) -> Any:
        """The page's loader: the tab the address names (`?tab=site`, a link from elsewhere), else the one shown."""
        wanted = str(self.router.url.query_parameters.get("tab") or "")
        if wanted == "products":
            # The Products tab moved to its own section; an old link or bookmark goes there.
            return rx.redirect(routes.ADMIN_PRODUCTS, replace=True)
        if wanted in dict(TABS):
            self.tab = wanted
        loader = await self._loader(fresh=True)
        # A digest mail's or the dashboard's link (?tab=projects&conversation=ID) opens that conversation on arrival.
        conversation = str(self.router.url.query_parameters.get("conversation") or "")
        if self.tab == "projects" and conversation.isdigit():
            return [loader, ProjectListState.open_conversation(int(conversation))]  # type: ignore[operator]
        return loader

    @rx.event
    async def set_tab(self, value: str) -> Any:
        self.tab = value if value in dict(TABS) else "organizations"
        return await self._loader(fresh=False)
