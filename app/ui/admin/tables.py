"""The staff panel's one table: the current page of a paged list (app.ui.admin.paged), with its pager as the footer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.paged import PagedList
from app.ui.admin.widgets import CARD, TD, TH, TH_TIGHT, empty_row, pagination


def table_row(*cells: rx.Component, test_id: str) -> rx.Component:
    """One row of a `data_table`, as every section's rows look (`test_id` names the kind for the tests)."""
    return rx.el.tr(*cells, class_name="border-t border-slate-100 hover:bg-slate-50/60", data_testid=test_id)


def note(value: Any, classes: str = "") -> rx.Component:
    """A small line under a row's name: often a value whose own column a narrow screen hides (`classes` then hides
    the line where the column shows, e.g. "md:hidden")."""
    return rx.el.p(value, class_name=f"text-xs text-slate-500 {classes}".strip())


def lead_cell(title: Any, *notes: rx.Component, title_classes: str = "", cell: str = TD) -> rx.Component:
    """A row's first cell: its name, with `notes` beneath it."""
    return rx.el.td(
        rx.el.p(title, class_name=f"font-medium text-slate-900 {title_classes}".strip()), *notes, class_name=cell
    )


def data_table(
    state: type[PagedList],
    headers: list[tuple[str, str]],
    row: Callable[[ObjectVar[Any]], rx.Component],  # a row's typed var, as rx.foreach hands it over
    *,
    empty: Any,
    actions: bool = True,
    tight: bool = False,
    test_id: str = "",
) -> rx.Component:
    """A card with the table of `state.rows` (the current page) and the pager under it.

    `headers` are (label, extra classes) pairs, e.g. ("Client", "hidden md:table-cell"); `row` renders one row; with
    `actions` a last, screen-reader-only "Actions" column holds each row's buttons. `tight` narrows the cell padding
    for wide tables (inquiries), so every column stays in view at 1280 px.
    """
    th = TH_TIGHT if tight else TH
    cells = [rx.el.th(label, class_name=f"{th} {extra}".strip()) for label, extra in headers]
    if actions:
        cells.append(rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=th))
    s: Any = state  # its vars, read on the class, are Vars at run time (mypy sees the plain types)
    rows = s.rows  # every section's state declares its typed rows
    return rx.el.div(
        rx.el.div(
            rx.el.table(
                rx.el.thead(rx.el.tr(*cells), class_name="bg-slate-50"),
                rx.el.tbody(rx.cond(rows.length() > 0, rx.foreach(rows, row), empty_row(len(cells), empty))),
                class_name="min-w-full",
                data_testid=test_id or None,
            ),
            class_name="overflow-x-auto",
        ),
        pagination(s.page, s.pages, s.total, s.first_shown, s.last_shown, s.prev_page, s.next_page),
        class_name=f"{CARD} overflow-hidden",
    )
