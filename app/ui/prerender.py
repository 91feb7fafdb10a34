"""Reading the database while the pages are built, for what their prerendered HTML shows.

Pages are prerendered with the *initial* values of their state vars, and `on_load` handlers run only once the
websocket is up. So content that staff edit is read once when the app is imported (the build reads the database it
will serve), which puts it into the static HTML; each visit's loader then refreshes it, and app.ui.fresh_pages
renders the served pages again when it changes, so an edit shows without a rebuild. Without a database at build time
(a clean CI checkout) the fallback is used, and the pages are rendered with the database before they are served.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.pool import NullPool
from sqlmodel import Session, create_engine

from app.core.config import settings

log = logging.getLogger(__name__)
T = TypeVar("T")


def read_at_build(fn: Callable[[Session], T], fallback: T) -> T:
    """`fn(session)` on the database the site will serve, or `fallback` when there is none yet (or not migrated)."""
    url = settings.database_url
    if settings.is_sqlite:
        path = url.removeprefix("sqlite:///")
        if not path or path == ":memory:" or not Path(path).exists():
            return fallback  # connecting would create an empty file
        connect_args: dict[str, Any] = {"timeout": 5}
    else:
        connect_args = {"connect_timeout": 5}
    # A throwaway engine without a pool: no connection may survive into the server's worker processes.
    engine = create_engine(url, poolclass=NullPool, connect_args=connect_args)
    try:
        with Session(engine) as s:
            return fn(s)
    except Exception as exc:  # no database yet, or not migrated: the pages fall back
        log.info("Database content not prerendered (%s: %s)", exc.__class__.__name__, exc)
        return fallback
    finally:
        engine.dispose()
