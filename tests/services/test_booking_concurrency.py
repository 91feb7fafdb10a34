"""No double booking, ever: parallel bookings of one slot on PostgreSQL give exactly one booking, and the database
itself refuses overlapping bookings of one organizer."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from app.core.db import make_engine
from app.core.errors import Conflict, TooManyRequests
from app.models.enums import Role
from app.models.meeting import Meeting, MeetingType
from app.models.system import AuditLog, EmailOutbox, RateLimitEvent
from app.models.user import User
from app.services.scheduling import booking
from tests.migrations import migrate

PARALLEL = 8


@pytest.fixture
def committed(engine: Engine) -> Iterator[tuple[User, MeetingType]]:
    """A host and a type committed for real (other connections must see them); removed afterwards."""
    tag = uuid.uuid4().hex[:8]
    with Session(engine, expire_on_commit=False) as s:
        limits_before = s.exec(select(func.coalesce(func.max(RateLimitEvent.id), 0))).one()
        host = User(username=f"host_{tag}", email=f"host_{tag}@example.com", role=Role.employee, is_verified=True)
        s.add(host)
        s.flush()
        t = MeetingType(
            slug=f"race-{tag}",
            name="Race",
            duration_minutes=30,
            organizer_id=host.id,
            availability={str(d): [["09:00", "17:00"]] for d in range(7)},
        )
        s.add(t)
        s.commit()
    yield host, t
    with Session(engine) as s:
        ids = list(s.exec(text("SELECT id FROM meetings WHERE meeting_type_id = :t"), params={"t": t.id}).scalars())  # type: ignore[call-overload]
        s.exec(delete(AuditLog).where(col(AuditLog.entity_id).in_([str(i) for i in ids])))  # type: ignore[call-overload]
        s.exec(delete(EmailOutbox).where(col(EmailOutbox.to_address).like(f"%{tag}%")))  # type: ignore[call-overload]
        s.exec(delete(EmailOutbox).where(col(EmailOutbox.to_address).like("racer%")))  # type: ignore[call-overload]
        s.exec(delete(Meeting).where(col(Meeting.meeting_type_id) == t.id))  # type: ignore[call-overload]
        s.exec(delete(MeetingType).where(col(MeetingType.id) == t.id))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id) == host.id))  # type: ignore[call-overload]
        # The bookings' rate-limit counts: later tests count every row of that table.
        s.exec(delete(RateLimitEvent).where(col(RateLimitEvent.id) > limits_before))  # type: ignore[call-overload]
        s.commit()


def test_parallel_bookings_of_one_slot_give_exactly_one(engine: Engine, committed: tuple[User, MeetingType]) -> None:
    _, t = committed
    with Session(engine) as s:
        # The second free time: the first can stop being offered before the booking (test_booking.first_free).
        start = booking.free_slots(s, data={"type": t.slug, "days": 14})[1].start
    barrier = threading.Barrier(PARALLEL)
    results: list[str] = []

    def attempt(n: int) -> None:
        with Session(engine, expire_on_commit=False) as s:
            barrier.wait()
            try:
                booking.book(
                    s, data={"type": t.slug, "start": start, "name": f"Racer {n}", "email": f"racer{n}@example.com"}
                )
                results.append("booked")
            except Conflict:
                results.append("conflict")

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(PARALLEL)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert sorted(results) == ["booked"] + ["conflict"] * (PARALLEL - 1)


def test_parallel_holds_from_one_address_stop_at_its_cap(engine: Engine, committed: tuple[User, MeetingType]) -> None:
    """Issue 23, point 5: the open holds of an address are counted under its lock, so a parallel burst from one
    address (each request a new e-mail and another slot) gets no more than the cap."""
    _, t = committed
    with Session(engine) as s:
        starts = [x.start for x in booking.free_slots(s, data={"type": t.slug, "days": 14})[:PARALLEL]]
    barrier = threading.Barrier(PARALLEL)
    results: list[str] = []

    def attempt(n: int) -> None:
        with Session(engine, expire_on_commit=False) as s:
            barrier.wait()
            data = {"type": t.slug, "start": starts[n], "name": "Racer", "email": f"racer{n}@example.com"}
            try:
                booking.book(s, data=data, ip="2001:db8:99:1::" + str(n + 1))  # one /64, eight addresses
                results.append("held")
            except TooManyRequests:
                results.append("refused")

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(PARALLEL)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert sorted(results) == ["held"] * booking.HOLDS_PER_ADDRESS + ["refused"] * (
        PARALLEL - booking.HOLDS_PER_ADDRESS
    )


def test_the_database_refuses_overlapping_bookings(engine: Engine, committed: tuple[User, MeetingType]) -> None:
    host, t = committed
    with Session(engine, expire_on_commit=False) as s:
        start = booking.slots_for(s, t, first_day=booking.zone_today(), days=14)[0].start

        def booked(offset_minutes: int, token: str) -> Meeting:
            begin = start + timedelta(minutes=offset_minutes)
            return Meeting(
                title="Direct",
                start_time=begin,
                end_time=begin + timedelta(minutes=30),
                organizer_id=host.id,
                meeting_type_id=t.id,
                manage_token_hash=token,
            )

        s.add(booked(0, "a" * 64))
        s.commit()
        s.add(booked(15, "b" * 64))  # overlaps by 15 minutes, a different start time: only the exclusion catches it
        with pytest.raises(IntegrityError, match="ex_meetings_no_double_booking"):
            s.commit()
        s.rollback()
        s.add(booked(30, "c" * 64))  # back to back is fine
        s.commit()


def test_parallel_bookings_on_sqlite_give_exactly_one(tmp_path: Path) -> None:
    """The embedded default: SQLite's single write lock, taken before the slot check, serialises bookings too."""
    url = f"sqlite:///{tmp_path / 'booking.db'}"
    migrate(url, "head")
    sqlite = make_engine(url)
    with Session(sqlite, expire_on_commit=False) as s:
        host = User(username="host", email="host@example.com", role=Role.employee, is_verified=True)
        s.add(host)
        s.flush()
        t = MeetingType(
            slug="lite",
            name="Lite",
            organizer_id=host.id,
            availability={str(d): [["09:00", "17:00"]] for d in range(7)},
        )
        s.add(t)
        s.commit()
        # The second free time: the first can stop being offered before the booking (test_booking.first_free).
        start = booking.free_slots(s, data={"type": "lite", "days": 14})[1].start
    barrier = threading.Barrier(4)
    results: list[str] = []

    def attempt(n: int) -> None:
        with Session(sqlite, expire_on_commit=False) as s:
            barrier.wait()
            try:
                booking.book(
                    s, data={"type": "lite", "start": start, "name": f"Racer {n}", "email": f"racer{n}@example.com"}
                )
                results.append("booked")
            except Conflict:
                results.append("conflict")

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    sqlite.dispose()
    assert sorted(results) == ["booked", "conflict", "conflict", "conflict"]
