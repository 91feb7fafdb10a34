"""The admin dashboard's figures, computed from live data (never constants)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from sqlalchemy import func
from sqlmodel import Session, select

from app.core.permissions import Perm
from app.models.user import User
from app.services.accounts import sessions
from app.services.platform import client_cancellations
from app.services.platform.access import perms
from app.services.platform.client_cancellations import CancellationPublic


class DashboardFigures(BaseModel):
    """What dashboard.summary computes: the REST answer less `system` (the route adds the health check's report);
    `total_users` and `active_sessions` are None for staff not allowed to see them."""

    permission_count: int
    total_users: int | None = None
    active_sessions: int | None = None
    client_cancellations: list[CancellationPublic]


class DashboardSummary(DashboardFigures):
    """The dashboard's figures; `total_users` and `active_sessions` only for staff allowed to see them (absent
    otherwise), `system` the health check's report."""

    system: dict[str, Any]


def summary(s: Session, *, actor: User) -> DashboardFigures:
    """Total users and active sessions, each only for staff allowed to see it."""
    held = perms(actor)
    return DashboardFigures(
        permission_count=len(held),
        total_users=int(s.exec(select(func.count()).select_from(User)).one()) if Perm.users_read in held else None,
        active_sessions=sessions.active_count(s) if Perm.analytics_read in held else None,
        # Cancellations by clients in the last two weeks, of the kinds the actor reads (issue 12, point 7).
        client_cancellations=client_cancellations.recent(s, actor=actor),
    )
