"""Read-only list of the bookable meeting types from the `meeting_types` table, for the portal's booking view.

A stand-in with the signature of `app/services/meeting_types.py` (`list_active(s)`, written on another branch, which
adds the scheduling service as a source); swap the import when both are on one branch.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from app.core.config import settings
from app.models.meeting import MeetingType


def list_active(s: Session) -> list[dict[str, Any]]:
    """The active meeting types in display order, in the spec's shape (name, duration, profile.name, ...)."""
    query = select(MeetingType).where(col(MeetingType.is_active).is_(True))
    rows = s.exec(query.order_by(col(MeetingType.sort_order), col(MeetingType.id))).all()
    return [
        {
            "name": t.name,
            "duration": t.duration_minutes,
            "active": True,
            "profile": {"name": t.host_name or settings.company_name},
            "description_plain": t.description,
            "scheduling_url": t.scheduling_url,
            "booking_url": None,
            "uri": f"{settings.public_url}/meeting-types/{t.slug}",
        }
        for t in rows
    ]
