"""Health checks of the running app."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

from pydantic import BaseModel
from sqlalchemy import text

from app.core.config import settings
from app.core.db import session_scope
from app.core.errors import DomainError
from app.services.platform import mail
from app.services.scheduling import meeting_types


class AppHealth(BaseModel):
    status: str
    env: str


class DatabaseHealth(BaseModel):
    status: str  # "ok" or "down"
    latency_ms: float | None = None
    error: str | None = None  # the failure's class name
    engine: str = ""


class MailHealth(BaseModel):
    """The outbox: "ok", "degraded" (mail failed, or waited over an hour), "down" or "unknown" (no database)."""

    status: str
    pending: int | None = None
    failed: int | None = None
    oldest_pending_seconds: int | None = None
    smtp: bool | None = None
    error: str | None = None


class SchedulingHealth(BaseModel):
    status: str
    source: str  # "database" or "calendly"
    meeting_types: int | None = None
    error: str | None = None


class HealthReport(BaseModel):
    """Every check; `status` is "ok" only when each part is."""

    status: str
    app: AppHealth
    database: DatabaseHealth
    mail: MailHealth
    scheduling: SchedulingHealth

    def as_json(self) -> dict[str, Any]:
        """The dashboard's `system` object: each part with the fields it has (none of them null)."""
        return self.model_dump(exclude_none=True)


def _database() -> DatabaseHealth:
    started = time.perf_counter()
    try:
        with session_scope() as s:
            s.exec(text("SELECT 1"))  # type: ignore[call-overload]
    except Exception as exc:  # any failure means "down"; the reason goes to the operator, not the client
        return DatabaseHealth(status="down", error=exc.__class__.__name__)
    return DatabaseHealth(status="ok", latency_ms=round((time.perf_counter() - started) * 1000, 1))


def _mail_queue() -> MailHealth:
    try:
        with session_scope() as s:
            queue = mail.queue_health(s)
    except Exception as exc:
        return MailHealth(status="down", error=exc.__class__.__name__)
    # Mail that has waited over an hour, or given up, needs an operator.
    stuck = queue.failed > 0 or queue.oldest_pending_seconds > 3600
    return MailHealth(status="degraded" if stuck else "ok", **dataclasses.asdict(queue))


def _scheduling() -> SchedulingHealth:
    """The scheduling service answers (when one is configured; otherwise meeting types come from the database)."""
    if settings.calendly_token is None:
        return SchedulingHealth(status="ok", source="database")
    try:
        with session_scope() as s:
            count = len(meeting_types.list_active(s))
    except DomainError as exc:
        return SchedulingHealth(status="down", source="calendly", error=exc.message)
    return SchedulingHealth(status="ok", source="calendly", meeting_types=count)


async def public_status() -> str:
    """What anyone may know: "ok" when the app can serve (its database answers), else "unavailable".

    Nothing else: the environment, the database engine and the mail queue are for staff (the dashboard), and the
    check must not call out to the scheduling service on behalf of anonymous callers.
    """
    database = await asyncio.to_thread(_database)
    return "ok" if database.status == "ok" else "unavailable"


async def check() -> HealthReport:
    """App, database, mail queue and scheduling status; `status` is "ok" only when every check passes."""
    database = await asyncio.to_thread(_database)
    database.engine = "sqlite" if settings.is_sqlite else "postgresql"
    mail_queue = await asyncio.to_thread(_mail_queue) if database.status == "ok" else MailHealth(status="unknown")
    scheduling = await asyncio.to_thread(_scheduling)
    healthy = all(part.status == "ok" for part in (database, mail_queue, scheduling))
    return HealthReport(
        status="ok" if healthy else "degraded",
        app=AppHealth(status="ok", env=settings.app_env),
        database=database,
        mail=mail_queue,
        scheduling=scheduling,
    )
