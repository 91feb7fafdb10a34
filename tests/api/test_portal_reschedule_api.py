"""POST /api/protected/meetings/{id}/reschedule and GET .../slots: a client moves their own booking over HTTP, as the
portal's Meetings tab does (issue 26, point 9); someone else's meeting is a 404, a past one a 409."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlmodel import Session, col, select

from app.models.base import utcnow
from app.models.enums import Role
from app.models.meeting import Meeting, MeetingType
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.accounts import sessions
from app.services.scheduling import booking
from tests import factories as f

EVERY_DAY = {str(d): [["09:00", "17:00"]] for d in range(7)}


def _booked(s: Session) -> tuple[MeetingType, int, list[str]]:
    host = f.user(s, "portalmovehost", role=Role.employee)
    t = MeetingType(
        slug="move-call", name="Move Call", duration_minutes=30, availability=EVERY_DAY, organizer_id=host.id
    )
    s.add(t)
    s.commit()
    owner = f.user(s, "portalmover", email="portal.mover@example.com")
    starts = [slot.start for slot in booking.free_slots(s, data={"type": t.slug, "days": 14})]
    done = booking.book(s, data={"type": t.slug, "start": starts[0]}, actor=owner)
    return t, done.id, starts


def test_a_client_moves_their_own_booking(client: TestClient, session: Session) -> None:
    _, meeting_id, starts = _booked(session)
    owner = session.exec(select(Meeting).where(Meeting.id == meeting_id)).one()
    user = session.get(User, owner.client_id)
    assert user is not None
    client.cookies.set("access_token", sessions.start(session, user).access_token)
    listed = client.get(f"/api/protected/meetings/{meeting_id}/slots", params={"days": 14})
    assert listed.status_code == 200, listed.text
    offered = [s["start"] for s in listed.json()["data"]]
    assert starts[0] in offered and starts[1] in offered
    moved = client.post(f"/api/protected/meetings/{meeting_id}/reschedule", json={"start": starts[1]})
    assert moved.status_code == 200, moved.text
    body = moved.json()
    assert body["message"] == "Meeting rescheduled" and body["data"]["start"] == starts[1]
    subjects = session.exec(select(EmailOutbox.subject).order_by(col(EmailOutbox.id))).all()
    assert sum(1 for x in subjects if x.startswith("Moved:")) == 2  # the client and the organizer
    bad = client.post(f"/api/protected/meetings/{meeting_id}/reschedule", json={"start": "soon"})
    assert bad.status_code == 422 and bad.json()["errors"] == {"start": "Please choose a time."}

    # Once it has started it cannot move.
    row = session.get(Meeting, meeting_id)
    assert row is not None
    row.start_time, row.end_time = utcnow() - timedelta(minutes=5), utcnow() + timedelta(minutes=25)
    session.add(row)
    session.commit()
    late = client.post(f"/api/protected/meetings/{meeting_id}/reschedule", json={"start": starts[2]})
    assert late.status_code == 409 and late.json()["message"] == booking.STARTED


def test_someone_elses_booking_is_not_found(client: TestClient, session: Session) -> None:
    _, meeting_id, starts = _booked(session)
    stranger = f.user(session, "portalmovestranger")
    client.cookies.set("access_token", sessions.start(session, stranger).access_token)
    r = client.post(f"/api/protected/meetings/{meeting_id}/reschedule", json={"start": starts[1]})
    assert r.status_code == 404
    assert client.get(f"/api/protected/meetings/{meeting_id}/slots").status_code == 404
    assert session.get(Meeting, meeting_id).start_time.isoformat().startswith(starts[0][:16])  # type: ignore[union-attr]
    client.cookies.clear()
    assert client.post(f"/api/protected/meetings/{meeting_id}/reschedule", json={"start": starts[1]}).status_code == 401
