"""/settings (username and phone, password) and /profile (name, phone, company; password), for the signed-in user."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import reflex as rx

from app.core.errors import DomainError, Unauthorized
from app.services.accounts import profile
from app.services.accounts.profile import ProfileUpdate
from app.services.platform.schema import parse
from app.ui import routes
from app.ui.auth.components import (
    INPUT,
    INPUT_OK,
    LABEL,
    LINK,
    account_form,
    banner,
    loading,
    submit_button,
    text_field,
    username_field,
)
from app.ui.auth.guard import AUTH_REQUIRED, refresh_user, turn_away
from app.ui.auth.layout import auth_layout, card_header
from app.ui.auth.messages import PROFILE_UPDATE_DEFAULT, account_field_message
from app.ui.auth.password import PasswordState, password_form
from app.ui.format import long_date
from app.ui.state.calls import call_as
from app.ui.state.session import SessionState

log = logging.getLogger(__name__)
PROFILE_UPDATED = "Your profile has been updated successfully."
LOAD_FAILED = "Failed to load profile information. Please try refreshing the page."
BANNER_SECONDS = 5.0


class AccountState(SessionState):
    """The form state both pages share: what the form starts from, errors, and the save in progress."""

    initial: dict[str, str] = {}
    errors: dict[str, str] = {}
    message: str = ""
    success: str = ""
    saving: bool = False
    ready: bool = False
    load_failed: bool = False
    _success_seq: int = 0

    @rx.event
    async def load(self):
        self.errors, self.message, self.success = {}, "", ""
        self.saving = self.ready = self.load_failed = False
        try:
            user = await refresh_user(self)
        except Exception:
            log.exception("Loading the account page failed")
            self.load_failed = True
            return None
        if user is None:
            return await turn_away(self, AUTH_REQUIRED)
        self.initial = {
            "username": user.username,
            "email": user.email,
            "first_name": user.first_name or "",
            "last_name": user.last_name or "",
            "phone": user.phone or "",
            "company": user.company or "",
            "member_since": long_date(user.created_at.isoformat()),
        }
        self.ready = True
        return PasswordState.clear

    async def _save(self, fields: dict[str, str]):
        """Send the fields through the profile service; errors go under their fields."""
        self.errors, self.message, self.success = {}, "", ""
        self.saving = True
        yield
        try:
            user = await self._require_user()
            updated = await call_as(user, profile.update_profile, data=parse(ProfileUpdate, fields))
        except Unauthorized as exc:
            yield await turn_away(self, exc.message)
            return
        except DomainError as exc:
            self.errors = {field: account_field_message(field, text) for field, text in exc.errors.items()}
            self.message = "" if self.errors else (exc.message or PROFILE_UPDATE_DEFAULT)
            return
        finally:
            self.saving = False
        if updated is not None:
            self.user = updated
            self.initial = {**self.initial, **{k: str(getattr(updated, k) or "") for k in fields}}
        self._success_seq += 1
        self.success = PROFILE_UPDATED
        yield AccountState.hide_success(self._success_seq)

    @rx.event
    async def save_settings(self, form: dict):
        async for update in self._save({"username": str(form.get("username") or ""), "phone": _text(form, "phone")}):
            yield update

    @rx.event
    async def save_profile(self, form: dict):
        names = ("first_name", "last_name", "phone", "company")
        async for update in self._save({name: _text(form, name) for name in names}):
            yield update

    @rx.event(background=True)
    async def hide_success(self, seq: int):
        await asyncio.sleep(BANNER_SECONDS)
        async with self:
            if self._success_seq == seq:
                self.success = ""


def _text(form: dict, name: str) -> str:
    return str(form.get(name) or "")


def _read_only(label: str, value: rx.Var | str, note: str | None = None, *, field_id: str) -> rx.Component:
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name=LABEL),
        rx.el.input(id=field_id, value=value, read_only=True, disabled=True, class_name=f"{INPUT} {INPUT_OK}"),
        *([rx.el.p(note, class_name="mt-1.5 text-xs text-slate-500")] if note else []),
    )


def _section(title: str, text: str, *children: rx.Component) -> rx.Component:
    return rx.el.section(
        rx.el.h2(title, class_name="text-lg font-semibold text-slate-900"),
        rx.el.p(text, class_name="mt-1 text-sm text-slate-600"),
        rx.el.div(*children, class_name="mt-5"),
        class_name="py-6 first:pt-0 last:pb-0",
    )


def _back_link() -> rx.Component:
    return rx.el.a(
        rx.icon("arrow_left", size=16),
        rx.cond(SessionState.is_staff, "Back to the dashboard", "Back to the portal"),
        href=rx.cond(SessionState.is_staff, routes.ADMIN_DASHBOARD, routes.CLIENT_PORTAL),
        class_name=f"mb-4 inline-flex items-center gap-1 text-sm {LINK}",
    )


def _account_form(*fields: rx.Component, on_submit: Any) -> rx.Component:
    """Both pages' details form: the save's messages on top, then the fields and Save Changes."""
    return account_form(
        banner(AccountState.message),
        banner(AccountState.success, kind="success"),
        *fields,
        rx.el.div(
            submit_button("Save Changes", busy=AccountState.saving, busy_label="Saving..."), class_name="sm:w-56"
        ),
        on_submit=on_submit,
    )


def _settings_form() -> rx.Component:
    form_id, errors, initial = "settings", AccountState.errors, AccountState.initial
    return _account_form(
        rx.el.div(
            username_field(form_id, errors, default_value=initial["username"]),
            text_field(
                "phone",
                "Phone",
                form_id=form_id,
                errors=errors,
                type="tel",
                auto_complete="tel",
                default_value=initial["phone"],
            ),
            class_name="grid gap-5 sm:grid-cols-2",
        ),
        on_submit=AccountState.save_settings,
    )


def _profile_form() -> rx.Component:
    form_id, errors, initial = "profile", AccountState.errors, AccountState.initial
    return _account_form(
        rx.el.div(
            _read_only("Username", initial["username"], field_id="profile-username"),
            _read_only("Email", initial["email"], "Email cannot be changed", field_id="profile-email"),
            class_name="grid gap-5 sm:grid-cols-2",
        ),
        rx.el.div(
            *[
                text_field(name, label, form_id=form_id, errors=errors, default_value=initial[name], **extra)
                for name, label, extra in (
                    ("first_name", "First name", {"required": True, "auto_complete": "given-name"}),
                    ("last_name", "Last name", {"required": True, "auto_complete": "family-name"}),
                    ("phone", "Phone", {"type": "tel", "auto_complete": "tel"}),
                    ("company", "Company", {"auto_complete": "organization"}),
                )
            ],
            class_name="grid gap-5 sm:grid-cols-2",
        ),
        rx.el.p("Member since ", initial["member_since"], class_name="text-sm text-slate-500"),
        on_submit=AccountState.save_profile,
    )


def _account_page(route: str, title: str, lead: str, content: Callable[[], rx.Component]) -> None:
    """Registers one of the two account pages (`title` is also its heading): the way back, the title, and `content`
    once the account has loaded."""

    def page() -> rx.Component:
        return auth_layout(
            _back_link(),
            card_header(title, lead),
            rx.cond(
                AccountState.load_failed,
                banner(LOAD_FAILED),
                rx.cond(rx.State.is_hydrated & AccountState.ready, content(), loading()),
            ),
            width="max-w-2xl",
        )

    rx.page(route=route, title=title, on_load=AccountState.load)(page)


def _settings() -> rx.Component:
    return rx.el.div(
        _section("Profile Information", "Your username and phone number.", _settings_form()),
        _section("Security", "Change your password. Other devices will be signed out.", password_form()),
        class_name="divide-y divide-slate-200",
    )


def _profile() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            rx.tabs.trigger("Profile", value="profile"),
            rx.tabs.trigger("Security", value="security"),
        ),
        rx.tabs.content(_profile_form(), value="profile", class_name="pt-6"),
        rx.tabs.content(password_form(), value="security", class_name="pt-6"),
        default_value="profile",
    )


_account_page(routes.SETTINGS, "Settings", "Manage your account details and password.", _settings)
_account_page(routes.PROFILE, "My Profile", "Your personal details and sign-in security.", _profile)
