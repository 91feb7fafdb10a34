"""The meeting types panel: a card per type of the current page (the pager only when there is more than one page),
and the create/edit dialog."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.common import option_select, text_area
from app.ui.admin.dialog_views import area_field, check_field, form_dialog, number_field, text_field
from app.ui.admin.meeting_types.state import WEEKDAYS, MeetingTypesState, TypeRow
from app.ui.admin.widgets import (
    BTN_SECONDARY,
    CARD,
    alert,
    badge,
    field,
    icon_button,
    pagination,
    text_input,
)

S = MeetingTypesState


def type_card(t: ObjectVar[TypeRow]) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.p(t.name, class_name="font-medium text-slate-900"),
            rx.el.p(
                t.duration,
                " min",
                rx.cond(t.host_name != "", rx.el.span(" · ", t.host_name), ""),
                class_name="text-xs text-slate-500",
            ),
            class_name="min-w-0",
        ),
        rx.el.div(
            rx.cond(t.active, badge("Active", "green"), badge("Inactive", "grey")),
            rx.cond(
                S.can_write,
                rx.fragment(
                    rx.el.button(
                        rx.cond(t.active, "Deactivate", "Activate"),
                        on_click=S.toggle_type(t.id, ~t.active),
                        class_name=f"{BTN_SECONDARY} !px-2.5 !py-1",
                    ),
                    icon_button("pencil", "Edit", f"Edit {t.name}", S.open_type(t.id)),
                ),
                rx.fragment(),
            ),
            class_name="flex shrink-0 items-center gap-2",
        ),
        class_name="flex flex-col gap-2 border-t border-slate-100 px-4 py-3 sm:flex-row sm:items-center "
        "sm:justify-between",
    )


def type_dialog() -> rx.Component:
    e = S.edit
    fields = rx.fragment(
        rx.el.div(
            text_field(S, "Name", "name", e.name, id="type-name", required=True),
            number_field(S, "Duration (minutes)", "duration_minutes", e.duration, "5", "600", id="type-duration"),
            text_field(S, "Host", "host_name", e.host_name, id="type-host"),
            text_field(S, "External booking link", "scheduling_url", e.scheduling_url, id="type-url"),
            area_field(S, "Description", "description", e.description, id="type-description", rows=2),
            check_field("is_active", "Active", e.active, id="type-active"),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        _booking_fields(),
    )
    return form_dialog(
        S,
        "form",
        "Meeting Type",
        "Shown to clients when they book a meeting.",
        fields,
        on_submit=S.submit_type,
        failed="Failed to save meeting type",
    )


def _number(label: str, name: str, value: Any, low: int, high: int, hint: str | None = None) -> rx.Component:
    return number_field(S, label, name, value, str(low), str(high), hint=hint, id=f"type-{name}")


def _booking_fields() -> rx.Component:
    """In-app booking: who hosts, when (business time zone), and the rules around it."""
    e: Any = S.edit
    err: Any = S.form_errors  # Vars to Reflex, plain values to mypy
    return rx.el.fieldset(
        rx.el.legend(f"Booking (hours in {S.business_zone})", class_name="text-sm font-semibold"),
        rx.el.div(
            field(
                "Organizer",
                option_select(
                    S.organizers, None, name="organizer_id", id="type-organizer", default_value=e.organizer_id
                ),
                err["organizer_id"],
            ),
            text_field(
                S,
                "Join link",
                "join_url",
                e.join_url,
                id="type-join",
                hint="Empty: the organizer sends one. {room} becomes a random room.",
            ),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        rx.el.div(
            rx.el.span("Days", class_name="text-sm font-medium text-slate-700"),
            *[
                rx.el.label(
                    rx.el.input(type="checkbox", name=f"day_{d}", default_checked=e.days[d], class_name="h-4 w-4"),
                    rx.el.span(name, class_name="text-sm text-slate-700"),
                    class_name="flex items-center gap-1.5",
                )
                for d, name in enumerate(WEEKDAYS)
            ],
            class_name="flex flex-wrap items-center gap-x-4 gap-y-2",
        ),
        rx.el.div(
            field("Opens", text_input("opens", id="type-opens", type="time", default_value=e.opens)),
            field("Closes", text_input("closes", id="type-closes", type="time", default_value=e.closes)),
            _number("Buffer before (min)", "buffer_before_minutes", e.buffer_before, 0, 240),
            _number("Buffer after (min)", "buffer_after_minutes", e.buffer_after, 0, 240),
            _number("Minimum notice (min)", "min_notice_minutes", e.notice_minutes, 0, 43200),
            _number("Bookable ahead (days)", "horizon_days", e.horizon_days, 1, 365),
            class_name="grid grid-cols-2 gap-4 sm:grid-cols-3",
        ),
        rx.cond(err["availability"], rx.el.p(err["availability"], class_name="text-xs text-red-600", role="alert")),
        field(
            "Dates off",
            text_area("dates_off", id="type-dates-off", rows=2, default_value=e.dates_off, placeholder="2026-12-24"),
            err["dates_off"],
            hint="One date per line (YYYY-MM-DD).",
        ),
        class_name="mt-4 flex flex-col gap-4 rounded-lg border border-slate-200 p-4",
    )


def meeting_types_panel() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.h2("Meeting types", class_name="font-semibold text-slate-900"),
                rx.el.p(
                    "Shown in the booking view when no scheduling service is configured.",
                    class_name="text-xs text-slate-500",
                ),
            ),
            rx.cond(
                S.can_write,
                rx.el.button(rx.icon("plus", size=16), "New type", on_click=S.open_type(0), class_name=BTN_SECONDARY),
                rx.fragment(),
            ),
            class_name="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between",
        ),
        rx.cond(
            S.load_error != "",
            rx.el.div(
                alert("Failed to load meeting types", S.load_error),
                rx.el.button(rx.icon("refresh-cw", size=16), "Try Again", on_click=S.retry, class_name=BTN_SECONDARY),
                class_name="flex flex-col items-start gap-2 px-4 pb-4",
            ),
            rx.fragment(),
        ),
        rx.foreach(S.rows, type_card),
        rx.cond(
            (S.rows.length() == 0) & (S.load_error == ""),
            rx.el.p("No meeting types found.", class_name="px-4 pb-4 text-sm text-slate-500"),
            rx.fragment(),
        ),
        rx.cond(
            S.pages > 1,
            pagination(S.page, S.pages, S.total, S.first_shown, S.last_shown, S.prev_page, S.next_page),
            rx.fragment(),
        ),
        type_dialog(),
        class_name=f"{CARD} mt-6 overflow-hidden",
        data_testid="meeting-types",
    )
