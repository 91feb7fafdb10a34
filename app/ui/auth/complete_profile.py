"""/complete-profile: after a Google sign-up, choose a username and give company and phone (a password is optional)."""

from __future__ import annotations

import reflex as rx

from app.core.errors import DomainError, Unauthorized
from app.services.accounts import profile
from app.services.accounts.profile import CompleteProfile
from app.services.platform.schema import parse
from app.ui import routes
from app.ui.auth.components import (
    USERNAME_HINT,
    account_form,
    banner,
    loading,
    password_field,
    submit_button,
    text_field,
    username_field,
)
from app.ui.auth.guard import AUTH_REQUIRED, landing_for, refresh_user, turn_away
from app.ui.auth.layout import auth_layout, card_header
from app.ui.auth.messages import COMPLETE_PROFILE_TITLE, complete_profile_message
from app.ui.state.calls import call, call_as
from app.ui.state.notice import notify
from app.ui.state.session import SessionState


class CompleteProfileState(SessionState):
    initial: dict[str, str] = {}  # the current values the form starts from
    errors: dict[str, str] = {}
    message: str = ""
    saving: bool = False
    ready: bool = False
    may_set_password: bool = False  # only an account without a password chooses its first one here

    @rx.event
    async def load(self):
        self.errors, self.message, self.saving, self.ready = {}, "", False, False
        user = await refresh_user(self)
        if user is None:
            return await turn_away(self, AUTH_REQUIRED)
        if user.profile_complete:  # nothing to complete: this page never edits a finished profile
            return rx.redirect(landing_for(user.role), replace=True)
        self.initial = {"username": user.username, "company": user.company or "", "phone": user.phone or ""}
        self.may_set_password = not await call(profile.has_password, user_id=user.id)
        self.ready = True
        return None

    @rx.event
    async def submit(self, form: dict):
        self.errors, self.message = {}, ""
        self.saving = True
        yield
        try:
            user = await self._require_user()
            fields = {name: str(form.get(name) or "") for name in ("username", "company", "phone", "password")}
            done = await call_as(user, profile.complete_profile, data=parse(CompleteProfile, fields))
        except Unauthorized as exc:
            yield await turn_away(self, exc.message)
            return
        except DomainError as exc:
            self.errors = {field: complete_profile_message(text) for field, text in exc.errors.items()}
            text = complete_profile_message(exc.message)
            self.message = "" if self.errors else text  # field errors show under their fields
            await notify(self, "error", COMPLETE_PROFILE_TITLE, text)
            return
        finally:
            self.saving = False
        await notify(self, "success", "Profile Completed!")
        yield rx.redirect(landing_for(done.role if done else ""))


def _form() -> rx.Component:
    form_id, errors, initial = "complete", CompleteProfileState.errors, CompleteProfileState.initial
    return account_form(
        banner(CompleteProfileState.message),
        username_field(form_id, errors, default_value=initial["username"], hint=USERNAME_HINT),
        text_field(
            "company",
            "Company Name",
            form_id=form_id,
            errors=errors,
            required=True,
            auto_complete="organization",
            default_value=initial["company"],
        ),
        text_field(
            "phone",
            "Phone Number",
            form_id=form_id,
            errors=errors,
            type="tel",
            required=True,
            auto_complete="tel",
            default_value=initial["phone"],
        ),
        rx.cond(
            CompleteProfileState.may_set_password,
            password_field(
                "password",
                "Password (optional)",
                form_id=form_id,
                errors=errors,
                required=False,
                auto_complete="new-password",
                hint="Set a password to also sign in with your e-mail and password later (at least 8 characters).",
            ),
        ),
        submit_button("Complete Profile", busy=CompleteProfileState.saving, busy_label="Completing Profile..."),
        on_submit=CompleteProfileState.submit,
    )


@rx.page(route=routes.COMPLETE_PROFILE, title="Complete Your Profile", on_load=CompleteProfileState.load)
def complete_profile_page() -> rx.Component:
    return auth_layout(
        card_header("Complete your profile", "A few details and your account is ready."),
        rx.cond(rx.State.is_hydrated & CompleteProfileState.ready, _form(), loading()),
    )
