"""The admin dashboard's figures, computed from live data (never constants)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from sqlalchemy import func
from sqlmodel import Session, select

from app.core.permissions import Perm
from app.models.user import User
from app.services.accounts import sessions
from app.services.billing import billing
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
    # Overdue invoices (issue 25): how many and what they still owe; None for staff who do not read billing.
    overdue_invoices: int | None = None
    overdue_amount: str | None = None


class DashboardSummary(DashboardFigures):
    """The dashboard's figures; `total_users` and `active_sessions` only for staff allowed to see them (absent
    otherwise), `system` the health check's report."""

    system: dict[str, Any]


def summary(s: Session, *, actor: User) -> DashboardFigures:
    """Total users, active sessions and the overdue invoices, each only for staff allowed to see it."""
    held = perms(actor)
    overdue = billing.overdue_figures(s, actor=actor) if Perm.billing_read in held else None
    return DashboardFigures(
        permission_count=len(held),
        total_users=int(s.exec(select(func.count()).select_from(User)).one()) if Perm.users_read in held else None,
        active_sessions=sessions.active_count(s) if Perm.analytics_read in held else None,
        # Cancellations by clients in the last two weeks, of the kinds the actor reads (issue 12, point 7).
        client_cancellations=client_cancellations.recent(s, actor=actor),
        overdue_invoices=overdue.count if overdue else None,
        overdue_amount=overdue.amount if overdue else None,
    )
