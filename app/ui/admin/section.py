"""The staff panel's one list page: header (title, count, create button), toolbar (search, filters, Export CSV), the
list or the spec's error panel with Try Again, and the section's dialogs.

Every paged section (users, clients, inquiries, billing, meetings, meeting types, applications, the product
catalogue, and the tabs of Content Management) is built with `section_page`; only what differs is passed in: the
filters, the table (`app.ui.admin.tables.data_table` or a grid of cards) and the dialogs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import reflex as rx

from app.ui.admin.common import error_panel, loading_text, search_input
from app.ui.admin.paged import PagedList
from app.ui.admin.widgets import export_link, page_header, select


def filter_select(
    options: list[tuple[str, str]], value: Any, on_change: Any, label: str, width: str = "sm:w-44", **props: Any
) -> rx.Component:
    """One of a toolbar's selects (a filter or the sort), full width on phones."""
    return rx.el.div(
        select(options, value=value, on_change=on_change, aria_label=label, **props),
        class_name=f"w-full {width} sm:shrink-0",
    )


def section_page(
    state: type[PagedList],
    list_view: rx.Component,
    *,
    search: str,
    search_id: str = "",
    title: Any = None,
    subtitle: Any = None,
    create: Sequence[rx.Component] = (),
    filters: Sequence[rx.Component] = (),
    export: Any = None,
    dialogs: Sequence[rx.Component] = (),
) -> rx.Component:
    """A paged section: `list_view` shows the current page; `create` are the buttons for writers (in the header, or at
    the toolbar's end for a tab without a title); `export` is the CSV link's URL var. The loading and error texts name
    the list as the state's `listing` does."""
    s: Any = state
    plural = state.listing.plural
    toolbar = rx.el.div(
        # The search takes the room the filters leave, up to its own maximum; the filters keep their widths.
        rx.el.div(
            search_input(s.search, s.set_search, search, search_id),
            class_name="w-full sm:w-auto sm:min-w-[12rem] sm:max-w-xs sm:flex-1",
        ),
        *filters,
        export_link(export) if export is not None else rx.fragment(),
        *(create if title is None else ()),
        class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center"
        + (" sm:justify-between" if title is None and not filters else ""),
    )
    body = rx.cond(
        s.load_error != "",
        error_panel(f"Failed to load {plural}", s.load_error, s.retry),
        rx.cond(s.loaded, list_view, loading_text(f"Loading {plural}…")),
    )
    header = page_header(title, subtitle, *create) if title is not None else rx.fragment()
    return rx.el.div(header, toolbar, body, *dialogs)
