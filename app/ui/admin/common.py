"""Helpers shared by the business sections (content, billing, meetings, applications, analytics, products)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.core.db import MAX_ID
from app.core.permissions import has_perm
from app.models.user import UserPublic
from app.services.accounts import admin_users
from app.services.accounts.admin_users import ClientChoice
from app.ui.admin.state import as_actor
from app.ui.admin.widgets import BTN_DANGER, BTN_SECONDARY, CARD, ICON_BTN, INPUT, alert, dialog, dialog_actions
from app.ui.format import usd as dollars  # noqa: F401  (the sections' name for it)

SEARCH_INPUT = (
    "block w-full rounded-lg border border-slate-300 bg-white py-2 pl-9 pr-3 text-sm placeholder:text-slate-400 "
    "focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/30"
)
TEXTAREA = f"{INPUT} resize-y"
# For inputs sized by their row (milestones, invoice lines): the shared INPUT is full width.
INPUT_INLINE = INPUT.replace("block w-full ", "block ")


def option(o: Any) -> rx.Component:
    """An option of a select built from state: a `Choice` (app.ui.rows), the value it sends and the text it shows."""
    return rx.el.option(o.label, value=o.value)


def option_select(options: Any, blank: str | None, **props: Any) -> rx.Component:
    """A select of state `Choice`s, after a `blank` first choice (the empty value) unless it is None."""
    first = [rx.el.option(blank, value="")] if blank is not None else []
    return rx.el.select(*first, rx.foreach(options, option), class_name=f"{INPUT} pr-8", **props)


def text_area(name: str, **props: Any) -> rx.Component:
    """A form's multi-line text box (the textarea twin of widgets.text_input)."""
    return rx.el.textarea(name=name, class_name=TEXTAREA, **props)


def wide(child: rx.Component) -> rx.Component:
    """A field that spans both columns of a form's two-column grid."""
    return rx.el.div(child, class_name="sm:col-span-2")


def row_id(value: Any) -> int:
    """A row id sent by the browser (any payload can arrive), or 0 when it is not one: not a whole number, or outside
    the ids a row can have (MAX_ID: a larger number would fail in the database rather than be not found)."""
    try:
        number = int(str(value))
    except ValueError:
        return 0
    return number if 0 < number <= MAX_ID else 0


def row_index(value: Any, rows: list[Any]) -> int:
    """A row position sent by the browser (a row editor's event): its index in `rows`, or -1 when it names none."""
    try:
        index = int(str(value))
    except ValueError:
        return -1
    return index if 0 <= index < len(rows) else -1


def without_row(rows: list[Any], value: Any) -> list[Any]:
    """`rows` less the one at the position the browser sent (all of them when it names none)."""
    index = row_index(value, rows)
    return [row for n, row in enumerate(rows) if n != index]


def row_input(value: Any, label: str, on_change: Any, width: str, **props: Any) -> rx.Component:
    """An input of a row editor (an invoice's lines, a project's milestones), sized by `width`, named by `label` for
    screen readers: the row has no label of its own."""
    return rx.el.input(
        default_value=value, aria_label=label, on_change=on_change, class_name=f"{INPUT_INLINE} {width}", **props
    )


def row_button(icon: str, label: str, on_click: Any) -> rx.Component:
    """A row editor's icon button (move a row, remove it)."""
    return rx.el.button(rx.icon(icon, size=14), type="button", on_click=on_click, aria_label=label, class_name=ICON_BTN)


def add_row_button(label: str, on_click: Any, **props: Any) -> rx.Component:
    """The button under a row editor that adds a row."""
    return rx.el.button(
        rx.icon("plus", size=14), label, type="button", on_click=on_click, class_name=f"{BTN_SECONDARY} mt-2", **props
    )


def holds(user: UserPublic | None, perm: str) -> bool:
    return user is not None and has_perm(user.effective_permissions, perm)


async def load_clients(actor: Any, *, search: str = "", limit: int) -> list[ClientChoice]:
    """The client picker's choices (those matching `search`, at most `limit`, which is mandatory: no state holds every
    client); empty when the actor may not see them (the server decides anyway)."""
    try:
        return await as_actor(actor, lambda s, a: admin_users.client_choices(s, actor=a, search=search, limit=limit))
    except Exception:
        return []


def form_text(form: dict[str, Any], key: str, limit: int = 10000) -> str:
    return str(form.get(key) or "").strip()[:limit]


def search_input(value: rx.Var, on_change: Any, placeholder: str, test_id: str = "") -> rx.Component:
    return rx.el.div(
        rx.icon(
            "search", size=16, class_name="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-slate-400"
        ),
        rx.el.input(
            type="search",
            placeholder=placeholder,
            default_value=value,
            on_change=on_change.debounce(250),
            aria_label=placeholder.rstrip("…"),
            class_name=SEARCH_INPUT,
            data_testid=test_id or None,
        ),
        class_name="relative w-full sm:max-w-xs",
    )


def error_panel(title: str, text: str, retry: Any) -> rx.Component:
    """The spec's list error panel with Try Again."""
    return rx.el.div(
        rx.icon("circle-alert", size=28, class_name="text-red-500"),
        rx.el.p(title, class_name="font-semibold text-slate-900"),
        rx.el.p(text, class_name="text-sm text-slate-600"),
        rx.el.button(rx.icon("refresh-cw", size=16), "Try Again", on_click=retry, class_name=BTN_SECONDARY),
        role="alert",
        class_name=f"{CARD} flex flex-col items-center gap-2 p-8 text-center",
    )


def empty_panel(text: Any) -> rx.Component:
    return rx.el.div(text, class_name=f"{CARD} px-4 py-12 text-center text-sm text-slate-500", data_testid="empty")


def loading_text(text: str) -> rx.Component:
    return rx.el.div(
        rx.icon("loader-circle", size=18, class_name="animate-spin"),
        text,
        role="status",
        class_name="flex items-center justify-center gap-2 py-12 text-sm text-slate-500",
    )


def confirm_dialog(
    title: str, text: Any, *, open: rx.Var, on_open_change: Any, on_confirm: Any, busy: rx.Var, label: str = "Delete"
) -> rx.Component:
    body = dialog_actions(
        rx.el.button("Cancel", type="button", on_click=on_open_change(False), class_name=BTN_SECONDARY),
        rx.el.button(label, type="button", on_click=on_confirm, disabled=busy, class_name=BTN_DANGER),
    )
    return dialog(title, text, body, open=open, on_open_change=on_open_change)


def form_alert(title: str, message: rx.Var) -> rx.Component:
    return rx.cond(message != "", rx.el.div(alert(title, message), class_name="mb-2"), rx.fragment())


def info(label: str, value: Any, test_id: str = "") -> rx.Component:
    return rx.el.div(
        rx.el.dt(label, class_name="text-xs font-medium uppercase tracking-wide text-slate-500"),
        rx.el.dd(value, class_name="mt-0.5 break-words text-sm text-slate-900", data_testid=test_id or None),
    )
