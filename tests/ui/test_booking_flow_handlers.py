"""The booking page's handlers (issue 26 point 9): the zone picker's list and search, the month calendar and a day's
times, the host beside them, and a reschedule from the manage link that asks before it moves anything."""

from __future__ import annotations

import asyncio

from sqlmodel import Session

from app.models.enums import EmployeeType, Role
from app.models.meeting import Meeting, MeetingType
from app.services.platform import zones
from app.services.scheduling import booking, booking_calendar
from app.ui.site.booking_state import BookingFlowState
from tests import factories as f
from tests.ui.harness import call, call_returning, handler_state, new_tag, staff

ALL_DAY = {str(d): [["00:00", "24:00"]] for d in range(7)}


def make_type(db: Session) -> MeetingType:
    host = staff(db, EmployeeType.cto, first_name="Elena", last_name="Vasquez")
    t = MeetingType(slug=f"flow-{new_tag()}", name="Flow Call", duration_minutes=30, availability=ALL_DAY,
                    description="What the call is for.", organizer_id=host.id, min_notice_minutes=0)  # fmt: skip
    db.add(t)
    db.commit()
    return t


def open_first_free_day(state: BookingFlowState) -> None:
    call(state, "load_month")
    if not state.has_free:  # late on the month's last day: the service offers the next month
        call(state, "change_month", state.next_month)
        call(state, "load_month")
    assert state.has_free and len(state.cells) % 7 == 0
    first = next(c for c in state.cells if c.free)
    call(state, "choose_day", first.key)
    assert state.day == first.key and state.day_slots and state.day_label


def test_a_visitor_picks_a_zone_a_day_and_a_time(db: Session) -> None:
    t = make_type(db)
    state = handler_state(BookingFlowState, None, "/book-meeting")
    call(state, "load_types")
    mine = next(v for v in state.types if v.slug == t.slug)
    assert (mine.host, mine.description) == ("Elena Vasquez", "What the call is for.")
    call(state, "detect_zone", "Asia/Calcutta")  # an old browser's alias, read as its zone
    call(state, "set_zone", "Asia/Calcutta")
    assert (state.zone_name, state.zone_label) == ("Asia/Kolkata", "Kolkata (UTC+05:30)")

    call(state, "toggle_zones")
    assert state.zone_open and state.zone_options[0].name == "Asia/Kolkata"
    assert state.zone_first == len(zones.COMMON) and len(state.zone_options) == len(zones.zones())
    call(state, "search_zones", "tokyo")
    assert [o.name for o in state.zone_options] == ["Asia/Tokyo"] and state.zone_first == 0
    assert call_returning(state, "zone_keys", "Enter") is not None  # Enter picks the first match
    call(state, "set_zone", "Asia/Tokyo")
    assert state.zone_label == "Tokyo (UTC+09:00)" and not state.zone_open and state.zone_query == ""
    call(state, "set_zone", "Mars/Base")  # an unknown name changes nothing
    assert state.zone_name == "Asia/Tokyo"

    call(state, "choose_type", t.slug)
    assert (state.step, state.host, state.description) == ("times", "Elena Vasquez", "What the call is for.")
    open_first_free_day(state)
    call(state, "choose_day", "1999-01-01")  # a day the month does not offer changes nothing
    slot = state.day_slots[0]
    assert slot.label.endswith(("AM", "PM"))
    days = booking_calendar.month_availability(db, type=t.slug, month=state.month, time_zone="Asia/Tokyo").days
    assert [s.start for s in next(d for d in days if d.date == state.day).slots] == [s.start for s in state.day_slots]
    call(state, "choose_slot", slot.start)
    assert state.step == "details" and "(Tokyo, JST)" in state.chosen_label
    call(state, "submit", {"name": "Vera Visitor", "email": f"vera-{new_tag()}@example.com"})
    assert (state.step, state.status) == ("done", "unconfirmed"), state.message


def test_a_reschedule_asks_before_it_moves_the_meeting(db: Session) -> None:
    t = make_type(db)
    client = f.user(db, f"client_{new_tag()}", role=Role.client, first_name="Dana", last_name="W")
    # Booked a fortnight out, whatever the hour: late on a month's last day, this month holds no free time at all.
    first = booking.free_slots(db, data={"type": t.slug, "days": 14})[-1].start
    done = booking.book(db, data={"type": t.slug, "start": first}, actor=client)
    token = (done.manageUrl or "").split("token=", 1)[1]

    state = handler_state(BookingFlowState, None, "/book-meeting/manage")
    call(state, "set_zone", "UTC")
    state.mode, state._manage_token = "manage", token  # what load_manage reads from the link's ?token=
    asyncio.run(state._show_booking())
    assert state.step == "view" and state.can_reschedule, state.message
    call(state, "start_reschedule")
    assert state.step == "times" and state.host == "Elena Vasquez"  # beside the calendar, as when booking
    open_first_free_day(state)
    new = state.day_slots[0].start  # the first day's first time (late in a day, its only one)
    assert new != first
    call(state, "choose_slot", new)
    # Asked, not moved: the question names both times.
    assert state.move_start == new and state.step == "times" and state.chosen_start == first
    assert state.move_label != state.chosen_label
    db.expire_all()
    assert db.get(Meeting, done.id).start_time.isoformat().startswith(first[:16])  # type: ignore[union-attr]
    call(state, "move_dialog", False)  # "Keep current time"
    assert state.move_start == ""
    call(state, "reschedule")  # nothing chosen: nothing moves
    db.expire_all()
    assert db.get(Meeting, done.id).start_time.isoformat().startswith(first[:16])  # type: ignore[union-attr]
    call(state, "choose_slot", new)
    call(state, "reschedule")
    db.expire_all()
    assert db.get(Meeting, done.id).start_time.isoformat().startswith(new[:16])  # type: ignore[union-attr]
    assert state.move_start == "" and state.step == "view" and "new time" in state.message
