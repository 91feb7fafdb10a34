"""Dashboard home: state: the figures the user may see, the system checks, the clients' recent cancellations."""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.core.permissions import Perm, Role, has_perm
from app.services.operations import health
from app.services.reporting import dashboard
from app.ui import routes
from app.ui.admin.state import AdminState
from app.ui.format import long_date

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
    def of(cls, row: dict[str, str]) -> Cancellation:
        """From client_cancellations.recent's row; the time as a long date."""
        return cls(row["kind"], row["name"], row["client"], row["reason"], long_date(row["when"]))


def _check_rows(report: dict[str, Any]) -> list[Check]:
    rows = []
    for key, name in CHECK_NAMES.items():
        check = report.get(key) or {}
        status = str(check.get("status", "unknown"))
        if key == "database":
            detail = f"{check.get('latency_ms')} ms" if status == "ok" else str(check.get("error") or "unreachable")
        elif status in ("ok", "degraded"):
            detail = f"{check.get('pending', 0)} pending, {check.get('failed', 0)} failed"
        else:
            detail = str(check.get("error") or "not checked")
        rows.append(Check(name=name, status=status, ok=status == "ok", detail=detail))
    return rows


def login_greeting(role: str) -> str:
    """The spec's text under 'Login Successful' after a staff sign-in."""
    return "Redirecting to Admin Dashboard..." if role == Role.admin else "Redirecting to Employee Dashboard..."


class DashboardState(AdminState):
    total_users: rx.Field[str] = rx.field("")
    active_sessions: rx.Field[str] = rx.field("")
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
        figures = summary or {}
        self.total_users = str(figures["total_users"]) if "total_users" in figures else ""
        self.active_sessions = str(figures["active_sessions"]) if "active_sessions" in figures else ""
        self.cancellations = [Cancellation.of(c) for c in figures.get("client_cancellations", [])]
        report = await health.check()
        self.checks = _check_rows(report)
        healthy = report.get("status") == "ok"
        self.system_status = "Healthy" if healthy else "Degraded"
        failing = [f"{c.name} {c.status}" for c in self.checks if not c.ok]
        self.system_problem = "" if healthy else ", ".join(failing)
        self.loaded = True
        return None

    @rx.var
    def shows_users(self) -> bool:
        return has_perm(self.user.get("effective_permissions", []), Perm.users_read)

    @rx.var
    def shows_sessions(self) -> bool:
        return has_perm(self.user.get("effective_permissions", []), Perm.analytics_read)
