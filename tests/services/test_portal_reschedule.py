"""A client moves their own booking from the portal (issue 26, point 9): the public booking's rules (offered slots,
the move limit, the calendar lock), the same mails, and only for their own scheduled booking that is still ahead."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, col, select

from app.core.errors import Conflict, NotFound, TooManyRequests
from app.models.base import utcnow
from app.models.enums import MeetingStatus, Role
from app.models.meeting import Meeting, MeetingType
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.scheduling import booking, meetings
from tests import factories as f
from tests.services.test_booking import EVERY_DAY, make_type


@pytest.fixture
def host(session: Session) -> User:
    return f.user(session, "movehost", role=Role.employee, first_name="Marcus", last_name="Reed")


@pytest.fixture
def kind(session: Session, host: User) -> MeetingType:
    return make_type(session, host, availability=EVERY_DAY)


@pytest.fixture
def client(session: Session) -> User:
    return f.user(session, "moveclient", email="mover@example.com")


def free(s: Session, t: MeetingType) -> list[str]:
    return [slot.start for slot in booking.free_slots(s, data={"type": t.slug, "days": 14})]


def letters_to(s: Session, address: str) -> list[EmailOutbox]:
    query = select(EmailOutbox).where(EmailOutbox.to_address == address).order_by(col(EmailOutbox.id))
    return list(s.exec(query).all())


def test_a_client_moves_their_booking_and_both_sides_are_told(
    session: Session, kind: MeetingType, host: User, client: User
) -> None:
    first, second = free(session, kind)[:2]
    done = booking.book(session, data={"type": kind.slug, "start": first}, actor=client)
    [row] = meetings.list_meetings(session, actor=client).upcoming
    assert row.can_move and not row.can_reschedule  # moved here, not on Calendly's page
    offered = [s.start for s in booking.client_slots(session, actor=client, meeting_id=done.id, data={"days": 14})]
    assert first in offered and second in offered  # its own time is not busy for itself
    moved = booking.client_reschedule(
        session, actor=client, meeting_id=done.id, data={"start": second, "timeZone": "Europe/Paris"}
    )
    assert moved.start == second and moved.manageUrl
    assert first in free(session, kind) and second not in free(session, kind)
    mine, hosts = letters_to(session, client.email)[-1], letters_to(session, host.email)[-1]
    for letter in (mine, hosts):
        assert letter.subject.startswith("Moved:") and "It was: " in letter.body_text
        assert letter.attachments[0]["content_type"] == "text/calendar; method=REQUEST"
        assert "SEQUENCE:1" in letter.attachments[0]["content"]
    assert "CET" in mine.body_text or "CEST" in mine.body_text  # the client's own zone
    assert "To reschedule or cancel, open:" in mine.body_text and "To reschedule" not in hosts.body_text
    # The link of the first mail still opens it, at its new time.
    assert booking.get_booking(session, token=str(done.manageUrl).split("token=")[1]).start == second


def test_someone_elses_meeting_is_refused_as_unknown(session: Session, kind: MeetingType, client: User) -> None:
    done = booking.book(session, data={"type": kind.slug, "start": free(session, kind)[0]}, actor=client)
    stranger = f.user(session, "movestranger")
    staff = f.user(session, "moveadmin", role=Role.admin)
    for actor in (stranger, staff):  # staff move bookings in the staff panel, never as the client
        with pytest.raises(NotFound):
            booking.client_reschedule(session, actor=actor, meeting_id=done.id, data={"start": free(session, kind)[1]})
        with pytest.raises(NotFound):
            booking.client_slots(session, actor=actor, meeting_id=done.id, data={})
    with pytest.raises(NotFound):
        booking.client_reschedule(session, actor=client, meeting_id=10**9, data={"start": free(session, kind)[1]})
    session.refresh(session.get(Meeting, done.id))
    assert session.get(Meeting, done.id).sequence == 0  # type: ignore[union-attr]


def test_past_cancelled_and_staff_meetings_cannot_be_moved(session: Session, kind: MeetingType, client: User) -> None:
    done = booking.book(session, data={"type": kind.slug, "start": free(session, kind)[0]}, actor=client)
    row = session.get(Meeting, done.id)
    assert row is not None
    row.start_time, row.end_time = utcnow() - timedelta(hours=2), utcnow() - timedelta(hours=1)
    session.add(row)
    session.commit()
    with pytest.raises(Conflict) as caught:
        booking.client_reschedule(session, actor=client, meeting_id=done.id, data={"start": free(session, kind)[0]})
    assert caught.value.message == booking.STARTED
    assert not any(m.can_move for m in meetings.list_meetings(session, actor=client).past)

    ahead = booking.book(session, data={"type": kind.slug, "start": free(session, kind)[0]}, actor=client)
    meetings.cancel_meeting(session, actor=client, meeting_id=ahead.id)
    with pytest.raises(Conflict) as caught:
        booking.client_reschedule(session, actor=client, meeting_id=ahead.id, data={"start": free(session, kind)[0]})
    assert caught.value.message == booking.CANCELLED

    staffs = f.meeting(session, client, title="Set by staff")  # no meeting type, no booking: staff move it
    with pytest.raises(Conflict) as caught:
        booking.client_reschedule(session, actor=client, meeting_id=staffs.id, data={"start": free(session, kind)[0]})
    assert caught.value.message == booking.NOT_MOVABLE
    assert not any(m.can_move for m in meetings.list_meetings(session, actor=client).upcoming)


def test_only_offered_times_and_the_move_limit(session: Session, kind: MeetingType, client: User) -> None:
    starts = free(session, kind)
    done = booking.book(session, data={"type": kind.slug, "start": starts[0]}, actor=client)
    other = f.user(session, "moveother")
    booking.book(session, data={"type": kind.slug, "start": starts[1]}, actor=other)
    with pytest.raises(Conflict) as caught:  # another client's time
        booking.client_reschedule(session, actor=client, meeting_id=done.id, data={"start": starts[1]})
    assert caught.value.message == booking.TAKEN
    session.rollback()  # as the request's session ends: a refused move counts nothing
    for start in starts[2 : 2 + booking.MOVES_PER_DAY]:
        booking.client_reschedule(session, actor=client, meeting_id=done.id, data={"start": start})
    with pytest.raises(TooManyRequests):
        booking.client_reschedule(session, actor=client, meeting_id=done.id, data={"start": starts[-1]})
    assert session.get(Meeting, done.id).status == MeetingStatus.scheduled  # type: ignore[union-attr]
