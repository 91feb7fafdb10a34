"""Times in the staff panel are the business's (issue 26): stored moments (UTC) are shown in the time zone of the
company settings, with its abbreviation ("2:00 PM EST"), and times staff type are read in it.

The team works in one place; a meeting typed as 14:00 is 14:00 there, whatever the server's or the browser's zone.
Clients and visitors keep seeing their own zone (the portal and the booking page format in the browser).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from app.core.errors import Invalid
from app.services.platform import company
from app.ui.format import long_date


def zone() -> ZoneInfo:
    return company.zone()


def local(value: Any, tz: ZoneInfo | None = None) -> datetime | None:
    """A stored moment (a datetime or ISO text; naive means UTC) in the business zone, or None when unreadable."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return None
    if not isinstance(value, datetime):
        return None
    moment = value if value.tzinfo else value.replace(tzinfo=UTC)
    return moment.astimezone(tz or zone())


def clock(moment: datetime, *, with_zone: bool = True) -> str:
    """'2:00 PM EST' (or '2:00 PM'): a moment's time of day, as the staff panel writes it."""
    hour = moment.hour % 12 or 12
    text = f"{hour}:{moment:%M} {'AM' if moment.hour < 12 else 'PM'}"
    return f"{text} {moment.tzname()}" if with_zone else text


def timestamp_text(value: Any, tz: ZoneInfo | None = None) -> str:
    """'March 5, 2026 at 9:07 AM EST': when something happened (inquiries, the audit log), in the business zone."""
    moment = local(value, tz)
    return f"{long_date(moment)} at {clock(moment)}" if moment else str(value or "")


def day_text(value: Any, tz: ZoneInfo | None = None) -> str:
    """'March 5, 2026': a calendar date as it is, or the business zone's day of a stored moment (an inquiry sent at
    10 PM in Florida is that day's, not the next day's as in UTC)."""
    if not value:
        return ""
    has_time = isinstance(value, datetime) or (isinstance(value, str) and "T" in value)
    return long_date(local(value, tz) if has_time else value)


def when_text(value: Any, tz: ZoneInfo | None = None) -> str:
    """'Mon Nov 2, 2026 · 2:00 PM EST': a meeting's start in the business zone."""
    moment = local(value, tz)
    return f"{moment:%a} {moment:%b} {moment.day}, {moment.year} · {clock(moment)}" if moment else str(value or "")


def zone_label(tz: ZoneInfo | None = None, at: datetime | None = None) -> str:
    """'New York (EST)': the zone staff type times in, named by its city (the IANA key, America/New_York, is the
    code's), with its abbreviation now."""
    tz = tz or zone()
    city = tz.key.rsplit("/", 1)[-1].replace("_", " ")
    return f"{city} ({(at or datetime.now(UTC)).astimezone(tz).tzname()})"


def form_moment(day: str, clock: str, tz: ZoneInfo | None = None, field: str = "start_time") -> str:
    """A date and a time typed by staff, read in the business zone, as ISO text with its offset ('' if either is
    missing, for the service to say so). A time the clocks skip (2:30 AM on the spring-forward day) is refused, and
    of a time that happens twice (the fall-back hour) the first is meant."""
    if not day or not clock:
        return ""
    tz = tz or zone()
    try:
        naive = datetime.combine(date.fromisoformat(day), time.fromisoformat(clock))
    except ValueError:
        return f"{day}T{clock}"  # the service's own message for an unreadable date or time
    moment = naive.replace(tzinfo=tz)
    if moment.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != naive:
        message = f"{clock} does not exist on {long_date(naive)} in {tz.key}: the clocks skip that hour"
        raise Invalid(message, {field: message})
    return moment.isoformat()
