"""Page-load helpers shared by the account pages: refresh who is signed in, and turn away those without access."""

from __future__ import annotations

import reflex as rx
from reflex_base.event import EventSpec

from app.core.permissions import STAFF_ROLES
from app.models.user import UserPublic
from app.ui import routes
from app.ui.state.notice import notify
from app.ui.state.session import SessionState

# The spec's auth-shell texts ("Title: text"), as SessionState's guards word them.
AUTH_REQUIRED = "Authentication Required: Please log in to access the dashboard."


async def refresh_user(state: SessionState) -> UserPublic | None:
    """What `check_session` does, returning the user: one look-up, checked against the session store, per load."""
    user = await state._user()
    state.user = user
    state.session_checked = True
    return user


async def turn_away(state: SessionState, reason: str) -> list[EventSpec]:
    """Show why ('Authentication Required: ...', 'Access Denied: ...') and go to the portal's sign-in."""
    title, _, text = reason.partition(": ")
    await notify(state, "error", title, text)
    return [rx.redirect(routes.CLIENT_PORTAL)]


def landing_for(role: str) -> str:
    """Where a signed-in user belongs: staff in the admin panel, everyone else in the portal."""
    return routes.ADMIN_DASHBOARD if role in STAFF_ROLES else routes.CLIENT_PORTAL
