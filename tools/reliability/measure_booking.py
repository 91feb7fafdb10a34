"""What a crowd can hold of the booking calendar (issue 23, point 5), measured through the booking service.

Sixteen addresses, each with a fresh throwaway e-mail per attempt, try to book as many slots of one organizer's
calendar (weekdays 9 to 5, 30 days ahead, about 300 slots) as they can, as fast as the service answers; then a real
visitor from another address books and confirms from the mailed link. The figures: slots offered before and after
the burst, the share left, what the crowd got, whether the visitor could book, and what is left once the crowd's
unconfirmed holds expire.

It runs on a PostgreSQL database of its own (created, migrated and dropped here): TEST_PG_ADMIN_URL names the server
(the test suite's default otherwise).

Usage: python tools/reliability/measure_booking.py
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import text, update
from sqlmodel import Session, col, select

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere: the app's packages

from alembic import command
from app.core import db
from app.core.config import settings
from app.core.db import make_engine
from app.core.errors import Conflict, TooManyRequests
from app.core.migrations import alembic_config
from app.models.base import utcnow
from app.models.enums import MeetingStatus, Role
from app.models.meeting import Meeting, MeetingType
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.platform import company
from app.services.scheduling import booking

DB_NAME = "measure_booking"
ADMIN_URL = os.environ.get("TEST_PG_ADMIN_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
ADDRESSES = 16
WEEKDAYS = {str(d): [["09:00", "17:00"]] for d in range(5)}


def _database(create: bool) -> None:
    admin = make_engine(ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)'))
        if create:
            conn.execute(text(f'CREATE DATABASE "{DB_NAME}"'))
    admin.dispose()


def _offered(s: Session, t: MeetingType) -> list[dict[str, str]]:
    return booking.free_slots(s, data={"type": t.slug, "days": booking.MAX_DAYS})


def _burst(s: Session, t: MeetingType) -> tuple[int, int]:
    """Every address books until refused, a new throwaway e-mail each time, always the first free slot (what a
    script does); returns (bookings made, attempts)."""
    made = attempts = 0
    for a in range(ADDRESSES):
        for n in range(booking.BOOKINGS_PER_ADDRESS + 5):  # past the hourly limit: the refusals are part of it
            free = _offered(s, t)
            if not free:
                break
            attempts += 1
            data = {"type": t.slug, "start": free[0]["start"], "name": "Bot", "email": f"bot{a}-{n}@mailinator.example"}
            with contextlib.suppress(TooManyRequests, Conflict):
                booking.book(s, data=data, ip=f"203.0.113.{a + 1}")
                made += 1
            s.rollback()
    return made, attempts


def _visitor_books(s: Session, t: MeetingType) -> bool:
    """A real visitor (another address, their own e-mail) books the first free slot and confirms from the mail."""
    email = "real.visitor@example.com"
    try:
        booking.book(
            s,
            data={"type": t.slug, "start": _offered(s, t)[0]["start"], "name": "Real", "email": email},
            ip="198.51.100.7",
        )
        letter = s.exec(select(EmailOutbox).where(EmailOutbox.to_address == email)).one()
        token = letter.body_text.split("/book-meeting/confirm?token=", 1)[1].split()[0]
        return booking.confirm(s, token=token)["status"] == str(MeetingStatus.scheduled)
    except (TooManyRequests, Conflict, IndexError):
        return False


def measure() -> list[str]:
    """Markdown rows `| figure | value | how |` of the burst, on a database created and dropped here."""
    url = ADMIN_URL.rsplit("/", 1)[0] + f"/{DB_NAME}"
    previous = settings.database_url
    _database(create=True)
    try:
        command.upgrade(alembic_config(url), "head")
        settings.database_url = url  # the services' own sessions (company details) read this database too
        db.get_engine.cache_clear()
        company.forget()
        engine = make_engine(url)
        with Session(engine, expire_on_commit=False) as s:
            host = User(username="host", email="host@example.com", role=Role.employee, is_verified=True)
            s.add(host)
            s.flush()
            t = MeetingType(slug="call", name="Call", availability=WEEKDAYS, organizer_id=host.id, horizon_days=30)
            s.add(t)
            s.commit()
            before = len(_offered(s, t))
            began = time.monotonic()
            made, attempts = _burst(s, t)
            seconds = time.monotonic() - began
            after = len(_offered(s, t))
            visitor = _visitor_books(s, t)
            s.exec(  # half an hour later: the crowd's holds expire, unconfirmed
                update(Meeting)
                .where(col(Meeting.status) == MeetingStatus.unconfirmed)
                .values(hold_expires_at=utcnow() - timedelta(seconds=1))
            )
            s.commit()
            expired = len(_offered(s, t))
        engine.dispose()
    finally:
        settings.database_url = previous
        db.get_engine.cache_clear()
        company.forget()
        _database(create=False)
    how = f"{ADDRESSES} addresses, a throwaway e-mail per attempt, first free slot each time (service, PostgreSQL)"
    return [
        f"| Bookable slots before the burst | {before} | one organizer, weekdays 9-5, 30 days ahead |",
        f"| Bookings the burst got | {made} of {attempts} attempts in {seconds:.1f} s | {how} |",
        f"| Bookable slots after the burst | {after} ({after / before:.0%} left) | target: at least 80% |",
        f"| A real visitor could book | {'yes' if visitor else 'no'} | another address: booked, confirmed by mail |",
        f"| Bookable slots once the holds expire | {expired} | {settings.booking_hold_minutes} minutes unconfirmed |",
    ]


if __name__ == "__main__":
    sys.stdout.write("\n".join(["| figure | value | how |", "|---|---|---|", *measure()]) + "\n")
