"""Shared state of the client portal: who may see it, the current tab, the welcome dialog, and the service bridge.

Every tab's state subclasses `PortalState` (itself a `SessionState`), so each handler re-checks the session cookie
with `await self._require_user()` and reaches client data only through `app/services/*` with that user as actor,
in a worker thread (`app.ui.state.calls.as_actor`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import reflex as rx
from sqlmodel import Session

from app.core.errors import DomainError, Unauthorized
from app.core.permissions import STAFF_ROLES
from app.models.user import User, UserPublic
from app.services.accounts import profile
from app.services.accounts.profile import ProfileUpdate
from app.services.platform.schema import parse
from app.ui import routes
from app.ui.auth.guard import refresh_user
from app.ui.format import long_date
from app.ui.portal import components as ui
from app.ui.portal.colours import BADGE_COLORS, DEFAULT_BADGE_COLOR
from app.ui.state.calls import as_actor
from app.ui.state.session import SessionState

T = TypeVar("T")
TABS = ("projects", "invoices", "plans", "meetings", "profile", "settings")
GENERIC_ERROR = "Something went wrong. Please try again."
PROFILE_SAVED = "Your profile has been updated successfully."
PROFILE_FAILED = "Failed to update profile. Please try again."
# The longest value each profile field takes as typed (the service checks the real limits).
FIELD_LIMITS = {"username": 100, "first_name": 200, "last_name": 200, "phone": 60, "company": 400}


def badge_color(status: str) -> str:
    return BADGE_COLORS.get(status.strip().lower().replace(" ", "_"), DEFAULT_BADGE_COLOR)


def status_label(status: str) -> str:
    """'in_progress' reads 'in progress'."""
    return status.replace("_", " ")


@dataclasses.dataclass
class Badge:
    """A record's status as its badge shows it: 'in progress' in blue."""

    label: str = ""
    color: str = DEFAULT_BADGE_COLOR

    @classmethod
    def of(cls, status: object) -> Badge:
        """The badge of a DTO's status (none: an empty grey badge)."""
        text = str(status or "")
        return cls(label=status_label(text), color=badge_color(text))


def error_message(exc: DomainError, fallback: str = GENERIC_ERROR) -> str:
    return exc.message or fallback


@dataclasses.dataclass
class AccountShown:
    first_name: str = ""
    last_name: str = ""
    phone: str = ""
    company: str = ""
    email: str = ""
    role: str = ""


class PortalState(SessionState):
    """The portal's shell: access decision, active tab and welcome dialog."""

    active_tab: str = "projects"
    welcome_open: bool = False
    # Tabs whose data the dashboard shows at once set this; their `load` runs with the page.
    loads_with_page: ClassVar[bool] = False
    load_first: ClassVar[bool] = False  # loaded before the other tabs (the summary: the first thing on the screen)

    @rx.var
    def is_client(self) -> bool:
        return self.user is not None and self.user.role == "client"

    @rx.var
    def is_other_role(self) -> bool:
        """Signed in, but neither a client nor staff: Access Denied."""
        return self.user is not None and self.user.role != "client" and self.user.role not in STAFF_ROLES

    @rx.var
    def account(self) -> AccountShown:
        """The signed-in account's fields as the profile shows them ("" when not set or signed out)."""
        u = self.user
        if u is None:
            return AccountShown()
        return AccountShown(u.first_name or "", u.last_name or "", u.phone or "", u.company or "", u.email, u.role)

    @rx.var
    def company_label(self) -> str:
        return (self.user.company if self.user else None) or "Individual"

    @rx.var
    def member_since(self) -> str:
        """'Member since' date of the account (en-US long form)."""
        return long_date(self.user.created_at) if self.user else ""

    @rx.event
    async def on_load(self):
        """Page load: check the session, route staff away, open the welcome dialog, load the client's data."""
        user = await refresh_user(self)
        if user is None or user.role != "client":
            await self._forget_client_data()
            if user is not None and user.role in STAFF_ROLES:
                return rx.redirect(routes.ADMIN_DASHBOARD, replace=True)
            return None
        events: list = []
        if self.router.url.query_parameters.get("welcome") == "true":
            self.welcome_open = True
            # A client-side navigation with history.replaceState semantics: no reload, no eval.
            events.append(rx.redirect(routes.CLIENT_PORTAL, replace=True))
        if (tab := self.router.url.query_parameters.get("tab")) in TABS:
            self.active_tab = str(tab)  # a mail's link to one tab (the invoices', from the invoice mails)
        if self.active_tab not in TABS:
            self.active_tab = "projects"
        return [*events, *(tab.load for tab in self._tabs() if tab.loads_with_page)]

    @classmethod
    def _tabs(cls) -> list[type[PortalState]]:
        """The tab states: this state's substates. The shell does not import its tabs; they subclass it."""
        tabs = [tab for tab in PortalState.get_substates() if issubclass(tab, PortalState)]
        return sorted(tabs, key=lambda tab: (not tab.load_first, tab.get_name()))

    async def _forget_client_data(self) -> None:
        """Drop every tab's data (another user may have signed in in this tab since it was loaded). From the shell, as
        a tab that finds the session ended has no states below it and would keep its own rows."""
        shell = await self.get_state(PortalState)
        await shell._forget_below()
        shell.active_tab = "projects"

    async def _signed_out(self) -> None:
        """The session ended while the page was open: show the signed-out view and drop the data."""
        self.user = None
        await self._forget_client_data()

    async def _update_profile(self, values: dict[str, str]) -> UserPublic | None:
        """Save profile fields as the signed-in client (the service trims and checks them; an empty phone or company
        is "not set"), keeping the shell's copy of the account current. None when the session has ended (the
        signed-out view is shown then); a refusal raises DomainError with the fields' errors."""
        try:
            user = await self._require_user()
            data = parse(ProfileUpdate, values)
            updated = await as_actor(user, lambda s, actor: UserPublic.of(profile.update_profile(s, actor, data=data)))
        except Unauthorized:
            await self._signed_out()
            return None
        self.user = updated
        return updated

    @rx.event
    def set_tab(self, tab: str):
        self.active_tab = tab if tab in TABS else "projects"
        if not self.session_checked:
            # The page was loaded, yet this state never was: the server lost it (expired in Redis, or Redis lost its
            # data). Load the page again, as the browser's reload would, instead of showing a signed-out view.
            return PortalState.on_load
        return None

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


