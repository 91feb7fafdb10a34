"""Dashboard home: state: the figures the user may see, the system checks, the clients' recent cancellations."""

from __future__ import annotations

import dataclasses

import reflex as rx

from app.core.permissions import Perm, Role
from app.services.operations import health
from app.services.operations.health import HealthReport
from app.services.platform.client_cancellations import CancellationPublic
from app.services.reporting import dashboard
from app.ui import routes
from app.ui.admin.business_time import day_text
from app.ui.admin.common import dollars, holds
from app.ui.admin.state import AdminState

CHECK_NAMES = {"database": "Database", "mail": "Mail queue"}


@dataclasses.dataclass
class Check:
    """A line of the system card: a dependency's health and what it says."""

    name: str = ""
    status: str = ""
    ok: bool = False
    detail: str = ""


@dataclasses.dataclass
class Cancellation:
    """A client's cancellation of a meeting or project (the dashboard's last two weeks)."""

    kind: str = ""
    name: str = ""
    client: str = ""
    reason: str = ""
    when: str = ""

    @classmethod
    def of(cls, row: CancellationPublic) -> Cancellation:
        """From client_cancellations.recent's row; the time as a long date."""
        return cls(row.kind, row.name, row.client, row.reason, day_text(row.when))


def _check_rows(report: HealthReport) -> list[Check]:
    db, queue = report.database, report.mail
    db_detail = f"{db.latency_ms} ms" if db.status == "ok" else (db.error or "unreachable")
    if queue.status in ("ok", "degraded"):
        mail_detail = f"{queue.pending or 0} pending, {queue.failed or 0} failed"
    else:
        mail_detail = queue.error or "not checked"
    return [
        Check(name=CHECK_NAMES["database"], status=db.status, ok=db.status == "ok", detail=db_detail),
        Check(name=CHECK_NAMES["mail"], status=queue.status, ok=queue.status == "ok", detail=mail_detail),
    ]


def overdue_text(count: int | None, amount: str | None) -> str:
    """The billing card's overdue line ("" when none is overdue or the figure is not the caller's to see)."""
    if not count or amount is None:
        return ""
    return f"{count} overdue · {dollars(amount)}"


def login_greeting(role: str) -> str:
    """The spec's text under 'Login Successful' after a staff sign-in."""
    return "Redirecting to Admin Dashboard..." if role == Role.admin else "Redirecting to Employee Dashboard..."


class DashboardState(AdminState):
    total_users: rx.Field[str] = rx.field("")
    active_sessions: rx.Field[str] = rx.field("")
    overdue: rx.Field[str] = rx.field("")  # "2 overdue · $1,250.00" for billing readers when any is overdue
    system_status: str = ""
    system_problem: str = ""
    checks: rx.Field[list[Check]] = rx.field(default_factory=list)
    cancellations: rx.Field[list[Cancellation]] = rx.field(default_factory=list)  # of the last two weeks
    loaded: bool = False

    @rx.event
    async def load(self):
        actor = await self._actor(quiet=True)
        if actor is None:
            return None
        if self.router.url.query_parameters.get("login") == "1":
            # Just signed in through the form (its 303 adds ?login=1): greet as the portal greets clients, and drop
            # the marker from the address so a reload does not greet again. The replace re-runs this page's on_load,
            # which then loads the figures.
            await self._notify("success", "Login Successful", login_greeting(actor.role))
            return rx.redirect(routes.ADMIN_DASHBOARD, replace=True)
        _, summary = await self._attempt(
            actor, lambda s, a: dashboard.summary(s, actor=a), "Dashboard", "Failed to load the dashboard figures."
        )
        shown = (summary.total_users, summary.active_sessions) if summary else (None, None)
        self.total_users, self.active_sessions = ("" if n is None else str(n) for n in shown)
        self.cancellations = [Cancellation.of(c) for c in summary.client_cancellations] if summary else []
        self.overdue = overdue_text(summary.overdue_invoices, summary.overdue_amount) if summary else ""
        report = await health.check()
        self.checks = _check_rows(report)
        healthy = report.status == "ok"
        self.system_status = "Healthy" if healthy else "Degraded"
        failing = [f"{c.name} {c.status}" for c in self.checks if not c.ok]
        self.system_problem = "" if healthy else ", ".join(failing)
        self.loaded = True
        return None

    @rx.var
    def shows_users(self) -> bool:
        return holds(self.user, Perm.users_read)

    @rx.var
    def shows_sessions(self) -> bool:
        return holds(self.user, Perm.analytics_read)
