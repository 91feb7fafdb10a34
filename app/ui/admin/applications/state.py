"""The Applications page's state: one page of applications (searched, by opening and status), and the details dialog
that moves an application to one of its allowed next statuses and keeps notes."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import reflex as rx

from app.core.permissions import Perm
from app.models.user import UserPublic
from app.services.careers import applications
from app.services.careers.applications import ApplicationPublic
from app.services.platform.paging import Page
from app.ui.admin.business_time import day_text
from app.ui.admin.common import form_text
from app.ui.admin.dialogs import SectionWriter
from app.ui.admin.paged import LinkFilters, PagedList, SectionListing, export_url
from app.ui.admin.state import AdminState, as_actor
from app.ui.rows import Choice, Row

FEATURE = "Applications"
PAGE_SIZE = 20
STATUSES = ["new", "reviewing", "interview", "offer", "rejected"]


@dataclasses.dataclass
class ApplicationRow(Row):
    name: str = ""
    email: str = ""
    phone: str = ""
    linkedin: str = ""
    job_code: str = ""
    opening: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    next_statuses: list[Choice] = dataclasses.field(default_factory=list)
    notes: str = ""
    resume_name: str = ""
    cover_name: str = ""
    resume_url: str = ""
    cover_url: str = ""
    date: str = ""


def application_row(a: ApplicationPublic) -> ApplicationRow:
    return ApplicationRow(
        id=a.id,
        name=f"{a.first_name} {a.last_name}".strip(),
        email=a.email,
        phone=a.phone or "",
        linkedin=a.linkedin_url or "",
        job_code=a.job_code or "",
        opening=a.job_title or a.job_code or "General application",
        status=Choice.of(a.status),
        next_statuses=[Choice.of(s) for s in a.next_statuses],
        notes=a.notes or "",
        resume_name=a.resume_filename or "CV",
        cover_name=a.cover_letter_filename or "",
        resume_url=f"/api/admin/applications/{a.id}/resume",
        cover_url=f"/api/admin/applications/{a.id}/cover-letter",
        date=day_text(a.created_at),
    )


def status_filter(value: str) -> str:
    """A status the list's filter offers, or "" (all)."""
    return value if value in STATUSES else ""


class ApplicationListState(SectionWriter, PagedList[ApplicationRow], AdminState):
    listing: ClassVar[SectionListing[ApplicationRow]] = SectionListing(
        Perm.applications_read, FEATURE, applications.list_applications, application_row, "applications"
    )
    rows: list[ApplicationRow] = []
    link_filters: ClassVar[LinkFilters] = {"status": ("status_filter", status_filter)}
    page_size: int = PAGE_SIZE
    sort: str = "newest"
    openings: list[Choice] = []
    job_filter: str = ""
    status_filter: str = ""
    detail: ApplicationRow = ApplicationRow()

    @rx.var
    def export_url(self) -> str:
        filters = {"job_code": self.job_filter, "status": self.status_filter, "search": self.search, "sort": self.sort}
        return export_url("/api/admin/applications/export", filters)

    def _filters(self) -> dict[str, Any]:
        return {"job_code": self.job_filter, "status": self.status_filter}

    async def _page(self, actor: UserPublic, page: int) -> Page[Any]:
        result = await super()._page(actor, page)
        if not self.openings:  # the opening filter's choices, once per visit
            openings = await as_actor(actor, lambda s, a: applications.opening_choices(s, actor=a))
            self.openings = [Choice(o.code, o.label) for o in openings]
        return result

    def _clear(self, error: str = "") -> None:
        super()._clear(error)
        self.openings = []  # fetched again with the next page shown

    @rx.event
    async def load(self) -> None:
        self.close_dialogs()
        self.job_filter = self.status_filter = self.search = ""
        self.page, self.openings = 1, []
        self._from_link()
        await self._reload(quiet=True)

    @rx.event
    async def set_job_filter(self, value: str) -> None:
        self.job_filter = str(value)[:50]
        await self._first_page()

    @rx.event
    async def set_status_filter(self, value: str) -> None:
        self.status_filter = status_filter(value)
        await self._first_page()

    def _write_guard(self) -> tuple[str, str]:
        return Perm.applications_write, FEATURE

    @rx.var
    def filtered(self) -> bool:
        return self.search != "" or self.job_filter != "" or self.status_filter != ""

    @rx.event
    def open_detail(self, application_id: int) -> None:
        row = self._shown_row(application_id)
        if row is None:
            return
        self.detail = row
        self._open_dialog("detail", row.id)

    async def _update(self, status: str | None, notes: str | None) -> None:
        actor = await self._writer()
        if actor is None:
            return
        aid = self._dialog_row()
        ok, dto = await self._attempt_saving(
            actor,
            lambda s, a: applications.update_application(
                s, actor=a, application_id=aid, data={"status": status, "notes": notes}
            ),
            "Update Failed",
            "Failed to update application",
        )
        if not ok or dto is None:
            return
        self.detail = application_row(dto)
        await self._notify("success", "Application updated successfully")
        await self._reload()

    @rx.event
    async def move_to(self, status: str) -> None:
        await self._update(str(status)[:20], None)

    @rx.event
    async def save_notes(self, form: dict[str, Any]) -> None:
        await self._update(None, form_text(form, "notes", 5000))
