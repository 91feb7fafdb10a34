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


# Below 640 px (a phone) the table draws each row as a card (ADR 0087): the rows, cells and header stay the same
# elements (one DOM: the tests' test ids and the screen reader's table are the table's), only their display changes.
# A card shows the columns the phone's table showed (those without "hidden"), each as "Label  value" from the column's
# own label (data-label), the first as the card's title, and the actions as a row of buttons along its bottom.
CARD_TABLE = "max-sm:block"
CARD_HEAD = "max-sm:hidden"
CARD_BODY = "max-sm:block"
CARD_ROW = "max-sm:block max-sm:px-4 max-sm:py-3"
CARD_TITLE = "max-sm:block max-sm:p-0 max-sm:pb-1"
CARD_FIELD = (
    "max-sm:flex max-sm:items-baseline max-sm:gap-3 max-sm:p-0 max-sm:py-1 max-sm:text-left"
    " max-sm:before:w-24 max-sm:before:shrink-0 max-sm:before:content-[attr(data-label)]"
    " max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:uppercase max-sm:before:text-slate-500"
)
# The actions renderer lines its buttons up at the row's end; on a card they start at the left and wrap.
CARD_ACTIONS = "max-sm:block max-sm:p-0 max-sm:pt-2 max-sm:text-left max-sm:[&>*]:justify-start"


def _shown_on_phones(c: Column[Any]) -> bool:
    """Whether the column shows on a phone: a column with "hidden" among its classes shows from a breakpoint up."""
    return "hidden" not in c.show.split()


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
    """A card with the table of `state.rows` (the current page) and the pager under it; on a phone each row is a
    card (ADR 0087).

    Each row is a cell per column (`row_test_id` names the kind for the tests); with `actions` a last column, headed
    "Actions" for screen readers only, holds each row's buttons (wrapping onto a second line when the row is tight).
    `tight` narrows the cell padding for wide tables (inquiries), so every column stays in view at 1280 px.
    """
    th, td = (TH_TIGHT, TD_TIGHT) if tight else (TH, TD)
    heads = [rx.el.th(c.label, class_name=f"{th} {c.show}".strip()) for c in columns]
    if actions is not None:
        heads.append(rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=th))

    def cell(r: ObjectVar[Any], i: int, c: Column[Any]) -> rx.Component:
        card = "" if not _shown_on_phones(c) else CARD_TITLE if i == 0 else CARD_FIELD
        # The value in a box of its own: on a card it is the one item beside the label, whatever the cell holds.
        return rx.el.td(
            rx.el.div(c.cell(r), class_name="min-w-0"),
            class_name=" ".join(x for x in (td, c.show, c.classes, card) if x),
            data_label=c.label,
        )

    def row(r: ObjectVar[Any]) -> rx.Component:
        cells = [cell(r, i, c) for i, c in enumerate(columns)]
        if actions is not None:
            # The buttons wrap onto a second line when the row is tight, rather than being pushed past the box.
            cells.append(rx.el.td(actions(r), class_name=f"{td} text-right [&>*]:flex-wrap {CARD_ACTIONS}"))
        return rx.el.tr(
            *cells,
            class_name=f"border-t border-slate-100 hover:bg-slate-50/60 {CARD_ROW}",
            data_testid=row_test_id,
        )

    s: Any = state  # its vars, read on the class, are Vars at run time (mypy sees the plain types)
    rows = s.rows  # every section's state declares its typed rows
    return rx.el.div(
        rx.el.div(
            rx.el.table(
                rx.el.thead(rx.el.tr(*heads), class_name=f"bg-slate-50 {CARD_HEAD}"),
                rx.el.tbody(
                    rx.cond(rows.length() > 0, rx.foreach(rows, row), empty_row(len(heads), empty)),
                    class_name=CARD_BODY,
                ),
                class_name=f"min-w-full {CARD_TABLE}",
                data_testid=test_id or None,
            ),
            # relative: the header's screen-reader-only texts (absolutely placed) stay inside the scrolling box
            # instead of widening the page by a pixel or two on a phone.
            class_name="relative overflow-x-auto",
        ),
        pagination(s.page, s.pages, s.total, s.first_shown, s.last_shown, s.prev_page, s.next_page),
        class_name=f"{CARD} overflow-hidden",
    )
