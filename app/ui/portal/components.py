"""Small building blocks shared by the portal's tabs: cards, badges, skeletons, messages, buttons, local dates."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars.function import FunctionStringVar, ReflexCallable

from app.ui.styles import COMPACT_DANGER, COMPACT_DANGER_OUTLINE, COMPACT_PRIMARY, COMPACT_SECONDARY

SKELETON_COUNT = 3  # spec section 9
RECORD_BARS = ("h-5 w-1/3", "h-3 w-full", "h-3 w-2/3")  # a record card's placeholder: its title and two lines

# Timestamps are shown in the visitor's time zone, so the browser formats them (compiled JS, no eval).
_LOCAL_DATE: FunctionStringVar[ReflexCallable[[Any], str]] = FunctionStringVar.create(
    "((v) => v ? new Date(v).toLocaleDateString('en-US', {year: 'numeric', month: 'long', day: 'numeric'}) : '')"
)
_LOCAL_DATE_TIME: FunctionStringVar[ReflexCallable[[Any], str]] = FunctionStringVar.create(
    "((v) => v ? new Date(v).toLocaleString('en-US', {weekday: 'long', year: 'numeric', month: 'long', "
    "day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short'}) : '')"
)


def local_date(iso: Any) -> rx.Var:
    """A timestamp as an en-US long date in the visitor's time zone, e.g. 'March 5, 2026'."""
    return _LOCAL_DATE.call(iso).to(str)


def local_date_time(iso: Any) -> rx.Var:
    """A timestamp as date and time in the visitor's time zone."""
    return _LOCAL_DATE_TIME.call(iso).to(str)


def card(*children: rx.Component, class_name: str = "", **props: Any) -> rx.Component:
    return rx.el.div(
        *children,
        class_name=f"rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 {class_name}",
        **props,
    )


def status_badge(status: Any) -> rx.Component:
    """A record's status (its `Badge`) as a coloured pill."""
    # High contrast: the soft variant's default text colours (yellow, green) fall below WCAG AA on their tint.
    return rx.badge(
        status.label,
        color_scheme=status.color,
        variant="soft",
        high_contrast=True,
        radius="full",
        size="2",
        class_name="capitalize",
    )


def card_header(*title: rx.Component, status: Any, class_name: str = "min-w-0") -> rx.Component:
    """A record card's top: its title (and the lines under it, in a box of `class_name`) beside its status badge."""
    return rx.el.div(
        rx.el.div(*title, class_name=class_name),
        status_badge(status),
        class_name="flex items-start justify-between gap-3",
    )


def skeleton_cards(
    bars: tuple[str, ...] = RECORD_BARS, *, class_name: str = "flex flex-col gap-4", label: str | None = "Loading"
) -> rx.Component:
    """Placeholder cards while records load, each with grey bars of the sizes `bars` names."""
    return rx.el.div(
        *[
            card(
                *[rx.skeleton(rx.el.div(class_name=bar), loading=True) for bar in bars],
                class_name="flex flex-col gap-3",
                data_testid="skeleton-card",
            )
            for _ in range(SKELETON_COUNT)
        ],
        class_name=class_name,
        aria_busy="true",
        aria_label=label,
    )


def loaded(loading: Any, error: Any, content: rx.Component) -> rx.Component:
    """A tab's records: skeleton cards until they have loaded, then the load's error or `content`."""
    return rx.cond(loading, skeleton_cards(), rx.cond(error != "", error_text(error), content))


def cards_or_empty(records: Any, card: Any, empty: rx.Component) -> rx.Component:
    """A card per record, or `empty` when there are none."""
    return rx.cond(
        records.length() > 0,
        rx.el.div(rx.foreach(records, card), class_name="flex flex-col gap-4"),
        empty,
    )


def empty_state(text: str, *extra: rx.Component, icon: str = "inbox") -> rx.Component:
    return card(
        rx.icon(icon, size=32, class_name="text-slate-400"),
        rx.el.p(text, class_name="text-slate-600"),
        *extra,
        class_name="flex flex-col items-center gap-3 py-10 text-center",
    )


def _message(message: Any, icon: str, role: str, background: str, text: str) -> rx.Component:
    """A line with an icon, shown when `message` is non-empty."""
    return rx.cond(
        message != "",
        rx.el.p(
            rx.icon(icon, size=16, class_name="mt-0.5 shrink-0"),
            rx.el.span(message),
            role=role,
            class_name=f"flex items-start gap-2 rounded-md {background} px-3 py-2 text-sm {text}",
        ),
    )


def error_text(message: Any) -> rx.Component:
    """A red message when `message` is non-empty."""
    return _message(message, "circle-alert", "alert", "bg-red-50", "text-red-700")


def success_text(message: Any) -> rx.Component:
    return _message(message, "circle-check", "status", "bg-green-50", "text-green-800")


def field_error(message: Any) -> rx.Component:
    return rx.cond(message != "", rx.el.p(message, class_name="text-sm text-red-600"))


BUTTON_PRIMARY = COMPACT_PRIMARY
BUTTON_SECONDARY = COMPACT_SECONDARY
BUTTON_DANGER = COMPACT_DANGER_OUTLINE
BUTTON_DANGER_SOLID = COMPACT_DANGER


