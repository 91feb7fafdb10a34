"""The staff panel's one way to show a list: a page of rows at a time, searched, filtered and sorted in SQL.

A section's state mixes in `PagedList`, keeps its own filter vars and declares what it lists, once, as its `listing`
(the permission that reads the list, its service's list function, which pages through
`platform.paging.paginate`, and the typed row of one DTO), with its own filters (`_filters`). `_reload` does the
rest the same way everywhere: check the actor, fetch the page, show it or the error. No state ever holds more than
one page, so a table of 20,000 invoices costs the browser what 25 rows cost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Generic, TypeVar
from urllib.parse import urlencode

import reflex as rx

from app.models.user import UserPublic
from app.services.platform.paging import PAGE_SIZE, SEARCH_MAX, Page
from app.ui.admin.common import row_id
from app.ui.admin.state import AdminState, as_actor, error_text
from app.ui.rows import Row

T = TypeVar("T")
R = TypeVar("R")  # a list's row: a `Row`, but for the accounts' (their ids are UUIDs, see AccountRow)
K = TypeVar("K", bound=Row)  # a row the browser names by its numeric id (see `_shown_row`)
# The filters a link may set: a query parameter -> (the filter var, the rule that keeps only a value it offers).
LinkFilters = dict[str, tuple[str, Callable[[str], str]]]


@dataclasses.dataclass(frozen=True)
class SectionListing(Generic[R]):
    """What a section lists: the permission that reads it, the section's name for the refusal toast, the service's list
    function (`fn(session, *, actor, page, page_size, search, sort, **filters)`), the typed row of one of its DTOs,
    the list's name in its loading and error texts ("invoices"), the entity's name in the toasts the kit words
    ("organization"), and the load error's text where it is not the usual one."""

    perm: str
    feature: str
    lister: Callable[..., Page[Any]]
    row: Callable[[Any], R]
    plural: str
    noun: str = ""
    failed: str = ""

    @property
    def load_failed(self) -> str:
        return self.failed or f"There was an error loading the {self.plural}."


class PagedList(AdminState, Generic[R], mixin=True):
    """Paging, search and sort vars and their events over rows of type R; the section supplies `rows` (its `list[R]`:
    Reflex cannot type a var declared here with R), its `listing` and `_filters`."""

    listing: ClassVar[SectionListing[Any]]
    # The filters a link may set: the dashboard's "needs doing" opens lists filtered (`?status=new`).
    link_filters: ClassVar[LinkFilters] = {}

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

    def close_dialogs(self) -> None:
        """Close the section's dialogs (`Dialogs` does; a tab's are closed by the tab switch, see PagedTab)."""
        raise NotImplementedError

    def _filters(self) -> dict[str, Any]:
        """The section's own filters, as the list function's keyword arguments."""
        return {}

    def _lister(self) -> Callable[..., Page[Any]]:
        return self.listing.lister

    def _take(self, data: list[Any]) -> None:
        """Keep a page's DTOs as the typed rows (an empty list when there is nothing to show)."""
        section: Any = self  # every section declares its typed `rows`
        section.rows = [self.listing.row(x) for x in data]

    def _shown_row(self: PagedList[K], value: Any) -> K | None:
        """The row `value` (an id as the browser sent it) of the page shown, or None: a row's dialog opens only for a
        row on it, and starts from what the row shows."""
        key = row_id(value)
        rows: list[K] = self.get_value("rows")
        return next((r for r in rows if key and r.id == key), None)

    async def _page(self, actor: UserPublic, page: int) -> Page[Any]:
        """Page `page` of the list as the section's filters stand now (read here, on the event loop)."""
        lister, size = self._lister(), self.page_size
        query = {"search": self.search, "sort": self.sort, **self._filters()}
        return await as_actor(actor, lambda s, a: lister(s, actor=a, page=page, page_size=size, **query))

    # --- the one reload ------------------------------------------------------------------------------------------

    async def _reload(self, *, quiet: bool = False) -> None:
        """Fetch the current page for the signed-in user (`quiet` on page loads: the guard already said why not)."""
        actor = await self._actor(self.listing.perm, self.listing.feature, quiet=quiet)
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
            self._clear(error_text(exc, self.listing.load_failed))
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

    def _from_link(self) -> None:
        """Take the filters the page's address names, each through its section's rule (others are left as they are)."""
        query = self.router.url.query_parameters
        for name, (var, rule) in self.link_filters.items():
            if name in query:
                setattr(self, var, rule(str(query[name])[:40]))

    def _clear(self, error: str = "") -> None:
        self.total, self.page, self.pages = 0, 1, 1
        self.load_error = error

    @rx.event
    async def load(self) -> None:
        """The page's loader: the first page, with no dialog open, filtered as the address says."""
        self.page = 1
        self.close_dialogs()
        self._from_link()
        await self._reload(quiet=True)

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


class PagedTab(PagedList[R], mixin=True):
    """A list shown as a tab of Content Management: the page's loader starts at the first page, opening the tab again
    fetches the page shown, and the tab switch closes the tab's dialogs (see ContentState._loader)."""

    @rx.event
    async def load(self) -> None:
        """The page's loader: the first page. The tab switch itself closes the dialogs, in its own event: a loader
        that closed them would run after the switch returned and could close a dialog the user opened in between."""
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
