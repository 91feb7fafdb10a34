"""Sign-in sessions: the refresh_tokens table is the session store.

A login starts a *family*. The browser holds a short-lived access token (a JWT naming user and family) and a refresh
token (random; only its keyed hash is stored). Refreshing rotates the refresh token inside the family; presenting a
token that was already rotated means it was copied, so the whole family is revoked. Logout, password changes and idle
timeouts revoke server-side, and every authenticated request checks the family, so they take effect at once.
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, update
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import Unauthorized
from app.core.permissions import STAFF_ROLES
from app.core.security import decode_access_token, encode_access_token, new_token, token_digest
from app.models.base import utcnow
from app.models.second_factor import TrustedBrowser
from app.models.user import RefreshToken, User

SESSION_EXPIRED = "Session expired. Please log in again."
# Activity is written at most this often, so busy pages do not write on every click.
TOUCH_EVERY = timedelta(seconds=60)


@dataclass(frozen=True)
class IssuedSession:
    access_token: str
    refresh_token: str
    family_id: uuid.UUID
    refresh_expires_at: datetime


def idle_limit(user: User) -> timedelta:
    minutes = settings.staff_idle_minutes if user.role in STAFF_ROLES else settings.client_idle_minutes
    return timedelta(minutes=minutes)


def _issue(s: Session, user: User, family_id: uuid.UUID) -> IssuedSession:
    refresh = new_token()
    now = utcnow()
    expires = now + timedelta(days=settings.refresh_token_days)
    s.add(
        RefreshToken(
            user_id=user.id, token=token_digest(refresh), family_id=family_id, expires_at=expires, last_used_at=now
        )
    )
    access = encode_access_token(user_id=str(user.id), family_id=str(family_id), minutes=settings.access_token_minutes)
    return IssuedSession(access, refresh, family_id, expires)


def start(s: Session, user: User) -> IssuedSession:
    """Open a new session family for a user who just proved who they are; commits."""
    issued = _issue(s, user, uuid.uuid4())
    s.commit()
    return issued


def revoke_family(s: Session, family_id: uuid.UUID) -> None:
    s.exec(update(RefreshToken).where(col(RefreshToken.family_id) == family_id).values(is_revoked=True))
    s.commit()


def revoke_all(s: Session, user_id: uuid.UUID, *, keep_family: uuid.UUID | None = None) -> None:
    """End every session of a user (password change or reset, account deletion), optionally keeping the current one.
    The browsers trusted to skip the second step are forgotten too: after a new password, every browser proves the
    second factor again (ADR 0103)."""
    query = update(RefreshToken).where(col(RefreshToken.user_id) == user_id, col(RefreshToken.is_revoked).is_(False))
    if keep_family is not None:
        query = query.where(col(RefreshToken.family_id) != keep_family)
    s.exec(query.values(is_revoked=True))
    s.exec(delete(TrustedBrowser).where(col(TrustedBrowser.user_id) == user_id))
    s.commit()


def _live_row(s: Session, family_id: uuid.UUID) -> RefreshToken | None:
    """The current (unrotated, unrevoked, unexpired) token of a family: the session itself."""
    return s.exec(
        select(RefreshToken)
        .where(RefreshToken.family_id == family_id, col(RefreshToken.is_revoked).is_(False))
        .where(col(RefreshToken.expires_at) > utcnow())
        .order_by(col(RefreshToken.id).desc())
    ).first()


def _check_idle(s: Session, row: RefreshToken, user: User) -> None:
    last = row.last_used_at or row.created_at
    if utcnow() - last > idle_limit(user):
        revoke_family(s, row.family_id)
        raise Unauthorized(SESSION_EXPIRED)


def rotate(s: Session, refresh_token: str) -> tuple[User, IssuedSession]:
    """Exchange a refresh token for a new pair; a reused (already rotated) token revokes its whole family."""
    row = s.exec(select(RefreshToken).where(RefreshToken.token == token_digest(refresh_token))).first()
    if row is None:
        raise Unauthorized(SESSION_EXPIRED)
    if row.is_revoked:
        revoke_family(s, row.family_id)  # theft detection: the real owner and the thief both lose the session
        raise Unauthorized(SESSION_EXPIRED)
    user = s.get(User, row.user_id)
    if user is None or row.expires_at <= utcnow():
        raise Unauthorized(SESSION_EXPIRED)
    _check_idle(s, row, user)
    row.is_revoked = True
    s.add(row)
    issued = _issue(s, user, row.family_id)
    s.commit()
    return user, issued


def authenticate(
    s: Session, access_token: str | None, *, allow_expired_jwt: bool = False, touch: bool = True
) -> tuple[User, uuid.UUID]:
    """The user and session family behind an access token, checked against the session store; records activity
    unless `touch` is False (a page asking whether its session still lives is no sign of a person there).

    `allow_expired_jwt` is for the websocket, whose cookies are frozen at its handshake: there the token only
    identifies the family, and the family's server-side state (revoked, expired, idle) decides.
    """
    claims = decode_access_token(access_token or "", verify_exp=not allow_expired_jwt)
    if claims is None:
        raise Unauthorized("Authentication required")
    try:
        family_id, user_id = uuid.UUID(claims["fam"]), uuid.UUID(claims["sub"])
    except ValueError as exc:
        raise Unauthorized("Authentication required") from exc
    row = _live_row(s, family_id)
    user = s.get(User, user_id)
    if row is None or user is None or row.user_id != user.id:
        raise Unauthorized(SESSION_EXPIRED)
    _check_idle(s, row, user)
    now = utcnow()
    if touch and (row.last_used_at is None or now - row.last_used_at > TOUCH_EVERY):
        row.last_used_at = now
        s.add(row)
        s.commit()
    return user, family_id


def end(s: Session, *, access_token: str | None, refresh_token: str | None) -> User | None:
    """Logout: revoke the session named by either cookie (both may be stale; neither is required).

    Returns the account whose session it was, when a genuine cookie names one (where to send it next).
    """
    owner: uuid.UUID | None = None
    claims = decode_access_token(access_token or "", verify_exp=False)
    if claims is not None:
        with contextlib.suppress(ValueError):
            revoke_family(s, uuid.UUID(claims["fam"]))
            owner = uuid.UUID(claims["sub"])
    if refresh_token:
        row = s.exec(select(RefreshToken).where(RefreshToken.token == token_digest(refresh_token))).first()
        if row is not None:
            revoke_family(s, row.family_id)
            owner = owner or row.user_id
    return s.get(User, owner) if owner else None


def active_count(s: Session) -> int:
    """Live sessions across all users (the admin dashboard's Active Sessions)."""
    now = utcnow()
    return int(
        s.exec(
            select(func.count(func.distinct(RefreshToken.family_id)))
            .where(col(RefreshToken.is_revoked).is_(False), col(RefreshToken.expires_at) > now)
            .where(col(RefreshToken.last_used_at) > now - timedelta(minutes=settings.client_idle_minutes))
        ).one()
    )
