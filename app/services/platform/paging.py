"""One way to search, sort and page a list in SQL, shared by the REST list routes and the staff panel.

No list is ever loaded whole: the database counts the matches and returns one page. Callers apply their own filters
(`query.where(...)`; `one_of` and `of_client` for the common status and client filters, refusing a value that is no
status or user id) and name the columns a search looks in and the sort orders they allow.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypedDict, TypeVar

from sqlalchemy import ColumnElement, func, or_
from sqlmodel import Session, select
from sqlmodel.sql.expression import Select, SelectOfScalar

from app.core.errors import Invalid
from app.services.platform.validation import page_window

T = TypeVar("T")
U = TypeVar("U")

PAGE_SIZE = 25
PAGE_SIZE_MAX = 100
SEARCH_MAX = 100  # characters of a search term that are used


class Ordering(TypedDict, total=False):
    """A list's search and named sort: what its page and its CSV export share (the keyword arguments of the export
    services, beside their own filters)."""

    search: str
    sort: str


class View(Ordering, total=False):
    """A list's search, sort and page: the keyword arguments of every list service, beside its own filters."""

    page: int
    page_size: int


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a list and where it sits in the whole."""

    data: list[T]
    total: int
    page: int
    page_size: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))

    def with_data(self, data: list[U]) -> Page[U]:
        """The same page carrying other rows (e.g. the rows enriched in one batch query)."""
        return Page(data=data, total=self.total, page=self.page, page_size=self.page_size)

    def as_json(self, dump: Callable[[T], Any] = lambda row: row) -> dict[str, Any]:
        """The REST shape: the spec's `{"data": [...]}` with the paging fields beside it."""
        return {
            "data": [dump(row) for row in self.data],
            "total": self.total,
            "page": self.page,
            "page_size": self.page_size,
            "pages": self.pages,
        }


def contains(term: str, *columns: Any) -> ColumnElement[bool] | None:
    """Case-insensitive "any of these columns contains the term", with LIKE's wildcards taken literally."""
    term = (term or "").strip()[:SEARCH_MAX].lower()
    if not term or not columns:
        return None
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    pattern = f"%{escaped}%"
    return or_(*(func.lower(func.coalesce(c, "")).like(pattern, escape="\\") for c in columns))


def one_of(query: Any, column: Any, value: str, choices: type[Enum], field: str = "status") -> Any:
    """`query` kept to the rows whose `column` is `value` (all of them when it is empty). A value not among
    `choices` is refused (422): the column's enum type would refuse even to compare with it."""
    if not value:
        return query
    if value not in choices.__members__:
        raise Invalid(f"Unknown {field}", errors={field: f"Unknown {field.replace('_', ' ')}"})
    return query.where(column == value)


def of_client(query: Any, column: Any, client_id: str) -> Any:
    """`query` kept to one client's rows (all of them when `client_id` is empty); text that is no user id is refused
    (422)."""
    if not client_id:
        return query
    try:
        client = uuid.UUID(str(client_id))
    except ValueError:
        raise Invalid("Unknown client", errors={"client_id": "Unknown client"}) from None
    return query.where(column == client)


def _searched(query: Any, search: str, search_in: Sequence[Any]) -> Any:
    where = contains(search, *search_in)
    return query if where is None else query.where(where)


def _sorted(query: Any, sort: str, sorts: Mapping[str, Sequence[Any]]) -> Any:
    """The named order (the first of `sorts` when unknown), replacing any the query had."""
    return query.order_by(None).order_by(*(sorts.get(sort) or next(iter(sorts.values()))))


EXPORT_BATCH = 500  # rows fetched from the database at a time while a whole list streams out


@dataclass(frozen=True)
class Listing(Generic[T]):
    """How one list is shown, searched and sorted: its row (`to`), its named orders (the first when none or an
    unknown one is asked for) and the columns its search looks in. A list's page and its CSV export share one, so
    they cannot drift apart."""

    to: Callable[[Any], T]
    sorts: Mapping[str, Sequence[Any]]
    search_in: Sequence[Any] = ()

    def page(
        self,
        s: Session,
        query: SelectOfScalar[Any] | Select[*tuple[Any, ...]],
        *,
        search: str = "",
        sort: str = "",
        page: int = 1,
        page_size: int = PAGE_SIZE,
    ) -> Page[T]:
        """The page `page` of `query` after the search and the named sort.

        Page and size are clamped (`validation.page_window`), so no offset can overflow; a page past the end is
        empty, which tells an API client iterating pages that it is done.
        """
        query = _searched(query, search, self.search_in)
        total = int(s.exec(select(func.count()).select_from(query.order_by(None).subquery())).one())
        number, size, offset = page_window(page, page_size, max_size=PAGE_SIZE_MAX)
        rows = s.exec(_sorted(query, sort, self.sorts).offset(offset).limit(size)).all()
        return Page(data=[self.to(row) for row in rows], total=total, page=number, page_size=size)

    def stream(
        self, s: Session, query: SelectOfScalar[Any] | Select[*tuple[Any, ...]], *, search: str = "", sort: str = ""
    ) -> Iterator[T]:
        """Every row `page` would page through with the same search and sort, in order, fetched in batches from a
        server-side cursor: a list of any length goes out without ever being held in memory whole (CSV exports)."""
        query = _sorted(_searched(query, search, self.search_in), sort, self.sorts)
        result = s.exec(query.execution_options(yield_per=EXPORT_BATCH))
        for row in result:
            yield self.to(row)
