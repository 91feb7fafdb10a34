"""The Meetings tab's "Reschedule" for a client's own booking: a dialog offering the free times of its meeting type (a
week at a time, in the client's own zone), then "are you sure?" before it moves. Every rule is the service's
(`booking.client_slots`, `booking.client_reschedule`): the owner, a booking still ahead, the offered slots, the move
limit; this keeps only what the dialog shows."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import reflex as rx

from app.core.errors import DomainError, Unauthorized
from app.models.user import UserPublic
from app.services.platform import company, zones
from app.services.scheduling import booking
from app.services.scheduling.booking import SlotOut
from app.ui.portal import components as ui
from app.ui.portal.state import PortalState, error_message
from app.ui.state.calls import as_actor

WEEK = 7
WEEKS_AHEAD = 4  # the farthest week offered (the types' horizons are about a month)
MOVE_FAILED = "Failed to move the meeting. Please try again."


@dataclasses.dataclass
class MoveSlot:
    start: str = ""  # UTC ISO, what the service takes back
    label: str = ""  # "9:30 AM" in the client's zone


@dataclasses.dataclass
class MoveDay:
    key: str = ""
    weekday: str = ""  # "Tue"
    label: str = ""  # "Dec 1"
    slots: list[MoveSlot] = dataclasses.field(default_factory=list)


def reader_zone(name: str) -> ZoneInfo:
    """The client's zone as their browser names it (an alias read as the zone it stands for), else the business's."""
    named = zones.canonical(name)
    try:
        return ZoneInfo(named) if named else company.zone()
    except (ZoneInfoNotFoundError, ValueError):
        return company.zone()


def _local(iso: str, tz: ZoneInfo) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(tz)


def when_label(iso: str, tz: ZoneInfo) -> str:
    """'Tuesday, December 1, 2026 at 9:30 AM EST' in the client's zone."""
    local = _local(iso, tz)
    return local.strftime("%A, %B %-d, %Y at %-I:%M %p ") + (local.tzname() or "")


def by_day(slots: list[SlotOut], tz: ZoneInfo) -> list[MoveDay]:
    """Free slots grouped by the client's local date, in order."""
    days: dict[str, MoveDay] = {}
    for slot in slots:
        local = _local(slot.start, tz)
        key = local.date().isoformat()
        day = days.setdefault(key, MoveDay(key, local.strftime("%a"), local.strftime("%b %-d")))
        day.slots.append(MoveSlot(slot.start, local.strftime("%-I:%M %p")))
    return list(days.values())


