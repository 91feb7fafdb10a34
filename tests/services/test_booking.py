"""In-app booking: slots (time zones, a DST change, buffers, notice, horizon, overlaps), book, reschedule, cancel."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from email.message import EmailMessage
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar
from sqlmodel import Session, col, select

from app.core.config import Settings
from app.core.errors import Conflict, Invalid, NotFound, TooManyRequests
from app.models.enums import MeetingStatus, Role
from app.models.meeting import Meeting, MeetingType
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.platform import mail
from app.services.scheduling import booking
from tests import factories as f
from tests.smtp_sink import SmtpSink

WEEKDAYS = {str(d): [["09:00", "17:00"]] for d in range(5)}
EVERY_DAY = {str(d): [["09:00", "17:00"]] for d in range(7)}


def make_type(s: Session, organizer: User | None, **kw: object) -> MeetingType:
    fields: dict[str, object] = {
        "slug": f"call-{datetime.now().timestamp()}",
        "name": "Discovery Call",
        "duration_minutes": 30,
        "availability": WEEKDAYS,
        "organizer_id": organizer.id if organizer else None,
        **kw,
    }
    row = MeetingType(**fields)  # type: ignore[arg-type]
    s.add(row)
    s.commit()
    return row


@pytest.fixture
def host(session: Session) -> User:
    return f.user(session, "host", role=Role.employee, first_name="Marcus", last_name="Reed")


def z(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


# 2027-03-14 is the spring-forward Sunday in New York: 09:00 is 14:00Z before it and 13:00Z after it.
NOW = z("2027-03-10T12:00:00")


def starts(s: Session, t: MeetingType, first: date, days: int = 1, now: datetime = NOW) -> list[datetime]:
    return [slot.start for slot in booking.slots_for(s, t, first_day=first, days=days, now=now)]


def test_slots_follow_business_hours_across_a_daylight_saving_change(session: Session, host: User) -> None:
    t = make_type(session, host)
    friday = starts(session, t, date(2027, 3, 12))
    monday = starts(session, t, date(2027, 3, 15))
    assert friday[0] == z("2027-03-12T14:00:00") and friday[-1] == z("2027-03-12T21:30:00")
    assert monday[0] == z("2027-03-15T13:00:00") and monday[-1] == z("2027-03-15T20:30:00")
    assert len(friday) == len(monday) == 16
    assert starts(session, t, date(2027, 3, 13), days=2) == []  # the weekend has no hours


def test_notice_horizon_and_dates_off(session: Session, host: User) -> None:
    t = make_type(session, host, horizon_days=3, dates_off=["2027-03-11"])
    # 10:30 EST now, two hours' notice: the first slot is 12:30 EST.
    assert starts(session, t, date(2027, 3, 10), now=z("2027-03-10T15:30:00"))[0] == z("2027-03-10T17:30:00")
    assert starts(session, t, date(2027, 3, 11)) == []  # a date off
    assert starts(session, t, date(2027, 3, 15)) == []  # beyond three days
    assert starts(session, t, date(2027, 3, 12))  # within them


def test_slots_avoid_the_organizers_meetings_with_buffers(session: Session, host: User) -> None:
    t = make_type(session, host, buffer_before_minutes=15, buffer_after_minutes=15)
    client = f.user(session)
    start = z("2027-03-11T15:00:00")  # 10:00-11:00 EST
    for organizer, status in ((host.id, MeetingStatus.scheduled), (None, MeetingStatus.scheduled)):
        session.add(
            Meeting(title="Busy", start_time=start, end_time=start + timedelta(hours=1), organizer_id=organizer,
                    client_id=client.id, status=status)
        )  # fmt: skip
    other = f.user(session, "other", role=Role.employee)
    session.add(Meeting(title="Theirs", start_time=start - timedelta(hours=1), end_time=start, organizer_id=other.id))
    session.add(
        Meeting(title="Off", start_time=start + timedelta(hours=2), end_time=start + timedelta(hours=3),
                organizer_id=host.id, status=MeetingStatus.cancelled)
    )  # fmt: skip
    session.commit()
    free = starts(session, t, date(2027, 3, 11))
    assert z("2027-03-11T14:00:00") in free  # 9:00-9:30, its 15-minute buffer ends as the meeting starts
    for blocked in ("14:30", "15:00", "15:30", "16:00"):  # within a buffer of 10:00-11:00
        assert z(f"2027-03-11T{blocked}:00") not in free
    assert z("2027-03-11T16:30:00") in free
    assert z("2027-03-11T17:00:00") in free  # the cancelled meeting blocks nothing


def first_free(s: Session, t: MeetingType) -> str:
    """The second free time, in fact: the first stops being offered when its notice passes, which can happen between
    reading it and booking it (a test run at 10:29:59.9 for a 10:30 time)."""
    return booking.free_slots(s, data={"type": t.slug, "days": 14})[1].start


def confirm_link(s: Session, email: str) -> str:
    """The token of the last confirmation link mailed to `email` (what only the address's owner can read)."""
    mails = select(EmailOutbox).where(EmailOutbox.to_address == email).order_by(col(EmailOutbox.id).desc())
    for row in s.exec(mails).all():
        if "/book-meeting/confirm?token=" in row.body_text:
            return row.body_text.split("/book-meeting/confirm?token=", 1)[1].split()[0]
    raise AssertionError(f"no confirmation link mailed to {email}")


def book_confirmed(s: Session, data: dict[str, str], **kw: object) -> dict[str, object]:
    """A visitor books and confirms from the mailed link: the confirmed booking, with its new manage link."""
    held = booking.book(s, data=data, **kw)  # type: ignore[arg-type]
    assert held.status == "unconfirmed"
    return booking.confirm(s, token=confirm_link(s, data["email"].lower()))


def test_a_confirmed_booking_attaches_the_client_mails_both_sides_and_takes_the_slot(
    session: Session, host: User
) -> None:
    t = make_type(session, host, availability=EVERY_DAY, join_url="https://meet.example.com/{room}")
    client = f.user(session, "dana", email="dana@example.com")
    start = first_free(session, t)
    done = book_confirmed(
        session, {"type": t.slug, "start": start, "name": "Dana W", "email": "Dana@Example.com"}, ip="1.2.3.4"
    )
    assert (
        done.start == start and done.manageUrl.startswith("http") and "/book-meeting/manage?token=" in (done.manageUrl)
    )
    assert done.joinUrl.startswith("https://meet.example.com/call-")
    meeting = session.get(Meeting, done.id)
    assert meeting is not None and meeting.client_id == client.id and meeting.organizer_id == host.id
    outbox = session.exec(select(EmailOutbox).where(EmailOutbox.to_address.in_(["dana@example.com", host.email]))).all()  # type: ignore[attr-defined]
    invites = [m for m in outbox if m.attachments]  # the confirmation request before them carries none
    assert sorted(m.to_address for m in invites) == sorted(["dana@example.com", host.email])
    assert all(m.attachments[0]["content_type"] == "text/calendar; method=REQUEST" for m in invites)
    assert start not in [slot.start for slot in booking.free_slots(session, data={"type": t.slug, "days": 14})]
    with pytest.raises(Conflict):
        booking.book(session, data={"type": t.slug, "start": start, "name": "Eve", "email": "eve@example.com"})


def test_bad_input_is_a_422_naming_each_field(session: Session, host: User) -> None:
    t = make_type(session, host)
    with pytest.raises(Invalid) as caught:
        booking.book(session, data={"type": t.slug, "start": "tomorrow", "name": "", "email": "nope"})
    assert set(caught.value.errors) == {"start", "name", "email"}
    with pytest.raises(Invalid) as caught:
        booking.book(
            session, data={"type": "nope", "start": "2027-03-10T15:00:00Z", "name": "A", "email": "a@example.com"}
        )
    assert set(caught.value.errors) == {"type"}
    with pytest.raises(Invalid):
        booking.free_slots(session, data={"type": t.slug, "days": 32})


def test_a_time_not_offered_is_a_conflict(session: Session, host: User) -> None:
    t = make_type(session, host, availability=EVERY_DAY)
    start = datetime.fromisoformat(first_free(session, t)) + timedelta(minutes=7)
    with pytest.raises(Conflict):
        booking.book(session, data={"type": t.slug, "start": start.isoformat(), "name": "A", "email": "a@example.com"})


def test_signed_in_client_books_as_themselves(session: Session, host: User) -> None:
    t = make_type(session, host, availability=EVERY_DAY)
    client = f.user(session, "kim", first_name="Kim", last_name="Lee", company="Acme")
    done = booking.book(session, data={"type": t.slug, "start": first_free(session, t)}, actor=client)
    assert done.name == "Kim Lee" and done.email == client.email and done.company == "Acme"
    assert session.get(Meeting, done.id).client_id == client.id  # type: ignore[union-attr]


def test_bookings_per_address_are_limited(session: Session, host: User) -> None:
    t = make_type(session, host, availability=EVERY_DAY)
    for _ in range(booking.BOOKINGS_PER_ADDRESS):
        with pytest.raises(Invalid):
            booking.book(
                session, data={"type": t.slug, "start": "x", "name": "A", "email": "a@example.com"}, ip="9.9.9.9"
            )
    with pytest.raises(TooManyRequests):
        booking.book(session, data={"type": t.slug, "start": "x", "name": "A", "email": "a@example.com"}, ip="9.9.9.9")


def test_every_mailed_link_opens_the_booking_as_it_is_now(session: Session, host: User) -> None:
    t = make_type(session, host, availability=EVERY_DAY)
    first, second, third = [s.start for s in booking.free_slots(session, data={"type": t.slug, "days": 14})[1:4]]
    done = book_confirmed(session, {"type": t.slug, "start": first, "name": "A", "email": "a@example.com"})
    token = str(done.manageUrl).split("token=")[1]
    assert booking.get_booking(session, token=token).start == first
    moved = booking.reschedule(session, data={"start": second}, token=token)
    new_token = moved.manageUrl.split("token=")[1]
    assert moved.start == second and new_token != token
    # The first mail's link opens the booking at its new time, and can still move it and cancel it.
    old = booking.get_booking(session, token=token)
    assert old.id == done.id and old.start == second and old.status == "scheduled"
    assert old.can_reschedule and old.can_cancel and old.cancelledAt is None
    again = booking.reschedule(session, data={"start": third}, token=token)
    assert booking.get_booking(session, token=new_token).start == third
    assert session.get(Meeting, done.id).sequence == 2  # type: ignore[union-attr]
    free = [s.start for s in booking.free_slots(session, data={"type": t.slug, "days": 14})]
    assert first in free and second in free and third not in free
    booking.cancel(session, token=token)  # the oldest link cancels it
    assert third in [s.start for s in booking.free_slots(session, data={"type": t.slug, "days": 14})]
    # Every link now shows it cancelled, when and by whom; none offers a change.
    for link in (token, new_token, again.manageUrl.split("token=")[1]):
        shown = booking.get_booking(session, token=link)
        assert shown.status == "cancelled" and shown.cancelledBy == "booker" and shown.cancelledAt is not None
        assert not (shown.can_reschedule or shown.can_cancel or shown.can_add_to_calendar)
    with pytest.raises(Conflict) as caught:
        booking.cancel(session, token=new_token)
    assert caught.value.message == booking.CANCELLED
    with pytest.raises(Conflict):
        booking.reschedule(session, data={"start": first}, token=new_token)
    with pytest.raises(Conflict):
        booking.calendar_file(session, token=token)
    # A token that was never a link of any booking is still a 404, and says nothing of any booking.
    with pytest.raises(NotFound) as unknown:
        booking.get_booking(session, token="unknown")
    assert unknown.value.message == booking.UNKNOWN_LINK
    with pytest.raises(NotFound):
        booking.get_booking(session, token=new_token[:-1] + ("A" if new_token[-1] != "A" else "B"))


def test_links_are_stored_only_as_keyed_hashes(session: Session, host: User) -> None:
    from app.models.meeting import BookingLink

    t = make_type(session, host, availability=EVERY_DAY)
    first, second = [s.start for s in booking.free_slots(session, data={"type": t.slug, "days": 14})[:2]]
    done = book_confirmed(session, {"type": t.slug, "start": first, "name": "A", "email": "a@example.com"})
    token = str(done.manageUrl).split("token=")[1]
    moved = booking.reschedule(session, data={"start": second}, token=token)
    [kept] = session.exec(select(BookingLink).where(BookingLink.meeting_id == done.id)).all()
    row = session.get(Meeting, done.id)
    assert row is not None and token not in kept.token_hash and len(kept.token_hash) == 64
    assert moved.manageUrl.split("token=")[1] not in (row.manage_token_hash or "")
    assert kept.token_hash != row.manage_token_hash


def test_a_booking_cancelled_by_staff_says_so_on_its_link(session: Session, host: User) -> None:
    from app.services.scheduling import meetings

    t = make_type(session, host, availability=EVERY_DAY)
    client = f.user(session, "cancelledclient")
    done = booking.book(session, data={"type": t.slug, "start": first_free(session, t)}, actor=client)
    admin = f.user(session, "canceladmin", role=Role.admin)
    meetings.cancel_meeting(session, actor=admin, meeting_id=done.id, reason="The host is ill")
    shown = booking.get_booking(session, token=done.manageUrl.split("token=")[1])
    assert shown.status == "cancelled" and shown.cancelledBy == "staff" and shown.cancelReason == "The host is ill"
    mails = select(EmailOutbox).where(EmailOutbox.to_address == client.email).order_by(col(EmailOutbox.id))
    letter = session.exec(mails).all()[-1]
    assert "cancelled your" in letter.body_text and "Reason: The host is ill" in letter.body_text
    assert "removes the meeting from your calendar" in letter.body_text


@pytest.fixture
def sink() -> Iterator[SmtpSink]:
    s = SmtpSink().start()
    yield s
    s.stop()


def invitation(msg: EmailMessage) -> tuple[str, Calendar]:
    [part] = [p for p in msg.iter_attachments() if p.get_content_type() == "text/calendar"]
    return str(part.get_param("method")), Calendar.from_ical(part.get_content())


def test_invitations_parse_as_icalendar_request_update_and_cancel(session: Session, host: User, sink: SmtpSink) -> None:
    cfg = Settings(_env_file=None, smtp_host="127.0.0.1", smtp_port=sink.port, smtp_tls="none")  # type: ignore[call-arg]
    t = make_type(session, host, availability=EVERY_DAY, join_url="https://meet.example.com/fixed")
    first, second = [s.start for s in booking.free_slots(session, data={"type": t.slug, "days": 14})[:2]]
    done = book_confirmed(session, {"type": t.slug, "start": first, "name": "Ann Booker", "email": "ann@example.com"})
    token = str(done.manageUrl).split("token=")[1]
    mail.deliver_pending(session, cfg=cfg)
    to_ann = [m for m in sink.messages if m["To"] == "ann@example.com"]
    method, cal = invitation(to_ann[-1])
    [event] = cal.walk("VEVENT")
    assert method == "REQUEST" and str(cal["METHOD"]) == "REQUEST"
    assert event.decoded("DTSTART") == datetime.fromisoformat(first) and event.decoded("DTSTART").utcoffset() == (
        timedelta(0)
    )
    assert event.decoded("DTEND") - event.decoded("DTSTART") == timedelta(minutes=30)
    assert str(event["ORGANIZER"]) == f"mailto:{host.email}" and str(event["ATTENDEE"]) == "mailto:ann@example.com"
    assert str(event["LOCATION"]) == str(event["URL"]) == "https://meet.example.com/fixed"
    uid = str(event["UID"])
    assert int(event["SEQUENCE"]) == 0 and token in to_ann[-1].get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert any(m["To"] == host.email for m in sink.messages)

    moved = booking.reschedule(session, data={"start": second}, token=token)
    mail.deliver_pending(session, cfg=cfg)
    method, cal = invitation([m for m in sink.messages if m["To"] == "ann@example.com"][-1])
    [event] = cal.walk("VEVENT")
    assert method == "REQUEST" and str(event["UID"]) == uid and int(event["SEQUENCE"]) == 1
    assert event.decoded("DTSTART") == datetime.fromisoformat(second)

    booking.cancel(session, token=moved.manageUrl.split("token=")[1])
    mail.deliver_pending(session, cfg=cfg)
    method, cal = invitation([m for m in sink.messages if m["To"] == "ann@example.com"][-1])
    [event] = cal.walk("VEVENT")
    assert method == "CANCEL" and str(cal["METHOD"]) == "CANCEL" and str(event["UID"]) == uid
    assert int(event["SEQUENCE"]) == 2 and str(event["STATUS"]) == "CANCELLED"


def test_without_a_join_link_the_invite_says_the_organizer_sends_it(session: Session, host: User) -> None:
    t = make_type(session, host, availability=EVERY_DAY)
    done = book_confirmed(
        session, {"type": t.slug, "start": first_free(session, t), "name": "A", "email": "a@example.com"}
    )
    assert done.joinUrl is None
    invite = select(EmailOutbox).where(EmailOutbox.to_address == "a@example.com").order_by(col(EmailOutbox.id))
    row = session.exec(invite).all()[-1]
    assert "Your host will send you the link to join before the meeting." in row.body_text


def test_staff_set_the_booking_rules_of_a_type(session: Session, host: User) -> None:
    from app.services.scheduling import meetings_admin

    admin = f.user(session, "bookadmin", role=Role.admin)
    saved = meetings_admin.save_type(
        session,
        actor=admin,
        data={
            "name": "Audit",
            "organizer_id": str(host.id),
            "availability": {"0": [["13:00", "17:00"], ["09:00", "12:00"]], "2": [["10:00", "11:00"]]},
            "dates_off": "2027-12-24\n2027-12-31",
            "buffer_before_minutes": "10",
            "buffer_after_minutes": 5,
            "min_notice_minutes": 60,
            "horizon_days": 14,
            "join_url": "https://meet.jit.si/{room}",
        },
    )
    assert saved.organizer_id == str(host.id) and saved.horizon_days == 14
    assert saved.availability["0"] == [["09:00", "12:00"], ["13:00", "17:00"]]
    assert saved.dates_off == ["2027-12-24", "2027-12-31"]
    cleared = meetings_admin.save_type(
        session, actor=admin, type_id=saved.id, data={"organizer_id": None, "join_url": None, "dates_off": None}
    )
    assert cleared.organizer_id is None and cleared.join_url is None and cleared.dates_off == []
    bad = {
        "availability": {"0": [["17:00", "09:00"]]},
        "organizer_id": str(f.user(session).id),  # a client cannot host
        "horizon_days": 0,
        "dates_off": "2027-13-01",
        "join_url": "http://insecure.example",
    }
    with pytest.raises(Invalid) as caught:
        meetings_admin.save_type(session, actor=admin, type_id=saved.id, data=bad)
    assert set(caught.value.errors) == {"availability", "horizon_days", "dates_off", "join_url"}
    with pytest.raises(Invalid) as caught:  # the host is looked up once the values themselves are right
        meetings_admin.save_type(session, actor=admin, type_id=saved.id, data={"organizer_id": bad["organizer_id"]})
    assert caught.value.errors == {"organizer_id": "Please choose a staff member"}


def test_a_booking_cancelled_in_the_portal_or_moved_by_staff_updates_the_calendars(
    session: Session, host: User
) -> None:
    from app.services.scheduling import meetings, meetings_admin

    t = make_type(session, host, availability=EVERY_DAY)
    client = f.user(session, "portalclient")
    first, second = [s.start for s in booking.free_slots(session, data={"type": t.slug, "days": 14})[:2]]
    moved = booking.book(session, data={"type": t.slug, "start": first}, actor=client)
    admin = f.user(session, "moveadmin", role=Role.admin)
    meetings_admin.update_meeting(session, actor=admin, meeting_id=moved.id, data={"start_time": second})
    row = session.get(Meeting, moved.id)
    assert row is not None and row.sequence == 1
    mails = select(EmailOutbox).where(EmailOutbox.to_address == client.email).order_by(col(EmailOutbox.id))
    update = session.exec(mails).all()[-1]
    assert "SEQUENCE:1" in update.attachments[0]["content"] and update.subject.startswith("Moved:")
    meetings.cancel_meeting(session, actor=client, meeting_id=moved.id)
    last = session.exec(mails).all()[-1]
    assert last.attachments[0]["content_type"] == "text/calendar; method=CANCEL"
    session.refresh(row)
    assert row.cancelled_by == "booker" and second in [
        s.start for s in booking.free_slots(session, data={"type": t.slug, "days": 14})
    ]


def test_the_bookers_letter_names_their_own_time_zone(session: Session, host: User) -> None:
    t = make_type(session, host, availability=EVERY_DAY)
    start = first_free(session, t)
    booking.book(
        session, data={"type": t.slug, "start": start, "name": "K", "email": "k@example.com", "timeZone": "Asia/Tokyo"}
    )
    tokyo = datetime.fromisoformat(start).astimezone(ZoneInfo("Asia/Tokyo")).strftime("%-I:%M %p JST")
    asked = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == "k@example.com")).one()
    assert tokyo in asked.subject and asked.subject.startswith("Please confirm")
    booking.confirm(session, token=confirm_link(session, "k@example.com"), time_zone="Asia/Tokyo")
    mails = select(EmailOutbox).where(EmailOutbox.to_address == "k@example.com").order_by(col(EmailOutbox.id))
    assert tokyo in session.exec(mails).all()[-1].subject
    staff = session.exec(
        select(EmailOutbox).where(EmailOutbox.to_address == host.email).order_by(col(EmailOutbox.id))
    ).all()[-1]
    assert "JST" not in staff.subject and ("EST" in staff.subject or "EDT" in staff.subject)


