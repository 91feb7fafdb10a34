"""Small building blocks shared by the admin sections: buttons, badges, fields, cards, dialogs, pagination."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.number import NumberVar

from app.ui.styles import COMPACT_DANGER, COMPACT_PRIMARY, COMPACT_SECONDARY

BTN_PRIMARY = COMPACT_PRIMARY
BTN_SECONDARY = COMPACT_SECONDARY
BTN_DANGER = COMPACT_DANGER
ICON_BTN = (
    "inline-flex h-8 w-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 "
    "hover:text-slate-900 cursor-pointer focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
)
INPUT = (
    "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm "
    "placeholder:text-slate-400 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/30 "
    "disabled:bg-slate-100 disabled:text-slate-500"
)
CARD = "rounded-xl border border-slate-200 bg-white shadow-sm"
TH = "px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 whitespace-nowrap"
TD = "px-4 py-3 align-top text-sm text-slate-700"
# For wide tables (inquiries): narrower cell padding keeps every column in view at 1280 px.
TH_TIGHT = TH.replace("px-4", "px-3")
TD_TIGHT = TD.replace("px-4", "px-3")

BADGE_COLORS = {
    "grey": "bg-slate-100 text-slate-700 ring-slate-200",
    "blue": "bg-blue-50 text-blue-700 ring-blue-200",
    "green": "bg-emerald-50 text-emerald-700 ring-emerald-200",
    "yellow": "bg-amber-50 text-amber-800 ring-amber-200",
    "orange": "bg-orange-50 text-orange-700 ring-orange-200",
    "red": "bg-red-50 text-red-700 ring-red-200",
    "purple": "bg-violet-50 text-violet-700 ring-violet-200",
}
BADGE = "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset whitespace-nowrap"


def badge(text: Any, color: str = "grey", **props: Any) -> rx.Component:
    return rx.el.span(text, class_name=f"{BADGE} {BADGE_COLORS[color]}", **props)


def badge_by(value: rx.Var | str, colors: dict[str, str], text: Any = None, **props: Any) -> rx.Component:
    """A badge coloured by the value it shows (unknown values grey)."""
    classes = rx.match(
        value,
        *[(key, f"{BADGE} {BADGE_COLORS[color]}") for key, color in colors.items()],
        f"{BADGE} {BADGE_COLORS['grey']}",
    )
    return rx.el.span(text if text is not None else value, class_name=classes, **props)


def choice_badge(choice: Any, colors: dict[str, str], **props: Any) -> rx.Component:
    """A row's `Choice` (app.ui.rows) as a badge: its label, coloured by its value."""
    return badge_by(choice.value, colors, choice.label, **props)


def page_header(title: Any, subtitle: Any = None, *actions: rx.Component) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h1(title, class_name="text-2xl font-bold tracking-tight text-slate-900"),
            rx.el.p(subtitle, class_name="mt-1 text-sm text-slate-500") if subtitle is not None else rx.fragment(),
            class_name="min-w-0",
        ),
        rx.el.div(*actions, class_name="flex flex-wrap gap-2") if actions else rx.fragment(),
        class_name="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between",
    )


def allowed_button(
    allowed: Any, icon: str, label: Any, on_click: Any, *, primary: bool = True, test_id: str | None = None
) -> rx.Component:
    """A section's action button (create, add) for those `allowed` to use it; nothing for the others. Hiding it is
    only courtesy: the handler it calls checks the permission again."""
    props = {"data_testid": test_id} if test_id else {}
    button = rx.el.button(
        rx.icon(icon, size=16),
        label,
        on_click=on_click,
        class_name=BTN_PRIMARY if primary else BTN_SECONDARY,
        **props,
    )
    return rx.cond(allowed, button, rx.fragment())


def icon_button(icon: str, title: Any, label: Any, on_click: Any, *, extra: str = "", **props: Any) -> rx.Component:
    """A row's icon-only action: `title` is its tooltip, `label` its accessible name; `extra` adds classes."""
    return rx.el.button(
        rx.icon(icon, size=16),
        on_click=on_click,
        title=title,
        aria_label=label,
        class_name=f"{ICON_BTN} {extra}" if extra else ICON_BTN,
        **props,
    )


def export_link(href: Any) -> rx.Component:
    """ "Export CSV": the whole list with its current filters, as a file download (the browser sends the session
    cookie; the export route checks the list's permission again)."""
    return rx.el.button(
        rx.icon("download", size=16),
        "Export CSV",
        type="button",
        on_click=rx.download(url=href),
        class_name=f"{BTN_SECONDARY} shrink-0",
        data_testid="export-csv",
    )


def external_link(*children: Any, href: Any, class_name: str) -> rx.Component:
    """A link to another site (a client's website, a meeting's room): a new tab that gets no handle on this one."""
    return rx.el.a(*children, href=href, target="_blank", rel="noopener noreferrer", class_name=class_name)


