"""Shared state of the client portal: who may see it, the current tab, the welcome dialog, and the service bridge.

Every tab's state subclasses `PortalState` (itself a `SessionState`), so each handler re-checks the session cookie
with `await self._require_user()` and reaches client data only through `app/services/*` with that user as actor,
in a worker thread (`in_session`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import TypeVar

import reflex as rx
from sqlmodel import Session

from app.core.db import session_scope
from app.core.errors import DomainError, Unauthorized
from app.core.permissions import STAFF_ROLES
from app.models.user import User, UserPublic
from app.ui.state.session import SessionState

T = TypeVar("T")

PORTAL_PATH = "/client-portal"
TABS = ("projects", "invoices", "meetings", "profile", "settings")
GENERIC_ERROR = "Something went wrong. Please try again."

# Badge colours (spec section 4): completed and paid green; in progress and scheduled blue; planning and pending
# yellow; cancelled red; others grey. Keys are Radix colour names.
_BADGE_COLORS = {
    "completed": "green",
    "paid": "green",
    "in_progress": "blue",
    "scheduled": "blue",
    "planning": "yellow",
    "pending": "yellow",
    "cancelled": "red",
}


def badge_color(status: str) -> str:
    return _BADGE_COLORS.get(status.strip().lower().replace(" ", "_"), "gray")


def status_label(status: str) -> str:
    """'in_progress' reads 'in progress'."""
    return status.replace("_", " ")


def usd(value: object) -> str:
    """US dollars, e.g. $12,500.00; '' when there is no amount."""
    if value is None or value == "":
        return ""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return ""
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


def long_date(iso: object) -> str:
    """A calendar date (YYYY-MM-DD) in en-US long form, e.g. 'March 5, 2026'; '' when absent.

    Date-only values have no time zone, so they are formatted here rather than by the browser (which would read them
    as UTC midnight and may show the day before).
    """
    if not iso:
        return ""
    try:
        d = date.fromisoformat(str(iso)[:10])
    except ValueError:
        return ""
    return f"{d:%B} {d.day}, {d.year}"


def in_session(user: UserPublic, fn: Callable[[Session, User], T]) -> Callable[[], T]:
    """A unit of work for `asyncio.to_thread`: open a session, load the signed-in user as the actor, call `fn`."""

    def work() -> T:
        with session_scope() as s:
            actor = s.get(User, user.id)
            if actor is None:
                raise Unauthorized("Authentication Required: Please log in to access the dashboard.")
            return fn(s, actor)

    return work


def error_message(exc: DomainError, fallback: str = GENERIC_ERROR) -> str:
    return exc.message or fallback


class PortalState(SessionState):
    """The portal's shell: access decision, active tab and welcome dialog."""

    active_tab: str = "projects"
    welcome_open: bool = False

    @rx.var
    def is_client(self) -> bool:
        return self.user.get("role") == "client"

    @rx.var
    def is_other_role(self) -> bool:
        """Signed in, but neither a client nor staff: Access Denied."""
        role = self.user.get("role")
        return bool(self.user) and role != "client" and role not in STAFF_ROLES

    @rx.var
    def first_name(self) -> str:
        return str(self.user.get("first_name") or self.user.get("username") or "")

    @rx.var
    def company_label(self) -> str:
        return str(self.user.get("company") or "Individual")

    @rx.var
    def member_since(self) -> str:
        """'Member since' date of the account (en-US long form)."""
        return long_date(self.user.get("created_at"))

    @rx.event
    async def on_load(self):
        """Page load: check the session, route staff away, open the welcome dialog, load the client's data."""
        user = await self._user()
        self.user = user.model_dump(mode="json") if user else {}
        self.session_checked = True
        if user is None or user.role != "client":
            await self._forget_client_data()
            if user is not None and user.role in STAFF_ROLES:
                return rx.redirect("/admin/dashboard", replace=True)
            return None
        events: list = []
        if self.router.url.query_parameters.get("welcome") == "true":
            self.welcome_open = True
            # A client-side navigation with history.replaceState semantics: no reload, no eval.
            events.append(rx.redirect(PORTAL_PATH, replace=True))
        if self.active_tab not in TABS:
            self.active_tab = "projects"
        from app.ui.portal.invoices import InvoicesState
        from app.ui.portal.meetings import MeetingsState
        from app.ui.portal.projects import ProjectsState

        return [*events, ProjectsState.load, InvoicesState.load, MeetingsState.load]

    async def _forget_client_data(self) -> None:
        """Drop every tab's data (another user may have signed in in this tab since it was loaded)."""
        from app.ui.portal.invoices import InvoicesState
        from app.ui.portal.meetings import MeetingsState
        from app.ui.portal.profile import ProfileState
        from app.ui.portal.projects import ProjectsState
        from app.ui.portal.settings import SettingsState

        for cls in (ProjectsState, InvoicesState, MeetingsState, ProfileState, SettingsState):
            state = await self.get_state(cls)
            state.reset()
        self.active_tab = "projects"

    async def _signed_out(self) -> None:
        """The session ended while the page was open: show the signed-out view and drop the data."""
        self.user = {}
        await self._forget_client_data()

    @rx.event
    def set_tab(self, tab: str) -> None:
        self.active_tab = tab if tab in TABS else "projects"

    @rx.event
    def set_welcome_open(self, is_open: bool) -> None:
        self.welcome_open = bool(is_open)

    @rx.event
    def close_welcome(self) -> None:
        self.welcome_open = False

    @rx.event
    async def download_my_data(self):
        """'Download my data': a real browser download of /api/protected/export (the cookie goes along)."""
        try:
            await self._require_user()
        except Unauthorized:
            await self._signed_out()
            return None
        return rx.download(url="/api/protected/export", filename="my-data.json")


async def run(user: UserPublic, fn: Callable[[Session, User], T]) -> T:
    """Call a service for `user` in a worker thread (services are blocking)."""
    return await asyncio.to_thread(in_session(user, fn))