def text_input(
    label: str,
    value: Any = None,
    on_change: Any = None,
    *,
    error: Any = "",
    name: str,
    type_: str = "text",
    **props: Any,
) -> rx.Component:
    """A labelled input with its error underneath. Without `value` it is uncontrolled: what is typed (a password)
    goes to the server only with its form's submit."""
    input_id = f"portal-{name}"
    bound = {} if value is None else {"value": value, "on_change": on_change}
    return rx.el.div(
        rx.el.label(label, html_for=input_id, class_name="text-sm font-medium text-slate-700"),
        rx.el.input(
            id=input_id,
            name=name,
            type=type_,
            **bound,
            class_name=rx.cond(
                error != "",
                "w-full rounded-md border border-red-500 px-3 py-2 text-sm focus:outline-none focus:ring-2 "
                "focus:ring-red-200",
                "w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-blue-500 "
                "focus:outline-none focus:ring-2 focus:ring-blue-200",
            ),
            **props,
        ),
        field_error(error),
        class_name="flex flex-col gap-1",
    )


def submit_button(label: str, busy_label: str, busy: Any, *, disabled: Any = None) -> rx.Component:
    """A form's submit button that says it is working (and cannot be pressed again) while `busy`."""
    return rx.el.button(
        rx.cond(busy, busy_label, label),
        type="submit",
        disabled=busy if disabled is None else disabled,
        class_name=BUTTON_PRIMARY,
    )


def tab_form(
    fields: rx.Component,
    error: Any,
    actions: rx.Component,
    *,
    on_submit: Any,
    class_name: str = "flex flex-col gap-4",
    **props: Any,
) -> rx.Component:
    """A tab's form: its fields, the save's error under them, then its buttons (`actions`)."""
    return rx.el.form(fields, error_text(error), actions, on_submit=on_submit, class_name=class_name, **props)


def labelled(label: str, value: Any) -> rx.Component:
    """A read-only label/value pair."""
    return rx.el.div(
        rx.el.dt(label, class_name="text-xs font-medium uppercase tracking-wide text-slate-500"),
        rx.el.dd(value, class_name="mt-1 break-words text-slate-900"),
    )


def fact(label: str, value: Any, value_class: str = "text-sm text-slate-800") -> rx.Component:
    """One of a record card's figures: a small label over its value ("Due", "Total")."""
    return rx.el.div(
        rx.el.span(label, class_name="block text-xs uppercase tracking-wide text-slate-500"),
        rx.el.span(value, class_name=value_class),
    )


def section_title(text: str, *extra: rx.Component) -> rx.Component:
    return rx.el.div(
        rx.el.h2(text, class_name="text-xl font-semibold text-slate-900"),
        *extra,
        class_name="flex flex-wrap items-center justify-between gap-3",
    )


def tab_section(title: str, *children: rx.Component, **props: Any) -> rx.Component:
    """A tab's content under its title."""
    return rx.el.section(section_title(title), *children, class_name="flex flex-col gap-4", **props)


def titled_card(title: str, text: str, *children: rx.Component) -> rx.Component:
    """A card that opens with its own small heading and a line saying what it is for."""
    return card(
        rx.el.div(
            rx.el.h3(title, class_name="text-lg font-semibold text-slate-900"),
            rx.el.p(text, class_name="text-sm text-slate-600"),
        ),
        *children,
        class_name="flex flex-col gap-4",
    )


def confirm_dialog(
    *,
    title: str,
    description: Any,
    error: Any,
    busy: Any,
    keep: str,
    confirm: str,
    on_confirm: Any,
    is_open: Any,
    on_open_change: Any,
) -> rx.Component:
    """The portal's "are you sure" for an action that cannot be undone (cancelling a meeting or a project): the
    service's refusal shows inside it, and the confirm button says it is working while the call runs."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(title),
            rx.alert_dialog.description(description),
            rx.el.div(error_text(error), class_name="mt-3"),
            rx.el.div(
                rx.alert_dialog.cancel(rx.el.button(keep, type="button", class_name=BUTTON_SECONDARY)),
                rx.el.button(
                    rx.cond(busy, "Cancelling...", confirm),
                    type="button",
                    disabled=busy,
                    on_click=on_confirm,
                    class_name=BUTTON_DANGER_SOLID,
                ),
                class_name="mt-4 flex flex-wrap justify-end gap-3",
            ),
        ),
        open=is_open,
        on_open_change=on_open_change,
    )


def icon_text(icon: str, *children: Any, **props: Any) -> rx.Component:
    """A small icon before a short text: a fact in a line of facts (a date, a duration, a company)."""
    return rx.el.span(
        rx.icon(icon, size=14, class_name="shrink-0"), *children, class_name="flex items-center gap-1.5", **props
    )


def link_button(
    icon: str, label: str, href: Any, class_name: str, *, new_tab: bool = True, **props: Any
) -> rx.Component:
    """A link styled as a button; `new_tab` for another site (a video call, the scheduler)."""
    opens = {"target": "_blank", "rel": "noopener noreferrer"} if new_tab else {}
    return rx.el.a(rx.icon(icon, size=16), label, href=href, **opens, class_name=class_name, **props)


def action_button(icon: str, label: str, on_click: Any, class_name: str = BUTTON_PRIMARY, **props: Any) -> rx.Component:
    """A button with an icon and a label that runs an event (not a form's submit)."""
    return rx.el.button(rx.icon(icon, size=16), label, type="button", on_click=on_click, class_name=class_name, **props)
