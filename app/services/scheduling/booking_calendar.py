"""The booking page's month calendar and what it shows beside the times (issue 26, held against Cal.com).

A month of a type's free slots counted in the visitor's zone, the days that hold any, and the meeting types with
their host. The slots are `booking.slots_for`'s: this only chooses the range and groups it.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.core.errors import Invalid
from app.models.base import utcnow
from app.models.meeting import MeetingType
from app.models.user import User
from app.services.platform import zones
from app.services.scheduling.booking import MAX_DAYS, SlotOut, get_type, slots_for
from app.services.scheduling.booking_invite import zone


class BookableType(BaseModel):
    """A meeting type as the booking page presents it beside the times (Cal.com's left column): who hosts it (its
    organizer's name, else the host name typed for it, else nobody named), what it is and how long it lasts."""

    slug: str
    name: str
    durationMinutes: int  # noqa: N815 (the interface's JSON names)
    description: str | None
    host: str | None


def bookable_types(s: Session) -> list[BookableType]:
    """The active meeting types with their host's name (public): one query, the organizers joined."""
    query = (
        select(MeetingType, User.first_name, User.last_name, User.username)
        .outerjoin(User, col(MeetingType.organizer_id) == col(User.id))
        .where(col(MeetingType.is_active).is_(True))
        .order_by(col(MeetingType.sort_order), col(MeetingType.id))
    )
    found = []
    for t, first, last, username in s.exec(query).all():
        organizer = " ".join(p for p in (first, last) if p) or username
        found.append(
            BookableType(
                slug=t.slug,
                name=t.name,
                durationMinutes=t.duration_minutes,
                description=(t.description or "").strip() or None,
                host=organizer or t.host_name or None,
            )
        )
    return found


class AvailableDay(BaseModel):
    date: str  # ISO date in the visitor's zone
    slots: list[SlotOut]


class MonthAvailability(BaseModel):
    """A month of a type's free slots in the visitor's zone: the days with at least one, each with its slots, and the
    neighbouring months that can hold any (None past the horizon or before this month)."""

    month: str  # "2026-12"
    timeZone: str  # noqa: N815 (the zone the days are counted in)
    days: list[AvailableDay]
    previous: str | None
    next: str | None


BAD_MONTH = "Please choose a month (e.g. 2026-12)."


def _month_start(value: str | None) -> date | None:
    if not value:
        return None
    try:
        return datetime.strptime(value.strip()[:7], "%Y-%m").date()
    except ValueError:
        raise Invalid(BAD_MONTH, errors={"month": BAD_MONTH}) from None


def _add_month(first: date, delta: int) -> date:
    index = first.year * 12 + first.month - 1 + delta
    return date(index // 12, index % 12 + 1, 1)


def month_availability(
    s: Session, *, type: str, month: str | None = None, time_zone: str | None = None, now: datetime | None = None
) -> MonthAvailability:
    """The free slots of an active type in a month of the visitor's zone (public), grouped by their local day.

    The month is counted in `time_zone` (a listed zone or an alias of one, else the business's), so a visitor in
    Tokyo sees a slot on the day it falls for them. A month before this one or past the horizon is moved to the nearest
    one that can hold slots. The slots are `slots_for`'s, computed over the business-zone days that cover the month,
    clipped to now and the horizon: one query of the organizer's busy times per 31 days (at most two for a month)."""
    t = get_type(s, type)
    now = now or utcnow()
    named = zones.canonical(time_zone) or zones.canonical(zone().key) or zones.UTC_NAME
    tz = ZoneInfo(named)
    first_month = now.astimezone(tz).date().replace(day=1)
    last_month = (now + timedelta(days=t.horizon_days)).astimezone(tz).date().replace(day=1)
    wanted = min(max(_month_start(month) or first_month, first_month), last_month)
    lo = max(datetime.combine(wanted, time(0), tzinfo=tz).astimezone(UTC), now)
    hi = datetime.combine(_add_month(wanted, 1), time(0), tzinfo=tz).astimezone(UTC)
    hi = min(hi, now + timedelta(days=t.horizon_days, minutes=t.duration_minutes))
    days: dict[str, list[SlotOut]] = {}
    if lo < hi:
        business = zone()
        day = lo.astimezone(business).date()
        last = (hi - timedelta(microseconds=1)).astimezone(business).date()
        while day <= last:
            count = min(MAX_DAYS, (last - day).days + 1)
            for slot in slots_for(s, t, first_day=day, days=count, now=now):
                if lo <= slot.start < hi:
                    days.setdefault(slot.start.astimezone(tz).date().isoformat(), []).append(slot.public())
            day += timedelta(days=count)
    return MonthAvailability(
        month=wanted.strftime("%Y-%m"),
        timeZone=named,
        days=[AvailableDay(date=key, slots=slots) for key, slots in days.items()],
        previous=_add_month(wanted, -1).strftime("%Y-%m") if wanted > first_month else None,
        next=_add_month(wanted, 1).strftime("%Y-%m") if wanted < last_month else None,
    )
