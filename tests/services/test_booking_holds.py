"""What the public can do with a booking (issue 23): an anonymous booking belongs to no account (point 3); the manage
link counts against the address's limit and moves a booking at most three times a day (point 4); a booking made
signed out is a short unconfirmed hold, capped per e-mail, per address (IPv6 by /64) and per organizer (point 5)."""

from __future__ import annotations

import contextlib
from datetime import timedelta

import pytest
from sqlmodel import Session, col, select

from app.core.errors import Conflict, Forbidden, Invalid, NotFound, TooManyRequests
from app.models.base import utcnow
from app.models.enums import MeetingStatus, Role
from app.models.meeting import Meeting, MeetingType
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.scheduling import booking, meetings, meetings_admin
from app.services.scheduling.booking import Booking
from tests import factories as f
from tests.services.test_booking import EVERY_DAY, confirm_link, first_free, make_type


@pytest.fixture
def host(session: Session) -> User:
    return f.user(session, "holdhost", role=Role.employee)


@pytest.fixture
def kind(session: Session, host: User) -> MeetingType:
    return make_type(session, host, availability=EVERY_DAY)


def visit(s: Session, t: MeetingType, email: str, *, ip: str | None = None, start: str | None = None) -> Booking:
    data = {"type": t.slug, "start": start or first_free(s, t), "name": "Visitor", "email": email}
    return booking.book(s, data=data, ip=ip)


def mails_to(s: Session, address: str) -> list[EmailOutbox]:
    return list(s.exec(select(EmailOutbox).where(EmailOutbox.to_address == address)).all())


def token_of(done: Booking) -> str:
    return str(done.manageUrl).split("token=")[1]


# --- point 3: a stranger cannot write into a client's portal ---------------------------------------------------------


def test_an_anonymous_booking_with_a_clients_address_stays_out_of_the_portal(
    session: Session, kind: MeetingType
) -> None:
    client = f.user(session, "victim", email="victim@example.com")
    done = visit(session, kind, "victim@example.com")
    assert session.get(Meeting, done.id).client_id is None  # type: ignore[union-attr]
    assert meetings.list_meetings(session, actor=client).upcoming == []


def test_confirming_from_the_mailed_link_proves_the_address_and_links_the_client(
    session: Session, kind: MeetingType
) -> None:
    client = f.user(session, "owner", email="owner@example.com")
    held = visit(session, kind, "owner@example.com")
    done = booking.confirm(session, token=confirm_link(session, "owner@example.com"))
    assert done.status == "scheduled" and session.get(Meeting, done.id).client_id == client.id  # type: ignore[union-attr]
    assert [m.id for m in meetings.list_meetings(session, actor=client).upcoming] == [done.id]
    with pytest.raises(NotFound):  # the link the booker was answered with died: only the mailbox's owner has one
        booking.get_booking(session, token=token_of(held))


def test_staff_link_an_anonymous_booking_to_a_client(session: Session, kind: MeetingType) -> None:
    client = f.user(session, "linked")
    done = booking.confirm(session, token=confirm_link(session, visit(session, kind, "other@example.com").email))
    admin = f.user(session, "linkadmin", role=Role.admin)
    with pytest.raises(Forbidden):
        meetings_admin.update_meeting(session, actor=client, meeting_id=done.id, data={"client_id": str(client.id)})
    meetings_admin.update_meeting(session, actor=admin, meeting_id=done.id, data={"client_id": str(client.id)})
    assert [m.id for m in meetings.list_meetings(session, actor=client).upcoming] == [done.id]


# --- point 4: the manage link is no mail cannon ---------------------------------------------------------------------


def test_a_booking_moves_at_most_three_times_a_day(session: Session, kind: MeetingType) -> None:
    client = f.user(session, "mover")
    starts = [s.start for s in booking.free_slots(session, data={"type": kind.slug, "days": 14})[:5]]
    token = token_of(booking.book(session, data={"type": kind.slug, "start": starts[0]}, actor=client))
    for start in starts[1:4]:
        token = token_of(booking.reschedule(session, token=token, data={"start": start}))
    before = len(mails_to(session, client.email))
    with pytest.raises(TooManyRequests) as caught:
        booking.reschedule(session, token=token, data={"start": starts[4]})
    assert caught.value.message == booking.MOVED_TOO_OFTEN
    assert (
        booking.get_booking(session, token=token).start == starts[3] and len(mails_to(session, client.email)) == before
    )


