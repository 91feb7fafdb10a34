"""The one way Reflex handlers run a service: in a worker thread, with a database session of its own.

Services block (database, bcrypt, PDF), so they never run on the event loop. Handlers that act for the signed-in user
pass the user they just checked (`UserPublic`); the actor is loaded fresh from the database in the same session, so
a role or permission changed since the page loaded counts at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from sqlmodel import Session

from app.core.db import session_scope
from app.core.errors import Unauthorized
from app.models.user import User, UserPublic

T = TypeVar("T")
SIGNED_OUT = "Authentication Required: Please log in to access the dashboard."


def _run(fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    with session_scope() as s:
        return fn(s, *args, **kwargs)


async def call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`fn(session, *args, **kwargs)` off the event loop."""
    return await asyncio.to_thread(_run, fn, args, kwargs)


def _with_actor(s: Session, user_id: Any, fn: Callable[[Session, User], T]) -> T:
    actor = s.get(User, user_id)
    if actor is None:  # the account was deleted while the page was open
        raise Unauthorized(SIGNED_OUT)
    return fn(s, actor)


async def as_actor(user: UserPublic, fn: Callable[[Session, User], T]) -> T:
    """`fn(session, actor)`, the actor being `user` as stored now."""
    return await call(_with_actor, user.id, fn)


async def call_as(user: UserPublic, fn: Callable[..., Any], **kwargs: Any) -> UserPublic | None:
    """`fn(session, actor, **kwargs)` on the user's own account; the updated account's public view, if any."""
    result = await as_actor(user, lambda s, actor: fn(s, actor, **kwargs))
    return UserPublic.of(result) if isinstance(result, User) else None
