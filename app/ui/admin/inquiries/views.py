"""Contact Inquiries (/admin/inquiries): the table and the details dialog that saves at once, over InquiriesState."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.dialog_views import notes_form
from app.ui.admin.dialogs import shown
from app.ui.admin.inquiries.state import (
    PRIORITY_COLORS,
    PRIORITY_OPTIONS,
    STATUS_COLORS,
    STATUS_FILTERS,
    STATUS_OPTIONS,
    InquiriesState,
    InquiryRow,
)
from app.ui.admin.section import filter_select, section_page
from app.ui.admin.tables import Column, data_table, lead, note
from app.ui.admin.widgets import BTN_PRIMARY, BTN_SECONDARY, choice_badge, dialog, icon_button, select


def _name(row: ObjectVar[InquiryRow]) -> rx.Component:
    company = rx.cond(row.company != "", note(row.company, "2xl:hidden"), rx.fragment())
    return lead(row.name, company, note(row.date, "lg:hidden"))


def _contact(row: ObjectVar[InquiryRow]) -> rx.Component:
    return rx.fragment(
        rx.el.p(row.email, class_name="whitespace-nowrap"),
        rx.cond(row.phone != "", rx.el.p(row.phone, class_name="text-xs text-slate-500"), rx.fragment()),
    )


def _service(row: ObjectVar[InquiryRow]) -> rx.Component:
    return rx.fragment(
        rx.el.p(rx.cond(row.service != "", row.service, "-")),
        rx.cond(row.budget != "", rx.el.p(row.budget, class_name="text-xs text-slate-500 2xl:hidden"), rx.fragment()),
    )


def _priority(row: ObjectVar[InquiryRow]) -> rx.Component:
    return choice_badge(row.priority, PRIORITY_COLORS, data_testid="priority-badge")


def _actions(row: ObjectVar[InquiryRow]) -> rx.Component:
    return icon_button("eye", "View details", f"View inquiry from {row.name}", InquiriesState.open_detail(row.id))


# Below 1536 px the Company and Budget columns fold into the Name and Service cells (the table stays in view).
COLUMNS: list[Column[InquiryRow]] = [
    Column("Name", _name),
    Column("Contact", _contact, "hidden md:table-cell"),
    Column("Company", lambda r: rx.cond(r.company != "", r.company, "—"), "hidden 2xl:table-cell"),
    Column("Service", _service, "hidden lg:table-cell"),
    Column("Budget", lambda r: rx.cond(r.budget != "", r.budget, "—"), "hidden 2xl:table-cell", "whitespace-nowrap"),
    Column("Status", lambda r: choice_badge(r.status, STATUS_COLORS)),
    Column("Priority", _priority, "hidden sm:table-cell"),
    Column("Date", lambda r: r.date, "hidden lg:table-cell", "whitespace-nowrap"),
]


def _info(label: str, value: Any, test_id: str) -> rx.Component:
    return rx.el.div(
        rx.el.dt(label, class_name="text-xs font-medium uppercase tracking-wide text-slate-500"),
        rx.el.dd(value, class_name="mt-0.5 break-words text-sm text-slate-900", data_testid=test_id),
    )


def _detail_dialog() -> rx.Component:
    s = InquiriesState
    d = s.detail
    assigned = rx.match(
        d.assigned,
        ("you", "You"),
        ("other", "Another staff member"),
        "Unassigned",
    )
    body = rx.el.div(
        rx.el.dl(
            _info("Name", d.name, "detail-name"),
            _info(
                "Email",
                rx.el.a(d.email, href=f"mailto:{d.email}", class_name="text-blue-600 underline"),
                "detail-email",
            ),
            _info("Phone", rx.cond(d.phone != "", d.phone, "Not provided"), "detail-phone"),
            _info("Company", rx.cond(d.company != "", d.company, "—"), "detail-company"),
            _info("Service", rx.cond(d.service != "", d.service, "Not specified"), "detail-service"),
            _info("Budget", rx.cond(d.budget != "", d.budget, "Not specified"), "detail-budget"),
            class_name="grid grid-cols-1 gap-3 sm:grid-cols-2",
        ),
        rx.el.div(
            rx.el.span("Message", class_name="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500"),
            # Read-only: shown as text in a box (a read-only textarea would take the dialog's first focus).
            rx.el.div(
                d.message,
                id="detail-message",
                class_name="max-h-60 overflow-y-auto whitespace-pre-wrap break-words rounded-lg border "
                "border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800",
            ),
            class_name="mt-4",
        ),
        rx.el.p("Submitted ", d.submitted, class_name="mt-2 text-xs text-slate-500", data_testid="detail-submitted"),
        rx.el.div(
            rx.el.label(
                rx.el.span("Status", class_name="mb-1 block text-sm font-medium text-slate-700"),
                select(
                    STATUS_OPTIONS, id="detail-status", value=d.status.value, on_change=s.set_status, disabled=s.saving
                ),
                class_name="block",
            ),
            rx.el.label(
                rx.el.span("Priority", class_name="mb-1 block text-sm font-medium text-slate-700"),
                select(
                    PRIORITY_OPTIONS,
                    id="detail-priority",
                    value=d.priority.value,
                    on_change=s.set_priority,
                    disabled=s.saving,
                ),
                class_name="block",
            ),
            class_name="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2",
        ),
        rx.el.div(
            rx.el.p(
                rx.el.span("Assigned to: ", class_name="font-medium text-slate-700"),
                assigned,
                class_name="text-sm text-slate-600",
                data_testid="detail-assigned",
            ),
            rx.el.button(
                rx.cond(d.assigned == "you", "Unassign", "Assign to me"),
                type="button",
                on_click=s.assign_to_me(d.assigned != "you"),
                disabled=s.saving,
                class_name=BTN_SECONDARY,
            ),
            class_name="mt-4 flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 p-3",
        ),
        rx.cond(
            d.spam,
            rx.el.div(
                rx.el.p(
                    "Caught by the spam filter: no acknowledgement was sent.",
                    class_name="text-sm text-amber-900",
                ),
                rx.el.button(
                    rx.icon("inbox", size=16),
                    "Not spam",
                    type="button",
                    on_click=s.not_spam,
                    disabled=s.saving,
                    class_name=BTN_PRIMARY,
                ),
                class_name="mt-4 flex flex-wrap items-center justify-between gap-2 rounded-lg bg-amber-50 p-3",
                data_testid="spam-notice",
            ),
            rx.fragment(),
        ),
        notes_form(s, "Internal notes", d.notes, "detail-notes", placeholder="Only staff see these notes."),
    )
    return dialog(
        "Inquiry Details",
        rx.el.span("From ", d.name, ". Changing status or priority saves at once."),
        body,
        **shown(s, "detail"),
        max_width="42rem",
    )


def inquiries_content() -> rx.Component:
    s = InquiriesState
    return section_page(
        s,
        data_table(s, COLUMNS, row_test_id="inquiry-row", empty="No inquiries found", actions=_actions, tight=True),
        search="Search inquiries…",
        title=rx.el.span("Contact Inquiries (", s.total, ")"),
        subtitle="Requests sent through the contact form.",
        filters=[filter_select(STATUS_FILTERS, s.status_filter, s.set_status_filter, "Filter by status")],
        export=s.export_url,
        dialogs=[_detail_dialog()],
    )
