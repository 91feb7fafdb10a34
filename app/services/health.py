"""Health checks of the running app."""

from __future__ import annotations

import asyncio
import time

from sqlalchemy import text

from app.core.config import settings
from app.core.db import session_scope


def _database() -> dict[str, object]:
    started = time.perf_counter()
    try:
        with session_scope() as s:
            s.exec(text("SELECT 1"))  # type: ignore[call-overload]
    except Exception as exc:  # any failure means "down"; the reason goes to the operator, not the client
        return {"status": "down", "error": exc.__class__.__name__}
    return {"status": "ok", "latency_ms": round((time.perf_counter() - started) * 1000, 1)}


async def check() -> dict[str, object]:
    """App and database status; `status` is "ok" only when every check passes."""
    database = await asyncio.to_thread(_database)
    return {
        "status": "ok" if database["status"] == "ok" else "degraded",
        "app": {"status": "ok", "env": settings.app_env},
        "database": {**database, "engine": "sqlite" if settings.is_sqlite else "postgresql"},
    }
