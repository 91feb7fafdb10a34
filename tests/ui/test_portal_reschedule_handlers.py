"""The portal Meetings tab's Reschedule dialog handlers (issue 26, point 9): the dialog offers the booking's free times
by day, moves it only to an offered time after the confirmation step, and someone else's meeting shows nothing and
moves nothing whatever the browser sends."""

from __future__ import annotations

import uuid

from sqlmodel import Session, select

from app.models.enums import Role
from app.models.meeting import Meeting, MeetingType
from app.models.user import User
from app.services.scheduling import booking
from app.ui.portal.meetings import MeetingsState
from tests import factories as f
from tests.ui.harness import call, handler_state, sign_in

EVERY_DAY = {str(d): [["09:00", "17:00"]] for d in range(7)}


def _booked(db: Session) -> tuple[Meeting, str]:
    tag = uuid.uuid4().hex[:8]
    host = f.user(db, f"rs_host_{tag}", role=Role.employee)
    kind = MeetingType(slug=f"rs-{tag}", name=f"Review {tag}", availability=EVERY_DAY, organizer_id=host.id)
    db.add(kind)
    db.commit()
    owner = f.user(db, f"rs_client_{tag}")
    # The second free time: the first can stop being offered before the booking (tests/services/test_booking.py).
    start = booking.free_slots(db, data={"type": kind.slug, "days": 7})[1].start
    done = booking.book(db, data={"type": kind.slug, "start": start}, actor=owner)
    row = db.get(Meeting, done.id)
    assert row is not None
    return row, owner.username


def test_the_dialog_offers_times_by_day_and_moves_after_confirming(db: Session) -> None:
    meeting, username = _booked(db)
    owner = db.exec(select(User).where(User.username == username)).one()
    state = handler_state(MeetingsState, sign_in(db, owner), path="/client-portal")
    call(state, "load")
    [card] = [m for m in state.upcoming if m.id == meeting.id]
    assert card.can_move
    call(state, "set_move_zone", "Asia/Tokyo")
    call(state, "ask_move", meeting.id, card.title, card.scheduled_at)
    call(state, "load_move_slots")
    assert state.move_from.endswith("JST") and state.move_days and state.move_day == state.move_days[0].key
    assert state.move_slots == state.move_days[0].slots
    call(state, "choose_move", "2099-01-01T00:00:00Z")  # not offered: nothing is chosen
    assert state.move_start == ""
    # The first day may hold one late time only (the run's hour decides), so move to a full day first.
    fullest = max(state.move_days, key=lambda day: len(day.slots))
    call(state, "choose_move_day", fullest.key)
    assert state.move_day == fullest.key and state.move_slots == fullest.slots and len(fullest.slots) > 1
    target = state.move_slots[1].start
    call(state, "choose_move", target)
    assert state.move_start == target and state.move_to.endswith("JST")
    db.expire_all()
    assert db.get(Meeting, meeting.id).sequence == 0  # type: ignore[union-attr]  (nothing moves before the confirmation)
    call(state, "confirm_move")
    assert state.move_id == 0 and state.move_error == "" and "now starts" in state.notice
    db.expire_all()
    moved = db.get(Meeting, meeting.id)
    assert moved is not None and moved.sequence == 1 and booking.iso(moved.start_time) == target


def test_someone_elses_meeting_shows_nothing_and_moves_nothing(db: Session) -> None:
    meeting, _ = _booked(db)
    stranger = f.user(db, f"rs_stranger_{uuid.uuid4().hex[:8]}")
    state = handler_state(MeetingsState, sign_in(db, stranger), path="/client-portal")
    call(state, "ask_move", meeting.id, "x", "2030-01-01T00:00:00Z")
    call(state, "load_move_slots")
    assert state.move_days == [] and state.move_error == "Meeting not found"
    state.move_slots, state.move_start = [], "2030-01-01T15:00:00Z"  # as if a crafted browser had chosen one
    call(state, "confirm_move")
    assert state.move_error == "Meeting not found"
    db.expire_all()
    assert db.get(Meeting, meeting.id).sequence == 0  # type: ignore[union-attr]