def test_reschedule_and_cancel_count_against_the_booking_limit_of_the_address(
    session: Session, kind: MeetingType
) -> None:
    client = f.user(session, "limited")
    first, second = [s.start for s in booking.free_slots(session, data={"type": kind.slug, "days": 14})[:2]]
    token = token_of(booking.book(session, data={"type": kind.slug, "start": first}, actor=client))
    for _ in range(booking.BOOKINGS_PER_ADDRESS):  # the address uses up its hour (malformed attempts count too)
        with pytest.raises(Invalid):  # malformed: counted all the same
            booking.book(session, data={"type": kind.slug, "start": "x"}, ip="7.7.7.7")
    with pytest.raises(TooManyRequests):
        booking.reschedule(session, token=token, data={"start": second}, ip="7.7.7.7")
    with pytest.raises(TooManyRequests):
        booking.cancel(session, token=token, ip="7.7.7.7")
    shown = booking.get_booking(session, token=token)
    assert shown.start == first and shown.status == "scheduled"


# --- point 5: what the anonymous public can hold ------------------------------------------------------------------


def test_a_hold_mails_only_the_booker_and_the_organizer_hears_on_confirmation(
    session: Session, kind: MeetingType, host: User
) -> None:
    held = visit(session, kind, "hold@example.com", ip="5.5.5.5")
    assert held.status == "unconfirmed" and held.holdExpiresAt
    assert mails_to(session, host.email) == []
    [asked] = mails_to(session, "hold@example.com")
    assert asked.subject.startswith("Please confirm") and asked.attachments == []
    assert held.start not in [s.start for s in booking.free_slots(session, data={"type": kind.slug, "days": 14})]
    with pytest.raises(Conflict):  # no calendar file for what is not confirmed
        booking.calendar_file(session, token=token_of(held))
    booking.confirm(session, token=confirm_link(session, "hold@example.com"))
    [invite] = mails_to(session, host.email)
    assert invite.attachments[0]["content_type"] == "text/calendar; method=REQUEST"


def test_an_expired_hold_frees_its_slot_for_the_next_booker(session: Session, kind: MeetingType) -> None:
    held = visit(session, kind, "late@example.com")
    row = session.get(Meeting, held.id)
    assert row is not None
    row.hold_expires_at = utcnow() - timedelta(seconds=1)
    session.add(row)
    session.commit()
    assert held.start in [s.start for s in booking.free_slots(session, data={"type": kind.slug, "days": 14})]
    taken = visit(session, kind, "next@example.com", start=held.start)  # the database's guards let it in too
    assert taken.start == held.start
    session.refresh(row)
    assert row.status == MeetingStatus.cancelled and row.cancelled_by == "expired"
    shown = booking.get_booking(session, token=token_of(held))  # its link says it was released, offers nothing
    assert shown.status == "cancelled" and shown.cancelledBy == "expired" and not shown.can_cancel
    with pytest.raises(Conflict) as caught:
        booking.confirm(session, token=confirm_link(session, "late@example.com"))
    assert caught.value.message == booking.HOLD_EXPIRED


def test_the_background_job_releases_expired_holds(session: Session, kind: MeetingType) -> None:
    held = visit(session, kind, "job@example.com")
    row = session.get(Meeting, held.id)
    assert row is not None
    row.hold_expires_at = utcnow() - timedelta(minutes=1)
    session.add(row)
    session.commit()
    assert booking.release_expired(session) == 1
    session.refresh(row)
    assert row.status == MeetingStatus.cancelled and row.cancel_reason == booking.EXPIRED_REASON
    assert booking.release_expired(session) == 0


def test_open_holds_are_capped_per_email_and_per_address(session: Session, kind: MeetingType) -> None:
    for i in range(booking.HOLDS_PER_EMAIL):
        visit(session, kind, "same@example.com", ip=f"10.0.0.{i}")
    with pytest.raises(TooManyRequests) as caught:
        visit(session, kind, "same@example.com", ip="10.0.0.99")
    assert caught.value.message == booking.TOO_MANY_HOLDS
    # One IPv6 subscriber (one /64) with many addresses and throwaway e-mails counts as one address.
    for i in range(booking.HOLDS_PER_ADDRESS):
        visit(session, kind, f"throwaway{i}@example.com", ip=f"2001:db8:7:7::{i + 1}")
    with pytest.raises(TooManyRequests):
        visit(session, kind, "throwaway9@example.com", ip="2001:db8:7:7:ffff::1")
    visit(session, kind, "neighbour@example.com", ip="2001:db8:7:8::1")  # the next /64 is someone else


