"""Contact Inquiries (/admin/inquiries): the table and the details dialog that saves at once, over InquiriesState."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.inquiries.state import (
    PRIORITY_COLORS,
    PRIORITY_OPTIONS,
    STATUS_COLORS,
    STATUS_FILTERS,
    STATUS_OPTIONS,
    InquiriesState,
    InquiryRow,
)
from app.ui.admin.widgets import (
    BTN_PRIMARY,
    BTN_SECONDARY,
    CARD,
    ICON_BTN,
    INPUT,
    TD_TIGHT,
    TH_TIGHT,
    alert,
    badge_by,
    dialog,
    empty_row,
    export_link,
    page_header,
    pagination,
    select,
)


def _row(row: rx.Var[InquiryRow]) -> rx.Component:
    # Below 1536 px the Company and Budget columns fold into the Name and Service cells (the table stays in view).
    return rx.el.tr(
        rx.el.td(
            rx.el.p(row.name, class_name="font-medium text-slate-900"),
            rx.cond(
                row.company != "",
                rx.el.p(row.company, class_name="text-xs text-slate-500 2xl:hidden"),
                rx.fragment(),
            ),
            rx.el.p(row.date, class_name="text-xs text-slate-500 lg:hidden"),
            class_name=TD_TIGHT,
        ),
        rx.el.td(
            rx.el.p(row.email, class_name="whitespace-nowrap"),
            rx.cond(row.phone != "", rx.el.p(row.phone, class_name="text-xs text-slate-500"), rx.fragment()),
            class_name=f"{TD_TIGHT} hidden md:table-cell",
        ),
        rx.el.td(rx.cond(row.company != "", row.company, "—"), class_name=f"{TD_TIGHT} hidden 2xl:table-cell"),
        rx.el.td(
            rx.el.p(rx.cond(row.service != "", row.service, "-")),
            rx.cond(
                row.budget != "",
                rx.el.p(row.budget, class_name="text-xs text-slate-500 2xl:hidden"),
                rx.fragment(),
            ),
            class_name=f"{TD_TIGHT} hidden lg:table-cell",
        ),
        rx.el.td(
            rx.cond(row.budget != "", row.budget, "—"),
            class_name=f"{TD_TIGHT} hidden 2xl:table-cell whitespace-nowrap",
        ),
        rx.el.td(badge_by(row.status, STATUS_COLORS, row.status_label), class_name=TD_TIGHT),
        rx.el.td(
            badge_by(row.priority, PRIORITY_COLORS, row.priority_label, data_testid="priority-badge"),
            class_name=f"{TD_TIGHT} hidden sm:table-cell",
        ),
        rx.el.td(row.date, class_name=f"{TD_TIGHT} hidden lg:table-cell whitespace-nowrap"),
        rx.el.td(
            rx.el.button(
                rx.icon("eye", size=16),
                on_click=InquiriesState.open_detail(row.id),
                title="View details",
                aria_label=f"View inquiry from {row.name}",
                class_name=ICON_BTN,
            ),
            class_name=f"{TD_TIGHT} text-right",
        ),
        class_name="border-t border-slate-100 hover:bg-slate-50/60",
        data_testid="inquiry-row",
    )


def _table() -> rx.Component:
    s = InquiriesState
    headers = [
        ("Name", ""),
        ("Contact", "hidden md:table-cell"),
        ("Company", "hidden 2xl:table-cell"),
        ("Service", "hidden lg:table-cell"),
        ("Budget", "hidden 2xl:table-cell"),
        ("Status", ""),
        ("Priority", "hidden sm:table-cell"),
        ("Date", "hidden lg:table-cell"),
    ]
    return rx.el.div(
        rx.el.div(
            rx.el.table(
                rx.el.thead(
                    rx.el.tr(
                        *[rx.el.th(title, class_name=f"{TH_TIGHT} {extra}") for title, extra in headers],
                        rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=TH_TIGHT),
                    ),
                    class_name="bg-slate-50",
                ),
                rx.el.tbody(
                    rx.cond(s.rows.length() > 0, rx.foreach(s.rows, _row), empty_row(9, "No inquiries found")),
                ),
                class_name="min-w-full",
            ),
            class_name="overflow-x-auto",
        ),
        pagination(s.page, s.pages, s.total, s.first_shown, s.last_shown, s.prev_page, s.next_page),
        class_name=f"{CARD} overflow-hidden",
    )


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
                select(STATUS_OPTIONS, id="detail-status", value=d.status, on_change=s.set_status, disabled=s.saving),
                class_name="block",
            ),
            rx.el.label(
                rx.el.span("Priority", class_name="mb-1 block text-sm font-medium text-slate-700"),
                select(
                    PRIORITY_OPTIONS,
                    id="detail-priority",
                    value=d.priority,
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
            rx.cond(
                d.assigned == "you",
                rx.el.button(
                    "Unassign",
                    type="button",
                    on_click=s.assign_to_me(False),
                    disabled=s.saving,
                    class_name=BTN_SECONDARY,
                ),
                rx.el.button(
                    "Assign to me",
                    type="button",
                    on_click=s.assign_to_me(True),
                    disabled=s.saving,
                    class_name=BTN_SECONDARY,
                ),
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
        rx.el.form(
            rx.el.label(
                rx.el.span("Internal notes", class_name="mb-1 block text-sm font-medium text-slate-700"),
                rx.el.textarea(
                    name="notes",
                    default_value=d.notes,
                    rows=3,
                    id="detail-notes",
                    placeholder="Only staff see these notes.",
                    class_name=f"{INPUT} resize-y",
                ),
                class_name="block",
            ),
            rx.el.div(
                rx.el.button("Close", type="button", on_click=s.set_detail_open(False), class_name=BTN_SECONDARY),
                rx.el.button("Save Notes", type="submit", disabled=s.saving, class_name=BTN_PRIMARY),
                class_name="mt-3 flex justify-end gap-2",
            ),
            on_submit=s.save_notes,
            reset_on_submit=False,
            class_name="mt-4",
        ),
    )
    return dialog(
        "Inquiry Details",
        rx.el.span("From ", d.name, ". Changing status or priority saves at once."),
        body,
        open=s.detail_open,
        on_open_change=s.set_detail_open,
        max_width="42rem",
    )


def inquiries_content() -> rx.Component:
    s = InquiriesState
    return rx.el.div(
        page_header(rx.el.span("Contact Inquiries (", s.total, ")"), "Requests sent through the contact form."),
        rx.el.div(
            rx.el.div(
                rx.icon(
                    "search",
                    size=16,
                    class_name="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-slate-400",
                ),
                rx.el.input(
                    type="search",
                    placeholder="Search inquiries…",
                    default_value=s.search,
                    on_change=s.set_search,
                    aria_label="Search inquiries",
                    class_name="block w-full rounded-lg border border-slate-300 bg-white py-2 pl-9 pr-3 text-sm "
                    "placeholder:text-slate-400 focus:border-blue-500 focus:outline-none focus:ring-2 "
                    "focus:ring-blue-500/30",
                ),
                class_name="relative w-full sm:max-w-xs",
            ),
            rx.el.div(
                select(
                    STATUS_FILTERS, value=s.status_filter, on_change=s.set_status_filter, aria_label="Filter by status"
                ),
                class_name="w-full sm:w-44",
            ),
            export_link(s.export_url),
            class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center",
        ),
        rx.cond(
            s.load_error != "",
            rx.el.div(alert("Failed to load inquiries", s.load_error), class_name="mb-4"),
            rx.fragment(),
        ),
        _table(),
        _detail_dialog(),
    )
