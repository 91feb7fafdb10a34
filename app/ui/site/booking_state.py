"""The built-in booking flow's state: type → day and time (a month calendar, in the visitor's time zone) → details →
confirmation (signed out: "confirm from the e-mail"); the mailed confirmation link's page; and the manage link's page
(reschedule, after a confirmation, or cancel). Every rule lives in `app.services.scheduling.booking` (and the month's
days in `booking_calendar`, the zones in `platform.zones`); this only keeps the view's data."""

from __future__ import annotations

import calendar
import dataclasses
import logging
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import reflex as rx

from app.core.errors import DomainError, Invalid
from app.models.enums import Role
from app.services.platform import company, zones
from app.services.scheduling import booking, booking_calendar
from app.ui import routes
from app.ui.state.calls import as_actor, call
from app.ui.state.company import AT_BUILD
from app.ui.state.session import SessionState

log = logging.getLogger(__name__)

FAILED = "Something went wrong. Please try again or contact us."
WEEKDAYS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")  # the calendar's columns: weeks start on Sunday (US)


@dataclasses.dataclass
class SlotView:
    start: str = ""  # UTC ISO, what the service takes back
    label: str = ""  # "9:30 AM" in the visitor's zone


@dataclasses.dataclass
class TypeView:
    slug: str = ""
    name: str = ""
    duration: int = 0
    description: str = ""
    host: str = ""  # the organizer's name (or the host typed for the type); empty: the company's


@dataclasses.dataclass
class ZoneOption:
    """One line of the time-zone picker: "New York (UTC-05:00)" and its country."""

    name: str = ""  # the IANA name, what set_zone takes back
    label: str = ""
    country: str = ""


@dataclasses.dataclass
class CalendarDay:
    """One cell of the month calendar; padding before the 1st and after the last day has an empty key."""

    key: str = ""  # ISO date in the visitor's zone
    day: str = ""  # "5"
    label: str = ""  # "Saturday, December 5: free times": a free day's button's accessible name
    free: bool = False
    today: bool = False


def _zone(name: str) -> ZoneInfo:
    listed = zones.canonical(name)
    return ZoneInfo(listed) if listed else company.zone()


def zone_label(name: str) -> str:
    """'New York (UTC-05:00)': the zone's city and its offset now."""
    listed = zones.canonical(name)
    return zones.choice(listed).label if listed else name


def when_label(iso: str, zone_name: str) -> str:
    """'Tuesday, December 1, 2026 at 9:30 AM (New York, EST)' in the visitor's zone."""
    local = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(_zone(zone_name))
    where = zones.city(zone_name) if zone_name != zones.UTC_NAME else ""
    return local.strftime("%A, %B %-d, %Y at %-I:%M %p") + f" ({', '.join(p for p in (where, local.tzname()) if p)})"


