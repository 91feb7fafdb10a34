"""The database schema against the code's Alembic migrations: the current and head revisions, and upgrading.

`python -m app.cli migrate` upgrades; the server checks at start-up (`check_schema_at_startup`), so a plain
`reflex run` never serves pages over a schema older than the code without saying so.
"""

from __future__ import annotations

import logging
from pathlib import Path

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from alembic import command
from app.core.config import ROOT, settings
from app.core.db import make_engine

log = logging.getLogger(__name__)

MIGRATE_COMMAND = "python -m app.cli migrate"
SEED_COMMAND = "python -m app.cli seed-demo"


def safe_url(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def alembic_config(url: str) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = url
    cfg.attributes["configure_logger"] = False  # keep the caller's logging (fileConfig would disable its loggers)
    return cfg


def head_revision() -> str | None:
    """The newest migration in alembic/versions."""
    return ScriptDirectory.from_config(alembic_config(settings.database_url)).get_current_head()


def _sqlite_file(url: str) -> Path | None:
    database = make_url(url).database if url.startswith("sqlite") else None
    return Path(database) if database and database != ":memory:" else None


def current_revision(url: str) -> str | None:
    """The revision the database at `url` is at; None for an empty database (or a SQLite file not created yet)."""
    sqlite_file = _sqlite_file(url)
    if sqlite_file is not None and not sqlite_file.exists():
        return None
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


def prepare(url: str) -> None:
    """Create the folder of a SQLite file: engines do not create folders, and a fresh checkout has no data/ yet."""
    sqlite_file = _sqlite_file(url)
    if sqlite_file is not None:
        sqlite_file.parent.mkdir(parents=True, exist_ok=True)


def upgrade(url: str, revision: str = "head") -> str | None:
    """Upgrade the database at `url` to `revision` (the newest migration by default) and return that revision."""
    prepare(url)
    cfg = alembic_config(url)
    command.upgrade(cfg, revision)
    return ScriptDirectory.from_config(cfg).get_current_head() if revision == "head" else revision


def check_schema_at_startup() -> None:
    """At server start-up: in dev, apply missing migrations; elsewhere, log the command that applies them.

    Never fatal: an unreachable database is reported here and again by every request that needs it.
    """
    url = settings.database_url
    try:
        head, current = head_revision(), current_revision(url)
        if current == head:
            return
        where = f"Database {safe_url(url)} is at revision {current or '(empty)'}, the code needs {head}"
        if settings.app_env != "dev":
            log.error("%s: run `%s` (or `make migrate`) and restart", where, MIGRATE_COMMAND)
            return
        log.warning("%s: applying the migrations (APP_ENV=dev)", where)
        upgrade(url)
        if current is None:
            log.warning("The database was empty: `%s` adds the demo content and accounts", SEED_COMMAND)
    except Exception:
        log.exception("Could not check the database schema against the migrations; try `%s`", MIGRATE_COMMAND)
