"""Database content for the public pages: the build-time snapshot that prerenders it, and the per-visit loaders.

Pages are prerendered at build time with the *initial* values of their state vars, and `on_load` handlers run only
once the websocket is up. So the content vars start from a snapshot read when the app is imported (the build reads
the database it will serve), which puts services, portfolio, featured testimonials, team and jobs into the static
HTML; each visit's `on_load` then reloads them, so staff edits show without a rebuild. Without a database at build
time (a clean CI checkout) the snapshot is empty and the sections show skeletons until their loader answers.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.pool import NullPool
from sqlmodel import Session, create_engine

from app.core.config import settings
from app.core.db import session_scope
from app.services import site_content

log = logging.getLogger(__name__)
T = TypeVar("T")


def _read(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    with session_scope() as s:
        return fn(s, *args, **kwargs)


async def read(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a read-only service function `fn(session, ...)` in a worker thread (never on the event loop)."""
    return await asyncio.to_thread(_read, fn, *args, **kwargs)


def _snapshot() -> dict[str, list[dict[str, Any]]]:
    empty: dict[str, list[dict[str, Any]]] = {"services": [], "portfolio": [], "featured": [], "team": [], "jobs": []}
    url = settings.database_url
    if settings.is_sqlite:
        path = url.removeprefix("sqlite:///")
        if not path or path == ":memory:" or not Path(path).exists():
            return empty  # connecting would create an empty file
        connect_args: dict[str, Any] = {"timeout": 5}
    else:
        connect_args = {"connect_timeout": 5}
    # A throwaway engine without a pool: no connection may survive into the server's worker processes.
    engine = create_engine(url, poolclass=NullPool, connect_args=connect_args)
    try:
        with Session(engine) as s:
            return {
                "services": site_content.services(s),
                "portfolio": site_content.portfolio_projects(s),
                "featured": site_content.featured_testimonials(s),
                "team": site_content.team_members(s),
                "jobs": site_content.open_jobs(s),
            }
    except Exception as exc:  # no database yet, or not migrated: the pages fall back to skeletons
        log.info("Public content not prerendered (%s: %s)", exc.__class__.__name__, exc)
        return empty
    finally:
        engine.dispose()


SNAPSHOT = _snapshot()


def relative_date(iso: str | None, today: dt.date | None = None) -> str:
    """'today', 'yesterday', '5 days ago', '2 weeks ago', '3 months ago', '1 year ago' (future dates: 'recently')."""
    if not iso:
        return ""
    day = dt.date.fromisoformat(iso[:10])
    days = ((today or dt.date.today()) - day).days
    if days < 0:
        return "recently"
    if days == 0:
        return "today"
    if days == 1:
        return "yesterday"

    def ago(n: int, unit: str) -> str:
        return f"{n} {unit}{'' if n == 1 else 's'} ago"

    if days < 7:
        return ago(days, "day")
    if days < 30:
        return ago(days // 7, "week")
    if days < 365:
        return ago(max(1, days // 30), "month")
    return ago(days // 365, "year")
