"""Meeting reminders: 24 hours and 1 hour before each scheduled meeting, to its client (or booker) and its organizer,
with the join link (issue 28, ADR 0099).

A reminder is due once its moment (the start time less 24 hours, or less 1 hour) has come and the meeting still has
that start time, is scheduled and has not started. It is sent once per start time: `reminded_24h_for` and
`reminded_1h_for` hold the start time each was sent for, so a moved meeting gets reminders of its own and a cancelled
one none. A reminder whose moment had already passed when the meeting got its time (booked at ten at night for nine
the next morning) is marked as sent when the time is set (app.models.meeting): the booking's own mail just said it.
Of two reminders due at once (after an outage), only the nearer one goes. So every row the pass selects is due, and
a busy calendar cannot hold a due reminder back behind rows that are not.

Each pass locks the meetings it sends for (`FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite has one writer), marks them
and queues the mail in one transaction: every server process runs the pass, and each reminder goes out once.
"""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime, timedelta

from sqlalchemy import or_
from sqlmodel import Session, col, select

from app.core.config import settings
from app.models.base import utcnow
from app.models.enums import MeetingStatus
from app.models.meeting import REMIND_DAY, REMIND_HOUR, Meeting
from app.models.user import User
from app.services.platform import letters, mail
from app.services.scheduling import booking_invite

log = logging.getLogger(__name__)

BATCH = 50  # meetings per pass; a pass that fills it leaves the rest to the next one, seconds later


@dataclasses.dataclass(frozen=True)
class Reminder:
    """A reminder queued: which meeting, which one (`soon`: the 1-hour one), to whom."""

    meeting_id: int
    soon: bool
    to: tuple[str, ...]


def _due(s: Session, now: datetime, *, soon: bool) -> list[Meeting]:
    """The scheduled meetings whose 1-hour (`soon`) or 24-hour reminder is due, locked for this pass."""
    sent_for = col(Meeting.reminded_1h_for) if soon else col(Meeting.reminded_24h_for)
    after, within = (timedelta(0), REMIND_HOUR) if soon else (REMIND_HOUR, REMIND_DAY)
    return list(
        s.exec(
            select(Meeting)
            .where(
                col(Meeting.status) == MeetingStatus.scheduled,
                col(Meeting.start_time) > now + after,
                col(Meeting.start_time) <= now + within,
                or_(sent_for.is_(None), sent_for != col(Meeting.start_time)),
            )
            .order_by(col(Meeting.start_time), col(Meeting.id))
            .limit(BATCH)
            .with_for_update(skip_locked=True)
        ).all()
    )


def _recipients(s: Session, m: Meeting) -> list[tuple[str, str, bool, bool]]:
    """(address, name, has the portal, mail the public can cause) for the client or booker, then the organizer."""
    out: list[tuple[str, str, bool, bool]] = []
    client = s.get(User, m.client_id) if m.client_id else None
    if client is not None:
        out.append((client.email, client.first_name or client.username, True, False))
    elif m.booker_email:
        # A visitor's booking: capped like every mail the public can cause.
        out.append((m.booker_email, m.booker_name or "there", False, True))
    organizer = s.get(User, m.organizer_id) if m.organizer_id else None
    if organizer is not None and all(organizer.email.lower() != o[0].lower() for o in out):
        out.append((organizer.email, organizer.first_name or organizer.username, False, False))
    return out


def _send(s: Session, m: Meeting, *, soon: bool) -> tuple[str, ...]:
    sent: list[str] = []
    for address, name, portal, public in _recipients(s, m):
        letter = letters.render(
            s,
            "meeting_reminder",
            soon=soon,
            name=name,
            title=m.title,
            when=booking_invite.local_time(m.start_time),  # the business zone, named: a reader's own is unknown
            meeting_url=m.meeting_url,
            portal_link=f"{settings.public_url}/client-portal?tab=meetings" if portal else None,
            booked=bool(m.manage_token_hash),
        )
        if mail.enqueue(s, to=address, letter=letter, public=public) is not None:
            sent.append(address)
    return tuple(sent)


def send_due(s: Session, *, now: datetime | None = None) -> list[Reminder]:
    """Queue every reminder due now, each once; returns them."""
    now = now or utcnow()
    queued: list[Reminder] = []
    for soon in (True, False):  # the nearer first: a meeting an hour away gets no day-before reminder after it
        for m in _due(s, now, soon=soon):
            assert m.id is not None
            m.reminded_24h_for = m.start_time
            if soon:
                m.reminded_1h_for = m.start_time
            s.add(m)
            queued.append(Reminder(m.id, soon, _send(s, m, soon=soon)))
    s.commit()
    for r in queued:
        log.info("Meeting %s: %s reminder to %s", r.meeting_id, "1-hour" if r.soon else "24-hour", ", ".join(r.to))
    return queued
