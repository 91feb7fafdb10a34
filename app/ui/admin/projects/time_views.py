"""The time dialog of a project: actual against estimated hours, one page of entries (newest day first) with their
delete confirmation, the form that logs hours (the project's team logs their own; its manager and staff who write
projects log anyone's on the team), and the team with its editor for those who manage the project."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.models.project import TIME_NOTE_MAX
from app.ui.admin.common import form_alert, option_select
from app.ui.admin.dialog_views import close_row
from app.ui.admin.dialogs import shown
from app.ui.admin.projects.state import ProjectListState
from app.ui.admin.projects.time_state import TeamPick, TimeRow
from app.ui.admin.widgets import (
    BTN_DANGER,
    BTN_SECONDARY,
    ICON_BTN,
    busy_button,
    dialog,
    field,
    pagination,
    text_input,
)

S = ProjectListState
ev: Any = ProjectListState  # its handlers called with arguments: event specs to Reflex, namespaces to mypy
EARLIEST = "1900-01-01"


def time_button(p: Any) -> rx.Component:  # the card's ProjectRow var
    """The card's way into its time entries."""
    return rx.el.button(
        rx.icon("clock", size=14),
        "Time log",
        type="button",
        on_click=ev.open_time(p.id),
        aria_label=f"Time log of {p.name}",
        class_name=BTN_SECONDARY,
        data_testid="time-button",
    )


def _totals() -> rx.Component:
    return rx.el.p(
        rx.el.span(S.time_actual, " h", class_name="text-2xl font-semibold text-slate-900", data_testid="time-actual"),
        rx.el.span(
            rx.cond(
                S.time_estimated != "", rx.el.span(" of ", S.time_estimated, " h estimated"), " logged, no estimate"
            ),
            class_name="text-sm text-slate-500",
        ),
        class_name="mb-4",
    )


def _entry(e: ObjectVar[TimeRow]) -> rx.Component:
    confirm = rx.el.div(
        rx.el.span("Delete this entry?", class_name="text-xs text-slate-600"),
        rx.el.button("Keep", type="button", on_click=S.keep_time, class_name=BTN_SECONDARY),
        rx.el.button(
            "Delete", type="button", on_click=S.confirm_delete_time, class_name=BTN_DANGER, data_testid="time-confirm"
        ),
        class_name="flex flex-wrap items-center justify-end gap-2",
    )
    delete = rx.el.button(
        rx.icon("trash-2", size=14),
        type="button",
        on_click=ev.ask_delete_time(e.id),
        title="Delete",
        aria_label="Delete time entry",
        class_name=f"{ICON_BTN} hover:!text-red-600",
        data_testid="time-delete",
    )
    return rx.el.li(
        rx.el.div(
            rx.el.div(
                rx.el.span(e.hours, " h", class_name="font-semibold text-slate-900"),
                rx.el.span(e.day, class_name="text-sm text-slate-600"),
                rx.el.span("· ", e.author, class_name="text-sm text-slate-500"),
                class_name="flex flex-wrap items-baseline gap-x-2",
            ),
            rx.cond(e.note != "", rx.el.p(e.note, class_name="break-words text-sm text-slate-600"), rx.fragment()),
            class_name="min-w-0 flex-1",
        ),
        rx.cond(e.can_delete, rx.cond(S.time_confirm == e.id, confirm, delete), rx.fragment()),
        class_name="flex items-start justify-between gap-3 py-2",
        data_testid="time-entry",
    )


def _entries() -> rx.Component:
    listed = rx.el.div(
        rx.el.ul(
            rx.foreach(S.time_rows, _entry),
            class_name="max-h-[30vh] divide-y divide-slate-100 overflow-y-auto pr-1",
            data_testid="time-entries",
        ),
        rx.cond(
            S.time_pages > 1,
            pagination(
                S.time_page,
                S.time_pages,
                S.time_total,
                S.time_first,
                S.time_last,
                S.time_prev_page,
                S.time_next_page,
            ),
            rx.fragment(),
        ),
    )
    return rx.cond(
        S.time_error != "",
        rx.el.p(S.time_error, role="alert", class_name="text-sm text-red-700"),
        rx.cond(
            S.time_rows.length() > 0,
            listed,
            rx.el.p(
                rx.cond(S.time_loading, "Loading…", "No time logged yet."),
                class_name="py-4 text-center text-sm text-slate-500",
            ),
        ),
    )


def _pick(p: ObjectVar[TeamPick]) -> rx.Component:
    return rx.el.label(
        rx.el.input(
            type="checkbox",
            name="member-" + p.value.to(str),
            default_checked=p.on_team,
            class_name="h-4 w-4 rounded border-slate-300",
        ),
        rx.el.span(p.label),
        class_name="flex items-center gap-2 py-1 text-sm text-slate-700",
        data_testid="team-pick",
    )


