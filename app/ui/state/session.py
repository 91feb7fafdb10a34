"""The signed-in user as the Reflex side sees it.

The websocket carries the cookies of its handshake only, so every privileged handler re-derives the user from that
cookie *and* the session store (revoked? idle?) through `_user()`; nothing about identity is trusted from the browser.
Sign-in and sign-out are full page loads (form posts, see app/api/routes/forms.py), so a new handshake brings the new
cookie. The public vars below are for display only.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from http.cookies import CookieError, SimpleCookie

import reflex as rx
from reflex.state import BaseState

from app.core.config import settings
from app.core.cookies import ACCESS_COOKIE
from app.core.db import session_scope
from app.core.errors import Forbidden, Unauthorized
from app.core.permissions import STAFF_ROLES, has_perm, role_label
from app.core.security import decode_access_token
from app.models.user import UserPublic
from app.services.accounts import sessions
from app.ui import routes


def _cookie(header: str, name: str) -> str | None:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header or "")
    except CookieError:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel else None


def _lookup(token: str | None, touch: bool = True) -> UserPublic | None:
    if not token:
        return None
    with session_scope() as s:
        try:
            user, _family = sessions.authenticate(s, token, allow_expired_jwt=True, touch=touch)
        except Unauthorized:
            return None
        return UserPublic.of(user)


def states_below(cls: type[BaseState]) -> Iterator[type[BaseState]]:
    """Every state class below `cls`, at any depth."""
    pending = list(cls.get_substates())
    while pending:
        sub = pending.pop()
        yield sub
        pending.extend(sub.get_substates())


class SessionState(rx.State):
    """Who is signed in (display data) and the guard every privileged handler calls."""

    user: UserPublic | None = None  # the display copy (None: signed out); handlers re-check through `_user()`
    session_checked: bool = False
    # The live session whose data this tab's states may hold: None for a tab never served, "" for nobody
    # (app/ui/tab_handover.py).
    _served_family: str | None = None

    def _token(self) -> str | None:
        return _cookie(self.router.headers.cookie, ACCESS_COOKIE)

    def _family(self) -> uuid.UUID | None:
        """The session family the handshake cookie names (signature checked; `_user()` checks that it is live)."""
        claims = decode_access_token(self._token() or "", verify_exp=False)
        try:
            return uuid.UUID(claims["fam"]) if claims else None
        except ValueError:
            return None

    async def _forget_below(self) -> None:
        """Reset every state below this one, loaded or not: a tab that another user (or nobody) now holds must not
        keep the previous user's rows (with Redis, a state this event did not load still holds them there)."""
        for cls in states_below(type(self)):
            (await self.get_state(cls)).reset()

    async def _user(self, *, touch: bool = True) -> UserPublic | None:
        """The current user, checked against the session store now (never a cached copy). `touch=False` for what a
        page does on a timer (a ticker): that is no sign of a person there, so the session's idle clock runs on."""
        return await asyncio.to_thread(_lookup, self._token(), touch)

    async def _require_user(self, *, touch: bool = True) -> UserPublic:
        user = await self._user(touch=touch)
        if user is None:
            raise Unauthorized("Authentication Required: Please log in to access the dashboard.")
        return user

    async def _require_staff(
        self, perm: str | None = None, feature: str = "this section", *, touch: bool = True
    ) -> UserPublic:
        """The current staff user holding `perm` (if given); raises Unauthorized or Forbidden otherwise."""
        user = await self._require_user(touch=touch)
        if user.role not in STAFF_ROLES:
            raise Forbidden("Access Denied: Staff privileges required to access this panel.")
        if perm and not has_perm(user.effective_permissions, perm):
            raise Forbidden(
                f"Access Restricted: You don't have permission to access {feature}. "
                "Contact your administrator if you need access."
            )
        return user

    @rx.event
    async def check_session(self) -> None:
        """On page load: refresh the display copy of the user from the cookie and the session store."""
        self.user = await self._user()
        self.session_checked = True

    @rx.var
    def is_authenticated(self) -> bool:
        return self.user is not None

    @rx.var
    def role(self) -> str:
        return self.user.role if self.user else ""

    @rx.var
    def is_staff(self) -> bool:
        return self.user is not None and self.user.role in STAFF_ROLES

    @rx.var
    def permissions(self) -> list[str]:
        return list(self.user.effective_permissions) if self.user else []

    @rx.var
    def display_name(self) -> str:
        return (self.user.first_name or self.user.username) if self.user else ""

    @rx.var
    def full_name(self) -> str:
        return self.user.fullName if self.user else ""

    @rx.var
    def username(self) -> str:
        return self.user.username if self.user else ""

    @rx.var
    def email(self) -> str:
        return self.user.email if self.user else ""

    @rx.var
    def idle_minutes(self) -> int:
        """The inactivity limit the browser watches (0: not signed in); the server enforces the same one."""
        if self.user is None:
            return 0
        return settings.staff_idle_minutes if self.is_staff else settings.client_idle_minutes

    @rx.var
    def expired_url(self) -> str:
        return f"{routes.ADMIN_LOGIN if self.is_staff else routes.CLIENT_PORTAL}?expired=1"

    @rx.var
    def ended_url(self) -> str:
        """Where the browser goes when the server ended the session for another reason (signed out elsewhere, a
        password reset, an admin's action)."""
        return f"{routes.ADMIN_LOGIN if self.is_staff else routes.CLIENT_PORTAL}?ended=1"

    @rx.var
    def role_title(self) -> str:
        if self.user is None:
            return ""
        return role_label(self.user.role, self.user.employee_type)
