"""/register: create an account, then the e-mailed 6-digit code verifies it (`?verify={userId}` jumps to that step)."""

from __future__ import annotations

import asyncio

import reflex as rx
from sqlmodel import Session

from app.core.errors import DomainError
from app.services.accounts import auth
from app.services.accounts.auth import CodeCheck, CodeResend, RegisterCreate
from app.services.platform.schema import parse
from app.ui import routes
from app.ui.auth.components import (
    LINK,
    PRIMARY,
    SECONDARY,
    USERNAME_HINT,
    account_form,
    banner,
    google_option,
    password_field,
    submit_button,
    text_field,
    username_field,
)
from app.ui.auth.layout import auth_layout, card_header
from app.ui.auth.messages import (
    REGISTER_CHECK_FIELDS,
    RESEND_DEFAULT,
    RESEND_OK,
    registration_message,
    valid_user_id,
    verification_message,
)
from app.ui.state.calls import call

FIELDS = ("username", "email", "password", "first_name", "last_name", "company", "phone")
SIGN_IN_REDIRECT_SECONDS = 1.5
CODE_LENGTH = 6


def _register(s: Session, form: RegisterCreate, ip: str | None) -> tuple[str, str]:
    user = auth.register(s, data=form, ip=ip)
    return str(user.id), form.email or ""  # the address as typed, never the account's: see auth.register


class RegisterState(rx.State):
    step: str = "form"  # "form" | "verify" | "done"
    email: str = ""  # shown on the verification step after registering here
    errors: dict[str, str] = {}
    message: str = ""
    submitting: bool = False
    code: rx.Field[str] = rx.field("")
    verify_error: str = ""
    verify_info: str = ""
    verifying: bool = False
    resending: bool = False
    _user_id: str = ""

    def _clear_feedback(self) -> None:
        self.errors, self.message, self.verify_error, self.verify_info = {}, "", "", ""

    @rx.event
    async def load(self):
        self._clear_feedback()
        self.submitting = self.verifying = self.resending = False
        query = self.router.url.query_parameters
        uid = valid_user_id(query.get("verify", ""))
        # Verified already (the address the verification left, or an old ?verify= link): say so and move on to the
        # sign-in, never the code form again (issue 26).
        if query.get("verified") == "1" or (uid is not None and await call(auth.is_verified, uid)):
            self.step = "done"
            return RegisterState.go_sign_in
        if uid is None:
            self.step = "form"
            return None
        if uid != self._user_id:
            self.email, self.code = "", ""
        self._user_id, self.step = uid, "verify"
        return None

    @rx.event
    async def register(self, form: dict):
        """Create the account (the service validates and rate-limits); the password lives only in this call."""
        self._clear_feedback()
        self.submitting = True
        yield
        fields = {name: str(form.get(name) or "") for name in FIELDS}
        try:
            uid, email = await call(_register, parse(RegisterCreate, fields), self.router.session.client_ip or None)
        except DomainError as exc:
            self.errors = {field: registration_message(text) for field, text in exc.errors.items()}
            if len(self.errors) > 1:
                self.message = REGISTER_CHECK_FIELDS
            elif not self.errors:
                self.message = registration_message(exc.message)
            return
        finally:
            self.submitting = False
        self._user_id, self.email, self.code, self.step = uid, email, "", "verify"
        yield rx.redirect(f"{routes.REGISTER}?verify={uid}", replace=True)  # a reload stays on the verification step

    @rx.event
    def set_code(self, value: str) -> None:
        self.code = "".join(c for c in str(value) if c.isdigit())[:CODE_LENGTH]

    @rx.event
    async def verify(self, _form: dict):
        if not self._user_id or self.verifying:
            return
        self.verify_error, self.verify_info = "", ""
        self.verifying = True
        yield
        try:
            await call(auth.verify, data=parse(CodeCheck, {"userId": self._user_id, "code": self.code}))
        except DomainError as exc:
            self.verify_error = verification_message(exc.message)
            return
        finally:
            self.verifying = False
        self.step = "done"
        # The address no longer names the code step: a reload says "verified", not "Verify your email" (issue 26).
        yield rx.redirect(f"{routes.REGISTER}?verified=1", replace=True)

    @rx.event
    async def resend(self):
        if not self._user_id or self.resending:
            return
        self.verify_error, self.verify_info = "", ""
        self.resending = True
        yield
        try:
            await call(
                auth.resend_code,
                data=parse(CodeResend, {"userId": self._user_id}),
                ip=self.router.session.client_ip or None,
            )
        except DomainError as exc:
            self.verify_error = exc.message or RESEND_DEFAULT
            return
        finally:
            self.resending = False
        self.code, self.verify_info = "", RESEND_OK

    @rx.event(background=True)
    async def go_sign_in(self):
        await asyncio.sleep(SIGN_IN_REDIRECT_SECONDS)
        # Clients sign in on the portal (the staff login refuses them) and are welcomed there after signing in.
        return rx.redirect(f"{routes.CLIENT_PORTAL}?verified=1")


