"""Changing one's own password: the form of /settings and /profile (Security), and the one step every form that
changes it takes (the portal's Settings tab has its own look, app/ui/portal/settings.py). The current session stays,
all others end."""

from __future__ import annotations

from collections.abc import Mapping

import reflex as rx

from app.core.errors import DomainError, Unauthorized
from app.services.accounts import profile
from app.services.accounts.profile import PasswordChange
from app.services.platform.schema import parse
from app.ui.auth.components import account_form, banner, password_field, submit_button
from app.ui.auth.guard import turn_away
from app.ui.auth.messages import PASSWORD_CHANGE_DEFAULT
from app.ui.state.calls import call_as
from app.ui.state.notice import notify
from app.ui.state.session import SessionState

PASSWORD_CHANGED = "Password changed successfully!"
# The service's names for the form's three fields (its errors are keyed by them).
PASSWORD_KEYS = ("currentPassword", "newPassword", "confirmPassword")


async def change_own_password(state: SessionState, form: object, names: Mapping[str, str] | None = None) -> None:
    """Change the signed-in user's password to what the submitted `form` holds (`names`: the service's name of each
    field -> the form's input name, where they differ). The passwords live only in this call; the service checks the
    current one and the rules. Raises Unauthorized when the session has ended, DomainError with the fields' errors."""
    names = names or {key: key for key in PASSWORD_KEYS}

    def field(name: str) -> str:
        value = form.get(name) if isinstance(form, dict) else None
        return value[:1000] if isinstance(value, str) else ""

    user = await state._require_user()
    values = {key: field(names[key]) for key in PASSWORD_KEYS}
    await call_as(user, profile.change_password, data=parse(PasswordChange, values), keep_family=state._family())


class PasswordState(SessionState):
    errors: dict[str, str] = {}
    message: str = ""
    success: str = ""
    saving: bool = False
    form_key: int = 0  # bumped after a change, so the form remounts empty

    @rx.event
    def clear(self) -> None:
        self.errors, self.message, self.success, self.saving = {}, "", "", False

    @rx.event
    async def change(self, form: dict):
        self.errors, self.message, self.success = {}, "", ""
        self.saving = True
        yield
        try:
            await change_own_password(self, form)
        except Unauthorized as exc:
            yield await turn_away(self, exc.message)
            return
        except DomainError as exc:
            self.errors = dict(exc.errors)
            self.message = "" if self.errors else (exc.message or PASSWORD_CHANGE_DEFAULT)
            return
        finally:
            self.saving = False
        self.success, self.form_key = PASSWORD_CHANGED, self.form_key + 1
        await notify(self, "success", PASSWORD_CHANGED, "Your other sessions have been signed out.")


def password_form() -> rx.Component:
    form_id, errors = "password", PasswordState.errors
    return account_form(
        banner(PasswordState.message),
        banner(PasswordState.success, kind="success"),
        password_field("currentPassword", "Current password", form_id=form_id, errors=errors),
        password_field(
            "newPassword",
            "New password",
            form_id=form_id,
            errors=errors,
            auto_complete="new-password",
            hint="At least 8 characters.",
        ),
        password_field(
            "confirmPassword", "Confirm new password", form_id=form_id, errors=errors, auto_complete="new-password"
        ),
        rx.el.div(
            submit_button("Change Password", busy=PasswordState.saving, busy_label="Changing Password..."),
            class_name="sm:w-56",
        ),
        key=PasswordState.form_key,
        on_submit=PasswordState.change,
    )
