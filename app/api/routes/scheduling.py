"""Staff calls on meetings: the list, scheduling, changes and completion. (Visitors' booking calls are in
booking.py, Calendly's in calendly.py and webhooks.py.)
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import (
    Paged,
    RowId,
    SessionDep,
    StaffUser,
    permitted,
)
from app.api.schemas import Listed, One, Saved
from app.core.permissions import Perm
from app.services.scheduling import meetings_admin
from app.services.scheduling.meetings import MeetingPublic, MeetingRow

router = APIRouter(tags=["content"])


@router.get("/admin/meetings", response_model=Listed[MeetingRow])
def list_meetings(
    user: StaffUser,
    s: SessionDep,
    paged: Paged,
    when: str = "upcoming",
    status: str = "",
    client_id: str = "",
    sort: str = "",
) -> dict[str, Any]:
    """Meetings searched, filtered by upcoming/past, status and client, and sorted (meetings:read); one page, with the
    paging fields."""
    page = meetings_admin.list_all(s, actor=user, when=when, status=status, client_id=client_id, sort=sort, **paged)
    return page.as_json()


@router.post(
    "/admin/meetings",
    status_code=201,
    response_model=Saved[MeetingPublic],
    dependencies=[permitted(Perm.meetings_write, doing="schedule meetings")],
)
def create_meeting(user: StaffUser, s: SessionDep, body: meetings_admin.MeetingCreate) -> dict[str, Any]:
    """Schedule a meeting for a client, who is e-mailed (meetings:write)."""
    return {"data": meetings_admin.create_meeting(s, actor=user, data=body), "message": "Meeting scheduled"}


@router.put(
    "/admin/meetings/{meeting_id}",
    response_model=One[MeetingPublic],
    dependencies=[permitted(Perm.meetings_write, doing="update meetings")],
)
def update_meeting(
    meeting_id: RowId, user: StaffUser, s: SessionDep, body: meetings_admin.MeetingUpdate
) -> dict[str, Any]:
    """Change a scheduled meeting (meetings:write)."""
    return {"data": meetings_admin.update_meeting(s, actor=user, meeting_id=meeting_id, data=body)}


@router.post(
    "/admin/meetings/{meeting_id}/complete",
    response_model=One[MeetingPublic],
    dependencies=[permitted(Perm.meetings_write, doing="update meetings")],
)
def complete_meeting(meeting_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, Any]:
    """Mark a meeting completed (meetings:write)."""
    return {"data": meetings_admin.complete_meeting(s, actor=user, meeting_id=meeting_id)}
