"""/forgot-password (ask for a link by e-mail) and /reset-password?token=... (choose a new password with it).

Both call accounts.password_reset, like the `/api/auth/forgot-password` and `/api/auth/reset-password` routes.
"""

from __future__ import annotations

import reflex as rx

from app.core.errors import DomainError
from app.core.permissions import STAFF_ROLES
from app.services.accounts import password_reset
from app.services.accounts.password_reset import PasswordReset, ResetRequest
from app.services.platform.schema import parse
from app.ui import routes
from app.ui.auth.components import LINK, account_form, banner, loading, password_field, submit_button, text_field
from app.ui.auth.layout import auth_layout, card_header
from app.ui.state.calls import call

# Where "Back to sign in" goes: the sign-in page the visitor came from (`?from=admin` on the staff one).
SIGN_IN = {"admin": routes.ADMIN_LOGIN, "portal": routes.CLIENT_PORTAL}
MISMATCH = "New password and confirmation do not match"


class ForgotPasswordState(rx.State):
    sent: str = ""  # the neutral confirmation once a request went through
    errors: dict[str, str] = {}
    message: str = ""
    sending: bool = False
    back_to: str = SIGN_IN["portal"]

    @rx.event
    def load(self) -> None:
        self.sent, self.errors, self.message, self.sending = "", {}, "", False
        self.back_to = SIGN_IN.get(self.router.url.query_parameters.get("from", ""), SIGN_IN["portal"])

    @rx.event
    async def submit(self, form: dict):
        if self.sending:
            return
        self.errors, self.message, self.sending = {}, "", True
        yield
        try:
            self.sent = await call(
                password_reset.request_reset,
                data=parse(ResetRequest, {"email": str(form.get("email") or "")}),
                ip=self.router.session.client_ip or None,
            )
        except DomainError as exc:
            self.errors, self.message = exc.errors, "" if exc.errors else exc.message
        finally:
            self.sending = False


class ResetPasswordState(rx.State):
    view: str = "loading"  # "form" | "invalid" | "done"
    problem: str = ""  # why the link cannot be used, and what to do
    errors: dict[str, str] = {}
    message: str = ""
    saving: bool = False
    sign_in: str = SIGN_IN["portal"]  # after the reset: the sign-in page of the account's kind
    first: bool = False  # the link sets the account's first password (an invitation): "set", not "reset"
    _token: str = ""  # backend-only: the link's secret never sits in browser state

    @rx.event
    async def load(self) -> None:
        self.errors, self.message, self.saving, self.problem = {}, "", False, ""
        self._token = self.router.url.query_parameters.get("token", "")[:200]
        try:
            self.first = await call(password_reset.check_link, token=self._token)
        except DomainError as exc:
            self.view, self.problem = "invalid", exc.message
            return
        self.view = "form"

    @rx.event
    async def submit(self, form: dict):
        if self.saving or self.view != "form":
            return
        password, confirm = str(form.get("newPassword") or ""), str(form.get("confirmPassword") or "")
        self.errors, self.message = {}, ""
        if password and confirm != password:
            self.errors = {"confirmPassword": MISMATCH}
            return
        self.saving = True
        yield
        try:
            user = await call(
                password_reset.reset_password,
                data=parse(PasswordReset, {"token": self._token, "newPassword": password}),
                ip=self.router.session.client_ip or None,
            )
        except DomainError as exc:
            if exc.errors:
                self.errors = exc.errors
            else:  # the link died meanwhile (used in another tab, expired, replaced)
                self.view, self.problem = "invalid", exc.message
            return
        finally:
            self.saving = False
        self._token, self.view = "", "done"
        self.sign_in = SIGN_IN["admin"] if user.role in STAFF_ROLES else SIGN_IN["portal"]


def _back(href: rx.Var | str) -> rx.Component:
    return rx.el.p(
        rx.el.a("Back to sign in", href=href, class_name=LINK), class_name="mt-6 text-center text-sm text-slate-600"
    )


