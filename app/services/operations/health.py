"""Health checks of the running app."""

from __future__ import annotations

import asyncio
import time

from sqlalchemy import text

from app.core.config import settings
from app.core.db import session_scope
from app.core.errors import DomainError
from app.services.platform import mail
from app.services.scheduling import meeting_types


def _database() -> dict[str, object]:
    started = time.perf_counter()
    try:
        with session_scope() as s:
            s.exec(text("SELECT 1"))  # type: ignore[call-overload]
    except Exception as exc:  # any failure means "down"; the reason goes to the operator, not the client
        return {"status": "down", "error": exc.__class__.__name__}
    return {"status": "ok", "latency_ms": round((time.perf_counter() - started) * 1000, 1)}


def _mail_queue() -> dict[str, object]:
    try:
        with session_scope() as s:
            queue = mail.queue_health(s)
    except Exception as exc:
        return {"status": "down", "error": exc.__class__.__name__}
    # Mail that has waited over an hour, or given up, needs an operator.
    stuck = int(str(queue["failed"])) > 0 or int(str(queue["oldest_pending_seconds"])) > 3600
    return {"status": "degraded" if stuck else "ok", **queue}


def _scheduling() -> dict[str, object]:
    """The scheduling service answers (when one is configured; otherwise meeting types come from the database)."""
    if settings.calendly_token is None:
        return {"status": "ok", "source": "database"}
    try:
        with session_scope() as s:
            count = len(meeting_types.list_active(s))
    except DomainError as exc:
        return {"status": "down", "source": "calendly", "error": exc.message}
    return {"status": "ok", "source": "calendly", "meeting_types": count}


async def public_status() -> str:
    """What anyone may know: "ok" when the app can serve (its database answers), else "unavailable".

    Nothing else: the environment, the database engine and the mail queue are for staff (the dashboard), and the
    check must not call out to the scheduling service on behalf of anonymous callers.
    """
    database = await asyncio.to_thread(_database)
    return "ok" if database["status"] == "ok" else "unavailable"


async def check() -> dict[str, object]:
    """App, database, mail queue and scheduling status; `status` is "ok" only when every check passes."""
    database = await asyncio.to_thread(_database)
    mail_queue = await asyncio.to_thread(_mail_queue) if database["status"] == "ok" else {"status": "unknown"}
    scheduling = await asyncio.to_thread(_scheduling)
    healthy = all(part["status"] == "ok" for part in (database, mail_queue, scheduling))
    return {
        "status": "ok" if healthy else "degraded",
        "app": {"status": "ok", "env": settings.app_env},
        "database": {**database, "engine": "sqlite" if settings.is_sqlite else "postgresql"},
        "mail": mail_queue,
        "scheduling": scheduling,
    }