class RescheduleDialog(PortalState, mixin=True):
    """The tab implements `_moved` (its list brought up to date, the notice, and the events that bring other views up
    to date)."""

    move_id: int = 0  # the booking being moved (0: the dialog is closed)
    move_title: str = ""
    move_from: str = ""  # its time now, in the client's zone
    move_zone: str = ""  # the browser's zone name
    move_week: int = 0
    move_days: list[MoveDay] = []
    move_day: str = ""  # the day whose times are shown (a week of buttons would be a wall on a phone)
    move_slots: list[MoveSlot] = []
    move_loading: bool = False
    move_start: str = ""  # the chosen time ("": still choosing)
    move_to: str = ""
    move_error: str = ""
    moving: bool = False

    async def _moved(self, user: UserPublic, notice: str) -> Any:
        raise NotImplementedError

    @rx.event
    def set_move_zone(self, name: str) -> None:
        if isinstance(name, str):
            self.move_zone = name[:64]

    @rx.event
    def ask_move(self, meeting_id: int, title: str, scheduled_at: str):
        """Open the dialog on this week's free times (nothing moves until the client confirms a time)."""
        self.move_id, self.move_title = int(meeting_id), str(title)[:200]
        try:
            self.move_from = when_label(str(scheduled_at), reader_zone(self.move_zone))
        except ValueError:  # the card's own ISO time; anything else is not shown
            self.move_from = ""
        self.move_week, self.move_start, self.move_to, self.move_error = 0, "", "", ""
        return type(self).load_move_slots

    @rx.event
    async def load_move_slots(self):
        if not self.move_id:
            return
        self.move_loading, self.move_error = True, ""
        yield
        first = booking.zone_today() + timedelta(days=WEEK * self.move_week)
        meeting_id, query = self.move_id, {"from": first, "days": WEEK}
        try:
            user = await self._require_user()
            slots = await as_actor(
                user, lambda s, actor: booking.client_slots(s, actor=actor, meeting_id=meeting_id, data=query)
            )
        except Unauthorized:
            self.move_id = 0
            await self._signed_out()
            return
        except DomainError as exc:
            self.move_days, self.move_error = [], error_message(exc, MOVE_FAILED)
        else:
            self.move_days = by_day(slots, reader_zone(self.move_zone))
        finally:
            self.move_loading = False
        self._show_day(self.move_days[0].key if self.move_days else "")

    def _show_day(self, key: str) -> None:
        day = next((d for d in self.move_days if d.key == key), None)
        self.move_day, self.move_slots = (day.key, day.slots) if day else ("", [])

    @rx.event
    def choose_move_day(self, key: str) -> None:
        self._show_day(str(key))

    @rx.event
    def change_move_week(self, delta: int):
        self.move_week = max(0, min(WEEKS_AHEAD, self.move_week + int(delta)))
        return type(self).load_move_slots

    @rx.event
    def choose_move(self, start: str) -> None:
        """A time picked: ask before moving (the step a mistaken tap would otherwise take)."""
        if not any(slot.start == start for slot in self.move_slots):  # only a time the dialog offered
            return
        self.move_start = str(start)
        self.move_to = when_label(self.move_start, reader_zone(self.move_zone))
        self.move_error = ""

    @rx.event
    def back_to_move_times(self) -> None:
        self.move_start, self.move_to, self.move_error = "", "", ""

    @rx.event
    def set_move_open(self, is_open: bool) -> None:
        if not is_open and not self.moving:
            self.move_id, self.move_start, self.move_error = 0, "", ""

    @rx.event
    async def confirm_move(self):
        meeting_id, start = self.move_id, self.move_start
        if not meeting_id or not start or self.moving:
            return
        self.moving, self.move_error = True, ""
        yield
        zone = reader_zone(self.move_zone).key
        data: dict[str, Any] = {"start": start, "timeZone": zone}
        try:
            user = await self._require_user()
            await as_actor(
                user, lambda s, actor: booking.client_reschedule(s, actor=actor, meeting_id=meeting_id, data=data)
            )
        except Unauthorized:
            self.moving, self.move_id = False, 0
            await self._signed_out()
            return
        except DomainError as exc:  # taken meanwhile, moved too often, no longer ahead: the service's words
            self.moving, self.move_start, self.move_error = False, "", error_message(exc, MOVE_FAILED)
            yield type(self).load_move_slots
            return
        label = self.move_to
        self.moving, self.move_id, self.move_start = False, 0, ""
        yield await self._moved(user, f"Your meeting now starts {label}. We've e-mailed you the updated invitation.")


def _slot_button(tab: Any, slot: Any) -> rx.Component:
    return rx.el.button(
        slot.label,
        type="button",
        on_click=tab.choose_move(slot.start),
        class_name="h-10 w-full rounded-lg border border-blue-200 bg-white px-3 text-sm font-medium text-blue-800 "
        "hover:border-blue-700 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600",
    )


def _day(tab: Any, day: Any) -> rx.Component:
    chosen = tab.move_day == day.key
    return rx.el.button(
        rx.el.span(day.weekday, class_name="text-xs font-medium uppercase"),
        rx.el.span(day.label, class_name="text-sm font-semibold"),
        type="button",
        on_click=tab.choose_move_day(day.key),
        aria_pressed=rx.cond(chosen, "true", "false"),
        class_name=rx.cond(
            chosen,
            "flex w-16 flex-col items-center rounded-lg border border-blue-800 bg-blue-800 py-1.5 text-white",
            "flex w-16 flex-col items-center rounded-lg border border-slate-300 bg-white py-1.5 text-slate-800 "
            "hover:border-blue-700",
        ),
    )


