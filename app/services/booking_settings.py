"""What staff set per meeting type for in-app booking: organizer, weekly hours, dates off, buffers, notice, horizon and
join link; checked here so the slot rules can trust them."""

from __future__ import annotations

import re
import uuid
from datetime import date
from itertools import pairwise
from typing import Any

from sqlmodel import Session, col, select

from app.models.enums import Role
from app.models.meeting import MeetingType
from app.models.user import User
from app.services import validation as v

_HHMM = re.compile(r"([01]\d|2[0-3]):[0-5]\d|24:00")
NUMBERS = {  # field: (label, low, high)
    "buffer_before_minutes": ("Buffer before", 0, 240),
    "buffer_after_minutes": ("Buffer after", 0, 240),
    "min_notice_minutes": ("Minimum notice", 0, 60 * 24 * 30),
    "horizon_days": ("Booking horizon", 1, 365),
}
MAX_WINDOWS = 4


def settings_dto(t: MeetingType) -> dict[str, Any]:
    return {
        "organizer_id": str(t.organizer_id) if t.organizer_id else None,
        "availability": t.availability or {},
        "dates_off": list(t.dates_off or []),
        "join_url": t.join_url,
        **{name: getattr(t, name) for name in NUMBERS},
    }


def staff_choices(s: Session, limit: int = 100) -> list[tuple[str, str]]:
    """(id, name) of staff who can host meetings, by name; at most `limit`."""
    rows = s.exec(
        select(User).where(col(User.role).in_([Role.admin, Role.employee])).order_by(col(User.first_name)).limit(limit)
    ).all()
    return [(str(u.id), " ".join(p for p in (u.first_name, u.last_name) if p) or u.username) for u in rows]


def _availability(value: Any, errors: dict[str, str]) -> dict[str, list[list[str]]]:
    problem = "Weekly hours must be times like 09:00-17:00, opening before closing"
    if not isinstance(value, dict):
        errors["availability"] = problem
        return {}
    out: dict[str, list[list[str]]] = {}
    for day, windows in value.items():
        if str(day) not in {str(d) for d in range(7)} or not isinstance(windows, list) or len(windows) > MAX_WINDOWS:
            errors["availability"] = problem
            return {}
        clean = []
        for window in windows:
            ok = isinstance(window, list | tuple) and len(window) == 2 and all(isinstance(x, str) for x in window)
            if not ok or not all(_HHMM.fullmatch(x) for x in window) or window[0] >= window[1]:
                errors["availability"] = problem
                return {}
            clean.append([window[0], window[1]])
        clean.sort()
        if any(a[1] > b[0] for a, b in pairwise(clean)):
            errors["availability"] = "Opening hours of one day must not overlap"
            return {}
        if clean:
            out[str(day)] = clean
    return out


def _dates(value: Any, errors: dict[str, str]) -> list[str]:
    if value is None:
        return []
    items = value.split() if isinstance(value, str) else value if isinstance(value, list) else None
    if items is None or len(items) > 366:
        errors["dates_off"] = "Dates off must be a list of dates"
        return []
    out: set[str] = set()
    for item in items:
        try:
            out.add(date.fromisoformat(str(item).strip()).isoformat())
        except ValueError:
            errors["dates_off"] = f"Not a date (YYYY-MM-DD): {str(item)[:20]}"
            return []
    return sorted(out)


def apply(s: Session, row: MeetingType, data: dict[str, Any], errors: dict[str, str]) -> None:
    """Set the booking settings present in `data` on `row`, recording problems in `errors`."""
    if "organizer_id" in data:
        raw = str(data["organizer_id"] or "").strip()
        if not raw:
            row.organizer_id = None
        else:
            try:
                host = s.get(User, uuid.UUID(raw))
            except ValueError:
                host = None
            if host is None or host.role not in (Role.admin, Role.employee):
                errors["organizer_id"] = "Please choose a staff member"
            else:
                row.organizer_id = host.id
    if "availability" in data:
        row.availability = _availability(data["availability"], errors)
    if "dates_off" in data:
        row.dates_off = _dates(data["dates_off"], errors)
    for name, (label, low, high) in NUMBERS.items():
        if name in data:
            number = v.whole(data[name], name, errors, label, low=low, high=high)
            if number is not None:
                setattr(row, name, number)
    if "join_url" in data:
        url = v.text(data["join_url"], "join_url", errors, "Join link", limit=500)
        if url and not url.startswith("https://"):
            errors["join_url"] = "The join link must start with https://"
        row.join_url = url
