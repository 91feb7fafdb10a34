"""The staff panel's one way to show a list: a page of rows at a time, searched, filtered and sorted in SQL.

A section's state mixes in `PagedList`, keeps its own filter vars and names: the permission that reads the list
(`_read_guard`), its service's list function (`_lister`, which pages through `app.services.paging.paginate`) with the
section's own filters (`_filters`), and how a page of DTOs becomes its typed rows (`_take`). `_reload` does the rest
the same way everywhere: check the actor, fetch the page, show it or the error. No state ever holds more than one
page, so a table of 20,000 invoices costs the browser what 25 rows cost.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import urlencode

import reflex as rx

from app.models.user import UserPublic
from app.services.paging import PAGE_SIZE, SEARCH_MAX, Page
from app.ui.admin.state import AdminState, as_actor, error_text

T = TypeVar("T")


class PagedList(AdminState, mixin=True):
    """Paging, search and sort vars and their events; the section supplies `rows` and the hooks below."""

    page: rx.Field[int] = rx.field(1)
    pages: rx.Field[int] = rx.field(1)
    total: rx.Field[int] = rx.field(0)
    page_size: int = PAGE_SIZE
    search: str = ""
    sort: str = ""
    loading: bool = False
    loaded: bool = False  # a first page has been fetched (until then a list may say "Loading …")
    load_error: str = ""

    # --- what the section defines --------------------------------------------------------------------------------

    def _read_guard(self) -> tuple[str, str, str]:
        """The permission that reads the list, the section's name for the refusal toast, and the load error's text."""
        raise NotImplementedError

    def _lister(self) -> Callable[..., Page[Any]]:
        """The service's list function: `fn(session, *, actor, page, page_size, search, sort, **filters)`."""
        raise NotImplementedError

    def _filters(self) -> dict[str, Any]:
        """The section's own filters, as the list function's keyword arguments."""
        return {}

    def _take(self, data: list[Any]) -> None:
        """Keep a page's DTOs as the typed rows (an empty list when there is nothing to show)."""
        raise NotImplementedError

    async def _page(self, actor: UserPublic, page: int) -> Page[Any]:
        """Page `page` of the list as the section's filters stand now (read here, on the event loop)."""
        lister, size = self._lister(), self.page_size
        query = {"search": self.search, "sort": self.sort, **self._filters()}
        return await as_actor(actor, lambda s, a: lister(s, actor=a, page=page, page_size=size, **query))

    # --- the one reload ------------------------------------------------------------------------------------------

    async def _reload(self, *, quiet: bool = False) -> None:
        """Fetch the current page for the signed-in user (`quiet` on page loads: the guard already said why not)."""
        perm, feature, failed = self._read_guard()
        actor = await self._actor(perm, feature, quiet=quiet)
        if actor is None:
            self._take([])
            self._clear()
            self.loaded = True
            return
        self.loading = True
        try:
            result = await self._fetch(lambda page: self._page(actor, page))
        except Exception as exc:
            self._take([])
            self._clear(error_text(exc, failed))
        else:
            self._take(result.data)
        finally:
            self.loading = False
            self.loaded = True

    def _show(self, result: Page[Any]) -> None:
        """Take a service's page: where it sits (the service may have clamped the page number) and how many."""
        self.total, self.page, self.pages, self.page_size = result.total, result.page, result.pages, result.page_size
        self.load_error = ""

    async def _fetch(self, fetch: Callable[[int], Awaitable[Page[T]]]) -> Page[T]:
        """`fetch(page)` for the current page; past the end (its last rows were just deleted) the last page instead."""
        result = await fetch(self.page)
        if not result.data and result.total > 0 and result.page > result.pages:
            result = await fetch(result.pages)
        self._show(result)
        return result

    def _clear(self, error: str = "") -> None:
        self.total, self.page, self.pages = 0, 1, 1
        self.load_error = error

    async def _first_page(self) -> None:
        self.page = 1
        await self._reload()

    @rx.event
    async def set_search(self, value: str) -> None:
        self.search = str(value)[:SEARCH_MAX]
        await self._first_page()

    @rx.event
    async def set_sort(self, value: str) -> None:
        self.sort = str(value)[:40]  # the service ignores a name it does not know
        await self._first_page()

    @rx.event
    async def prev_page(self) -> None:
        self.page = max(1, self.page - 1)
        await self._reload()

    @rx.event
    async def next_page(self) -> None:
        self.page = min(self.pages, self.page + 1)
        await self._reload()

    @rx.event
    async def retry(self) -> None:
        await self._reload()

    @rx.var
    def first_shown(self) -> int:
        return 0 if self.total == 0 else (self.page - 1) * self.page_size + 1

    @rx.var
    def last_shown(self) -> int:
        return min(self.total, self.page * self.page_size)


class PagedTab(PagedList, mixin=True):
    """A list shown as a tab of Content Management: the page's loader starts at the first page, opening the tab again
    fetches the page shown, and the tab switch closes the tab's dialogs (see ContentState._loader)."""

    def close_dialogs(self) -> None:
        """Called by the tab switch itself, in its own event: a loader that closed them would run after the switch
        returned and could close a dialog the user opened in between."""
        raise NotImplementedError

    @rx.event
    async def load(self) -> None:
        """The page's loader: the first page."""
        self.page = 1
        await self._reload(quiet=True)

    @rx.event
    async def show(self) -> None:
        """The tab was opened again: the current page, fresh."""
        await self._reload(quiet=True)


def export_url(path: str, filters: dict[str, Any]) -> str:
    """The CSV export of a list with these filters (empty ones left out; true/false as the API reads them)."""
    query = {k: str(v).lower() if isinstance(v, bool) else v for k, v in filters.items() if v not in ("", None)}
    return f"{path}?{urlencode(query)}" if query else path
