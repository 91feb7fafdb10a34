"""What staff set per meeting type for in-app booking: organizer, weekly hours, dates off, buffers, notice, horizon and
join link; checked here so the slot rules can trust them."""

from __future__ import annotations

import re
from datetime import date
from itertools import pairwise
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, Field
from sqlmodel import Session, col, select

from app.models.enums import Role
from app.models.meeting import MeetingType
from app.models.user import User
from app.services.platform import validation as v
from app.services.platform.schema import RawText, Text, Whole, problem

_HHMM = re.compile(r"([01]\d|2[0-3]):[0-5]\d|24:00")
NUMBERS = {  # field: (label, low, high)
    "buffer_before_minutes": ("Buffer before", 0, 240),
    "buffer_after_minutes": ("Buffer after", 0, 240),
    "min_notice_minutes": ("Minimum notice", 0, 60 * 24 * 30),
    "horizon_days": ("Booking horizon", 1, 365),
}
MAX_WINDOWS = 4


class BookingSettings(BaseModel):
    """A meeting type's in-app booking rules as staff edit them: weekly hours per weekday ("0" is Monday) as
    [["09:00", "17:00"], ...] in the business time zone, dates off (ISO days), buffers, notice and horizon."""

    organizer_id: str | None
    availability: dict[str, list[list[str]]]
    dates_off: list[str]
    join_url: str | None
    buffer_before_minutes: int
    buffer_after_minutes: int
    min_notice_minutes: int
    horizon_days: int


def settings_dto(t: MeetingType) -> BookingSettings:
    return BookingSettings(
        organizer_id=str(t.organizer_id) if t.organizer_id else None,
        availability=t.availability or {},
        dates_off=list(t.dates_off or []),
        join_url=t.join_url,
        **{name: getattr(t, name) for name in NUMBERS},
    )


def staff_choices(s: Session, limit: int = 100) -> list[tuple[str, str]]:
    """(id, name) of staff who can host meetings, by name; at most `limit`."""
    rows = s.exec(
        select(User).where(col(User.role).in_([Role.admin, Role.employee])).order_by(col(User.first_name)).limit(limit)
    ).all()
    return [(str(u.id), " ".join(p for p in (u.first_name, u.last_name) if p) or u.username) for u in rows]


def _availability(value: Any) -> dict[str, list[list[str]]]:
    refused = "Weekly hours must be times like 09:00-17:00, opening before closing"
    if not isinstance(value, dict):
        raise problem(refused)
    out: dict[str, list[list[str]]] = {}
    for day, windows in value.items():
        if str(day) not in {str(d) for d in range(7)} or not isinstance(windows, list) or len(windows) > MAX_WINDOWS:
            raise problem(refused)
        clean = []
        for window in windows:
            ok = isinstance(window, list | tuple) and len(window) == 2 and all(isinstance(x, str) for x in window)
            if not ok or not all(_HHMM.fullmatch(x) for x in window) or window[0] >= window[1]:
                raise problem(refused)
            clean.append([window[0], window[1]])
        clean.sort()
        if any(a[1] > b[0] for a, b in pairwise(clean)):
            raise problem("Opening hours of one day must not overlap")
        if clean:
            out[str(day)] = clean
    return out


def _dates(value: Any) -> list[str]:
    if value is None:
        return []
    items = value.split() if isinstance(value, str) else value if isinstance(value, list) else None
    if items is None or len(items) > 366:
        raise problem("Dates off must be a list of dates")
    out: set[str] = set()
    for item in items:
        try:
            out.add(date.fromisoformat(str(item).strip()).isoformat())
        except ValueError:
            raise problem(f"Not a date (YYYY-MM-DD): {str(item)[:20]}") from None
    return sorted(out)


def _https(value: str | None) -> str | None:
    if value and not value.startswith("https://"):
        raise problem("The join link must start with https://")
    return value


# The booking settings' field types, for the meeting type's input (meetings_admin.MeetingTypeSave).
Organizer = Annotated[
    RawText, Field(description="The staff member who hosts (a user id), or null for the company calendar.")
]
Availability = Annotated[
    dict[str, list[list[str]]],
    BeforeValidator(_availability),
    Field(description=f"Weekly hours: weekday 0 (Monday) to 6 to at most {MAX_WINDOWS} [opens, closes] (HH:MM)."),
]
DatesOff = Annotated[
    list[str],
    BeforeValidator(_dates),
    Field(description="Dates without bookings (YYYY-MM-DD): a list, or text with one per line or space."),
]
BufferBefore = Annotated[int | None, Whole(*NUMBERS["buffer_before_minutes"])]
BufferAfter = Annotated[int | None, Whole(*NUMBERS["buffer_after_minutes"])]
MinNotice = Annotated[int | None, Whole(*NUMBERS["min_notice_minutes"])]
Horizon = Annotated[int | None, Whole(*NUMBERS["horizon_days"])]
# A video-call link, on a meeting type and on a meeting alike.
JoinLink = Annotated[str | None, Text("Join link", 500), AfterValidator(_https)]


def apply(s: Session, row: MeetingType, values: dict[str, Any]) -> dict[str, str]:
    """Set the (checked) booking settings present in `values` on `row`; the problems of what a schema cannot say
    (that the organizer is a staff member)."""
    errors: dict[str, str] = {}
    if "organizer_id" in values:
        host = v.staff_member(s, values["organizer_id"], errors, "organizer_id")
        if "organizer_id" not in errors:
            row.organizer_id = host.id if host else None
    for name in ("availability", "dates_off", "join_url"):
        if name in values:
            setattr(row, name, values[name])
    for name in NUMBERS:
        if values.get(name) is not None:
            setattr(row, name, values[name])
    return errors