def field(
    label: str,
    control: rx.Component,
    error: rx.Var | str | None = None,
    hint: str | rx.Component | None = None,
    required: bool = False,
) -> rx.Component:
    return rx.el.label(
        rx.el.span(
            label,
            rx.el.span(" *", class_name="text-red-600") if required else rx.fragment(),
            class_name="mb-1 block text-sm font-medium text-slate-700",
        ),
        control,
        rx.el.span(hint, class_name="mt-1 block text-xs text-slate-500") if hint else rx.fragment(),
        rx.cond(error, rx.el.span(error, class_name="mt-1 block text-xs text-red-600", role="alert"), rx.fragment())
        if error is not None
        else rx.fragment(),
        class_name="block",
    )


def text_input(name: str, **props: Any) -> rx.Component:
    props.setdefault("type", "text")
    return rx.el.input(name=name, id=props.pop("id", f"field-{name}"), class_name=INPUT, **props)


def select(options: list[tuple[str, str]], **props: Any) -> rx.Component:
    return rx.el.select(
        *[rx.el.option(label, value=value) for value, label in options],
        class_name=f"{INPUT} pr-8",
        **props,
    )


def alert(title: Any, message: Any) -> rx.Component:
    return rx.el.div(
        rx.icon("circle-alert", size=18, class_name="mt-0.5 shrink-0"),
        rx.el.div(
            rx.el.p(title, class_name="font-semibold"),
            rx.el.p(message, class_name="text-sm"),
        ),
        role="alert",
        class_name="flex gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800",
    )


def dialog(
    title: Any,
    description: Any,
    body: rx.Component,
    *,
    open: rx.Var,
    on_open_change: Any,
    max_width: str = "32rem",
) -> rx.Component:
    """A controlled Radix dialog with a title and description (required by Radix, else it logs console errors)."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(title, class_name="text-lg font-semibold text-slate-900"),
            rx.dialog.description(description, class_name="mb-4 text-sm text-slate-500"),
            body,
            max_width=max_width,
            class_name="!p-5 sm:!p-6",
        ),
        open=open,
        on_open_change=on_open_change,
    )


def dialog_actions(*children: rx.Component) -> rx.Component:
    return rx.el.div(*children, class_name="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end")


def busy_button(label: Any, busy: rx.Var, *, icon: str = "", danger: bool = False, **props: Any) -> rx.Component:
    """A primary (or `danger`) button that spins while `busy` and cannot be pressed twice; `icon` shows when idle."""
    return rx.el.button(
        rx.cond(
            busy,
            rx.icon("loader-circle", size=16, class_name="animate-spin"),
            rx.icon(icon, size=16) if icon else rx.fragment(),
        ),
        label,
        disabled=busy,
        class_name=BTN_DANGER if danger else BTN_PRIMARY,
        **props,
    )


def submit_actions(
    on_cancel: Any,
    busy: rx.Var,
    label: Any = "Save",
    *,
    danger: bool = False,
    test_id: str | None = None,
    cancel: str = "Cancel",
) -> rx.Component:
    """A form dialog's Cancel and submit buttons; while `busy` the submit button spins and cannot be pressed twice."""
    return dialog_actions(
        rx.el.button(cancel, type="button", on_click=on_cancel, class_name=BTN_SECONDARY),
        busy_button(label, busy, danger=danger, type="submit", data_testid=test_id),
    )


def spinner(text: str = "Loading…") -> rx.Component:
    return rx.el.div(
        rx.icon("loader-circle", size=20, class_name="animate-spin"),
        rx.el.span(text),
        class_name="flex items-center justify-center gap-2 py-16 text-sm text-slate-500",
        role="status",
    )


def pagination(
    page: NumberVar, page_count: NumberVar, total: NumberVar, first: rx.Var, last: rx.Var, prev: Any, nxt: Any
):
    return rx.el.div(
        rx.el.p(
            rx.cond(total > 0, rx.el.span("Showing ", first, "\u2013", last, " of ", total), rx.el.span("No results")),
            class_name="text-sm text-slate-500",
        ),
        rx.el.div(
            rx.el.button(
                rx.icon("chevron-left", size=16),
                "Previous",
                on_click=prev,
                disabled=page <= 1,
                class_name=BTN_SECONDARY,
                aria_label="Previous page",
            ),
            rx.el.span("Page ", page, " of ", page_count, class_name="text-sm text-slate-600 whitespace-nowrap"),
            rx.el.button(
                "Next",
                rx.icon("chevron-right", size=16),
                on_click=nxt,
                disabled=page >= page_count,
                class_name=BTN_SECONDARY,
                aria_label="Next page",
            ),
            class_name="flex items-center gap-2",
        ),
        class_name="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row sm:items-center "
        "sm:justify-between",
    )


def empty_row(colspan: int, text: str) -> rx.Component:
    return rx.el.tr(
        rx.el.td(text, col_span=colspan, class_name="px-4 py-12 text-center text-sm text-slate-500"),
    )