def test_hours_spanning_the_clock_change_follow_real_time(session: Session, host: User) -> None:
    # Sunday 01:00-04:00 in New York: two real hours on the spring-forward day, four on the fall-back day.
    t = make_type(session, host, availability={"6": [["01:00", "04:00"]]}, horizon_days=300)
    spring = starts(session, t, date(2027, 3, 14))
    assert spring == [z("2027-03-14T06:00:00") + timedelta(minutes=30 * i) for i in range(4)]
    autumn = starts(session, t, date(2027, 11, 7))
    assert autumn == [z("2027-11-07T05:00:00") + timedelta(minutes=30 * i) for i in range(8)]


def test_the_booking_form_words_each_refusal(session: Session, host: User) -> None:
    """Typed input (`BookingCreate`): every refusal is headed "Please check the highlighted fields.", each field
    named as the payload names it, in the words the form always used."""
    t = make_type(session, host, availability=EVERY_DAY)
    cases: list[tuple[dict[str, object], dict[str, str]]] = [
        (
            {"start": "soon", "name": " ", "email": "x"},
            {
                "start": "Please choose a time.",
                "name": "Name is required",
                "email": "Please enter a valid email address.",
            },
        ),
        ({"start": None}, {"start": "Please choose a time."}),
        ({"start": "2027-03-11T15:00:00"}, {"start": "The time needs a time zone (e.g. 2026-12-01T15:00:00Z)."}),
        ({"start": "0001-01-01T00:00:00+05:00"}, {"start": "Start cannot be before January 1, 1900"}),
        (
            {"name": "n" * 101, "company": "c" * 201},
            {
                "name": "Name must not exceed 100 characters",
                "company": "Company must not exceed 200 characters",
            },
        ),
        (
            {"notes": "n" * 2001, "timeZone": "z" * 65},
            {
                "notes": "Notes must not exceed 2000 characters",
                "timeZone": "Time zone must not exceed 64 characters",
            },
        ),
        ({"type": "nope"}, {"type": "Unknown meeting type"}),
    ]
    good = {"type": t.slug, "start": first_free(session, t), "name": "Ann", "email": "ann@example.com"}
    for change, errors in cases:
        with pytest.raises(Invalid) as caught:
            booking.book(session, data={**good, **change})
        assert (caught.value.message, caught.value.errors) == ("Please check the highlighted fields.", errors)


