"""Fixtures of the race tests, which run services in threads with sessions of their own on committed rows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine

WORKERS_MAX = 40  # the most threads a race test runs at once (test_throttle_races)


@pytest.fixture
def pool(engine: Engine) -> Iterator[Engine]:
    """An engine with a connection for every thread, so all of them really are in the database at once."""
    eng = create_engine(engine.url, pool_size=WORKERS_MAX, max_overflow=0)
    yield eng
    eng.dispose()
