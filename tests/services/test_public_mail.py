"""Mail the public can trigger is capped in the outbox itself: per recipient and in total, in any 24 hours."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, update
from sqlmodel import Session, select

from app.core.config import settings
from app.models.base import utcnow
from app.models.enums import Role
from app.models.meeting import Meeting, MeetingType
from app.models.system import EmailOutbox, RateLimitEvent
from app.services.accounts import auth, password_reset
from app.services.crm import contact, newsletter
from app.services.platform import mail
from app.services.scheduling import booking, booking_invite
from tests import factories as f

CAP = settings.public_mail_per_recipient_per_day


def queued(s: Session, address: str) -> int:
    return int(s.exec(select(func.count()).where(func.lower(EmailOutbox.to_address) == address.lower())).one())


def public(s: Session, to: str) -> EmailOutbox | None:
    row = mail.enqueue(s, to=to, letter=mail.Letter("Your code", "t"), public=True)
    s.commit()
    return row


def test_two_hundred_public_mails_to_one_recipient_queue_at_most_the_cap(session: Session) -> None:
    """Defect: a manage link, a form or a code request mailed whatever address it was given, as often as asked."""
    sent = [public(session, "Target@Example.com" if n % 2 else "target+n@example.com") for n in range(200)]
    assert sum(row is not None for row in sent) == CAP
    assert queued(session, "target@example.com") + queued(session, "target+n@example.com") == CAP
    assert public(session, "someone.else@example.com") is not None  # the cap is per recipient


def test_staff_mail_is_not_capped(session: Session) -> None:
    for _ in range(CAP):
        public(session, "client@example.com")
    for n in range(CAP * 3):
        assert mail.enqueue(session, to="client@example.com", letter=mail.Letter(f"Invoice {n}", "t"), public=False)
    session.commit()
    assert queued(session, "client@example.com") == CAP * 4


def test_the_cap_is_per_day(session: Session) -> None:
    for _ in range(CAP + 5):
        public(session, "daily@example.com")
    assert queued(session, "daily@example.com") == CAP
    # A day later the earlier mails no longer count.
    session.exec(update(RateLimitEvent).values(created_at=utcnow() - timedelta(hours=25)))
    session.commit()
    assert public(session, "daily@example.com") is not None
    assert queued(session, "daily@example.com") == CAP + 1


def test_public_mail_has_a_total_cap_too(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "public_mail_per_day", 5)
    sent = [public(session, f"many{n}@example.com") for n in range(8)]
    assert [row is not None for row in sent] == [True] * 5 + [False] * 3
    assert mail.enqueue(session, to="staff-sent@example.com", letter=mail.Letter("s", "t"), public=False) is not None


def test_a_dropped_mail_leaves_the_public_action_standing(session: Session) -> None:
    """The visitor's action succeeds and answers as always: the cap must not tell them it exists."""
    for _ in range(CAP):
        public(session, "full@example.com")
    inquiry = contact.submit_inquiry(
        session, data={"name": "Full Inbox", "email": "full@example.com", "message": "Hello there, a project."}
    )
    assert inquiry.id is not None
    assert password_reset.request_reset(session, data={"email": "full@example.com"}) == password_reset.SENT
    assert queued(session, "full@example.com") == CAP


def test_every_public_sender_counts_against_the_cap(session: Session) -> None:
    """Registration codes and resends, resets, contact acknowledgements, newsletter confirmations, the note of a
    second registration and booking invitations: once the recipient's cap is full, none of them queues another."""
    victim = "victim@example.com"
    user = auth.register(session, data={"username": "victim_user", "email": victim, "password": f.PASSWORD})
    for _ in range(CAP - 1):
        public(session, victim)
    assert queued(session, victim) == CAP
    auth.resend_code(session, data={"userId": str(user.id)})
    password_reset.request_reset(session, data={"email": victim})
    contact.submit_inquiry(session, data={"name": "V", "email": victim, "message": "A message of some length."})
    newsletter.subscribe(session, data={"email": victim})
    auth.register(session, data={"username": "someone_else", "email": victim, "password": f.PASSWORD})
    meeting = Meeting(
        title="Call", start_time=datetime(2030, 1, 7, 15, tzinfo=UTC), end_time=datetime(2030, 1, 7, 16, tzinfo=UTC),
        booker_name="V", booker_email=victim, manage_token_hash="x" * 64,
    )  # fmt: skip
    session.add(meeting)
    session.flush()
    booking_invite.send(session, meeting, None, method="REQUEST")
    session.commit()
    assert queued(session, victim) == CAP


def test_a_manage_link_cannot_flood_the_booker_or_the_organizer(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defect: 200 reschedules of one booking mailed the booker's address and the organizer 400 times. The organizer,
    a staff inbox, has the higher cap of the company's own inboxes (made small here)."""
    staff_cap = CAP * 2
    monkeypatch.setattr(settings, "public_mail_per_staff_inbox_per_day", staff_cap)
    host = f.user(session, "organizer", role=Role.employee)
    t = MeetingType(
        slug="flood-call",
        name="Call",
        duration_minutes=30,
        organizer_id=host.id,
        availability={str(d): [["09:00", "17:00"]] for d in range(7)},
    )
    session.add(t)
    session.commit()
    # The second free time: the first can stop being offered before the booking (test_booking.first_free).
    start = booking.free_slots(session, data={"type": t.slug, "days": 14})[1].start
    booking.book(session, data={"type": t.slug, "start": start, "name": "B", "email": "booker@example.com"})
    meeting = session.exec(select(Meeting).where(Meeting.booker_email == "booker@example.com")).one()
    for _ in range(200):  # what each reschedule or cancel through the manage link sends
        booking_invite.send(session, meeting, t, method="REQUEST", manage_link="https://example.com/m")
        session.commit()
    assert queued(session, "booker@example.com") == CAP
    assert queued(session, host.email) == staff_cap
    # Staff moving the meeting still reach both.
    booking_invite.send(session, meeting, t, method="REQUEST", public=False)
    session.commit()
    assert queued(session, "booker@example.com") == CAP + 1
    assert queued(session, host.email) == staff_cap + 1


def test_the_company_inboxes_take_a_busy_day(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every inquiry, application and booking of a busy day reaches the staff inbox and the organizers (a cap of ten
    would drop the eleventh inquiry's notice); their cap is higher, and still a cap."""
    monkeypatch.setattr(settings, "staff_notify_email", "Office@Example.com")
    monkeypatch.setattr(settings, "public_mail_per_staff_inbox_per_day", CAP * 3)
    organizer = f.user(session, "organizer_inbox", role=Role.employee, employee_type="sales_lead")
    for inbox in ("office@example.com", organizer.email):
        sent = [public(session, inbox) for _ in range(CAP * 4)]
        assert sum(row is not None for row in sent) == CAP * 3, inbox
    client = f.user(session, "client_inbox")
    assert sum(public(session, client.email) is not None for _ in range(CAP * 2)) == CAP  # a client is the public's
