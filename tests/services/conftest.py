"""Fixtures of the race tests, which run services in threads with sessions of their own on committed rows."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import create_engine, delete, func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.models.inquiry import ContactInquiry, NewsletterSubscriber
from app.models.system import AuditLog, EmailOutbox, RateLimitEvent
from app.models.user import User

WORKERS_MAX = 40  # the most threads a race test runs at once (test_throttle_races)


@pytest.fixture
def pool(engine: Engine) -> Iterator[Engine]:
    """An engine with a connection for every thread, so all of them really are in the database at once."""
    eng = create_engine(engine.url, pool_size=WORKERS_MAX, max_overflow=0)
    yield eng
    eng.dispose()


@dataclass
class Committed:
    """What a test commits, removed afterwards: rows newer than the marks, and the users it names."""

    engine: Engine
    marks: dict[type, int] = field(default_factory=dict)
    user_ids: list[Any] = field(default_factory=list)
    emails: list[str] = field(default_factory=list)


_MARKED = (RateLimitEvent, EmailOutbox, AuditLog, ContactInquiry)


@pytest.fixture
def committed(engine: Engine) -> Iterator[Committed]:
    with Session(engine) as s:
        marks = {m: s.exec(select(func.coalesce(func.max(m.id), 0))).one() for m in _MARKED}  # type: ignore[attr-defined]
    data = Committed(engine, marks)
    yield data
    with Session(engine) as s:
        for model, mark in data.marks.items():
            s.exec(delete(model).where(model.id > mark))  # type: ignore[attr-defined,call-overload]
        s.exec(delete(NewsletterSubscriber).where(col(NewsletterSubscriber.email).in_(data.emails)))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_(data.user_ids)))  # type: ignore[call-overload]
        s.commit()