def _team() -> rx.Component:
    """Who is on the project (they log their own hours), and for its manager the editor that chooses them."""
    names = rx.el.p(
        rx.el.span("Team: ", class_name="font-medium text-slate-700"),
        rx.cond(
            S.time_team.length() > 0,
            rx.foreach(S.time_team, lambda c, i: rx.el.span(rx.cond(i > 0, ", ", ""), c.label)),
            rx.el.span("nobody yet", class_name="text-slate-500"),
        ),
        class_name="min-w-0 text-sm text-slate-600",
        data_testid="time-team",
    )
    editor = rx.el.form(
        rx.el.p(
            "Tick who works on this project: they log their own hours here. The manager is always on the team.",
            class_name="mb-2 text-xs text-slate-500",
        ),
        rx.el.div(rx.foreach(S.time_team_picks, _pick), class_name="grid max-h-48 overflow-y-auto sm:grid-cols-2"),
        rx.cond(
            S.time_team_error != "",
            rx.el.p(S.time_team_error, role="alert", class_name="mt-2 text-sm text-red-700"),
            rx.fragment(),
        ),
        rx.el.div(
            rx.el.button("Cancel", type="button", on_click=S.close_team, class_name=BTN_SECONDARY),
            busy_button("Save team", S.saving, type="submit", data_testid="team-save"),
            class_name="mt-3 flex justify-end gap-2",
        ),
        on_submit=S.save_team,
        reset_on_submit=False,
        class_name="mt-2",
    )
    return rx.el.div(
        rx.el.div(
            names,
            rx.cond(
                S.time_can_log_for_others & ~S.time_team_open,
                rx.el.button(
                    rx.icon("users", size=14),
                    "Edit team",
                    type="button",
                    on_click=S.open_team,
                    class_name=f"{BTN_SECONDARY} shrink-0",
                    data_testid="team-edit",
                ),
                rx.fragment(),
            ),
            class_name="flex flex-wrap items-center justify-between gap-2",
        ),
        rx.cond(S.time_team_open, editor, rx.fragment()),
        class_name="mb-4 rounded-lg border border-slate-200 p-3",
    )


def _whose() -> rx.Component:
    """Whose hours: only for those who log anyone's on the team."""
    return rx.cond(
        S.time_can_log_for_others,
        rx.el.div(
            field(
                "Whose hours",
                option_select(S.time_whose, None, name="user_id", id="time-whose", data_testid="time-whose"),
                "",
            ),
            class_name="mb-3 sm:max-w-xs",
        ),
        rx.fragment(),
    )


def _form() -> rx.Component:
    return rx.el.form(
        rx.el.h4("Log time", class_name="mb-2 text-sm font-semibold text-slate-900"),
        form_alert("Please check the entry", S.form_error),
        _whose(),
        rx.el.div(
            field(
                "Date",
                text_input("work_date", id="time-date", type="date", min=EARLIEST, max=S.time_today,
                           default_value=S.time_today, required=True),
                S.time_date_error,
                required=True,
            ),
            field(
                "Hours",
                text_input("hours", id="time-hours", type="number", min="0.01", max="24", step="0.01",
                           placeholder="1.5", title="More than 0, at most 24", required=True),
                S.time_hours_error,
                required=True,
            ),
            field(
                "Note",
                text_input("note", id="time-note", max_length=TIME_NOTE_MAX, placeholder="What was done"),
                S.time_note_error,
            ),
            class_name="grid gap-3 sm:grid-cols-[10.5rem_6.5rem_minmax(0,1fr)]",
        ),
        rx.el.div(
            busy_button("Log time", S.saving, type="submit", data_testid="time-submit"),
            class_name="mt-3 flex justify-end",
        ),
        key=S.time_form_key,
        on_submit=S.log_time,
        reset_on_submit=False,
        class_name="mb-4 rounded-lg border border-slate-200 bg-slate-50 p-3",
    )  # fmt: skip


def time_dialog() -> rx.Component:
    body = rx.el.div(
        _totals(),
        _team(),
        rx.cond(
            S.time_can_log,
            _form(),
            rx.cond(
                S.time_closed != "",
                rx.el.p(S.time_closed, class_name="mb-4 text-sm text-slate-600", data_testid="time-closed"),
                rx.fragment(),
            ),
        ),
        _entries(),
        close_row(ev.close_dialog(False)),
        data_testid="time-dialog",
    )
    return dialog(
        rx.el.span("Time log: ", S.time_project),
        "Hours the project's team logged; the client sees the total beside the estimate.",
        body,
        **shown(S, "time"),
        max_width="40rem",
    )
