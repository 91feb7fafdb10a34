"""Database-backed rate limits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session

from app.core.errors import TooManyRequests
from app.models.base import utcnow
from app.models.system import RateLimitEvent
from app.services import ratelimit


def test_hit_allows_up_to_the_limit_then_refuses(session: Session) -> None:
    for _ in range(3):
        ratelimit.hit(session, key="contact:ip:1.2.3.4", limit=3, window=timedelta(minutes=10), message="Slow down")
    with pytest.raises(TooManyRequests, match="Slow down"):
        ratelimit.hit(session, key="contact:ip:1.2.3.4", limit=3, window=timedelta(minutes=10), message="Slow down")
    # Another key is independent.
    ratelimit.hit(session, key="contact:ip:5.6.7.8", limit=3, window=timedelta(minutes=10), message="Slow down")


def test_events_outside_the_window_do_not_count(session: Session) -> None:
    session.add(RateLimitEvent(key="k", created_at=utcnow() - timedelta(hours=2)))
    session.commit()
    assert ratelimit.count(session, "k", timedelta(hours=1)) == 0
    assert ratelimit.prune(session, older_than=timedelta(hours=1)) == 1


def test_clear_forgets_a_key(session: Session) -> None:
    ratelimit.record(session, "login:user:x")
    ratelimit.clear(session, "login:user:x")
    assert ratelimit.count(session, "login:user:x", timedelta(hours=1)) == 0
