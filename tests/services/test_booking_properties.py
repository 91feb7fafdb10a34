"""Property tests (hypothesis) for the scheduler: for any weekly hours, length, buffers, notice, horizon and meetings
already booked, every offered slot is bookable and breaks no rule; any `start` a caller sends is booked only if it was
offered, and is otherwise a clear refusal; nothing is ever booked twice.

Each example runs in a transaction of its own, rolled back afterwards (rate limits start from zero).
HYPOTHESIS_EXAMPLES raises the examples (`make torture`).
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.errors import Conflict, Invalid, TooManyRequests
from app.models.enums import MeetingStatus, Role
from app.models.meeting import Meeting, MeetingType
from app.services.scheduling import booking
from app.services.scheduling.booking_invite import zone
from tests import factories as f
from tests.conftest import rolled_back

EXAMPLES = int(os.environ.get("HYPOTHESIS_EXAMPLES", "40"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
NOW = datetime(2027, 3, 10, 12, 0, tzinfo=UTC)  # a Wednesday, days before New York's spring-forward Sunday
FIRST = date(2027, 3, 10)


@st.composite
def windows(draw: st.DrawFn) -> list[list[str]]:
    """0-2 windows of a day, "HH:MM" on the half hour, opening before closing ("24:00" is midnight)."""
    marks = sorted(draw(st.sets(st.integers(min_value=0, max_value=48), max_size=4)))
    pairs = [marks[i : i + 2] for i in range(0, len(marks) - 1, 2)]
    return [[f"{a // 2:02d}:{a % 2 * 30:02d}", f"{b // 2:02d}:{b % 2 * 30:02d}"] for a, b in pairs if a < b]


meeting_types = st.fixed_dictionaries(
    {
        "availability": st.dictionaries(st.sampled_from([str(d) for d in range(7)]), windows(), max_size=7),
        "duration_minutes": st.sampled_from([15, 20, 30, 45, 60, 90]),
        "buffer_before_minutes": st.sampled_from([0, 5, 15, 30]),
        "buffer_after_minutes": st.sampled_from([0, 10, 15]),
        "min_notice_minutes": st.sampled_from([0, 60, 24 * 60, 3 * 24 * 60]),
        "horizon_days": st.integers(min_value=1, max_value=30),
    }
)
# Meetings already in the organizer's calendar: day offset, start minute of the day (UTC), length, cancelled or not.
busy = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=13),
        st.integers(min_value=0, max_value=47).map(lambda h: h * 30),
        st.sampled_from([15, 30, 60, 120]),
        st.booleans(),
    ),
    max_size=6,
)


def _setup(s: Session, fields: dict[str, Any], meetings: list[tuple[int, int, int, bool]]) -> MeetingType:
    host = f.user(s, f"host_{datetime.now().timestamp()}", role=Role.employee)
    t = MeetingType(slug=f"prop-{datetime.now().timestamp()}", name="Call", organizer_id=host.id, **fields)
    s.add(t)
    for day, minute, length, cancelled in meetings:
        start = datetime.combine(FIRST + timedelta(days=day), time(), tzinfo=UTC) + timedelta(minutes=minute)
        s.add(
            Meeting(
                title="Busy",
                start_time=start,
                end_time=start + timedelta(minutes=length),
                organizer_id=host.id,
                status=MeetingStatus.cancelled if cancelled else MeetingStatus.scheduled,
            )
        )
    s.flush()
    return t


def _inside_hours(t: MeetingType, slot: booking.Slot) -> bool:
    tz = zone()
    for day in (slot.start.astimezone(tz).date(), slot.start.astimezone(tz).date() - timedelta(days=1)):
        for opens, closes in (t.availability or {}).get(str(day.weekday()), []):
            lo = booking._at(day, opens, tz)
            hi = booking._at(day, closes, tz)
            if lo <= slot.start and slot.end <= hi:
                return True
    return False


@SETTINGS
@given(fields=meeting_types, meetings=busy, days=st.integers(min_value=1, max_value=14))
def test_every_offered_slot_keeps_every_rule(
    engine: Engine, fields: dict[str, Any], meetings: list[tuple[int, int, int, bool]], days: int
) -> None:
    with rolled_back(engine) as s:
        t = _setup(s, fields, meetings)
        slots = booking.slots_for(s, t, first_day=FIRST, days=days, now=NOW)
        event(f"slots offered: {'none' if not slots else 'some'}")
        taken = [  # the organizer's scheduled meetings (typeless, so without buffers of their own)
            (m.start_time, m.end_time)
            for m in s.exec(select(Meeting).where(Meeting.organizer_id == t.organizer_id)).all()
            if m.status == MeetingStatus.scheduled
        ]
        length = timedelta(minutes=t.duration_minutes)
        for slot in slots:
            assert slot.end - slot.start == length
            assert NOW + timedelta(minutes=t.min_notice_minutes) <= slot.start <= NOW + timedelta(days=t.horizon_days)
            assert _inside_hours(t, slot), slot
            before, after = timedelta(minutes=t.buffer_before_minutes), timedelta(minutes=t.buffer_after_minutes)
            for lo, hi in taken:  # the slot, widened by this type's buffers, touches no meeting
                assert not (slot.start - before < hi and slot.end + after > lo), (slot, lo, hi)
        assert [x.start for x in slots] == sorted({x.start for x in slots})  # ordered, each once


starts = st.one_of(
    st.datetimes(
        min_value=datetime(2025, 1, 1),
        max_value=datetime(2028, 12, 31),
        timezones=st.sampled_from([UTC, zone()]),
    ).map(lambda d: d.isoformat()),
    st.text(max_size=40),
    st.sampled_from(["", "tomorrow", "2027-03-11T15:00:00", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"]),
    st.none(),
    st.integers(),
)


@SETTINGS
@given(start=starts, use_offered=st.booleans())
def test_any_start_is_booked_only_when_offered_and_never_twice(engine: Engine, start: Any, use_offered: bool) -> None:
    with rolled_back(engine) as s:
        every_day = {str(d): [["09:00", "17:00"]] for d in range(7)}
        t = _setup(s, {"availability": every_day, "duration_minutes": 30, "horizon_days": 30}, [])
        s.commit()
        offered = [x.start for x in booking.free_slots(s, data={"type": t.slug, "days": 14})]
        if use_offered and offered:
            start = offered[len(offered) // 2]
        try:
            done = booking.book(
                s, data={"type": t.slug, "start": start, "name": "Prop Booker", "email": "prop@example.com"}
            )
        except (Invalid, Conflict, TooManyRequests) as refused:
            event(f"refused: {type(refused).__name__}")
            assert refused.message
            return
        event("booked")
        assert done.start in offered
        assert done.start not in [x.start for x in booking.free_slots(s, data={"type": t.slug, "days": 14})]
        try:
            booking.book(s, data={"type": t.slug, "start": done.start, "name": "Second", "email": "second@example.com"})
        except Conflict:
            pass
        else:
            raise AssertionError("the same slot was booked twice")
        booked = s.exec(select(Meeting).where(col(Meeting.meeting_type_id) == t.id)).all()
        assert len(booked) == 1
