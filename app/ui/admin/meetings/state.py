"""The meetings list's state: one page of meetings (searched, filtered and sorted by the service), and the schedule,
edit, cancel and complete actions. Every handler asks the session who is calling (`_actor`) before it does anything."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any, ClassVar

import reflex as rx

from app.core.permissions import Perm
from app.models.enums import MeetingStatus
from app.models.user import UserPublic
from app.services.platform.paging import PAGE_SIZE_MAX, Page
from app.services.platform.schema import parse
from app.services.scheduling import meetings, meetings_admin
from app.services.scheduling.meetings import StaffMeeting
from app.services.scheduling.meetings_admin import MeetingCreate, MeetingUpdate
from app.ui.admin.business_time import form_moment, local, when_text, zone_label
from app.ui.admin.common import form_text, row_id
from app.ui.admin.dialogs import FormDialog
from app.ui.admin.paged import LinkFilters, PagedList, SectionListing
from app.ui.admin.pickers import ClientPicker
from app.ui.admin.state import AdminState, as_actor
from app.ui.rows import Choice, Row

log = logging.getLogger(__name__)

FEATURE = "Meetings"
WHEN_FILTERS = [("upcoming", "Upcoming"), ("past", "Past"), ("all", "All")]
# Unconfirmed: booked signed out, holding its slot until the booker confirms from the mailed link.
STATUS_OPTIONS = [
    ("unconfirmed", "Unconfirmed"),
    ("scheduled", "Scheduled"),
    ("completed", "Completed"),
    ("cancelled", "Cancelled"),
]
STATUS_FILTERS = [("", "All Statuses"), *STATUS_OPTIONS]
# The service's sorts (meetings_admin.MEETING_SORTS); with none chosen, the "When" filter's own order applies.
SORT_OPTIONS = [
    ("soonest", "Soonest first"),
    ("latest", "Latest first"),
    ("title", "Title A\u2013Z"),
    ("client", "Client A\u2013Z"),
]


@dataclasses.dataclass
class MeetingRow(Row):
    """A meeting as the table and the edit form show it."""

    title: str = ""
    client: str = ""
    client_id: str = ""
    when: str = ""
    date: str = ""  # the form's date and time fields (the business time zone)
    time: str = ""
    duration: int = 30
    meeting_type: str = ""
    join_url: str = ""
    joinable: bool = False  # scheduled: its join link is offered (a cancelled or past meeting keeps it for the record)
    description: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    cancel_reason: str = ""
    # What the signed-in staff member may do with it, as the service decided (StaffMeeting).
    can_edit: bool = False
    can_cancel: bool = False
    can_complete: bool = False


def meeting_row(m: StaffMeeting) -> MeetingRow:
    """A service row as a table row."""
    start = local(m.scheduled_at)
    return MeetingRow(
        id=m.id,
        title=m.title,
        client=m.client_name or "—",
        client_id=m.client_id or "",
        when=when_text(start) if start else m.scheduled_at,
        date=f"{start:%Y-%m-%d}" if start else "",
        time=f"{start:%H:%M}" if start else "",
        duration=m.duration_minutes or 30,
        meeting_type=m.meeting_type or "",
        join_url=m.join_url or "",
        joinable=bool(m.join_url) and m.status == MeetingStatus.scheduled,
        description=m.description or "",
        status=Choice.of(m.status),
        cancel_reason=m.cancel_reason or "",
        can_edit=m.can_edit,
        can_cancel=m.can_cancel,
        can_complete=m.can_complete,
    )


def when_filter(value: str) -> str:
    """Upcoming, past or all (upcoming for anything else)."""
    return value if value in dict(WHEN_FILTERS) else "upcoming"


def status_filter(value: str) -> str:
    """A status the list's filter offers, or "" (all)."""
    return value if value in dict(STATUS_OPTIONS) else ""


