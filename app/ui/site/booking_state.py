"""The built-in booking flow's state: type → time (in the visitor's time zone) → details → confirmation (signed out:
"confirm from the e-mail"); the mailed confirmation link's page; and the manage link's page (reschedule or cancel).
Every rule lives in `app.services.scheduling.booking`; this only keeps the view's data."""

from __future__ import annotations

import dataclasses
import logging
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import reflex as rx

from app.core.errors import DomainError, Invalid
from app.models.enums import Role
from app.services.platform import company
from app.services.scheduling import booking
from app.services.scheduling.booking import SlotOut
from app.ui import routes
from app.ui.state.calls import as_actor, call
from app.ui.state.company import AT_BUILD
from app.ui.state.session import SessionState

log = logging.getLogger(__name__)

WEEK = 7
FAILED = "Something went wrong. Please try again or contact us."
ZONES = company.ZONES  # the time-zone picker's choices (compiled into the page)


@dataclasses.dataclass
class SlotView:
    start: str = ""  # UTC ISO, what the service takes back
    label: str = ""  # "9:30 AM" in the visitor's zone


@dataclasses.dataclass
class DayView:
    key: str = ""
    weekday: str = ""
    label: str = ""
    slots: list[SlotView] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class TypeView:
    slug: str = ""
    name: str = ""
    duration: int = 0
    description: str = ""


def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name) if name in ZONES or name == "UTC" else company.zone()


def when_label(iso: str, zone_name: str) -> str:
    """'Tuesday, December 1, 2026 at 9:30 AM (America/Chicago)' in the visitor's zone."""
    local = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(_zone(zone_name))
    return local.strftime("%A, %B %-d, %Y at %-I:%M %p") + f" ({zone_name})"


def group_days(slots: list[SlotOut], zone_name: str) -> list[DayView]:
    """Slots grouped by the visitor's local date, in order."""
    tz = _zone(zone_name)
    days: dict[str, DayView] = {}
    for slot in slots:
        local = datetime.fromisoformat(slot.start.replace("Z", "+00:00")).astimezone(tz)
        key = local.date().isoformat()
        day = days.setdefault(key, DayView(key, local.strftime("%A"), local.strftime("%b %-d")))
        day.slots.append(SlotView(slot.start, local.strftime("%-I:%M %p")))
    return list(days.values())


