"""Meeting reminders (issue 28, ADR 0099): 24 hours and 1 hour before each scheduled meeting, to its client (or
booker) and its organizer, with the join link; once per start time, none for a cancelled meeting, a moved meeting's
new time reminded on its own, and a reminder whose moment had passed when the time was set not sent at all.

The pass is given the clock (`now`), so a test walks a meeting through its day without waiting; a meeting made by a
test gets its time now, so one meant to have been scheduled long ago has its skipped reminders cleared. The race
test runs real passes in threads on committed rows, as every server process runs one."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import delete, func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.config import Settings
from app.models.base import utcnow
from app.models.enums import EmployeeType, MeetingStatus, Role
from app.models.meeting import Meeting
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.platform import mail
from app.services.scheduling import meeting_reminders, meetings_admin
from tests import factories as f
from tests.services.test_throttle_races import in_parallel
from tests.smtp_sink import SmtpSink

N = 6  # server processes running the pass at once


@pytest.fixture
def host(session: Session) -> User:
    return f.user(session, "remind_host", role=Role.employee, employee_type=EmployeeType.cto, first_name="Grace")


@pytest.fixture
def client(session: Session) -> User:
    return f.user(session, "remind_client", first_name="Ada")


def meeting(
    s: Session, client: User | None, host: User, start: datetime, *, early: bool = True, **kw: object
) -> Meeting:
    """A scheduled meeting at `start`, its time set now, or (`early`) long before any of its reminders was due."""
    row = Meeting(
        title=str(kw.pop("title", "Sprint review")),
        start_time=start,
        end_time=start + timedelta(minutes=30),
        client_id=client.id if client else None,
        organizer_id=host.id,
        meeting_url="https://meet.example.com/review",
        **kw,
    )
    s.add(row)
    s.commit()
    if early:  # as if the time had been set days ago: no reminder was skipped
        row.reminded_24h_for = row.reminded_1h_for = None
        s.add(row)
        s.commit()
    return row


def outbox(s: Session, meeting_title: str) -> list[tuple[str, str]]:
    rows = s.exec(select(EmailOutbox).where(col(EmailOutbox.subject).contains(meeting_title))).all()
    return sorted((r.to_address, r.subject) for r in rows)


def test_a_meeting_is_reminded_a_day_and_an_hour_ahead_each_once(session: Session, client: User, host: User) -> None:
    now = utcnow()
    m = meeting(session, client, host, now + timedelta(hours=30), title="Review A")

    assert meeting_reminders.send_due(session, now=now) == []  # 30 hours ahead: nothing yet
    day_before = m.start_time - timedelta(hours=23, minutes=59)
    [sent] = meeting_reminders.send_due(session, now=day_before)
    assert (sent.meeting_id, sent.soon, set(sent.to)) == (m.id, False, {client.email, host.email})
    assert meeting_reminders.send_due(session, now=day_before + timedelta(minutes=5)) == []  # once
    assert outbox(session, "Review A") == sorted(
        [(client.email, "Reminder: Review A tomorrow"), (host.email, "Reminder: Review A tomorrow")]
    )

    hour_before = m.start_time - timedelta(minutes=59)
    [sent] = meeting_reminders.send_due(session, now=hour_before)
    assert sent.soon and set(sent.to) == {client.email, host.email}
    assert meeting_reminders.send_due(session, now=hour_before + timedelta(minutes=1)) == []
    assert meeting_reminders.send_due(session, now=m.start_time + timedelta(minutes=1)) == []  # started: no more
    to_client = session.exec(
        select(EmailOutbox).where(EmailOutbox.to_address == client.email, col(EmailOutbox.subject).contains("1 hour"))
    ).one()
    assert "Your meeting starts in about an hour:" in to_client.body_text
    assert "Join link: https://meet.example.com/review" in to_client.body_text
    assert "/client-portal?tab=meetings" in to_client.body_text


def test_a_moved_meeting_is_reminded_of_its_new_time_and_a_cancelled_one_not_at_all(
    session: Session, client: User, host: User
) -> None:
    now = utcnow()
    moved = meeting(session, client, host, now + timedelta(hours=20), title="Moved B")
    gone = meeting(session, client, host, now + timedelta(hours=20), title="Gone C")
    assert {r.meeting_id for r in meeting_reminders.send_due(session, now=now)} == {moved.id, gone.id}

    moved.start_time = now + timedelta(hours=50)  # a new time: new reminders (app.models.meeting's listener)
    gone.status = MeetingStatus.cancelled
    session.add_all([moved, gone])
    session.commit()
    assert moved.reminded_24h_for != moved.start_time

    assert meeting_reminders.send_due(session, now=now + timedelta(hours=19, minutes=30)) == []  # the old hour: none
    [again] = meeting_reminders.send_due(session, now=now + timedelta(hours=26, minutes=1))  # the new time's day
    assert (again.meeting_id, again.soon) == (moved.id, False)
    assert len(outbox(session, "Moved B")) == 4  # the old time's day-before pair, the new time's
    assert len(outbox(session, "Gone C")) == 2  # only what went out before the cancellation


def test_a_reminder_whose_moment_had_passed_when_the_time_was_set_is_not_sent(
    session: Session, client: User, host: User
) -> None:
    now = utcnow()
    late = meeting(session, client, host, now + timedelta(hours=10), early=False, title="Booked late D")
    assert meeting_reminders.send_due(session, now=now) == []  # booked 10 hours ahead: its mail just said it
    [sent] = meeting_reminders.send_due(session, now=late.start_time - timedelta(minutes=50))
    assert sent.soon

    # After an outage both are due at once: only the nearer one goes.
    both = meeting(session, client, host, now + timedelta(hours=30), title="Outage E")
    [sent] = meeting_reminders.send_due(session, now=both.start_time - timedelta(minutes=30))
    assert sent.soon and meeting_reminders.send_due(session, now=both.start_time - timedelta(minutes=20)) == []
    assert len(outbox(session, "Outage E")) == 2


def test_staff_scheduling_and_moving_a_meeting_go_by_the_same_rule(session: Session, client: User) -> None:
    """Through the staff service, as the panel and the API call it: a meeting scheduled for this evening gets no
    day-before reminder; moved to the day after tomorrow, it gets both."""
    admin = f.user(session, "remind_admin", role=Role.admin)
    now = utcnow()
    made = meetings_admin.create_meeting(
        session,
        actor=admin,
        data={"client_id": str(client.id), "title": "Staff H", "start_time": (now + timedelta(hours=8)).isoformat()},
    )
    assert meeting_reminders.send_due(session, now=now) == []
    meetings_admin.update_meeting(
        session, actor=admin, meeting_id=made.id, data={"start_time": (now + timedelta(hours=50)).isoformat()}
    )
    assert meeting_reminders.send_due(session, now=now) == []
    [sent] = meeting_reminders.send_due(session, now=now + timedelta(hours=26, minutes=5))
    assert (sent.meeting_id, sent.soon) == (made.id, False)
    [sent] = meeting_reminders.send_due(session, now=now + timedelta(hours=49, minutes=5))
    assert (sent.meeting_id, sent.soon) == (made.id, True)


def test_a_visitors_booking_reminds_the_booker_and_points_to_the_confirmation(session: Session, host: User) -> None:
    now = utcnow()
    meeting(
        session,
        None,
        host,
        now + timedelta(minutes=45),
        title="Visitor F",
        booker_email="visitor.f@example.com",
        booker_name="Vic",
        manage_token_hash="f" * 64,
    )
    [sent] = meeting_reminders.send_due(session, now=now)
    assert set(sent.to) == {"visitor.f@example.com", host.email}
    letter = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == "visitor.f@example.com")).one()
    assert "Hello Vic," in letter.body_text and "use the link in your booking confirmation" in letter.body_text
    assert "client-portal" not in letter.body_text


def test_the_reminder_reaches_an_smtp_server(session: Session, client: User, host: User) -> None:
    sink = SmtpSink().start()
    try:
        cfg = Settings(_env_file=None, smtp_host="127.0.0.1", smtp_port=sink.port, smtp_tls="none")  # type: ignore[call-arg]
        now = utcnow()
        meeting(session, client, host, now + timedelta(minutes=55), title="Wire G")
        meeting_reminders.send_due(session, now=now)
        mail.deliver_pending(session, cfg=cfg)
        got = {m["To"]: m for m in sink.messages if "Wire G" in str(m["Subject"])}
        assert set(got) == {client.email, host.email}
        body = got[client.email].get_body(("plain",)).get_content()  # type: ignore[union-attr]
        assert "Wire G" in body and "Join link: https://meet.example.com/review" in body
    finally:
        sink.stop()


def test_passes_running_at_once_send_each_reminder_once(engine: Engine, pool: Engine) -> None:
    now = utcnow()
    with Session(engine, expire_on_commit=False) as s:
        mark = s.exec(select(func.coalesce(func.max(EmailOutbox.id), 0))).one()
        host = f.user(s, "race_remind_host", role=Role.employee, employee_type=EmployeeType.cto)
        client = f.user(s, "race_remind_client")
        ids = [meeting(s, client, host, now + timedelta(hours=h), title=f"Race {h}").id for h in (5, 6, 7)]
    try:
        results = in_parallel(pool, lambda s, _: meeting_reminders.send_due(s, now=now), N)
        assert not [r for r in results if isinstance(r, Exception)]
        assert sorted(r.meeting_id for batch in results for r in batch) == sorted(ids)
        with Session(engine) as s:
            sent = s.exec(select(EmailOutbox.to_address).where(col(EmailOutbox.id) > mark)).all()
        assert sorted(sent) == sorted([client.email, host.email] * 3)
    finally:
        with Session(engine) as s:
            s.exec(delete(EmailOutbox).where(col(EmailOutbox.id) > mark))  # type: ignore[call-overload]
            s.exec(delete(Meeting).where(col(Meeting.id).in_(ids)))  # type: ignore[call-overload]
            s.exec(delete(User).where(col(User.id).in_([host.id, client.id])))  # type: ignore[call-overload]
            s.commit()
