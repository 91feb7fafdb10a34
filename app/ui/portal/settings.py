"""Settings tab: username and phone, changing the password, e-mails about new messages, and 'Download my data'."""

from __future__ import annotations

from typing import ClassVar

import reflex as rx

from app.core.errors import Conflict, DomainError, Unauthorized
from app.models.user import UserPublic
from app.ui.auth.password import PASSWORD_CHANGED, change_own_password
from app.ui.components.message_mail import LEAD, message_mail_form
from app.ui.components.second_factor import second_factor_card
from app.ui.portal import components as ui
from app.ui.portal.state import PortalState, ProfileFields, field_input
from app.ui.state.message_mail import MessageMailMixin
from app.ui.state.second_factor import SecondFactorMixin

PASSWORD_FAILED = "Failed to change password. Please try again."
# The password form's fields: the input's name, the service's name for it (its errors' key), label, autocomplete.
PASSWORD_FIELDS = (
    ("current_password", "currentPassword", "Current Password", "current-password"),
    ("new_password", "newPassword", "New Password", "new-password"),
    ("confirm_password", "confirmPassword", "Confirm New Password", "new-password"),
)


class SettingsState(SecondFactorMixin, MessageMailMixin, ProfileFields, PortalState):
    # Profile information (username, phone): ProfileFields.
    fields: ClassVar[tuple[str, ...]] = ("username", "phone")
    profile_loaded: bool = False
    # Security (change password). The passwords themselves never enter the state: they come with the form's submit.
    password_errors: dict[str, str] = {}
    password_error: str = ""
    password_message: str = ""
    password_saving: bool = False
    # Changes after a successful change only, so the fields empty then; a refused one keeps what was typed (issue 26:
    # a mismatch wiped all three fields).
    password_form_key: int = 0

    @rx.event
    async def load(self) -> None:
        """Fill the profile form from the stored account."""
        if await self._fill_from_account():
            self.profile_loaded = True
            await self._load_mail_choice()
            await self._load_factor()

    async def _factor_user(self) -> UserPublic | None:
        return await self._mail_user()

    async def _mail_user(self) -> UserPublic | None:
        try:
            return await self._require_user()
        except Unauthorized:
            await self._signed_out()
            return None

    def _field_errors(self, exc: DomainError) -> dict[str, str]:
        # A taken username is a conflict: its message belongs under the username.
        return {**exc.errors, "username": exc.message} if isinstance(exc, Conflict) else dict(exc.errors)

    def _saved(self, user: UserPublic) -> None:
        self._fill(user)  # as the service stored them (trimmed)

    @rx.event
    async def change_password(self, form_data: dict):
        """Change the password from the submitted form (its fields are cleared once the change is made)."""
        if self.password_saving:
            return
        self.password_saving = True
        self.password_errors = {}
        self.password_error = self.password_message = ""
        yield
        try:
            await change_own_password(self, form_data, {key: name for name, key, _label, _auto in PASSWORD_FIELDS})
        except Unauthorized:
            await self._signed_out()
            return
        except DomainError as exc:
            self.password_errors = dict(exc.errors)
            self.password_error = exc.message or PASSWORD_FAILED
            return
        finally:
            self.password_saving = False
        self.password_message = PASSWORD_CHANGED
        self.password_form_key += 1


def _profile_form() -> rx.Component:
    return ui.titled_card(
        "Profile Information",
        "Update your username and phone number.",
        ui.success_text(SettingsState.message),
        ui.tab_form(
            rx.el.div(
                field_input(SettingsState, "username", "Username", auto_complete="username"),
                field_input(SettingsState, "phone", "Phone", name="settings_phone", type_="tel", auto_complete="tel"),
                class_name="grid grid-cols-1 gap-4 sm:grid-cols-2",
            ),
            SettingsState.error,
            rx.el.div(
                ui.submit_button(
                    "Save Changes",
                    "Saving...",
                    SettingsState.saving,
                    disabled=SettingsState.saving | ~SettingsState.profile_loaded,
                ),
            ),
            on_submit=SettingsState.save,
        ),
    )


def _password_input(name: str, key: str, label: str, autocomplete: str) -> rx.Component:
    """An uncontrolled password field: its value goes to the server only with the form's submit."""
    error = SettingsState.password_errors.get(key, "")
    return ui.text_input(label, error=error, name=name, type_="password", auto_complete=autocomplete)


def _password_form() -> rx.Component:
    return ui.titled_card(
        "Security",
        "Change your password. Other devices signed in to your account will be signed out.",
        ui.success_text(SettingsState.password_message),
        ui.tab_form(
            rx.el.div(
                *[_password_input(*password_field) for password_field in PASSWORD_FIELDS],
                class_name="grid grid-cols-1 gap-4",
            ),
            SettingsState.password_error,
            rx.el.div(ui.submit_button("Change Password", "Changing...", SettingsState.password_saving)),
            on_submit=SettingsState.change_password,
            reset_on_submit=False,
            key=SettingsState.password_form_key,
            class_name="flex max-w-md flex-col gap-4",
        ),
    )


def _message_mail() -> rx.Component:
    return ui.titled_card("Notifications", LEAD, message_mail_form(SettingsState))


def _data_export() -> rx.Component:
    return ui.titled_card(
        "Your Data",
        "Download everything we hold about you: profile, projects, invoices, meetings and inquiries (JSON).",
        rx.el.div(
            ui.action_button("download", "Download my data", PortalState.download_my_data, ui.BUTTON_SECONDARY),
        ),
    )


def settings_tab() -> rx.Component:
    return ui.tab_section(
        "Settings",
        _profile_form(),
        _password_form(),
        second_factor_card(SettingsState),
        _message_mail(),
        _data_export(),
        on_mount=SettingsState.load,
    )