def test_open_holds_are_capped_per_organizer(session: Session, host: User) -> None:
    # Two hours a day for three days: 8 to 16 slots, of which at most HOLDS_MIN (a fifth is less) can be held.
    hours = {str(d): [["09:00", "11:00"]] for d in range(7)}
    t = make_type(session, host, availability=hours, horizon_days=3, min_notice_minutes=0)
    assert (
        booking.HOLDS_MIN < len(booking.free_slots(session, data={"type": t.slug, "days": 5})) < 5 * booking.HOLDS_MIN
    )
    for i in range(booking.HOLDS_MIN):
        visit(session, t, f"crowd{i}@example.com", ip=f"10.1.0.{i}")
    with pytest.raises(TooManyRequests) as caught:
        visit(session, t, "crowd9@example.com", ip="10.1.0.99")
    assert caught.value.message == booking.HOLDS_FULL
    client = f.user(session, "signedin")  # a signed-in client is verified: still books
    assert booking.book(session, data={"type": t.slug, "start": first_free(session, t)}, actor=client).status == (
        "scheduled"
    )


def test_a_burst_from_sixteen_addresses_leaves_most_slots_and_a_visitor_books(session: Session, host: User) -> None:
    """Issue 23's attack: 16 addresses with throwaway e-mails book as many slots as they can."""
    t = make_type(session, host)  # weekdays 9 to 5, 30 days ahead: about 300 slots
    offered = lambda: booking.free_slots(session, data={"type": t.slug, "days": booking.MAX_DAYS})  # noqa: E731
    before = len(offered())
    for a in range(16):
        for n in range(booking.BOOKINGS_PER_ADDRESS + 5):
            with contextlib.suppress(TooManyRequests, Conflict):  # refused: the bot tries the next slot
                visit(session, t, f"bot{a}-{n}@mailinator.example", ip=f"203.0.113.{a}", start=offered()[n].start)
    after = len(offered())
    assert before >= 250 and after >= 0.8 * before, (before, after)
    real = visit(session, t, "real.visitor@example.com", ip="198.51.100.7")
    assert real.status == "unconfirmed"
    assert booking.confirm(session, token=confirm_link(session, "real.visitor@example.com")).status == "scheduled"


# --- staff: see the holds and cancel many at once ------------------------------------------------------------------


def test_staff_see_holds_and_cancel_many_at_once(session: Session, kind: MeetingType, host: User) -> None:
    admin = f.user(session, "bulkadmin", role=Role.admin)
    holds = [visit(session, kind, f"h{i}@example.com", ip=f"10.2.0.{i}").id for i in range(2)]
    listed = meetings_admin.list_all(session, actor=admin, when="all", status="unconfirmed")
    assert sorted(m.id for m in listed.data) == sorted(holds)
    confirmed = booking.book(
        session, data={"type": kind.slug, "start": first_free(session, kind)}, actor=f.user(session)
    )
    with pytest.raises(Forbidden):
        meetings_admin.cancel_unconfirmed(session, actor=f.user(session, "nosy"), meeting_ids=holds)
    with pytest.raises(Conflict):  # a confirmed booking among them: nothing is cancelled
        meetings_admin.cancel_unconfirmed(session, actor=admin, meeting_ids=[*holds, confirmed.id])
    statuses = lambda: {m.status for m in session.exec(select(Meeting).where(col(Meeting.id).in_(holds))).all()}  # noqa: E731
    assert statuses() == {MeetingStatus.unconfirmed}
    outbox = len(session.exec(select(EmailOutbox)).all())
    assert meetings_admin.cancel_unconfirmed(session, actor=admin, meeting_ids=holds) == 2
    assert statuses() == {MeetingStatus.cancelled} and len(session.exec(select(EmailOutbox)).all()) == outbox
    assert first_free(session, kind) == min(session.get(Meeting, h).start_time for h in holds).isoformat().replace(  # type: ignore[union-attr]
        "+00:00", "Z"
    )


def test_the_manage_link_says_what_the_booker_may_do(session: Session, kind: MeetingType) -> None:
    """A hold may only be cancelled; once confirmed it may also be moved and added to a calendar (ADR 0065)."""
    held = visit(session, kind, "flags@example.com")
    shown = booking.get_booking(session, token=token_of(held))
    assert (shown.can_cancel, shown.can_reschedule, shown.can_add_to_calendar) == (True, False, False)
    assert shown.canChange is False
    with pytest.raises(Conflict):
        booking.reschedule(session, token=token_of(held), data={"start": held.start})
    done = booking.confirm(session, token=confirm_link(session, "flags@example.com"))
    shown = booking.get_booking(session, token=token_of(done))
    assert (shown.can_cancel, shown.can_reschedule, shown.can_add_to_calendar) == (True, True, True)
    assert shown.canChange is True and "can_cancel" not in shown.model_dump()  # the REST answer keeps its shape
