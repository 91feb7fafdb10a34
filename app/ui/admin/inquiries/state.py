"""Contact Inquiries (/admin/inquiries): state: search, status filter, one page of rows, the details dialog."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any, ClassVar

import reflex as rx

from app.core.permissions import Perm
from app.services.crm import admin_inquiries, contact
from app.services.crm.admin_inquiries import InquiryView
from app.ui.admin.business_time import day_text, timestamp_text
from app.ui.admin.dialogs import SectionWriter
from app.ui.admin.paged import LinkFilters, PagedList, SectionListing, export_url
from app.ui.admin.state import AdminState
from app.ui.rows import Choice, Row

PAGE_SIZE = 20
ME = "me"  # assign_to_me: the actor's own id, taken from the session on the server, never from the browser
FEATURE = "Inquiries"
STATUS_OPTIONS = [("new", "New"), ("in_progress", "In Progress"), ("resolved", "Resolved"), ("closed", "Closed")]
SPAM = "spam"  # the filter that lists what the honeypot caught
STATUS_FILTERS = [("", "All Statuses"), *STATUS_OPTIONS, (SPAM, "Spam")]
PRIORITY_OPTIONS = [("low", "Low"), ("medium", "Medium"), ("high", "High"), ("urgent", "Urgent")]
STATUS_COLORS = {"new": "blue", "in_progress": "yellow", "resolved": "green", "closed": "grey"}
PRIORITY_COLORS = {"low": "grey", "medium": "blue", "high": "orange", "urgent": "red"}


@dataclasses.dataclass
class InquiryRow(Row):
    """One inquiry of the table (and of the details dialog), its values formatted for display."""

    name: str = ""
    email: str = ""
    phone: str = ""
    company: str = ""
    service: str = ""
    budget: str = ""
    message: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    priority: Choice = dataclasses.field(default_factory=Choice)
    date: str = ""
    submitted: str = ""
    notes: str = ""
    assigned: str = ""  # "you", "other" or ""
    spam: bool = False


def inquiry_row(i: InquiryView) -> InquiryRow:
    """An inquiry as the table shows it to the staff member it was read for (the row says whether it is theirs)."""
    return InquiryRow(
        id=i.id,
        name=i.name,
        email=i.email,
        phone=i.phone or "",
        company=i.company or "",
        # The contact form's own words for its choices: one vocabulary, old stored values included (issue 26).
        service=contact.service_label(i.service_type) or "",
        budget=contact.budget_label(i.budget) or "",
        message=i.message or "",
        status=Choice.of(i.status, dict(STATUS_OPTIONS)),
        priority=Choice.of(i.priority, dict(PRIORITY_OPTIONS)),
        date=day_text(i.created_at),
        submitted=timestamp_text(i.created_at),
        notes=i.notes or "",
        assigned="you" if i.assigned_to_me else ("other" if i.assigned_to else ""),
        spam=i.is_spam,
    )


def status_filter(value: str) -> str:
    """A status the list's filter offers, or "" (all)."""
    return value if value in dict(STATUS_FILTERS) else ""


class InquiriesState(SectionWriter, PagedList[InquiryRow], AdminState):
    listing: ClassVar[SectionListing[InquiryRow]] = SectionListing(
        Perm.inquiries_read,
        FEATURE,
        admin_inquiries.list_inquiries,
        inquiry_row,
        "inquiries",
        failed="Failed to load inquiries. Please try again.",
    )
    link_filters: ClassVar[LinkFilters] = {"status": ("status_filter", status_filter)}
    rows: list[InquiryRow] = []
    status_filter: str = ""
    page_size: int = PAGE_SIZE

    detail: InquiryRow = InquiryRow()

    def _filters(self) -> dict[str, Any]:
        spam = self.status_filter == SPAM
        return {"status": "" if spam else self.status_filter, "spam": spam}

    @rx.var
    def export_url(self) -> str:
        spam = self.status_filter == SPAM
        status = "" if spam else self.status_filter
        filters = {"search": self.search, "status": status, "spam": spam or "", "sort": self.sort}
        return export_url("/api/admin/inquiries/export", filters)

    @rx.event
    async def set_status_filter(self, value: str) -> None:
        self.status_filter = status_filter(value)
        await self._first_page()

    # --- details dialog ----------------------------------------------------------------------------------------

    @rx.event
    def open_detail(self, inquiry_id: int) -> None:
        row = self._shown_row(inquiry_id)
        if row is None:
            return
        self.detail = dataclasses.replace(row)
        self._open_dialog("detail", row.id)

    def _write_guard(self) -> tuple[str, str]:
        return Perm.inquiries_write, FEATURE

    async def _update(
        self, data: dict[str, Any], *, done: tuple[str, str] = ("Inquiry updated successfully", "")
    ) -> None:
        """Apply `data` to the open inquiry and say `done` (a title and a text) once it is saved."""
        actor = await self._writer()
        if actor is None:
            return
        if data.get("assigned_to") == ME:
            data = {"assigned_to": str(actor.id)}
        inquiry_id, ip = self._dialog_row(), self.router.session.client_ip
        ok, dto = await self._attempt(
            actor,
            lambda s, a: admin_inquiries.update_inquiry(s, actor=a, inquiry_id=inquiry_id, data=data, ip=ip),
            "Update Failed",
            "Failed to update inquiry",
        )
        if not ok or dto is None:
            return
        self.detail = inquiry_row(dto)
        await self._notify("success", *done)
        await self._reload()

    async def _saving(self, data: dict[str, Any], **done: Any) -> AsyncIterator[None]:
        """`_update` with the dialog's controls disabled meanwhile (the first yield sends that to the browser)."""
        self.saving = True
        yield
        try:
            await self._update(data, **done)
        finally:
            self.saving = False

    @rx.event
    async def set_status(self, value: str):
        async for _ in self._saving({"status": str(value)}):
            yield

    @rx.event
    async def not_spam(self):
        """Back to New in the inbox; the visitor gets the acknowledgement the honeypot withheld (once)."""
        sent = f"{self.detail.name} has been sent the acknowledgement."
        async for _ in self._saving({"is_spam": False}, done=("Moved to New", sent)):  # one toast, not two
            yield
        if not self.detail.spam:
            self.close_dialogs()

    @rx.event
    async def set_priority(self, value: str):
        async for _ in self._saving({"priority": str(value)}):
            yield

    @rx.event
    async def assign_to_me(self, mine: bool):
        async for _ in self._saving({"assigned_to": ME if mine else None}):
            yield

    @rx.event
    async def save_notes(self, form: dict[str, Any]):
        async for _ in self._saving({"notes": str(form.get("notes") or "")[:5000]}):
            yield