def _request_form() -> rx.Component:
    return account_form(
        banner(ForgotPasswordState.message),
        text_field(
            "email",
            "Email",
            form_id="forgot",
            errors=ForgotPasswordState.errors,
            type="email",
            required=True,
            auto_complete="email",
        ),
        submit_button("Send Reset Link", busy=ForgotPasswordState.sending, busy_label="Sending..."),
        on_submit=ForgotPasswordState.submit,
    )


def _forgot_password(back: rx.Var | str) -> rx.Component:
    return auth_layout(
        card_header(
            "Reset your password", "Enter the e-mail address of your account and we'll send you a link to reset it."
        ),
        rx.cond(
            ForgotPasswordState.sent != "",
            rx.el.div(
                banner(ForgotPasswordState.sent, kind="success"),
                rx.el.p(
                    "The link works once and expires in 30 minutes. Check your spam folder if it does not arrive.",
                    class_name="mt-4 text-sm text-slate-600",
                ),
            ),
            _request_form(),
        ),
        _back(back),
    )


@rx.page(route=routes.FORGOT_PASSWORD, title="Reset Your Password", on_load=ForgotPasswordState.load)
def forgot_password_page() -> rx.Component:
    # `?from=admin` (older links) is honoured once the page has loaded; the staff sign-in links to the page below.
    return _forgot_password(ForgotPasswordState.back_to)


@rx.page(route=routes.ADMIN_FORGOT_PASSWORD, title="Reset Your Password", on_load=ForgotPasswordState.load)
def staff_forgot_password_page() -> rx.Component:
    # Its own page, so "Back to sign in" leads to the staff sign-in in the prerendered HTML already: a visitor who
    # clicks before the page's scripts have run is not sent to the client portal.
    return _forgot_password(SIGN_IN["admin"])


def _new_password_form() -> rx.Component:
    errors = ResetPasswordState.errors
    return account_form(
        banner(ResetPasswordState.message),
        password_field(
            "newPassword",
            "New password",
            form_id="reset",
            errors=errors,
            auto_complete="new-password",
            hint="At least 8 characters.",
        ),
        password_field(
            "confirmPassword", "Confirm new password", form_id="reset", errors=errors, auto_complete="new-password"
        ),
        submit_button(
            rx.cond(ResetPasswordState.first, "Set Password", "Reset Password"),
            busy=ResetPasswordState.saving,
            busy_label="Saving...",
        ),
        on_submit=ResetPasswordState.submit,
    )


@rx.page(route=routes.RESET_PASSWORD, title="Choose a New Password", on_load=ResetPasswordState.load)
def reset_password_page() -> rx.Component:
    return auth_layout(
        rx.match(
            ResetPasswordState.view,
            (
                "form",
                rx.el.div(
                    rx.cond(
                        ResetPasswordState.first,
                        card_header("Set your password", "Choose the password you will sign in with."),
                        card_header("Choose a new password", "Signing in again is needed everywhere afterwards."),
                    ),
                    _new_password_form(),
                ),
            ),
            (
                "invalid",
                rx.el.div(
                    card_header("This link cannot be used"),
                    banner(ResetPasswordState.problem),
                    rx.el.a("Request a new link", href=routes.FORGOT_PASSWORD, class_name=f"mt-6 block text-sm {LINK}"),
                ),
            ),
            (
                "done",
                rx.el.div(
                    rx.cond(
                        ResetPasswordState.first,
                        rx.el.div(card_header("Password set"), banner(password_reset.DONE_FIRST, kind="success")),
                        rx.el.div(card_header("Password reset"), banner(password_reset.DONE, kind="success")),
                    ),
                    rx.el.a("Sign in", href=ResetPasswordState.sign_in, class_name=f"mt-6 block text-sm {LINK}"),
                ),
            ),
            loading(),
        ),
    )
