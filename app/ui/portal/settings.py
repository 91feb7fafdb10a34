"""Settings tab: username and phone, changing the password, and 'Download my data'."""

from __future__ import annotations

import reflex as rx

from app.core.errors import Conflict, DomainError, Unauthorized
from app.services import profile
from app.services.profile import PasswordChange
from app.services.schema import parse
from app.ui.portal import components as ui
from app.ui.portal.state import PortalState
from app.ui.state.calls import as_actor

PROFILE_SAVED = "Your profile has been updated successfully."
PROFILE_FAILED = "Failed to update profile. Please try again."
PASSWORD_CHANGED = "Password changed successfully!"
PASSWORD_FAILED = "Failed to change password. Please try again."


class SettingsState(PortalState):
    # Profile information (username, phone).
    form_username: str = ""
    form_phone: str = ""
    username_error: str = ""
    phone_error: str = ""
    profile_error: str = ""
    profile_message: str = ""
    profile_saving: bool = False
    profile_loaded: bool = False
    # Security (change password). The passwords themselves never enter the state: they come with the form's submit.
    current_password_error: str = ""
    new_password_error: str = ""
    confirm_password_error: str = ""
    password_error: str = ""
    password_message: str = ""
    password_saving: bool = False

    @rx.event
    async def load(self) -> None:
        """Fill the profile form from the stored account."""
        try:
            user = await self._require_user()
        except Unauthorized:
            await self._signed_out()
            return
        self.user = user.model_dump(mode="json")
        self.form_username = user.username
        self.form_phone = user.phone or ""
        self.profile_loaded = True

    @rx.event
    def set_form_username(self, value: str) -> None:
        self.form_username = str(value)[:100]

    @rx.event
    def set_form_phone(self, value: str) -> None:
        self.form_phone = str(value)[:60]

    @rx.event
    async def save_profile(self, _form_data: dict | None = None):
        if self.profile_saving:
            return
        self.profile_saving = True
        self.username_error = self.phone_error = self.profile_error = self.profile_message = ""
        yield
        try:
            updated = await self._update_profile({"username": self.form_username, "phone": self.form_phone})
        except DomainError as exc:
            self.profile_saving = False
            self.username_error = exc.message if isinstance(exc, Conflict) else exc.errors.get("username", "")
            self.phone_error = exc.errors.get("phone", "")
            self.profile_error = exc.message or PROFILE_FAILED
            return
        self.profile_saving = False
        if updated is not None:
            self.form_username = updated.username
            self.form_phone = updated.phone or ""
            self.profile_message = PROFILE_SAVED

    @rx.event
    async def change_password(self, form_data: dict):
        """Change the password from the submitted form (the browser clears the form on submit)."""
        if self.password_saving:
            return

        def field(name: str) -> str:
            value = form_data.get(name) if isinstance(form_data, dict) else None
            return value[:1000] if isinstance(value, str) else ""

        current, new, confirm = field("current_password"), field("new_password"), field("confirm_password")
        self.password_saving = True
        self.current_password_error = self.new_password_error = self.confirm_password_error = ""
        self.password_error = self.password_message = ""
        yield
        try:
            user = await self._require_user()
            keep = self._family()  # this session stays signed in; every other one ends
            data = parse(PasswordChange, {"currentPassword": current, "newPassword": new, "confirmPassword": confirm})
            await as_actor(user, lambda s, actor: profile.change_password(s, actor, data=data, keep_family=keep))
        except Unauthorized:
            self.password_saving = False
            await self._signed_out()
            return
        except DomainError as exc:
            self.password_saving = False
            self.current_password_error = exc.errors.get("currentPassword", "")
            self.new_password_error = exc.errors.get("newPassword", "")
            self.confirm_password_error = exc.errors.get("confirmPassword", "")
            self.password_error = exc.message or PASSWORD_FAILED
            return
        self.password_saving = False
        self.password_message = PASSWORD_CHANGED


def _profile_form() -> rx.Component:
    return ui.titled_card(
        "Profile Information",
        "Update your username and phone number.",
        ui.success_text(SettingsState.profile_message),
        ui.tab_form(
            rx.el.div(
                ui.text_input(
                    "Username",
                    SettingsState.form_username,
                    SettingsState.set_form_username,
                    error=SettingsState.username_error,
                    name="username",
                    auto_complete="username",
                ),
                ui.text_input(
                    "Phone",
                    SettingsState.form_phone,
                    SettingsState.set_form_phone,
                    error=SettingsState.phone_error,
                    name="settings_phone",
                    type_="tel",
                    auto_complete="tel",
                ),
                class_name="grid grid-cols-1 gap-4 sm:grid-cols-2",
            ),
            SettingsState.profile_error,
            rx.el.div(
                ui.submit_button(
                    "Save Changes",
                    "Saving...",
                    SettingsState.profile_saving,
                    disabled=SettingsState.profile_saving | ~SettingsState.profile_loaded,
                ),
            ),
            on_submit=SettingsState.save_profile,
        ),
    )


def _password_input(label: str, name: str, error: rx.Var, autocomplete: str) -> rx.Component:
    """An uncontrolled password field: its value goes to the server only with the form's submit."""
    return ui.text_input(label, error=error, name=name, type_="password", auto_complete=autocomplete)


def _password_form() -> rx.Component:
    return ui.titled_card(
        "Security",
        "Change your password. Other devices signed in to your account will be signed out.",
        ui.success_text(SettingsState.password_message),
        ui.tab_form(
            rx.el.div(
                _password_input(
                    "Current Password", "current_password", SettingsState.current_password_error, "current-password"
                ),
                _password_input("New Password", "new_password", SettingsState.new_password_error, "new-password"),
                _password_input(
                    "Confirm New Password", "confirm_password", SettingsState.confirm_password_error, "new-password"
                ),
                class_name="grid grid-cols-1 gap-4",
            ),
            SettingsState.password_error,
            rx.el.div(ui.submit_button("Change Password", "Changing...", SettingsState.password_saving)),
            on_submit=SettingsState.change_password,
            reset_on_submit=True,
            class_name="flex max-w-md flex-col gap-4",
        ),
    )


def _data_export() -> rx.Component:
    return ui.titled_card(
        "Your Data",
        "Download everything we hold about you: profile, projects, invoices, meetings and inquiries (JSON).",
        rx.el.div(
            ui.action_button("download", "Download my data", PortalState.download_my_data, ui.BUTTON_SECONDARY),
        ),
    )


def settings_tab() -> rx.Component:
    return rx.el.section(
        ui.section_title("Settings"),
        _profile_form(),
        _password_form(),
        _data_export(),
        class_name="flex flex-col gap-4",
        on_mount=SettingsState.load,
    )