def time_label(iso: str, zone_name: str) -> str:
    """'9:30 AM' in the visitor's zone."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(_zone(zone_name)).strftime("%-I:%M %p")


class BookingFlowState(SessionState):
    mode: str = "book"  # book (the /book-meeting flow), manage (the manage link's page) or confirm (the mailed link's)
    step: str = (
        "types"  # types, times, details, done; manage: view, times, cancelled, invalid; confirm: confirm, invalid
    )
    types: list[TypeView] = []
    type_slug: str = ""
    type_name: str = ""
    duration: int = 0
    zone_name: str = AT_BUILD.business_timezone
    week: int = 0  # weeks from today
    days: list[DayView] = []
    loading: bool = False
    chosen_start: str = ""
    chosen_label: str = ""
    errors: dict[str, str] = {}
    message: str = ""
    busy: bool = False
    booker: str = ""  # "Dana Whitfield (client@example.com)" for a signed-in client
    join_url: str = ""
    manage_url: str = ""
    status: str = ""  # the booking's: unconfirmed (booked signed out, until confirmed) or scheduled
    held_until: str = ""  # an unconfirmed booking's hold, "9:30 AM" in the visitor's zone
    # What the manage link's booker may do, as the service decided (ManagedBooking).
    can_reschedule: bool = False
    can_cancel: bool = False
    can_add_to_calendar: bool = False
    # A cancelled booking's manage link: when (in the visitor's zone) and by whom, in words (ADR 0089).
    cancelled_on: str = ""
    cancelled_note: str = ""
    email_to: str = ""  # where the confirmation link went
    confirm_cancel: bool = False
    _confirm_token: str = ""
    _manage_token: str = ""
    _carried: str = ""  # a notice that survives the reload onto the new manage link

    # --- shared --------------------------------------------------------------------------------------------------

    @rx.event
    def set_zone(self, name: str):
        """The visitor's zone, from the browser or the picker; unknown names keep the current one."""
        if isinstance(name, str) and (name in ZONES or name == "UTC"):
            self.zone_name = name
            if self.chosen_start:
                self.chosen_label = when_label(self.chosen_start, self.zone_name)
            if self.step == "times":
                return BookingFlowState.load_slots

    @rx.event
    async def load_slots(self):
        self.loading, self.message = True, ""
        yield
        first = booking.zone_today() + timedelta(days=WEEK * self.week)
        try:
            slots = await call(booking.free_slots, data={"type": self.type_slug, "from": first, "days": WEEK})
        except DomainError as exc:
            self.days, self.message = [], exc.message
        else:
            self.days = group_days(slots, self.zone_name)
        self.loading = False

    @rx.event
    def change_week(self, delta: int):
        self.week = max(0, min(4, self.week + int(delta)))
        return BookingFlowState.load_slots

    # --- booking ---------------------------------------------------------------------------------------------------

    @rx.event
    async def load_types(self):
        self.mode, self.step, self.errors, self.message = "book", "types", {}, ""
        self.chosen_start = self.chosen_label = self.join_url = self.manage_url = ""
        self.status = self.held_until = self.email_to = ""
        self._manage_token = ""
        try:
            rows = await call(booking.active_types)
        except DomainError as exc:
            self.types, self.message = [], exc.message
        else:
            self.types = [TypeView(t.slug, t.name, t.duration_minutes, t.description or "") for t in rows]
        user = await self._user()
        self.booker = (
            f"{user.first_name or ''} {user.last_name or ''}".strip() + f" ({user.email})"
            if user is not None and user.role == Role.client
            else ""
        )
        # The portal's "Book New Meeting" cards link here with ?type=<slug>: start at that type's times.
        wanted = (self.router.url.query_parameters.get("type") or "").strip()[:100]
        if any(t.slug == wanted for t in self.types):
            flow: Any = BookingFlowState  # an event spec to Reflex, a namespace to mypy
            return flow.choose_type(wanted)
        return None

    @rx.event
    def choose_type(self, slug: str):
        found = next((t for t in self.types if t.slug == slug), None)
        if found is None:
            return None
        self.type_slug, self.type_name, self.duration = found.slug, found.name, found.duration
        self.step, self.week, self.days = "times", 0, []
        return BookingFlowState.load_slots

    @rx.event
    def back_to_types(self) -> None:
        self.step, self.chosen_start = "types", ""

    @rx.event
    def choose_slot(self, start: str):
        self.chosen_start = str(start)
        self.chosen_label = when_label(self.chosen_start, self.zone_name)
        self.errors, self.message = {}, ""
        if self.mode == "manage":
            return BookingFlowState.reschedule
        self.step = "details"
        return None

    @rx.event
    def back_to_times(self):
        self.step = "times"
        return BookingFlowState.load_slots

    @rx.event
    async def submit(self, form: dict[str, Any]):
        if self.busy or not self.chosen_start:
            return
        self.busy, self.errors, self.message = True, {}, ""
        yield
        data = {k: form.get(k) for k in ("name", "email", "company", "notes")}
        data.update(type=self.type_slug, start=self.chosen_start, timeZone=self.zone_name)
        ip = self.router.session.client_ip or None
        try:
            user = await self._user()
            if user is not None and user.role == Role.client:
                done = await as_actor(user, lambda s, actor: booking.book(s, data=data, ip=ip, actor=actor))
            else:
                done = await call(booking.book, data=data, ip=ip)
        except Invalid as exc:
            self.errors, self.message = dict(exc.errors), exc.message
        except DomainError as exc:  # taken (409) or too many (429): the service's words
            self.message = exc.message
            if exc.status_code == 409:
                self.step = "times"
                yield BookingFlowState.load_slots
        except Exception:
            log.exception("Booking failed")
            self.message = FAILED
        else:
            self.manage_url = done.manageUrl or ""
            self._manage_token = self.manage_url.split("token=", 1)[1]
            self.join_url = done.joinUrl or ""
            self.chosen_label = when_label(done.start, self.zone_name)
            self.status, self.email_to = done.status, done.email or ""
            self.held_until = time_label(done.holdExpiresAt, self.zone_name) if done.holdExpiresAt else ""
            self.step = "done"
        finally:
            self.busy = False

    @rx.event
    async def download_invite(self):
        if not self._manage_token:
            return None
        try:
            text = await call(booking.calendar_file, token=self._manage_token)
        except DomainError as exc:
            self.message = exc.message
            return None
        return rx.download(data=text, filename="meeting.ics", mime_type="text/calendar")

    # --- the manage link ---------------------------------------------------------------------------------------------

    @rx.event
    async def load_manage(self):
        self.mode, self.errors, self.confirm_cancel = "manage", {}, False
        self.message, self._carried = self._carried, ""
        self._manage_token = (self.router.url.query_parameters.get("token") or "").strip()[:200]
        await self._show_booking()

    async def _show_booking(self) -> None:
        try:
            found = await call(booking.get_booking, token=self._manage_token)
        except DomainError as exc:
            self.step, self.message = "invalid", exc.message
            return
        self.type_slug, self.type_name = found.type or "", found.typeName or "Meeting"
        self.chosen_start = found.start
        self.chosen_label = when_label(found.start, self.zone_name)
        self.duration = int((_parse(found.end) - _parse(found.start)).total_seconds() // 60)
        self.join_url, self.status = found.joinUrl or "", found.status
        self.held_until = time_label(found.holdExpiresAt, self.zone_name) if found.holdExpiresAt else ""
        self.can_reschedule, self.can_cancel = found.can_reschedule, found.can_cancel
        self.can_add_to_calendar = found.can_add_to_calendar
        self.cancelled_on = when_label(found.cancelledAt, self.zone_name) if found.cancelledAt else ""
        self.cancelled_note = cancelled_note(found.cancelledBy, found.cancelReason)
        self.step = "cancelled" if found.status == "cancelled" else "view"

    @rx.event
    def start_reschedule(self):
        self.step, self.week, self.days, self.message = "times", 0, [], ""
        return BookingFlowState.load_slots

    @rx.event
    def back_to_view(self) -> None:
        self.step = "view"

    @rx.event
    async def reschedule(self):
        if self.busy:
            return
        self.busy = True
        yield
        token, start = self._manage_token, self.chosen_start
        try:
            done = await call(
                booking.reschedule,
                token=token,
                data={"start": start, "timeZone": self.zone_name},
                ip=self.router.session.client_ip or None,
            )
        except DomainError as exc:
            self.message = exc.message
            self.busy = False
            yield BookingFlowState.load_slots
            return
        self.busy = False
        self._manage_token = (done.manageUrl or "").split("token=", 1)[1]
        self.message = self._carried = "Your meeting has a new time. We've e-mailed the updated invitation."
        await self._show_booking()
        yield rx.redirect(routes.BOOK_MEETING_MANAGE + "?token=" + self._manage_token, replace=True)

    @rx.event
    def ask_cancel(self, value: bool) -> None:
        self.confirm_cancel = bool(value)

    @rx.event
    async def cancel(self):
        if self.busy:
            return
        self.busy = True
        yield
        try:
            await call(
                booking.cancel,
                token=self._manage_token,
                ip=self.router.session.client_ip or None,
                time_zone=self.zone_name,
            )
        except DomainError as exc:
            self.message = exc.message
        else:
            self.message = ""
            await self._show_booking()  # the link now shows it cancelled, as it will whenever it is opened again
        self.busy, self.confirm_cancel = False, False

    # --- the mailed confirmation link ------------------------------------------------------------------------------

    @rx.event
    async def load_confirm(self):
        """Show the held booking; it is confirmed by the button, not by opening the page (mail scanners open links)."""
        self.mode, self.errors, self.message = "confirm", {}, ""
        self._confirm_token = (self.router.url.query_parameters.get("token") or "").strip()[:200]
        try:
            found = await call(booking.get_confirmation, token=self._confirm_token)
        except DomainError as exc:
            self.step, self.message = "invalid", exc.message
        else:
            self.type_name, self.chosen_start = found.typeName or "Meeting", found.start
            self.chosen_label = when_label(found.start, self.zone_name)
            self.email_to = found.email or ""
            self.step = "confirm"

    @rx.event
    async def confirm_booking(self):
        if self.busy or not self._confirm_token:
            return
        self.busy, self.message = True, ""
        yield
        try:
            done = await call(
                booking.confirm,
                token=self._confirm_token,
                ip=self.router.session.client_ip or None,
                time_zone=self.zone_name,
            )
        except DomainError as exc:
            self.message = exc.message
            if exc.status_code in (404, 409):
                self.step = "invalid"
            self.busy = False
            return
        self.busy, self._confirm_token = False, ""
        self._manage_token = (done.manageUrl or "").split("token=", 1)[1]
        self.message = self._carried = "Your booking is confirmed. We've e-mailed you the invitation."
        yield rx.redirect(routes.BOOK_MEETING_MANAGE + "?token=" + self._manage_token, replace=True)


def cancelled_note(by: str | None, reason: str | None) -> str:
    """Who cancelled a booking, as its manage link says it."""
    if by == "booker":
        return "You cancelled it."
    if by == "expired":
        return "It was not confirmed in time, so the time we held for it was released."
    if by == "staff":
        return "We cancelled it." + (f" Reason: {reason}" if reason else "")
    return ""


def _parse(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(UTC)
