"""The booking page's month calendar (app/services/scheduling/booking_calendar.py): the days of a month, counted in
the visitor's zone, that hold a free slot, one query of busy times for the month; and the types with their host."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlmodel import Session

from app.core.errors import Invalid
from app.models.enums import Role
from app.models.meeting import Meeting
from app.models.user import User
from app.services.scheduling import booking, booking_calendar
from app.services.scheduling.booking_invite import zone as business_zone
from tests import factories as f
from tests.services.test_booking import EVERY_DAY, NOW, make_type, z


@pytest.fixture
def host(session: Session) -> User:
    return f.user(session, "host", role=Role.employee, first_name="Marcus", last_name="Reed")


def month(session: Session, slug: str, which: str | None, zone: str | None = None, now: datetime = NOW):
    return booking_calendar.month_availability(session, type=slug, month=which, time_zone=zone, now=now)


def test_a_months_free_days_from_today_to_the_end_of_the_month(session: Session, host: User) -> None:
    t = make_type(session, host)  # weekdays 9-17 New York; now is Wednesday 2027-03-10, 7:00 EST
    found = month(session, t.slug, None, "America/New_York")
    assert (found.month, found.timeZone, found.previous, found.next) == ("2027-03", "America/New_York", None, "2027-04")
    days = [d.date for d in found.days]
    assert days[0] == "2027-03-10" and days[-1] == "2027-03-31"
    assert "2027-03-13" not in days and "2027-03-14" not in days  # the weekend
    assert len(days) == 16  # the weekdays from the 10th to the 31st
    # The slots are slots_for's: across the DST change (the 14th) 9:00 stays 9:00 on the wall clock.
    assert found.days[2].slots[0].start == "2027-03-12T14:00:00Z"
    assert found.days[3].slots[0].start == "2027-03-15T13:00:00Z"
    assert all(len(d.slots) == 16 for d in found.days)


def test_days_are_counted_in_the_visitors_zone(session: Session, host: User) -> None:
    t = make_type(session, host)
    tokyo = month(session, t.slug, "2027-03", "Asia/Tokyo")
    days = {d.date: d.slots for d in tokyo.days}
    # Friday 16:30 EST is Saturday 06:30 in Tokyo: Saturday has times there, and Friday's start at 23:00.
    assert "2027-03-13" in days and days["2027-03-13"][-1].start == "2027-03-12T21:30:00Z"
    assert "2027-03-13" not in {d.date for d in month(session, t.slug, "2027-03", "America/New_York").days}
    # An alias is read as its zone; an unknown zone as the business's.
    assert month(session, t.slug, "2027-03", "US/Pacific").timeZone == "America/Los_Angeles"
    assert month(session, t.slug, "2027-03", "Mars/Base").timeZone == "America/New_York"


def test_the_horizon_ends_the_months_and_earlier_months_are_not_offered(session: Session, host: User) -> None:
    t = make_type(session, host, availability=EVERY_DAY, horizon_days=30)
    april = month(session, t.slug, "2027-04", "America/New_York")
    assert (april.previous, april.next) == ("2027-03", None)
    assert (
        april.days[0].date == "2027-04-01" and april.days[-1].date == "2027-04-08"
    )  # NOW + 30 days is 8:00 EDT on the 9th
    assert month(session, t.slug, "2027-01", "America/New_York").month == "2027-03"  # the past: this month
    assert month(session, t.slug, "2030-01", "America/New_York").month == "2027-04"  # past the horizon: the last
    with pytest.raises(Invalid):
        month(session, t.slug, "March", "America/New_York")


def test_booked_days_are_not_free_and_the_month_reads_busy_times_once(
    session: Session, host: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = make_type(session, host, availability={"0": [["09:00", "10:00"]]})  # Mondays, two slots
    client = f.user(session)
    for start in (z("2027-03-15T13:00:00"), z("2027-03-15T13:30:00")):  # Monday the 15th, both slots
        session.add(Meeting(title="Busy", start_time=start, end_time=start + timedelta(minutes=30),
                            organizer_id=host.id, client_id=client.id))  # fmt: skip
    session.commit()
    queries: list[object] = []
    real = booking._busy
    monkeypatch.setattr(booking, "_busy", lambda *a, **k: queries.append(a) or real(*a, **k))
    found = month(session, t.slug, "2027-03", "America/New_York")
    assert [d.date for d in found.days] == ["2027-03-22", "2027-03-29"]
    assert len(queries) == 1  # one query of the organizer's busy times for the whole month, not one per day


def test_a_month_with_no_free_day_says_so(session: Session, host: User) -> None:
    t = make_type(session, host, dates_off=[f"2027-03-{d}" for d in range(10, 32)])
    found = month(session, t.slug, None, "America/New_York")
    assert found.days == [] and found.next == "2027-04"


def test_types_name_their_host(session: Session, host: User) -> None:
    made = [
        make_type(session, host, host_name="Someone Else", description="  Talk it through.  "),
        make_type(session, None, host_name="Elena Vasquez"),
        make_type(session, None),
        make_type(session, host, is_active=False),
    ]
    found = {b.slug: b for b in booking_calendar.bookable_types(session)}
    assert found[made[0].slug].host == "Marcus Reed"  # the organizer's name first
    assert found[made[0].slug].description == "Talk it through."
    assert found[made[1].slug].host == "Elena Vasquez"
    assert found[made[2].slug].host is None and found[made[2].slug].description is None
    assert made[3].slug not in found


def test_now_defaults_to_the_clock(session: Session, host: User) -> None:
    t = make_type(session, host, availability=EVERY_DAY)
    found = booking_calendar.month_availability(session, type=t.slug)
    today = datetime.now(business_zone())  # the month is counted in the business's zone, not in UTC
    assert found.month in {today.strftime("%Y-%m"), (today + timedelta(days=3)).strftime("%Y-%m")}
