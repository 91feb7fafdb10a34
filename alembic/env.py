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
        context.configure(connection=conn, **_options(url))
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
