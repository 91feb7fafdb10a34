"""The admin dashboard's figures, computed from live data (never constants)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

from pydantic import BaseModel
from sqlalchemy import func
from sqlmodel import Session, select

from app.core.permissions import Perm
from app.models.user import User
from app.services.accounts import sessions
from app.services.billing import billing
from app.services.billing.billing import OwedFigures
from app.services.careers import applications
from app.services.crm import admin_inquiries
from app.services.platform import client_cancellations, company
from app.services.platform.access import perms
from app.services.platform.client_cancellations import CancellationPublic
from app.services.projects import conversation_reads
from app.services.projects.conversation_reads import WaitingList
from app.services.scheduling import meetings_admin
from app.services.scheduling.meetings import StaffMeeting


class Waiting(BaseModel):
    """What needs doing (issue 26, point 6), each figure counted as its filtered staff list counts it, and None for
        staff who may not read that list: new inquiries, unpaid and overdue invoices, bookings not yet confirmed, new
        applications, the meetings of today and tomorrow in the business time zone, and the project conversations whose
    client waits for a reply (ADR 0102)."""

    new_inquiries: int | None = None
    unpaid: OwedFigures | None = None
    overdue: OwedFigures | None = None
    unconfirmed_bookings: int | None = None
    new_applications: int | None = None
    today: list[StaffMeeting] | None = None
    tomorrow: list[StaffMeeting] | None = None
    conversations: WaitingList | None = None  # waiting for a reply, the longest waiting first (content:read)


class DashboardFigures(BaseModel):
    """What dashboard.summary computes: the REST answer less `system` (the route adds the health check's report);
    `total_users` and `active_sessions` are None for staff not allowed to see them."""

    permission_count: int
    total_users: int | None = None
    active_sessions: int | None = None
    client_cancellations: list[CancellationPublic]
    waiting: Waiting


class DashboardSummary(DashboardFigures):
    """The dashboard's figures; `total_users` and `active_sessions` only for staff allowed to see them (absent
    otherwise), `system` the health check's report."""

    system: dict[str, Any]


def summary(s: Session, *, actor: User) -> DashboardFigures:
    """Total users, active sessions and what needs doing, each only for staff allowed to see it."""
    held = perms(actor)
    return DashboardFigures(
        permission_count=len(held),
        total_users=int(s.exec(select(func.count()).select_from(User)).one()) if Perm.users_read in held else None,
        active_sessions=sessions.active_count(s) if Perm.analytics_read in held else None,
        # Cancellations by clients in the last two weeks, of the kinds the actor reads (issue 12, point 7).
        client_cancellations=client_cancellations.recent(s, actor=actor),
        waiting=waiting(s, actor=actor),
    )


AGENDA_LIMIT = 10  # meetings listed a day; the list behind the link has the rest


def _count(lister: Any, s: Session, actor: User, **filters: Any) -> int:
    """How many rows the staff list shows with these filters: its own query, so the figure and the list agree."""
    return int(lister(s, actor=actor, page=1, page_size=1, **filters).total)


def _days(now: datetime) -> tuple[datetime, datetime, datetime]:
    """Midnight of today, tomorrow and the day after in the business time zone, as UTC moments."""
    zone = company.zone()
    today = now.astimezone(zone).date()
    midnights = [datetime.combine(today + timedelta(days=n), time(), tzinfo=zone) for n in range(3)]
    first, second, third = (m.astimezone(UTC) for m in midnights)
    return first, second, third


def waiting(s: Session, *, actor: User, now: datetime | None = None) -> Waiting:
    """The dashboard's "needs doing" for `actor`: only the figures of the lists they read."""
    held = perms(actor)
    found = Waiting()
    if Perm.inquiries_read in held:
        found.new_inquiries = _count(admin_inquiries.list_inquiries, s, actor, status="new")
    if Perm.billing_read in held:
        found.unpaid = billing.unpaid_figures(s, actor=actor)
        found.overdue = billing.overdue_figures(s, actor=actor)
    if Perm.meetings_read in held:
        found.unconfirmed_bookings = _count(meetings_admin.list_all, s, actor, when="upcoming", status="unconfirmed")
        today, tomorrow, after = _days(now or datetime.now(UTC))
        found.today = meetings_admin.agenda(s, actor=actor, start=today, end=tomorrow, limit=AGENDA_LIMIT)
        found.tomorrow = meetings_admin.agenda(s, actor=actor, start=tomorrow, end=after, limit=AGENDA_LIMIT)
    if Perm.applications_read in held:
        found.new_applications = _count(applications.list_applications, s, actor, status="new")
    if Perm.content_read in held:
        found.conversations = conversation_reads.waiting_for_reply(s, actor=actor)
    return found
