"""Sliding-window rate limits kept in the database, so every worker and machine sees the same counts."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from app.core.errors import TooManyRequests
from app.models.base import utcnow
from app.models.system import RateLimitEvent


def count(s: Session, key: str, window: timedelta) -> int:
    since = utcnow() - window
    query = select(func.count()).where(RateLimitEvent.key == key, col(RateLimitEvent.created_at) >= since)
    return int(s.exec(query).one())


def check(s: Session, *, key: str, limit: int, window: timedelta, message: str) -> None:
    """Raise TooManyRequests when `key` already has `limit` events inside the window."""
    if count(s, key, window) >= limit:
        raise TooManyRequests(message)


def record(s: Session, key: str) -> None:
    """Count one event for `key`, committed at once so it survives the caller's own failure."""
    s.add(RateLimitEvent(key=key))
    s.commit()


def hit(s: Session, *, key: str, limit: int, window: timedelta, message: str) -> None:
    """Check, then record: for actions limited whether or not they succeed (contact form, resend code)."""
    check(s, key=key, limit=limit, window=window, message=message)
    record(s, key)


def clear(s: Session, key: str) -> None:
    s.exec(delete(RateLimitEvent).where(col(RateLimitEvent.key) == key))  # type: ignore[call-overload]
    s.commit()


def prune(s: Session, older_than: timedelta = timedelta(days=1)) -> int:
    """Forget events older than any window in use."""
    result = s.exec(delete(RateLimitEvent).where(col(RateLimitEvent.created_at) < utcnow() - older_than))  # type: ignore[call-overload]
    s.commit()
    return int(result.rowcount or 0)