class ListTab(PortalState, mixin=True):
    """A tab listing the client's own records, loaded with the page: skeletons until the first answer, then the
    records or the error."""

    loads_with_page: ClassVar[bool] = True
    loading: bool = True
    error: str = ""

    async def _fetch(self, lister: Callable[[Session, User], T], failed: str) -> T | None:
        """`lister(session, actor)` as the signed-in client. None when there is nothing to show: the session has
        ended (the signed-out view shows) or the service refused (`error` says why, `failed` when it did not)."""
        try:
            user = await self._require_user()
            found = await as_actor(user, lister)
        except Unauthorized:
            await self._signed_out()
            return None
        except DomainError as exc:
            self.error = error_message(exc, failed)
            self.loading = False
            return None
        self.error = ""
        self.loading = False
        return found


def field_input(tab: Any, field: str, label: str, *, name: str = "", **props: Any) -> rx.Component:
    """The input of `field` in a ProfileFields tab's form (`tab`: its class), bound to what is typed there and to the
    field's error; `name` is the input's own name when it is not the field's."""
    return ui.text_input(
        label,
        tab.form.get(field, ""),
        lambda value: tab.set_field(field, value),
        error=tab.errors.get(field, ""),
        name=name or field,
        **props,
    )


class ProfileFields(PortalState, mixin=True):
    """A tab's form over some of the account's own fields (`fields`): what is typed, each field's error, the
    form's error and message, and the save through the profile service. Profile and Settings each have one."""

    fields: ClassVar[tuple[str, ...]] = ()
    form: dict[str, str] = {}
    errors: dict[str, str] = {}
    error: str = ""
    message: str = ""
    saving: bool = False

    def _fill(self, user: UserPublic) -> None:
        self.form = {name: str(getattr(user, name) or "") for name in self.fields}

    async def _fill_from_account(self) -> bool:
        """Fill the form from the stored account; False (and the signed-out view) when the session has ended."""
        try:
            user = await self._require_user()
        except Unauthorized:
            await self._signed_out()
            return False
        self.user = user
        self._fill(user)
        return True

    def _clear_errors(self) -> None:
        self.errors, self.error = {}, ""

    def _field_errors(self, exc: DomainError) -> dict[str, str]:
        return dict(exc.errors)

    def _saved(self, user: UserPublic) -> None:
        """What the tab does once the service saved the fields."""

    @rx.event
    def set_field(self, name: str, value: str) -> None:
        if name in self.fields:
            self.form = {**self.form, name: str(value)[: FIELD_LIMITS[name]]}

    @rx.event
    async def save(self, _form_data: dict | None = None):
        """Save the form (its values come from this state, not from the submitted form data)."""
        if self.saving:
            return
        self.saving = True
        self._clear_errors()
        self.message = ""
        yield
        try:
            updated = await self._update_profile({name: self.form.get(name, "") for name in self.fields})
        except DomainError as exc:
            self.errors = self._field_errors(exc)
            self.error = exc.message or PROFILE_FAILED
            return
        finally:
            self.saving = False
        if updated is not None:
            self._saved(updated)
            self.message = PROFILE_SAVED