def _form() -> rx.Component:
    form_id, errors = "register", RegisterState.errors
    return account_form(
        banner(RegisterState.message),
        username_field(form_id, errors, hint=USERNAME_HINT),
        text_field(
            "email", "Email", form_id=form_id, errors=errors, type="email", required=True, auto_complete="email"
        ),
        password_field(
            "password",
            "Password",
            form_id=form_id,
            errors=errors,
            auto_complete="new-password",
            hint="At least 8 characters.",
        ),
        rx.el.div(
            text_field("first_name", "First name", form_id=form_id, errors=errors, auto_complete="given-name"),
            text_field("last_name", "Last name", form_id=form_id, errors=errors, auto_complete="family-name"),
            class_name="grid gap-5 sm:grid-cols-2",
        ),
        rx.el.div(
            text_field("company", "Company", form_id=form_id, errors=errors, auto_complete="organization"),
            text_field("phone", "Phone", form_id=form_id, errors=errors, type="tel", auto_complete="tel"),
            class_name="grid gap-5 sm:grid-cols-2",
        ),
        submit_button("Create Account", busy=RegisterState.submitting, busy_label="Creating Account..."),
        google_option("Sign up with Google"),
        on_submit=RegisterState.register,
    )


def _code_step() -> rx.Component:
    return rx.el.div(
        card_header(
            "Verify your email",
            rx.cond(
                RegisterState.email != "",
                "We sent a 6-digit code to " + RegisterState.email + ".",
                "We sent a 6-digit code to the email address you registered with.",
            ),
        ),
        rx.form(
            rx.el.label("Verification code", html_for="verify-code", class_name="mb-1.5 block text-sm font-medium"),
            rx.debounce_input(
                rx.el.input(
                    id="verify-code",
                    name="code",
                    value=RegisterState.code,
                    on_change=RegisterState.set_code,
                    input_mode="numeric",
                    auto_complete="one-time-code",
                    max_length=CODE_LENGTH,
                    placeholder="000000",
                    aria_describedby="verify-code-help",
                    class_name="block w-full rounded-lg border border-slate-300 bg-white px-3 py-3 text-center "
                    "font-mono text-2xl tracking-[0.5em] indent-[0.5em] text-slate-900 shadow-sm focus:border-blue-500 "
                    "focus:outline-none focus:ring-2 focus:ring-blue-500/30",
                ),
                debounce_timeout=100,
            ),
            rx.el.p("The code expires in 15 minutes.", id="verify-code-help", class_name="text-sm text-slate-500"),
            banner(RegisterState.verify_error),
            banner(RegisterState.verify_info, kind="success"),
            rx.el.button(
                rx.cond(RegisterState.verifying, "Verifying...", "Verify"),
                type="submit",
                disabled=(RegisterState.code.length() != CODE_LENGTH) | RegisterState.verifying,
                class_name=PRIMARY,
            ),
            rx.el.button(
                rx.cond(RegisterState.resending, "Sending...", "Resend code"),
                type="button",
                on_click=RegisterState.resend,
                disabled=RegisterState.resending,
                class_name=f"{SECONDARY} w-full",
            ),
            on_submit=RegisterState.verify,
            class_name="space-y-4",
        ),
    )


def _done() -> rx.Component:
    return rx.el.div(
        card_header("Email verified"),
        banner("Your email has been verified successfully. Redirecting to sign in...", kind="success"),
    )


@rx.page(
    route=routes.REGISTER,
    title="Create Account",
    description="Create a client account to follow your projects, invoices and meetings with us.",
    on_load=RegisterState.load,
)
def register_page() -> rx.Component:
    return auth_layout(
        rx.match(
            RegisterState.step,
            ("verify", _code_step()),
            ("done", _done()),
            rx.el.div(
                card_header("Create your account", "Register to follow your projects with us."),
                _form(),
                rx.el.p(
                    "Already have an account? ",
                    rx.el.a("Sign in", href=routes.CLIENT_PORTAL, class_name=LINK),
                    class_name="mt-6 text-center text-sm text-slate-600",
                ),
            ),
        ),
        width="max-w-lg",
    )