def month_cells(month: str, free: set[str], today: date) -> list[CalendarDay]:
    """The month's calendar, Sunday first: blank cells up to the 1st, then each day (free: it has a slot)."""
    first = datetime.strptime(month, "%Y-%m").date()
    lead = (first.weekday() + 1) % 7  # Monday is 0 to Python, Sunday our first column
    cells = [CalendarDay() for _ in range(lead)]
    for number in range(1, calendar.monthrange(first.year, first.month)[1] + 1):
        day = first.replace(day=number)
        key = day.isoformat()
        label = day.strftime("%A, %B %-d") + (": free times" if key in free else ": no free times")
        cells.append(CalendarDay(key, str(number), label, key in free, day == today))
    return cells + [CalendarDay() for _ in range(-len(cells) % 7)]


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
    host: str = ""
    description: str = ""
    zone_name: str = AT_BUILD.business_timezone
    zone_label: str = zone_label(AT_BUILD.business_timezone)
    # The time-zone picker: closed, it is one button; open, a search field over the matching zones (sent on open, so
    # the ~420 zones are never in the page's HTML or bundle).
    zone_open: bool = False
    zone_query: str = ""
    zone_options: list[ZoneOption] = []
    zone_first: int = 0  # how many of zone_options are the ones offered first (no search typed)
    _detected: str = ""  # the browser's zone, offered first
    # The month calendar, in the visitor's zone: the shown month, its neighbours that can hold times ("" for none),
    # its cells, and the chosen day with its times.
    month: str = ""
    month_label: str = ""
    prev_month: str = ""
    next_month: str = ""
    cells: list[CalendarDay] = []
    has_free: bool = False  # the shown month has a free day
    day: str = ""
    day_label: str = ""
    day_slots: list[SlotView] = []
    _month_slots: dict[str, list[str]] = {}  # the shown month's free starts (UTC ISO) by local day
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
    # Rescheduling asks first: "Move your meeting from <chosen_label> to <move_label>?"
    move_start: str = ""
    move_label: str = ""
    _confirm_token: str = ""
    _manage_token: str = ""
    _current: str = ""  # the managed booking's start (UTC ISO), while another time is being chosen
    _carried: str = ""  # a notice that survives the reload onto the new manage link

    # --- shared --------------------------------------------------------------------------------------------------

    @rx.event
    def set_zone(self, name: str):
        """The visitor's zone, from the picker; an alias is read as the zone it stands for, unknown names keep the
        current one. The shown month is counted again in the new zone."""
        listed = zones.canonical(name)
        if listed is None:
            return None
        self.zone_name, self.zone_label = listed, zone_label(listed)
        self.zone_open, self.zone_query = False, ""
        if self.chosen_start:
            self.chosen_label = when_label(self.chosen_start, self.zone_name)
        if self.move_start:
            self.move_label = when_label(self.move_start, self.zone_name)
        if self.step == "times":
            return BookingFlowState.load_month
        return None

    @rx.event
    def detect_zone(self, name: str):
        """The browser's zone when the page mounts: the flow's zone, and the first one the picker offers."""
        listed = zones.canonical(name)
        if listed is None:
            return None
        self._detected = listed
        flow: Any = BookingFlowState  # an event spec to Reflex, a namespace to mypy
        return flow.set_zone(listed)

    @rx.event
    def toggle_zones(self) -> None:
        self.zone_open = not self.zone_open
        self.zone_query = ""
        self._list_zones()

    @rx.event
    def close_zones(self) -> None:
        self.zone_open, self.zone_query = False, ""

    @rx.event
    def search_zones(self, query: str) -> None:
        self.zone_query = str(query)[:60]
        self._list_zones()

    @rx.event
    def zone_keys(self, key: str):
        """Enter picks the first match of the search, Escape closes the picker."""
        if key == "Escape":
            self.zone_open, self.zone_query = False, ""
        elif key == "Enter" and self.zone_options:
            flow: Any = BookingFlowState  # an event spec to Reflex, a namespace to mypy
            return flow.set_zone(self.zone_options[0].name)
        return None

    def _list_zones(self) -> None:
        if not self.zone_open:
            self.zone_options, self.zone_first = [], 0
            return
        found = zones.choices(first=self._detected or self.zone_name, query=self.zone_query)
        self.zone_options = [ZoneOption(c.name, c.label, c.country) for c in found]
        self.zone_first = 0 if self.zone_query.strip() else zones.common_count(self._detected or self.zone_name)

    @rx.event
    async def load_month(self):
        """The shown month's free days (and the chosen day's times, if it still has any) in the visitor's zone."""
        self.loading, self.message = True, ""
        yield
        try:
            found = await call(
                booking_calendar.month_availability,
                type=self.type_slug,
                month=self.month or None,
                time_zone=self.zone_name,
            )
        except DomainError as exc:
            self.cells, self._month_slots, self.message = [], {}, exc.message
            self.loading = False
            return
        first_load = not self.month
        self._month_slots = {d.date: [slot.start for slot in d.slots] for d in found.days}
        if first_load and not found.days and found.next:  # nothing left this month: open on the next one
            self.month = found.next
            self.loading = False
            yield BookingFlowState.load_month
            return
        self.month, self.prev_month, self.next_month = found.month, found.previous or "", found.next or ""
        self.month_label = datetime.strptime(found.month, "%Y-%m").strftime("%B %Y")
        today = datetime.now(_zone(self.zone_name)).date()
        self.cells = month_cells(found.month, set(self._month_slots), today)
        self.has_free = bool(self._month_slots)
        self._show_day(self.day if self.day in self._month_slots else "")
        self.loading = False

    def _show_day(self, key: str) -> None:
        self.day = key
        starts = self._month_slots.get(key, [])
        self.day_slots = [SlotView(start, time_label(start, self.zone_name)) for start in starts]
        self.day_label = datetime.fromisoformat(key).strftime("%A, %B %-d") if key else ""

    @rx.event
    def choose_day(self, key: str) -> None:
        if isinstance(key, str) and key in self._month_slots:
            self._show_day(key)

    @rx.event
    def change_month(self, month: str):
        """To a neighbouring month the service offered (any other is moved into range by the service)."""
        if isinstance(month, str) and month and month in (self.prev_month, self.next_month):
            self.month, self.day, self.day_slots = month, "", []
            return BookingFlowState.load_month
        return None

    def _open_calendar(self):
        self.step, self.month, self.day, self.day_slots, self.cells, self.message = "times", "", "", [], [], ""
        return BookingFlowState.load_month

    # --- booking ---------------------------------------------------------------------------------------------------

    @rx.event
    async def load_types(self):
        self.mode, self.step, self.errors, self.message = "book", "types", {}, ""
        self.chosen_start = self.chosen_label = self.join_url = self.manage_url = ""
        self.status = self.held_until = self.email_to = ""
        self._manage_token = ""
        try:
            rows = await call(booking_calendar.bookable_types)
        except DomainError as exc:
            self.types, self.message = [], exc.message
        else:
            self.types = [TypeView(t.slug, t.name, t.durationMinutes, t.description or "", t.host or "") for t in rows]
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
        self.host, self.description = found.host, found.description
        return self._open_calendar()

    @rx.event
    def back_to_types(self) -> None:
        self.step, self.chosen_start = "types", ""

    @rx.event
    def choose_slot(self, start: str):
        self.chosen_start = str(start)
        self.chosen_label = when_label(self.chosen_start, self.zone_name)
        self.errors, self.message = {}, ""
        if self.mode == "manage":  # asked first: the move mails both sides and replaces the link
            self.move_start, self.move_label = self.chosen_start, self.chosen_label
            self.chosen_start, self.chosen_label = self._current, when_label(self._current, self.zone_name)
            return None
        self.step = "details"
        return None

    @rx.event
    def back_to_times(self):
        self.step = "times"
        return BookingFlowState.load_month

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
                yield BookingFlowState.load_month
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
        self.chosen_start = self._current = found.start
        self.chosen_label = when_label(found.start, self.zone_name)
        self.move_start = self.move_label = ""
        self.duration = int((_parse(found.end) - _parse(found.start)).total_seconds() // 60)
        self.join_url, self.status = found.joinUrl or "", found.status
        self.held_until = time_label(found.holdExpiresAt, self.zone_name) if found.holdExpiresAt else ""
        self.can_reschedule, self.can_cancel = found.can_reschedule, found.can_cancel
        self.can_add_to_calendar = found.can_add_to_calendar
        self.cancelled_on = when_label(found.cancelledAt, self.zone_name) if found.cancelledAt else ""
        self.cancelled_note = cancelled_note(found.cancelledBy, found.cancelReason)
        self.step = "cancelled" if found.status == "cancelled" else "view"

    @rx.event
    async def start_reschedule(self):
        if not self.can_reschedule:
            return None
        # Who hosts it, beside the calendar as on the booking page (the manage link's booking does not say).
        try:
            found = await call(booking_calendar.bookable_types)
        except DomainError:
            found = []
        mine = next((t for t in found if t.slug == self.type_slug), None)
        self.host, self.description = (mine.host or "", mine.description or "") if mine else ("", "")
        return self._open_calendar()

    @rx.event
    def back_to_view(self) -> None:
        self.step, self.move_start, self.move_label = "view", "", ""

    @rx.event
    def move_dialog(self, is_open: bool) -> None:
        """The confirmation closed by Escape or "Keep current time": nothing moves."""
        if not is_open:
            self.move_start = self.move_label = ""

    @rx.event
    async def reschedule(self):
        if self.busy or not self.move_start:
            return
        self.busy = True
        yield
        token, start = self._manage_token, self.move_start
        try:
            done = await call(
                booking.reschedule,
                token=token,
                data={"start": start, "timeZone": self.zone_name},
                ip=self.router.session.client_ip or None,
            )
        except DomainError as exc:
            self.message = exc.message
            self.busy, self.move_start, self.move_label = False, "", ""
            yield BookingFlowState.load_month
            return
        self.busy, self.move_start, self.move_label = False, "", ""
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