class MeetingsState(FormDialog, ClientPicker, PagedList[MeetingRow], AdminState):
    """The client filter and the form share one client picker (its search and options); each keeps its own choice."""

    listing: ClassVar[SectionListing[MeetingRow]] = SectionListing(
        Perm.meetings_read, FEATURE, meetings_admin.list_all, meeting_row, "meetings"
    )
    rows: list[MeetingRow] = []
    when: str = "upcoming"
    link_filters: ClassVar[LinkFilters] = {
        "when": ("when", when_filter),
        "status": ("status_filter", status_filter),
    }
    status_filter: str = ""
    client_filter: str = ""
    _client_filter_label: str = ""

    edit: MeetingRow = MeetingRow()
    type_names: list[str] = []  # the form's suggestions: the active meeting types
    zone: str = ""  # "New York (EST)": the business zone, which every time here is in

    # --- list --------------------------------------------------------------------------------------------------

    def _filters(self) -> dict[str, Any]:
        return {"when": self.when, "status": self.status_filter, "client_id": self.client_filter}

    async def _page(self, actor: UserPublic, page: int) -> Page[Any]:
        if not self.client_options:  # the client filter's first choices, once per visit
            await self._find_clients(actor)
        return await super()._page(actor, page)

    @rx.event
    async def load(self) -> None:
        self.page = 1
        self.close_dialogs()
        self.client_options, self.client_search = [], ""
        self.zone = await asyncio.to_thread(zone_label)
        self._from_link()
        await self._reload(quiet=True)

    @rx.event
    async def set_when(self, value: str) -> None:
        self.when = when_filter(value)
        await self._first_page()

    @rx.event
    async def set_status_filter(self, value: str) -> None:
        self.status_filter = status_filter(value)
        await self._first_page()

    @rx.var
    def shown_holds(self) -> int:
        """The unconfirmed bookings on the current page: what "Cancel unconfirmed" cancels."""
        return sum(1 for r in self.rows if r.status.value == "unconfirmed")

    # --- the client picker (pickers.ClientPicker): anyone who may read meetings searches it ------------------------

    async def _picker_actor(self) -> UserPublic | None:
        return await self._actor(Perm.meetings_read, FEATURE)

    def _kept_clients(self) -> list[Choice]:
        kept = super()._kept_clients()
        if self.client_filter and self.client_filter != self.client_id:
            kept.append(Choice(self.client_filter, self._client_filter_label))
        return kept

    @rx.event
    async def set_client_filter(self, value: str) -> None:
        """Filter by a client: one offered, or any client's id (a link, a test); anything else means all clients."""
        actor = await self._picker_actor()
        if actor is None:
            return
        chosen = self._offered(value) or await self._client_option(actor, str(value)[:40])
        self.client_filter, self._client_filter_label = (chosen.value, chosen.label) if chosen else ("", "")
        await self._first_page()

    @rx.var
    def sort_shown(self) -> str:
        """The sort the list is in: the chosen one, else the "When" filter's own order."""
        if self.sort in dict(SORT_OPTIONS):
            return self.sort
        return "soonest" if self.when == "upcoming" else "latest"

    # --- schedule / edit ---------------------------------------------------------------------------------------

    async def _load_type_names(self) -> None:
        actor = await self._actor(Perm.meetings_read, FEATURE, quiet=True)
        if actor is None:
            return
        try:
            found = await as_actor(
                actor, lambda s, a: meetings_admin.list_types(s, actor=a, active=True, page_size=PAGE_SIZE_MAX)
            )
        except Exception:
            log.exception("meeting type suggestions failed")  # the field still takes any text
            return
        self.type_names = [t.name for t in found.data]

    def _write_guard(self) -> tuple[str, str]:
        return Perm.meetings_write, FEATURE

    def _edit_form(self, row: MeetingRow, edit_id: int) -> None:
        self.edit = dataclasses.replace(row)
        self._open_form(edit_id)

    async def _open_pickers(self, client_id: str) -> None:
        """The form's client (an edited meeting's is preselected and kept) and the meeting type suggestions."""
        actor = await self._actor(Perm.meetings_read, FEATURE, quiet=True)
        if actor is not None:
            await self._reset_clients(actor, client_id)
        await self._load_type_names()

    @rx.event
    async def open_create(self):
        if await self._writer() is None:
            return
        self._edit_form(MeetingRow(), 0)
        yield  # the dialog opens at once; the client choices and type suggestions follow
        await self._open_pickers("")

    @rx.event
    async def open_edit(self, meeting_id: int):
        row = self._shown_row(meeting_id)
        if row is None or await self._writer() is None:
            return
        self._edit_form(row, row.id)
        yield
        await self._open_pickers(row.client_id)

    @rx.event
    async def submit_form(self, form: dict[str, Any]) -> None:
        actor = await self._writer()
        if actor is None:
            return
        day, clock = form_text(form, "date"), form_text(form, "time")
        data: dict[str, Any] = {
            "client_id": form_text(form, "client_id"),
            "title": form_text(form, "title", 200),
            "description": form_text(form, "description", 5000),
            "meeting_type": form_text(form, "meeting_type", 100),
            "meeting_url": form_text(form, "meeting_url", 500),
            "duration_minutes": form_text(form, "duration_minutes") or "30",
        }
        edit_id = self._dialog_row()

        def call(s: Any, a: Any) -> Any:
            data["start_time"] = form_moment(day, clock)  # typed in the business zone; a skipped hour is refused
            if edit_id:
                return meetings_admin.update_meeting(s, actor=a, meeting_id=edit_id, data=parse(MeetingUpdate, data))
            return meetings_admin.create_meeting(s, actor=a, data=parse(MeetingCreate, data))

        verb = "update" if edit_id else "schedule"
        done = "Meeting updated successfully" if edit_id else "Meeting scheduled"
        await self._submit(actor, call, f"Failed to {verb} meeting", done, "The client has been e-mailed.")

    # --- cancel / complete -------------------------------------------------------------------------------------

    @rx.event
    async def ask_cancel(self, meeting_id: int) -> None:
        row = self._shown_row(meeting_id)
        if row is not None and await self._writer() is not None:
            self._open_dialog("cancel", row.id, row.title)

    @rx.event
    async def submit_cancel(self, form: dict[str, Any]) -> None:
        actor = await self._writer()
        if actor is None:
            return
        mid, reason = self._dialog_row(), form_text(form, "reason", 500)
        await self._submit(
            actor,
            lambda s, a: meetings.cancel_meeting(s, actor=a, meeting_id=mid, reason=reason),
            "Failed to cancel meeting",
            "Meeting cancelled",
        )

    @rx.event
    async def ask_cancel_holds(self) -> None:
        if self.shown_holds and await self._writer() is not None:
            self._open_dialog("holds", "", f"{self.shown_holds}")

    @rx.event
    async def submit_cancel_holds(self, form: dict[str, Any]) -> None:
        """Cancel the unconfirmed bookings shown on this page, at once (the service checks the permission and that
        each is still an unconfirmed hold: all or none)."""
        actor = await self._writer()
        if actor is None:
            return
        ids = [r.id for r in self.rows if r.status.value == "unconfirmed"]
        await self._submit(
            actor,
            lambda s, a: meetings_admin.cancel_unconfirmed(s, actor=a, meeting_ids=ids),
            "Failed to cancel the unconfirmed bookings",
            "Unconfirmed bookings cancelled",
            "Their times are free again.",
        )

    @rx.event
    async def complete(self, meeting_id: int) -> None:
        actor = await self._writer()
        if actor is None:
            return
        mid = row_id(meeting_id)
        failed = "Failed to update meeting"
        ok, _ = await self._attempt(
            actor, lambda s, a: meetings_admin.complete_meeting(s, actor=a, meeting_id=mid), failed, failed
        )
        if not ok:
            return
        await self._notify("success", "Meeting marked completed")
        await self._reload()
