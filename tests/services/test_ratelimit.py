"""Database-backed rate limits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.core.errors import TooManyRequests
from app.models.base import utcnow
from app.models.system import RateLimitEvent
from app.services.platform import ratelimit


def test_hit_allows_up_to_the_limit_then_refuses(session: Session) -> None:
    for _ in range(3):
        ratelimit.hit(session, key="contact:ip:1.2.3.4", limit=3, window=timedelta(minutes=10), message="Slow down")
    with pytest.raises(TooManyRequests, match="Slow down"):
        ratelimit.hit(session, key="contact:ip:1.2.3.4", limit=3, window=timedelta(minutes=10), message="Slow down")
    # Another key is independent.
    ratelimit.hit(session, key="contact:ip:5.6.7.8", limit=3, window=timedelta(minutes=10), message="Slow down")


def test_events_outside_the_window_do_not_count(session: Session) -> None:
    session.add(RateLimitEvent(key=ratelimit.stored_key("k"), created_at=utcnow() - timedelta(hours=2)))
    session.commit()
    assert ratelimit.count(session, "k", timedelta(hours=1)) == 0
    assert ratelimit.prune(session, older_than=timedelta(hours=1)) == 1


def test_clear_forgets_a_key(session: Session) -> None:
    ratelimit.hit(session, key="login:user:x", limit=3, window=timedelta(hours=1), message="Slow down")
    assert ratelimit.count(session, "login:user:x", timedelta(hours=1)) == 1
    ratelimit.clear(session, "login:user:x")
    assert ratelimit.count(session, "login:user:x", timedelta(hours=1)) == 0


def test_keys_of_any_length_are_stored_at_one_fixed_length(session: Session) -> None:
    long_key = "login:account:" + "x" * 5000
    for _ in range(2):
        ratelimit.hit(session, key=long_key, limit=2, window=timedelta(minutes=10), message="Slow down")
    with pytest.raises(TooManyRequests):
        ratelimit.hit(session, key=long_key, limit=2, window=timedelta(minutes=10), message="Slow down")
    stored = {e.key for e in session.exec(select(RateLimitEvent)).all()}
    assert stored == {ratelimit.stored_key(long_key)}
    assert len(ratelimit.stored_key(long_key)) == len(ratelimit.stored_key("")) == 64


def test_several_limits_are_taken_together_or_not_at_all(session: Session) -> None:
    minute, hour = timedelta(minutes=1), timedelta(hours=1)
    limits = (
        ratelimit.Limit("resend:user:u", 1, minute, "Wait a minute"),
        ratelimit.Limit("resend:user:u", 5, hour, "Wait an hour"),
        ratelimit.Limit("resend:ip:i", 20, hour, "Too many from here"),
    )
    ratelimit.acquire(session, *limits)
    assert ratelimit.count(session, "resend:user:u", hour) == 1  # one attempt, though two limits name the key
    with pytest.raises(TooManyRequests, match="Wait a minute"):
        ratelimit.acquire(session, *limits)
    assert ratelimit.count(session, "resend:ip:i", hour) == 1  # the refused attempt took nothing


def test_release_gives_an_attempt_back(session: Session) -> None:
    limit = ratelimit.Limit("login:x", 1, timedelta(minutes=5), "Slow down")
    ratelimit.release(session, ratelimit.acquire(session, limit))
    ratelimit.acquire(session, limit)
    with pytest.raises(TooManyRequests):
        ratelimit.acquire(session, limit)


def test_claim_counts_only_with_the_callers_commit(session: Session) -> None:
    limit = ratelimit.Limit("contact:ip:x", 1, timedelta(minutes=5))
    assert ratelimit.claim(session, limit)
    session.rollback()  # the caller's work failed: the attempt goes with it
    assert ratelimit.count(session, "contact:ip:x", timedelta(minutes=5)) == 0
    assert ratelimit.claim(session, limit)
    session.commit()
    assert not ratelimit.claim(session, limit)
    session.commit()
    assert ratelimit.count(session, "contact:ip:x", timedelta(minutes=5)) == 1
