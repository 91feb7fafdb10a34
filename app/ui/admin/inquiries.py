"""Contact Inquiries (/admin/inquiries): search, status filter, the table, and the details dialog that saves at once."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.services import admin_inquiries
from app.ui.admin.accounts import long_date
from app.ui.admin.state import AdminState, as_actor, error_text
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
    page_header,
    pagination,
    select,
)

PAGE_SIZE = 20
ME = "me"  # assign_to_me: the actor's own id, taken from the session on the server, never from the browser
FEATURE = "Inquiries"
STATUS_OPTIONS = [("new", "New"), ("in_progress", "In Progress"), ("resolved", "Resolved"), ("closed", "Closed")]
STATUS_FILTERS = [("", "All Statuses"), *STATUS_OPTIONS]
PRIORITY_OPTIONS = [("low", "Low"), ("medium", "Medium"), ("high", "High"), ("urgent", "Urgent")]
STATUS_COLORS = {"new": "blue", "in_progress": "yellow", "resolved": "green", "closed": "grey"}
PRIORITY_COLORS = {"low": "grey", "medium": "blue", "high": "orange", "urgent": "red"}
# The contact form's option values (spec section 9) and their labels.
SERVICE_LABELS = {
    "web-development": "Web Development",
    "cloud-solutions": "Web Development and Hosting",
    "database-design": "Database Design",
    "digital-transformation": "Digital Transformation",
    "other": "Other",
}
BUDGET_LABELS = {
    "under-1.2k": "Under $1,200",
    "1.2k-5k": "$1,200 - $3,000",
    "3k-5k": "$3,000 - $5,000",
    "5k-10k": "$5,000 - $10,000",
    "10k-plus": "$10,000+",
    "discuss": "Let's Discuss",
}


def _timestamp(value: str) -> str:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    hour = moment.hour % 12 or 12
    return f"{long_date(moment)} at {hour}:{moment:%M} {'AM' if moment.hour < 12 else 'PM'} UTC"


def inquiry_row(i: dict[str, Any], me: str) -> dict[str, str]:
    service = i.get("service_type") or ""
    budget = i.get("budget") or ""
    assignee = i.get("assigned_to") or ""
    return {
        "id": str(i["id"]),
        "name": i["name"],
        "email": i["email"],
        "phone": i.get("phone") or "",
        "company": i.get("company") or "",
        "service": SERVICE_LABELS.get(service, service),
        "budget": BUDGET_LABELS.get(budget, budget),
        "message": i.get("message") or "",
        "status": i["status"],
        "status_label": dict(STATUS_OPTIONS).get(i["status"], i["status"]),
        "priority": i["priority"],
        "priority_label": dict(PRIORITY_OPTIONS).get(i["priority"], i["priority"]),
        "date": long_date(i["created_at"]),
        "submitted": _timestamp(i["created_at"]),
        "notes": i.get("notes") or "",
        "assigned": "you" if assignee and assignee == me else ("other" if assignee else ""),
    }


class InquiriesState(AdminState):
    rows: list[dict[str, str]] = []
    total: int = 0
    page: int = 1
    search: str = ""
    status_filter: str = ""
    load_error: str = ""

    detail_open: bool = False
    detail: dict[str, str] = {}
    saving: bool = False
    _detail_id: int = 0

    async def _reload(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.inquiries_read, FEATURE, quiet=quiet)
        if actor is None:
            self.rows, self.total = [], 0
            return
        query = {"search": self.search, "status": self.status_filter, "page": self.page, "page_size": PAGE_SIZE}
        try:
            result = await as_actor(actor, lambda s, a: admin_inquiries.list_inquiries(s, actor=a, **query))
        except Exception as exc:
            self.load_error = error_text(exc, "Failed to load inquiries. Please try again.")
            self.rows, self.total = [], 0
            return
        self.load_error = ""
        self.rows = [inquiry_row(i, str(actor.id)) for i in result["data"]]
        self.total = int(result["total"])

    @rx.event
    async def load(self) -> None:
        self.page = 1
        self.detail_open = False
        await self._reload(quiet=True)

    @rx.event
    async def set_search(self, value: str) -> None:
        self.search, self.page = str(value)[:100], 1
        await self._reload()

    @rx.event
    async def set_status_filter(self, value: str) -> None:
        self.status_filter = value if value in dict(STATUS_OPTIONS) else ""
        self.page = 1
        await self._reload()

    @rx.event
    async def prev_page(self) -> None:
        self.page = max(1, self.page - 1)
        await self._reload()

    @rx.event
    async def next_page(self) -> None:
        self.page = min(self.page_count, self.page + 1)
        await self._reload()

    @rx.var
    def page_count(self) -> int:
        return max(1, -(-self.total // PAGE_SIZE))

    @rx.var
    def first_shown(self) -> int:
        return 0 if self.total == 0 else (self.page - 1) * PAGE_SIZE + 1

    @rx.var
    def last_shown(self) -> int:
        return min(self.total, self.page * PAGE_SIZE)

    # --- details dialog ----------------------------------------------------------------------------------------

    @rx.event
    def open_detail(self, inquiry_id: str) -> None:
        row = next((r for r in self.rows if r["id"] == str(inquiry_id)), None)
        if row is None:
            return
        self._detail_id = int(row["id"])
        self.detail = dict(row)
        self.detail_open = True

    @rx.event
    def set_detail_open(self, value: bool) -> None:
        self.detail_open = bool(value) and self.detail_open

    async def _update(self, data: dict[str, Any]) -> None:
        actor = await self._actor(Perm.inquiries_write, FEATURE)
        if actor is None:
            return
        if data.get("assigned_to") == ME:
            data = {"assigned_to": str(actor.id)}
        inquiry_id, ip = self._detail_id, self.router.session.client_ip
        try:
            dto = await as_actor(
                actor,
                lambda s, a: admin_inquiries.update_inquiry(s, actor=a, inquiry_id=inquiry_id, data=data, ip=ip),
            )
        except Exception as exc:
            self._notify("error", "Update Failed", error_text(exc, "Failed to update inquiry"))
            return
        self.detail = inquiry_row(dto, str(actor.id))
        self._notify("success", "Inquiry updated successfully")
        await self._reload()

    @rx.event
    async def set_status(self, value: str) -> None:
        self.saving = True
        yield
        try:
            await self._update({"status": str(value)})
        finally:
            self.saving = False

    @rx.event
    async def set_priority(self, value: str) -> None:
        self.saving = True
        yield
        try:
            await self._update({"priority": str(value)})
        finally:
            self.saving = False

    @rx.event
    async def assign_to_me(self, mine: bool) -> None:
        self.saving = True
        yield
        try:
            await self._update({"assigned_to": ME if mine else None})
        finally:
            self.saving = False

    @rx.event
    async def save_notes(self, form: dict[str, Any]) -> None:
        self.saving = True
        yield
        try:
            await self._update({"notes": str(form.get("notes") or "")[:5000]})
        finally:
            self.saving = False


# --- UI ----------------------------------------------------------------------------------------------------------


def _row(row: rx.Var) -> rx.Component:
    # Below 1536 px the Company and Budget columns fold into the Name and Service cells (the table stays in view).
    return rx.el.tr(
        rx.el.td(
            rx.el.p(row["name"], class_name="font-medium text-slate-900"),
            rx.cond(
                row["company"] != "",
                rx.el.p(row["company"], class_name="text-xs text-slate-500 2xl:hidden"),
                rx.fragment(),
            ),
            rx.el.p(row["date"], class_name="text-xs text-slate-500 lg:hidden"),
            class_name=TD_TIGHT,
        ),
        rx.el.td(
            rx.el.p(row["email"], class_name="whitespace-nowrap"),
            rx.cond(row["phone"] != "", rx.el.p(row["phone"], class_name="text-xs text-slate-500"), rx.fragment()),
            class_name=f"{TD_TIGHT} hidden md:table-cell",
        ),
        rx.el.td(rx.cond(row["company"] != "", row["company"], "—"), class_name=f"{TD_TIGHT} hidden 2xl:table-cell"),
        rx.el.td(
            rx.el.p(rx.cond(row["service"] != "", row["service"], "-")),
            rx.cond(
                row["budget"] != "",
                rx.el.p(row["budget"], class_name="text-xs text-slate-500 2xl:hidden"),
                rx.fragment(),
            ),
            class_name=f"{TD_TIGHT} hidden lg:table-cell",
        ),
        rx.el.td(
            rx.cond(row["budget"] != "", row["budget"], "—"),
            class_name=f"{TD_TIGHT} hidden 2xl:table-cell whitespace-nowrap",
        ),
        rx.el.td(badge_by(row["status"], STATUS_COLORS, row["status_label"]), class_name=TD_TIGHT),
        rx.el.td(
            badge_by(row["priority"], PRIORITY_COLORS, row["priority_label"], data_testid="priority-badge"),
            class_name=f"{TD_TIGHT} hidden sm:table-cell",
        ),
        rx.el.td(row["date"], class_name=f"{TD_TIGHT} hidden lg:table-cell whitespace-nowrap"),
        rx.el.td(
            rx.el.button(
                rx.icon("eye", size=16),
                on_click=InquiriesState.open_detail(row["id"]),
                title="View details",
                aria_label=f"View inquiry from {row['name']}",
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
        pagination(s.page, s.page_count, s.total, s.first_shown, s.last_shown, s.prev_page, s.next_page),
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
        d["assigned"],
        ("you", "You"),
        ("other", "Another staff member"),
        "Unassigned",
    )
    body = rx.el.div(
        rx.el.dl(
            _info("Name", d["name"], "detail-name"),
            _info(
                "Email",
                rx.el.a(d["email"], href=f"mailto:{d['email']}", class_name="text-blue-600 underline"),
                "detail-email",
            ),
            _info("Phone", rx.cond(d["phone"] != "", d["phone"], "Not provided"), "detail-phone"),
            _info("Company", rx.cond(d["company"] != "", d["company"], "—"), "detail-company"),
            _info("Service", rx.cond(d["service"] != "", d["service"], "Not specified"), "detail-service"),
            _info("Budget", rx.cond(d["budget"] != "", d["budget"], "Not specified"), "detail-budget"),
            class_name="grid grid-cols-1 gap-3 sm:grid-cols-2",
        ),
        rx.el.div(
            rx.el.span("Message", class_name="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500"),
            # Read-only: shown as text in a box (a read-only textarea would take the dialog's first focus).
            rx.el.div(
                d["message"],
                id="detail-message",
                class_name="max-h-60 overflow-y-auto whitespace-pre-wrap break-words rounded-lg border "
                "border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800",
            ),
            class_name="mt-4",
        ),
        rx.el.p("Submitted ", d["submitted"], class_name="mt-2 text-xs text-slate-500", data_testid="detail-submitted"),
        rx.el.div(
            rx.el.label(
                rx.el.span("Status", class_name="mb-1 block text-sm font-medium text-slate-700"),
                select(
                    STATUS_OPTIONS, id="detail-status", value=d["status"], on_change=s.set_status, disabled=s.saving
                ),
                class_name="block",
            ),
            rx.el.label(
                rx.el.span("Priority", class_name="mb-1 block text-sm font-medium text-slate-700"),
                select(
                    PRIORITY_OPTIONS,
                    id="detail-priority",
                    value=d["priority"],
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
                d["assigned"] == "you",
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
        rx.el.form(
            rx.el.label(
                rx.el.span("Internal notes", class_name="mb-1 block text-sm font-medium text-slate-700"),
                rx.el.textarea(
                    name="notes",
                    default_value=d["notes"],
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
        rx.el.span("From ", d["name"], ". Changing status or priority saves at once."),
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
