"""The meetings list: header, search and filters, the table of the current page with its pager, and the schedule/edit
and cancel dialogs."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.common import wide
from app.ui.admin.dialog_views import area_field, form_dialog, number_field, text_field
from app.ui.admin.meetings.state import SORT_OPTIONS, STATUS_FILTERS, WHEN_FILTERS, MeetingRow, MeetingsState
from app.ui.admin.pickers import client_picker
from app.ui.admin.section import filter_select, section_page
from app.ui.admin.tables import Column, data_table, lead, note
from app.ui.admin.widgets import INPUT, allowed_button, choice_badge, external_link, field, icon_button, text_input

S = MeetingsState
STATUS_COLORS = {"unconfirmed": "yellow", "scheduled": "blue", "completed": "green", "cancelled": "red"}


def _actions(m: ObjectVar[MeetingRow]) -> rx.Component:
    # Each button by the row's flag: the service decided what this staff member may do with this meeting.
    return rx.el.div(
        rx.cond(m.can_edit, icon_button("pencil", "Edit", f"Edit {m.title}", S.open_edit(m.id)), rx.fragment()),
        rx.cond(
            m.can_complete,
            icon_button("circle-check", "Mark completed", f"Mark {m.title} completed", S.complete(m.id)),
            rx.fragment(),
        ),
        rx.cond(
            m.can_cancel,
            icon_button("calendar-x", "Cancel meeting", f"Cancel {m.title}", S.ask_cancel(m.id)),
            rx.fragment(),
        ),
        class_name="flex justify-end gap-1",
    )


def _meeting(m: ObjectVar[MeetingRow]) -> rx.Component:
    return lead(
        m.title,
        note(m.client, "md:hidden"),
        note(m.when, "lg:hidden"),
        rx.cond(
            m.joinable,
            external_link("Join link", href=m.join_url, class_name="text-xs text-blue-600 hover:underline"),
            rx.fragment(),
        ),
        rx.cond(m.cancel_reason != "", note(rx.el.span("Reason: ", m.cancel_reason)), rx.fragment()),
    )


COLUMNS: list[Column[MeetingRow]] = [
    Column("Meeting", _meeting),
    Column("Client", lambda m: m.client, "hidden md:table-cell"),
    Column("When", lambda m: m.when, "hidden lg:table-cell", "whitespace-nowrap"),
    Column("Duration", lambda m: rx.fragment(m.duration, " min"), "hidden xl:table-cell", "whitespace-nowrap"),
    Column("Type", lambda m: rx.cond(m.meeting_type != "", m.meeting_type, "—"), "hidden xl:table-cell"),
    Column("Status", lambda m: choice_badge(m.status, STATUS_COLORS)),
]


def meeting_filters() -> list[rx.Component]:
    client = rx.el.div(
        client_picker(
            S,
            select_id="meeting-client-filter",
            search_test_id="meeting-client-filter-search",
            blank="All Clients",
            name="",
            value=S.client_filter,
            on_change=S.set_client_filter,
            label_hidden=True,
            inline=True,
        ),
        class_name="w-full sm:w-auto sm:shrink-0",
    )
    return [
        filter_select(WHEN_FILTERS, S.when, S.set_when, "When", "sm:w-36"),
        filter_select(STATUS_FILTERS, S.status_filter, S.set_status_filter, "Status", "sm:w-40"),
        client,
        filter_select(SORT_OPTIONS, S.sort_shown, S.set_sort, "Sort", "sm:w-40"),
    ]


def _form_fields() -> rx.Component:
    e = S.edit
    return rx.el.div(
        client_picker(
            S,
            select_id="meeting-client",
            search_test_id="meeting-client-search",
            required=True,
            error=S.form_errors["client_id"],
        ),
        text_field(S, "Title", "title", e.title, id="meeting-title", required=True),
        text_field(
            S,
            "Date",
            "date",
            e.date,
            error="start_time",
            id="meeting-date",
            type="date",
            min="1900-01-01",
            required=True,
        ),
        field(
            "Start time",
            text_input("time", id="meeting-time", type="time", default_value=e.time, required=True),
            hint=rx.el.span("In the business time zone, ", S.zone, "."),
            required=True,
        ),
        number_field(
            S, "Duration (minutes)", "duration_minutes", e.duration, "5", "600", step="5", id="meeting-duration"
        ),
        field(
            "Type",
            rx.el.input(
                name="meeting_type",
                id="meeting-type",
                list="meeting-type-options",
                default_value=e.meeting_type,
                class_name=INPUT,
            ),
            S.form_errors["meeting_type"],
        ),
        rx.el.datalist(rx.foreach(S.type_names, lambda n: rx.el.option(value=n)), id="meeting-type-options"),
        wide(
            text_field(S, "Join link", "meeting_url", e.join_url, id="meeting-url", type="url", placeholder="https://")
        ),
        area_field(S, "Description", "description", e.description, id="meeting-description", rows=2),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def meeting_form_dialog() -> rx.Component:
    return form_dialog(
        S,
        "form",
        rx.cond(S.edit.id != 0, "Edit Meeting", "Schedule Meeting"),
        "The client sees the meeting in the portal, in their own time zone, and gets an e-mail.",
        _form_fields(),
        on_submit=S.submit_form,
        test_id="meeting-save",
        max_width="40rem",
    )


def cancel_dialog() -> rx.Component:
    return form_dialog(
        S,
        "cancel",
        "Cancel Meeting",
        rx.el.span('Cancel "', S.dialog_name, '"? The client sees the reason.'),
        field("Reason", text_input("reason", id="cancel-reason", placeholder="Cancelled by staff")),
        on_submit=S.submit_cancel,
        failed="Failed to cancel meeting",
        submit="Cancel meeting",
        danger=True,
        cancel="Keep meeting",
    )


def cancel_holds_dialog() -> rx.Component:
    return form_dialog(
        S,
        "holds",
        "Cancel Unconfirmed Bookings",
        rx.el.span(
            "Cancel the ",
            S.dialog_name,
            " bookings on this page that wait for confirmation? Their times are free again; nobody is e-mailed.",
        ),
        rx.fragment(),
        on_submit=S.submit_cancel_holds,
        failed="Failed to cancel the unconfirmed bookings",
        submit="Cancel them",
        danger=True,
        cancel="Keep them",
    )


def meetings_list() -> rx.Component:
    """The section's upper part: everything about meetings themselves."""
    return section_page(
        S,
        data_table(S, COLUMNS, row_test_id="meeting-row", empty="No meetings found.", actions=_actions),
        search="Search meetings…",
        search_id="meeting-search",
        title="Meetings",
        subtitle=rx.el.span("All client meetings. Times are in the business time zone, ", S.zone, "."),
        create=[
            rx.cond(
                S.shown_holds > 0,
                allowed_button(
                    S.can_write,
                    "calendar-x",
                    "Cancel Unconfirmed",
                    S.ask_cancel_holds,
                    primary=False,
                    test_id="cancel-holds",
                ),
            ),
            allowed_button(S.can_write, "calendar-plus", "Schedule Meeting", S.open_create, test_id="create-meeting"),
        ],
        filters=meeting_filters(),
        dialogs=[meeting_form_dialog(), cancel_dialog(), cancel_holds_dialog()],
    )
