"""The admin shell's state: the page guard, the sidebar, and notices; the base of every section's state.

Every admin page loads with `AdminState.open_section(<section>)` followed by its section's own loader. The guard
re-reads the session cookie against the session store (SessionState), so it decides from the server's view only:
signed out or not staff → a toast and a redirect to /client-portal; staff without the section's permission → the
'Access Restricted' panel in the page. Section loaders and actions check again themselves (`_actor`), because any
browser can call any handler with any payload.

Toasts: `await self._notify(...)` hands the toast to the one notice mechanism (`app.ui.state.notice`, shown by
the `toast_bridge` in the shell, as on the public pages): a toast returned from a handler would travel as JavaScript
the browser must `eval`, which our CSP forbids.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import reflex as rx
from sqlmodel import Session

from app.core.errors import DomainError, Forbidden, Unauthorized
from app.core.permissions import EMPLOYEE_TYPE_LABELS, PERMISSION_FEATURES, STAFF_ROLES, EmployeeType, has_perm
from app.models.user import User, UserPublic
from app.services.projects import conversation_reads
from app.ui import routes
from app.ui.state.calls import as_actor
from app.ui.state.notice import Level, notify
from app.ui.state.session import SessionState

log = logging.getLogger(__name__)
T = TypeVar("T")

# The sections, in sidebar order: key, label (also the {feature} of 'Access Restricted'), route, icon. Each appears in
# the sidebar for holders of its PERMISSION_FEATURES entry; its page is in pages.SECTION_PAGES.
SECTIONS: list[tuple[str, str, str, str]] = [
    ("dashboard", "Dashboard", routes.ADMIN_DASHBOARD, "layout-dashboard"),
    ("users", "User Management", routes.ADMIN_USERS, "users"),
    ("clients", "Clients", routes.ADMIN_CLIENTS, "building-2"),
    ("inquiries", "Inquiries", routes.ADMIN_INQUIRIES, "inbox"),
    ("content", "Content Management", routes.ADMIN_CONTENT, "folder-kanban"),
    ("billing", "Billing", routes.ADMIN_BILLING, "receipt"),
    ("analytics", "Analytics", routes.ADMIN_ANALYTICS, "chart-column"),
    ("products", "Products & Services", routes.ADMIN_PRODUCTS, "package"),
    ("meetings", "Meetings", routes.ADMIN_MEETINGS, "calendar"),
    ("applications", "Applications", routes.ADMIN_APPLICATIONS, "briefcase"),
    ("settings", "Settings", routes.ADMIN_SETTINGS, "settings"),
]
SECTION_LABELS = {key: label for key, label, _route, _icon in SECTIONS}

AUTH_REQUIRED = ("Authentication Required", "Please log in to access the dashboard.")
STAFF_ONLY = ("Access Denied", "Staff privileges required to access this panel.")
SESSION_EXPIRED = ("Session Expired", "You have been automatically logged out due to inactivity.")
LEAVE_NOTICES = {"auth": AUTH_REQUIRED, "staff": STAFF_ONLY}
SIDEBAR_COOKIE_MAX_AGE = 7 * 24 * 3600


def section_perm(section: str) -> str | None:
    perm = PERMISSION_FEATURES.get(section)
    return str(perm) if perm else None


def may_see(user: UserPublic, section: str) -> bool:
    perm = section_perm(section)
    return perm is None or has_perm(user.effective_permissions, perm)


def error_text(exc: BaseException, fallback: str) -> str:
    """The message to show for a failed call: the service's own words, or the spec's fallback."""
    if isinstance(exc, DomainError) and exc.message:
        return exc.message
    log.exception("admin action failed", exc_info=exc)
    return fallback


def field_errors(exc: BaseException) -> dict[str, str]:
    return dict(exc.errors) if isinstance(exc, DomainError) else {}


class AdminState(SessionState):
    """Guard, sidebar and notices of the admin shell."""

    # The section whose content may render (set by the guard) / that shows 'Access Restricted' instead.
    allowed_section: str = ""
    restricted_section: str = ""
    # "auth" or "staff": the shell shows the toast and sends the browser to /client-portal.
    leave_reason: str = ""
    # The desktop sidebar's state, a UI preference (not a credential): "true" expanded, "false" collapsed.
    sidebar_state: str = rx.Cookie("true", name="sidebar_state", max_age=SIDEBAR_COOKIE_MAX_AGE)
    nav_open: bool = False
    # Unread messages in the conversations of the projects the user is on (ADR 0102): the sidebar's badge on the
    # section that holds the projects, counted on each page load and by the shell's ticker.
    nav_unread: int = 0
    _owner: str = ""  # whose data the section states hold

    # --- notices -------------------------------------------------------------------------------------------------

    async def _notify(self, level: Level, title: str, text: str = "") -> None:
        await notify(self, level, title, text)

    async def _leave(self, reason: str) -> None:
        """Send the browser to /client-portal (the shell's outlet does it), saying why unless the reason is "expired",
        whose toast `_actor` has already raised."""
        self.leave_reason = reason
        if reason in LEAVE_NOTICES:
            await self._notify("error", *LEAVE_NOTICES[reason])

    # --- the guard -----------------------------------------------------------------------------------------------

    @rx.event
    async def open_section(self, section: str) -> None:
        """on_load of every admin page: who is this, and may they see `section`?"""
        self.nav_open = False
        self.allowed_section = ""
        self.restricted_section = ""
        user = await self._user()
        self.user = user
        self.session_checked = True
        await self._claim_tab(str(user.id) if user else "")
        if user is None:
            await self._leave("auth")
        elif user.role not in STAFF_ROLES:
            await self._leave("staff")
        elif section not in SECTION_LABELS or not may_see(user, section):
            self.restricted_section = section
        else:
            self.allowed_section = section
        if user is not None and user.role in STAFF_ROLES:
            await self._count_unread(user)

    async def _claim_tab(self, owner: str) -> None:
        """From now on the section states hold `owner`'s data ("": nobody's). Another person's (or nobody's) tab is
        emptied first: its states may still hold the previous user's lists.

        A tab nobody claimed holds nobody's data, because every section handler claims the tab for its user
        (`_actor`) before it loads anything. So a new tab is not emptied: that loaded every section's state and wrote
        it back, about 200 ms of each staff page's first load with the state in Redis (docs/performance.md)."""
        shell = await self.get_state(AdminState)
        if owner == shell._owner:
            return
        if shell._owner:
            await shell._forget_below()
        shell._owner = owner

    async def _count_unread(self, user: UserPublic) -> None:
        """The sidebar's unread count, assigned only when it changed (a tick that finds nothing new sends nothing)."""
        try:
            counts = await as_actor(user, lambda s, a: conversation_reads.unread_counts(s, actor=a))
        except DomainError:
            return
        if sum(counts.values()) != self.nav_unread:
            self.nav_unread = sum(counts.values())

    @rx.event
    async def refresh_unread(self) -> None:
        """The shell's ticker: unread messages counted again. Quiet: an ended session is the watcher's to show."""
        if not self.allowed_section and not self.restricted_section:
            return
        try:
            user = await self._require_staff(touch=False)
        except (Unauthorized, Forbidden):
            return
        await self._count_unread(user)

    @rx.event
    def acknowledge_leave(self) -> None:
        self.leave_reason = ""

    async def _actor(
        self, perm: str | None = None, feature: str = "this section", *, quiet: bool = False, touch: bool = True
    ) -> UserPublic | None:
        """The current staff user for a handler, or None after telling the browser why not (session gone, forbidden).

        `quiet` is for on_load loaders: the guard (open_section) already showed why the page is not available.
        `touch=False` for a ticker: a timer is no sign of a person there (SessionState._user).
        """
        try:
            user = await self._require_staff(perm, feature, touch=touch)
        except Unauthorized:
            if self.leave_reason:
                return None
            expired = self.user is not None and not quiet
            if expired:
                await self._notify("error", *SESSION_EXPIRED)
            self.user = None
            self.allowed_section = ""
            await self._leave("expired" if expired else "auth")
            return None
        except Forbidden as exc:
            if quiet or self.leave_reason:
                return None
            title, _, text = exc.message.partition(": ")
            await self._notify("error", title if text else "Access Restricted", text or exc.message)
            return None
        await self._claim_tab(str(user.id))  # a handler called before the page's guard claims the tab itself
        return user

    async def _save(
        self, actor: UserPublic, call: Callable[[Session, User], T], failed: str, *, toast: bool = True
    ) -> tuple[bool, T | None]:
        """Run a service write for a section whose state has `saving`, `form_error` and `form_errors` (FormState).

        While it runs, `saving` is up (the Save button spins). A refusal or a bad value becomes the form's error in the
        service's own words (else `failed`), and with `toast` an error toast too. Returns (succeeded, the result).
        """
        section: Any = self
        section.saving = True
        try:
            return True, await as_actor(actor, call)
        except Exception as exc:
            section.form_error = error_text(exc, failed)
            section.form_errors = field_errors(exc)
            if toast:
                await self._notify("error", failed, section.form_error)
            return False, None
        finally:
            section.saving = False

    async def _read(self, actor: UserPublic, call: Callable[[Session, User], T], failed: str) -> tuple[str, T | None]:
        """Run a service read whose failure the page shows in place, with a retry, rather than in a toast.

        Returns ("", the result), or the error to show (the service's own words, else `failed`) and None.
        """
        try:
            return "", await as_actor(actor, call)
        except Exception as exc:
            return error_text(exc, failed), None

    async def _attempt(
        self, actor: UserPublic, call: Callable[[Session, User], T], title: str, failed: str
    ) -> tuple[bool, T | None]:
        """Run a service call of a button that has no form to show an error in (a row's action, a detail dialog's
        status): a refusal or a failure becomes an error toast titled `title`, in the service's own words (else
        `failed`). Returns (succeeded, the result)."""
        try:
            return True, await as_actor(actor, call)
        except Exception as exc:
            await self._notify("error", title, error_text(exc, failed))
            return False, None

    # --- sidebar -------------------------------------------------------------------------------------------------

    @rx.event
    def toggle_sidebar(self) -> None:
        self.sidebar_state = "false" if self.sidebar_state != "false" else "true"

    @rx.event
    def toggle_nav(self) -> None:
        self.nav_open = not self.nav_open

    @rx.event
    def close_nav(self) -> None:
        self.nav_open = False

    # --- display values ------------------------------------------------------------------------------------------

    @rx.var
    def sidebar_collapsed(self) -> bool:
        return self.sidebar_state == "false"

    @rx.var
    def visible_sections(self) -> list[str]:
        user = self.user
        if user is None or user.role not in STAFF_ROLES:
            return []
        return [key for key, *_ in SECTIONS if may_see(user, key)]

    @rx.var
    def welcome_name(self) -> str:
        return (self.user.first_name or self.user.username) if self.user else ""

    @rx.var
    def role_name(self) -> str:
        role = self.user.role if self.user else ""
        return {"admin": "Administrator", "employee": "Employee", "client": "Client"}.get(role, role.title())

    @rx.var
    def employee_type_label(self) -> str:
        value = self.user.employee_type if self.user else None
        if not value:
            return ""
        try:
            return EMPLOYEE_TYPE_LABELS[EmployeeType(str(value))]
        except ValueError:
            return str(value)

    @rx.var
    def permission_count(self) -> int:
        return len(self.user.effective_permissions) if self.user else 0

    @rx.var
    def initials(self) -> str:
        user = self.user
        parts = [p for p in (user.first_name, user.last_name) if p] if user else []
        if not parts:
            return (user.username if user else "?")[:2].upper()
        return "".join(str(p)[0] for p in parts).upper()
