"""/sign-in/second-step: the code from an authenticator app (or a recovery code) after the password or Google, or,
for someone whose role requires a second factor and who has none, setting one up first (issue 28, ADR 0103).

The waiting sign-in is named by an HttpOnly cookie that the page's websocket handshake carries; the code is posted
natively to /api/auth/form/second-step, so the session's cookies arrive with a full page load (as at sign-in). Setting
up happens over the websocket (the QR code, the first code, the recovery codes) and then continues with that post.
"""

from __future__ import annotations

import reflex as rx

from app.core.errors import DomainError, Unauthorized
from app.services.accounts import sign_in
from app.ui import routes
from app.ui.auth.components import LABEL, LINK, SECONDARY, banner, divider, loading, submit_button
from app.ui.auth.layout import auth_layout, card_header
from app.ui.auth.messages import SECOND_STEP_ERRORS
from app.ui.components.native_form import native_form
from app.ui.components.passkeys import passkey_button
from app.ui.components.second_factor import enrol_panel, recovery_list
from app.ui.state.calls import call
from app.ui.state.session import SessionState, _cookie

ACTION = "/api/auth/form/second-step"
CODE_INPUT = (
    "block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-center font-mono text-lg tracking-[0.3em] "
    "text-slate-900 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/30"
)


class SecondStepState(SessionState):
    view: str = "loading"  # "code", "enrol", "codes" (the recovery codes after setting up) or "expired"
    error: str = ""
    qr: str = ""  # the new authenticator's QR code (a data: URI)
    secret: str = ""  # the same secret, for typing into an app by hand
    recovery_codes: list[str] = []
    confirming: bool = False
    passkey_ok: bool = False  # the account has a passkey: offer it in place of a code

    def _challenge(self) -> str | None:
        return _cookie(self.router.headers.cookie, sign_in.CHALLENGE_COOKIE)

    @rx.event
    async def load(self) -> None:
        self.error = SECOND_STEP_ERRORS.get(self.router.url.query_parameters.get("error", ""), "")
        self.qr, self.secret, self.recovery_codes, self.confirming = "", "", [], False
        token = self._challenge()
        try:
            if not await call(sign_in.needs_enrolment, token):
                self.passkey_ok = await call(sign_in.has_passkeys, token)
                self.view = "code"
                return
            enrolment = await call(sign_in.enrolment, token)
        except DomainError as exc:
            self.view, self.error = "expired", exc.message
            return
        self.qr, self.secret, self.view = enrolment.qr_svg, enrolment.secret, "enrol"

    @rx.event
    async def confirm(self, form: dict):
        code = form.get("code") if isinstance(form, dict) else ""
        self.confirming, self.error = True, ""
        yield
        try:
            codes = await call(sign_in.confirm, self._challenge(), code, ip=self.router.session.client_ip or None)
        except Unauthorized as exc:
            self.view, self.error = "expired", exc.message
            return
        except DomainError as exc:
            self.error = next(iter(exc.errors.values()), "") or exc.message
            return
        finally:
            self.confirming = False
        self.recovery_codes, self.qr, self.secret, self.view = codes, "", "", "codes"


def _code_input(label: str, hint: str) -> rx.Component:
    return rx.el.div(
        rx.el.label(label, html_for="second-step-code", class_name=LABEL),
        rx.el.input(
            id="second-step-code",
            name="code",
            type="text",
            input_mode="text",
            auto_complete="one-time-code",
            auto_focus=True,
            required=True,
            max_length=20,
            spell_check=False,
            aria_describedby="second-step-hint",
            class_name=CODE_INPUT,
        ),
        rx.el.p(hint, id="second-step-hint", class_name="mt-1.5 text-xs text-slate-600"),
    )


def _trust_box() -> rx.Component:
    return rx.el.label(
        rx.el.input(type="checkbox", name="trust", value="1", class_name="size-4 rounded border-slate-300"),
        "Trust this browser for 30 days",
        class_name="flex items-center gap-2 text-sm text-slate-700",
    )


def _start_again() -> rx.Component:
    return rx.el.p(
        rx.el.a("Sign in as someone else", href=routes.CLIENT_PORTAL, class_name=LINK),
        class_name="mt-6 text-center text-sm",
    )


def _code_form() -> rx.Component:
    return rx.el.div(
        card_header("Enter your code", "Open your authenticator app and type the 6-digit code it shows for us."),
        native_form(
            banner(SecondStepState.error),
            _code_input("Code", "Lost your phone? Type one of your recovery codes instead."),
            _trust_box(),
            submit_button("Verify"),
            method="post",
            action=ACTION,
            class_name="space-y-5",
            data_testid="second-step-form",
        ),
        rx.cond(
            SecondStepState.passkey_ok,
            rx.el.div(
                divider("or"),
                passkey_button(
                    "second-step", "Use a passkey instead", "second-step-passkey-status", f"{SECONDARY} w-full"
                ),
                class_name="mt-5",
            ),
        ),
        _start_again(),
    )


def _enrol_form() -> rx.Component:
    return rx.el.div(
        card_header("Set up two-step sign-in", "Your role requires a code from your phone at each sign-in."),
        enrol_panel(SecondStepState.qr, SecondStepState.secret),
        rx.form(
            banner(SecondStepState.error),
            _code_input("Code from the app", "The code changes every 30 seconds."),
            submit_button("Turn on", busy=SecondStepState.confirming, busy_label="Checking..."),
            on_submit=SecondStepState.confirm,
            no_validate=True,
            class_name="mt-5 space-y-5",
        ),
        _start_again(),
    )


def _codes_view() -> rx.Component:
    return rx.el.div(
        card_header("Two-step sign-in is on", "One more thing before you continue."),
        recovery_list(SecondStepState.recovery_codes),
        native_form(
            _trust_box(),
            submit_button("I have saved them: continue"),
            method="post",
            action=ACTION,
            class_name="mt-5 space-y-5",
        ),
    )


def _expired() -> rx.Component:
    return rx.el.div(
        card_header("Sign in again", None),
        banner(SecondStepState.error),
        rx.el.p(
            rx.el.a("Go to the sign-in", href=routes.CLIENT_PORTAL, class_name=LINK),
            class_name="mt-5 text-sm",
        ),
    )


@rx.page(route=routes.SECOND_STEP, title="Two-step sign-in", on_load=SecondStepState.load)
def second_step_page() -> rx.Component:
    return auth_layout(
        rx.match(
            SecondStepState.view,
            ("code", _code_form()),
            ("enrol", _enrol_form()),
            ("codes", _codes_view()),
            ("expired", _expired()),
            loading(),
        )
    )
