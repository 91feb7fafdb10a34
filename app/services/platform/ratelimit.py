"""Sliding-window rate limits kept in the database, so every worker and machine sees the same counts.

An attempt is taken atomically: the key is locked until the transaction ends (an advisory lock on PostgreSQL; SQLite
has a single writer, whose lock the inserted row takes), the attempt's row is inserted, and the window is counted with
it. Over the limit, the row is removed again and the attempt refused. Checking first and recording afterwards let
parallel requests all pass the check before any of them was counted; taken this way, N parallel attempts admit exactly
`limit`, and a refused one leaves nothing behind.

Keys are stored as keyed digests: one fixed length whatever the caller passes (an overlong e-mail can no longer
overflow the column and turn a throttled failure into an uncounted error), and no address or e-mail at rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, delete, func, text
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.core.errors import TooManyRequests
from app.core.security import token_digest
from app.models.base import utcnow
from app.models.system import RateLimitEvent

TOO_MANY = "Too many requests. Please try again later."


@dataclass(frozen=True)
class Limit:
    """At most `limit` attempts under `key` in any `window`; `message` is what a refused caller is told."""

    key: str
    limit: int
    window: timedelta
    message: str = TOO_MANY


def stored_key(key: str) -> str:
    """The form a key is stored in: a keyed SHA-256, 64 characters for any input."""
    return token_digest(f"ratelimit:{key}")


def count(s: Session, key: str, window: timedelta) -> int:
    since = utcnow() - window
    query = select(func.count()).where(RateLimitEvent.key == stored_key(key), col(RateLimitEvent.created_at) >= since)
    return int(s.exec(query).one())


def _lock(s: Session, keys: list[str]) -> None:
    """Serialise takers of the same keys until the transaction ends, so each counts every earlier committed attempt.

    PostgreSQL only: on SQLite the caller's insert already holds the database's single write lock. Keys are locked in
    one order, so two takers of overlapping keys cannot deadlock; one statement takes them all (one round trip).
    """
    if s.get_bind().dialect.name != "postgresql":
        return
    lock_ids = sorted({int(k[:15], 16) for k in keys})  # 60 bits of the digest: fits a bigint
    s.connection().execute(
        text("SELECT pg_advisory_xact_lock(id) FROM (SELECT unnest(CAST(:ids AS bigint[])) AS id ORDER BY id) AS k"),
        {"ids": lock_ids},
    )


def _over(s: Session, limits: tuple[Limit, ...]) -> Limit | None:
    """The first limit whose window holds more than its limit, every window counted in one query."""
    now = utcnow()
    counts = [
        func.count().filter(
            and_(col(RateLimitEvent.key) == stored_key(lim.key), col(RateLimitEvent.created_at) >= now - lim.window)
        )
        for lim in limits
    ]
    keys = {stored_key(lim.key) for lim in limits}
    totals = s.execute(sa_select(*counts).where(col(RateLimitEvent.key).in_(keys))).one()
    return next((lim for lim, n in zip(limits, totals, strict=True) if int(n) > lim.limit), None)


def _take(s: Session, limits: tuple[Limit, ...]) -> tuple[list[RateLimitEvent], Limit | None]:
    """Insert one attempt per distinct key and count every window; the first limit exceeded, if any."""
    keys = list(dict.fromkeys(stored_key(lim.key) for lim in limits))
    _lock(s, keys)
    rows = [RateLimitEvent(key=k) for k in keys]
    s.add_all(rows)
    s.flush()
    if (refused := _over(s, limits)) is not None:
        for row in rows:
            s.delete(row)
        s.flush()
        return [], refused
    return rows, None


def claim(s: Session, *limits: Limit) -> bool:
    """Count one attempt under every limit, or under none, in the caller's transaction (it commits or rolls back with
    the caller's work, and holds the keys' lock until then). False, with nothing counted, when a limit is reached."""
    return _take(s, limits)[1] is None


def acquire(s: Session, *limits: Limit) -> list[int]:
    """Count one attempt under every limit and commit it at once, so it survives the caller's own failure; raise
    TooManyRequests (the first exceeded limit's message) with nothing counted. Returns the ids `release` takes."""
    rows, refused = _take(s, limits)
    ids = [row.id for row in rows if row.id is not None]
    s.commit()
    if refused is not None:
        raise TooManyRequests(refused.message)
    return ids


def record(s: Session, key: str) -> None:
    """Count an event under `key` in the caller's transaction, with no limit and no lock (for a count read with
    `count`, where a burst may pass it by the events in flight)."""
    s.add(RateLimitEvent(key=stored_key(key)))


def hit(s: Session, *, key: str, limit: int, window: timedelta, message: str) -> None:
    """Count an attempt or refuse it: for actions limited whether or not they succeed (registration, resend code)."""
    acquire(s, Limit(key, limit, window, message))


def release(s: Session, attempt_ids: list[int]) -> None:
    """Give back attempts `acquire` took (a sign-in that succeeded was no failure)."""
    if attempt_ids:
        s.exec(delete(RateLimitEvent).where(col(RateLimitEvent.id).in_(attempt_ids)))
        s.commit()


def clear(s: Session, key: str) -> None:
    s.exec(delete(RateLimitEvent).where(col(RateLimitEvent.key) == stored_key(key)))
    s.commit()


def prune(s: Session, older_than: timedelta = timedelta(days=1)) -> int:
    """Forget events older than any window in use."""
    result = s.exec(delete(RateLimitEvent).where(col(RateLimitEvent.created_at) < utcnow() - older_than))
    s.commit()
    return int(result.rowcount or 0)
