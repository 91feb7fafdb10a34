"""The staff panel's one table: the current page of a paged list (app.ui.admin.paged), described column by column
(`Column`: the header and the cells from one declaration), with its pager as the footer."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.paged import PagedList
from app.ui.admin.widgets import CARD, TD, TD_TIGHT, TH, TH_TIGHT, empty_row, pagination

R = TypeVar("R")


@dataclasses.dataclass(frozen=True)
class Column(Generic[R]):
    """One column of a `data_table`: its header's label, what a row's cell shows (`cell`, given the row's typed var),
    where the column shows (`show`, the classes its header and cells share: "hidden md:table-cell", "text-right") and
    the cells' own classes ("whitespace-nowrap")."""

    label: str
    cell: Callable[[ObjectVar[R]], Any]
    show: str = ""
    classes: str = ""


def lead(title: Any, *notes: rx.Component, title_classes: str = "") -> rx.Component:
    """A row's first cell: its name, with `notes` beneath it."""
    return rx.fragment(rx.el.p(title, class_name=f"font-medium text-slate-900 {title_classes}".strip()), *notes)


def note(value: Any, classes: str = "") -> rx.Component:
    """A small line under a row's name: often a value whose own column a narrow screen hides (`classes` then hides
    the line where the column shows, e.g. "md:hidden")."""
    return rx.el.p(value, class_name=f"text-xs text-slate-500 {classes}".strip())


def data_table(
    state: type[PagedList],
    columns: Sequence[Column[Any]],
    *,
    row_test_id: str,
    empty: Any,
    actions: Callable[[ObjectVar[Any]], rx.Component] | None = None,
    tight: bool = False,
    test_id: str = "",
) -> rx.Component:
    """A card with the table of `state.rows` (the current page) and the pager under it.

    Each row is a cell per column (`row_test_id` names the kind for the tests); with `actions` a last column, headed
    "Actions" for screen readers only, holds each row's buttons. `tight` narrows the cell padding for wide tables
    (inquiries), so every column stays in view at 1280 px.
    """
    th, td = (TH_TIGHT, TD_TIGHT) if tight else (TH, TD)
    heads = [rx.el.th(c.label, class_name=f"{th} {c.show}".strip()) for c in columns]
    if actions is not None:
        heads.append(rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=th))

    def row(r: ObjectVar[Any]) -> rx.Component:
        cells = [rx.el.td(c.cell(r), class_name=" ".join(x for x in (td, c.show, c.classes) if x)) for c in columns]
        if actions is not None:
            cells.append(rx.el.td(actions(r), class_name=f"{td} text-right"))
        return rx.el.tr(*cells, class_name="border-t border-slate-100 hover:bg-slate-50/60", data_testid=row_test_id)

    s: Any = state  # its vars, read on the class, are Vars at run time (mypy sees the plain types)
    rows = s.rows  # every section's state declares its typed rows
    return rx.el.div(
        rx.el.div(
            rx.el.table(
                rx.el.thead(rx.el.tr(*heads), class_name="bg-slate-50"),
                rx.el.tbody(rx.cond(rows.length() > 0, rx.foreach(rows, row), empty_row(len(heads), empty))),
                class_name="min-w-full",
                data_testid=test_id or None,
            ),
            # relative: the header's screen-reader-only texts (absolutely placed) stay inside the scrolling box
            # instead of widening the page by a pixel or two on a phone.
            class_name="relative overflow-x-auto",
        ),
        pagination(s.page, s.pages, s.total, s.first_shown, s.last_shown, s.prev_page, s.next_page),
        class_name=f"{CARD} overflow-hidden",
    )