def _times(tab: Any) -> rx.Component:
    nav = rx.el.div(
        rx.el.button(
            rx.icon("chevron-left", size=16, aria_hidden="true"),
            "Earlier",
            type="button",
            disabled=(tab.move_week == 0) | tab.move_loading,
            on_click=tab.change_move_week(-1),
            class_name=ui.BUTTON_SECONDARY,
        ),
        rx.el.button(
            "Later",
            rx.icon("chevron-right", size=16, aria_hidden="true"),
            type="button",
            disabled=(tab.move_week >= WEEKS_AHEAD) | tab.move_loading,
            on_click=tab.change_move_week(1),
            class_name=ui.BUTTON_SECONDARY,
        ),
        class_name="flex justify-between gap-2",
    )
    return rx.el.div(
        nav,
        rx.el.p(
            "Times are in your time zone. Pick one to see it before anything changes.",
            class_name="text-sm text-slate-600",
        ),
        rx.cond(
            tab.move_loading,
            rx.el.p("Loading free times...", role="status", class_name="text-sm text-slate-600"),
            rx.cond(
                tab.move_days.length() > 0,
                rx.el.div(
                    rx.el.div(
                        rx.foreach(tab.move_days, lambda d: _day(tab, d)),
                        role="group",
                        aria_label="Days with free times",
                        class_name="flex flex-wrap gap-2",
                    ),
                    rx.el.div(
                        rx.foreach(tab.move_slots, lambda slot: _slot_button(tab, slot)),
                        role="group",
                        aria_label="Free times",
                        class_name="grid grid-cols-3 gap-2 sm:grid-cols-4",
                    ),
                    class_name="flex flex-col gap-4",
                ),
                rx.el.p("No free times this week. Try a later week.", class_name="text-sm text-slate-600"),
            ),
        ),
        class_name="flex flex-col gap-4",
    )


def _confirm(tab: Any) -> rx.Component:
    return rx.el.div(
        rx.el.dl(
            rx.el.dt("Now", class_name="text-xs font-semibold uppercase tracking-wide text-slate-500"),
            rx.el.dd(rx.el.span(tab.move_from, class_name="line-through"), class_name="text-slate-700"),
            rx.el.dt("New time", class_name="mt-2 text-xs font-semibold uppercase tracking-wide text-slate-500"),
            rx.el.dd(tab.move_to, class_name="font-semibold text-slate-900"),
            class_name="rounded-lg bg-slate-50 p-3",
        ),
        rx.el.p("Your host and you get the updated invitation by e-mail.", class_name="text-sm text-slate-600"),
        rx.el.div(
            rx.el.button(
                "Choose another time",
                type="button",
                disabled=tab.moving,
                on_click=tab.back_to_move_times,
                class_name=ui.BUTTON_SECONDARY,
            ),
            rx.el.button(
                rx.cond(tab.moving, "Moving...", "Yes, move it"),
                type="button",
                disabled=tab.moving,
                on_click=tab.confirm_move,
                class_name=ui.BUTTON_PRIMARY,
            ),
            class_name="flex flex-wrap justify-end gap-3",
        ),
        class_name="flex flex-col gap-3",
    )


def zone_detector(tab: Any) -> rx.Component:
    """Tells the tab the browser's time zone when the list mounts (read in compiled code, sent as the argument)."""
    zone = rx.Var("Intl.DateTimeFormat().resolvedOptions().timeZone").to(str)
    return rx.el.span(hidden=True, on_mount=tab.set_move_zone(zone))


def reschedule_dialog(tab: Any) -> rx.Component:
    """The dialog of a RescheduleDialog tab (`tab`: its class)."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.el.div(
                rx.dialog.title(
                    rx.cond(tab.move_start != "", "Move your meeting?", "Reschedule meeting"), class_name="m-0"
                ),
                rx.dialog.close(
                    rx.el.button(
                        rx.icon("x", size=18, aria_hidden="true"),
                        type="button",
                        aria_label="Close",
                        class_name="rounded-md p-1 text-slate-600 hover:bg-slate-100",
                    )
                ),
                class_name="flex items-start justify-between gap-3",
            ),
            rx.dialog.description(
                rx.el.strong(tab.move_title),
                rx.cond(tab.move_start == "", rx.el.span(" · now ", tab.move_from), rx.fragment()),
                class_name="text-sm text-slate-700",
            ),
            rx.el.div(ui.error_text(tab.move_error), class_name="mt-2"),
            rx.el.div(rx.cond(tab.move_start != "", _confirm(tab), _times(tab)), class_name="mt-3"),
            max_width="36rem",
            class_name="max-h-[85vh] overflow-y-auto",
            data_testid="reschedule-dialog",
        ),
        open=tab.move_id != 0,
        on_open_change=tab.set_move_open,
    )
