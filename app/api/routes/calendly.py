"""GET /api/calendly/event-types: the meeting types of the Book a Meeting view (public)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import SessionDep
from app.services.scheduling import meeting_types

router = APIRouter(prefix="/calendly", tags=["public"])


@router.get("/event-types")
def event_types(s: SessionDep) -> dict[str, Any]:
    """Active meeting types, from Calendly when configured, else from the database; 503 when Calendly is down."""
    return {"data": meeting_types.list_active(s)}
