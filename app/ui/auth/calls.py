"""Running services from Reflex handlers: in a worker thread, with a database session of their own."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from sqlmodel import Session

from app.core.db import session_scope
from app.core.errors import NotFound
from app.models.user import User, UserPublic

T = TypeVar("T")


def _run(fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    with session_scope() as s:
        return fn(s, *args, **kwargs)


async def call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`fn(session, *args, **kwargs)` off the event loop (bcrypt and database work would block it)."""
    return await asyncio.to_thread(_run, fn, args, kwargs)


def _as_account(s: Session, user_id: Any, fn: Callable[..., Any], kwargs: dict[str, Any]) -> UserPublic | None:
    user = s.get(User, user_id)
    if user is None:
        raise NotFound("User account not found. Please log in again.")
    result = fn(s, user, **kwargs)
    return UserPublic.of(result) if isinstance(result, User) else None


async def call_as(actor: UserPublic, fn: Callable[..., Any], **kwargs: Any) -> UserPublic | None:
    """`fn(session, user, **kwargs)` on the signed-in user's own account; the updated user's public view, if any."""
    return await call(_as_account, actor.id, fn, kwargs)
