"""The meeting types' state: one page of the types the booking view offers (in its order), and their create, edit and
activate actions. A short list in practice, paged all the same so its state never grows with the table."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any, ClassVar

import reflex as rx

from app.core.permissions import Perm
from app.services.platform import company
from app.services.platform.schema import parse
from app.services.scheduling import booking_settings, meetings_admin
from app.services.scheduling.meetings_admin import MeetingTypeCreate, MeetingTypeRow, MeetingTypeSave
from app.ui.admin.common import form_text
from app.ui.admin.dialogs import FormDialog
from app.ui.admin.paged import PagedList, SectionListing
from app.ui.admin.state import AdminState
from app.ui.rows import Choice, Row
from app.ui.state.calls import call

FEATURE = "Meetings"
PAGE_SIZE = 20


@dataclasses.dataclass
class TypeRow(Row):
    """A meeting type as its card and the edit form show it."""

    name: str = ""
    duration: int = 30
    host_name: str = ""
    description: str = ""
    scheduling_url: str = ""
    active: bool = True
    # In-app booking. The form sets one set of hours for the ticked weekdays (the service takes per-day windows).
    organizer_id: str = ""
    days: list[bool] = dataclasses.field(default_factory=lambda: [d < 5 for d in range(7)])
    opens: str = "09:00"
    closes: str = "17:00"
    buffer_before: int = 0
    buffer_after: int = 0
    notice_minutes: int = 120
    horizon_days: int = 30
    dates_off: str = ""
    join_url: str = ""


WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def type_row(t: MeetingTypeRow) -> TypeRow:
    hours = t.availability
    first = next((w[0] for w in hours.values() if w), ["09:00", "17:00"])
    return TypeRow(
        id=t.id,
        name=t.name,
        duration=t.duration_minutes or 30,
        host_name=t.host_name or "",
        description=t.description or "",
        scheduling_url=t.scheduling_url or "",
        active=t.is_active,
        organizer_id=t.organizer_id or "",
        days=[bool(hours.get(str(d))) for d in range(7)],
        opens=first[0],
        closes=first[1],
        buffer_before=t.buffer_before_minutes,
        buffer_after=t.buffer_after_minutes,
        notice_minutes=t.min_notice_minutes,
        horizon_days=t.horizon_days or 30,
        dates_off="\n".join(t.dates_off),
        join_url=t.join_url or "",
    )


def booking_data(form: dict[str, Any]) -> dict[str, Any]:
    """The booking settings of the form, as the service takes them (blank clears)."""
    opens, closes = form_text(form, "opens", 5), form_text(form, "closes", 5)
    ticked = [d for d in range(7) if str(form.get(f"day_{d}") or "") in ("on", "true")]
    return {
        "organizer_id": form_text(form, "organizer_id", 64) or None,
        "availability": {str(d): [[opens, closes]] for d in ticked},
        "buffer_before_minutes": form_text(form, "buffer_before_minutes") or "0",
        "buffer_after_minutes": form_text(form, "buffer_after_minutes") or "0",
        "min_notice_minutes": form_text(form, "min_notice_minutes") or "0",
        "horizon_days": form_text(form, "horizon_days") or "30",
        "dates_off": form_text(form, "dates_off", 5000) or None,
        "join_url": form_text(form, "join_url", 500) or None,
    }


class MeetingTypesState(FormDialog, PagedList[TypeRow], AdminState):
    listing: ClassVar[SectionListing[TypeRow]] = SectionListing(
        Perm.meetings_read, FEATURE, meetings_admin.list_types, type_row, "meeting types"
    )
    rows: rx.Field[list[TypeRow]] = rx.field(default_factory=list)
    page_size: int = PAGE_SIZE

    edit: TypeRow = TypeRow()
    organizers: list[Choice] = []
    business_zone: str = ""  # the time zone the weekly hours are read in (Settings > Company)

    def _write_guard(self) -> tuple[str, str]:
        return Perm.meetings_write, FEATURE

    @rx.event
    async def open_type(self, type_id: int) -> None:
        """The form for the type `type_id` of this page, or for a new one (0)."""
        if await self._writer() is None:
            return
        row = self._shown_row(type_id)
        self.edit = dataclasses.replace(row) if row else TypeRow()
        staff = await call(booking_settings.staff_choices)
        self.business_zone = (await asyncio.to_thread(company.cached)).business_timezone
        self.organizers = [Choice("", "Nobody (the company calendar)")] + [Choice(v, label) for v, label in staff]
        self._open_form(row.id if row else 0)

    async def _save_type(self, data: dict[str, Any], type_id: int | None) -> bool:
        actor = await self._writer()
        if actor is None:
            return False
        ok, _ = await self._save(
            actor,
            lambda s, a: meetings_admin.save_type(
                s, actor=a, data=parse(MeetingTypeSave if type_id else MeetingTypeCreate, data), type_id=type_id
            ),
            "Failed to save meeting type",
        )
        if not ok:
            return False
        await self._notify("success", "Meeting type saved")
        await self._reload()
        return True

    @rx.event
    async def submit_type(self, form: dict[str, Any]) -> None:
        data = {
            "name": form_text(form, "name", 200),
            "duration_minutes": form_text(form, "duration_minutes") or "30",
            "host_name": form_text(form, "host_name", 200),
            "description": form_text(form, "description", 2000),
            "scheduling_url": form_text(form, "scheduling_url", 500),
            "is_active": str(form.get("is_active") or "") in ("on", "true"),
            **booking_data(form),
        }
        if await self._save_type(data, self._dialog_row() or None):
            self.close_dialogs()

    @rx.event
    async def toggle_type(self, type_id: int, active: bool) -> None:
        try:
            type_id = int(type_id)
        except (TypeError, ValueError):
            return
        await self._save_type({"is_active": bool(active)}, type_id)