def test_a_signed_in_client_sends_only_the_time(session: Session, host: User) -> None:
    """A client's `BookingBase` needs no name or e-mail; a visitor's form without them is refused."""
    t = make_type(session, host, availability=EVERY_DAY)
    client = f.user(session, "long", first_name="L" * 100, last_name="Name")
    base = booking.BookingBase(type=t.slug, start=first_free(session, t), company="Other Co")
    done = booking.book(session, data=base, actor=client)
    assert done.name == "L" * 100 and done.company == "Other Co"  # the account's name, cut to the form's limit
    with pytest.raises(Invalid) as caught:
        booking.book(session, data=base)
    assert caught.value.errors == {"name": "Name is required", "email": "Please enter a valid email address."}


def test_reschedule_and_slots_take_typed_input(session: Session, host: User) -> None:
    t = make_type(session, host, availability=EVERY_DAY)
    done = booking.book(
        session, data={"type": t.slug, "start": first_free(session, t), "name": "A", "email": "a@example.com"}
    )
    token = done.manageUrl.split("token=")[1]
    with pytest.raises(Invalid) as caught:
        booking.reschedule(session, token=token, data={"start": "later"})
    assert caught.value.errors == {"start": "Please choose a time."}
    with pytest.raises(NotFound):  # an unknown link is a 404, whatever was sent
        booking.reschedule(session, token="unknown", data={"start": "later"})
    with pytest.raises(Invalid) as caught:
        booking.free_slots(session, data={"type": t.slug, "from": "9999-01-01", "days": 0})
    assert caught.value.errors == {
        "from": "From cannot be after December 31, 2200",
        "days": "Days must be between 1 and 31",
    }
