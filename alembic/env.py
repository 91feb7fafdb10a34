"""Alembic environment: the models' metadata is the target; the URL comes from settings (or the caller)."""

from logging.config import fileConfig

from sqlmodel import SQLModel

import app.models  # noqa: F401  (registers every table)
from alembic import context
from app.core.config import settings
from app.core.db import make_engine

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name)

target_metadata = SQLModel.metadata


def _url() -> str:
    return config.attributes.get("url") or settings.database_url


def _options(url: str) -> dict[str, object]:
    # SQLite cannot ALTER most things in place; batch mode recreates tables instead.
    return {"target_metadata": target_metadata, "compare_type": True, "render_as_batch": url.startswith("sqlite")}


def run_migrations_offline() -> None:
    url = _url()
    context.configure(url=url, literal_binds=True, dialect_opts={"paramstyle": "named"}, **_options(url))
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, **_options(str(connection.engine.url)))
        with context.begin_transaction():
            context.run_migrations()
        return
    url = _url()
    engine = make_engine(url)
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            # Batch mode rebuilds a table (copy, drop, rename). With foreign keys enforced, dropping a table others
            # reference deletes their rows through ON DELETE CASCADE (rebuilding projects emptied project_milestones).
            # The pragma only takes effect outside a transaction, so it is set first; the check below still refuses
            # to finish with references left dangling.
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        context.configure(connection=conn, **_options(url))
        with context.begin_transaction():
            context.run_migrations()
            if sqlite and (dangling := conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()):
                raise RuntimeError(f"The migration left rows pointing at missing rows: {dangling[:5]}")
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
