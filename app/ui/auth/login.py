"""/client-portal (sign-in, or the signed-in client's panel) and /admin/login.

Both forms post natively to /api/auth/form/login: signing in must be a full page load so the websocket's next
handshake carries the new cookie. The server answers with a 303 back here carrying an error *code*, turned into the
spec's text below (free text from the URL is never shown).
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlencode

import reflex as rx
from reflex_base.event import EventSpec

from app.core.permissions import STAFF_ROLES, Role
from app.services.accounts import google
from app.ui import routes
from app.ui.auth.components import (
    LINK,
    SECONDARY,
    banner,
    divider,
    google_link,
    password_field,
    submit_button,
    username_field,
)
from app.ui.auth.guard import refresh_user
from app.ui.auth.layout import auth_layout, card_header
from app.ui.auth.messages import LOGIN_FAILED, login_error, valid_user_id
from app.ui.components.native_form import native_form
from app.ui.components.passkeys import passkey_button
from app.ui.state.notice import notify
from app.ui.state.session import SessionState

VERIFY_REDIRECT_SECONDS = 1.5
SESSION_ENDED = "Your session has ended. Please sign in again."


class LoginState(SessionState):
    identifier: str = ""  # prefilled after a failed attempt
    error: str = ""  # the failed attempt's message, also shown in the form once its notice is gone
    view: str = "loading"  # "form" once the sign-in form should show
    just_verified: bool = False  # arrived from a successful verification: greet with the welcome dialog after sign-in
    wrong_door: bool = False  # a client's sign-in was refused by the staff form: say where clients sign in

    @rx.var
    def portal_sign_in(self) -> str:
        """The client sign-in, with the username already typed here carried over."""
        return routes.CLIENT_PORTAL + (f"?{urlencode({'identifier': self.identifier})}" if self.identifier else "")

    async def _feedback(self, path: str) -> list[EventSpec]:
        """The notice for the query a redirect left (`?error=`, `?logged_out=1`, `?expired=1`, `?ended=1`)."""
        query = self.router.url.query_parameters
        self.identifier = query.get("identifier", "")[:254]
        self.just_verified = query.get("verified") == "1"
        error = query.get("error", "")
        self.error = login_error(error) or ""
        self.wrong_door = error == "not_staff"
        if error == "unverified":
            await notify(self, "info", "Account Not Verified", "Redirecting to verification...")
            uid = valid_user_id(query.get("uid", ""))
            return [LoginState.go_verify(uid)] if uid else []
        if message := login_error(error):
            await notify(self, "error", LOGIN_FAILED, message)
            return []
        if query.get("logged_out") == "1":
            await notify(self, "success", "Logged Out", "You have been successfully logged out.")
        elif self.just_verified:
            await notify(self, "success", "Email Verified", "Sign in to open your client portal.")
            return []
        elif query.get("expired") == "1":
            await notify(self, "info", "Session Expired", "You have been automatically logged out due to inactivity.")
        elif query.get("ended") == "1":
            await notify(self, "info", "Session Ended", SESSION_ENDED)
        else:
            return []
        return [rx.redirect(path, replace=True)]  # a reload must not say it again

    @rx.event
    async def load_portal(self):
        """The sign-in side of /client-portal: notices for the signed out, the greeting after a client signs in.

        Staff redirects, the dashboard and Access Denied belong to the portal page's own state (app/ui/portal).
        """
        user = await refresh_user(self)
        if user is None:
            self.view = "form"
            return await self._feedback(routes.CLIENT_PORTAL)
        if user.role == Role.client and self.router.url.query_parameters.get("login") == "1":
            await notify(self, "success", "Login Successful", "Welcome to your portal!")
            return rx.redirect(routes.CLIENT_PORTAL, replace=True)  # a reload must not greet again
        return None

    @rx.event
    async def load_admin_login(self):
        """The staff sign-in form; staff who are already signed in go straight to the dashboard, a signed-in client is
        told that their sign-in is the client portal's."""
        user = await refresh_user(self)
        if user is not None and user.role in STAFF_ROLES:
            return rx.redirect(routes.ADMIN_DASHBOARD)
        if user is not None:
            self.view, self.wrong_door = "client", False
            return None
        self.view = "form"
        return await self._feedback(routes.ADMIN_LOGIN)

    @rx.event(background=True)
    async def go_verify(self, uid: str):
        """After the 'Account Not Verified' notice, continue to the verification step."""
        if (checked := valid_user_id(uid)) is None:
            return None
        await asyncio.sleep(VERIFY_REDIRECT_SECONDS)
        return rx.redirect(f"{routes.REGISTER}?verify={checked}")


def login_form(page: str) -> rx.Component:
    """The sign-in form; `page` ("portal" or "admin") tells the server where to send failures back to."""
    form_id = f"{page}-login"
    forgot_page = routes.ADMIN_FORGOT_PASSWORD if page == "admin" else routes.FORGOT_PASSWORD
    forgot = rx.el.a("Forgot password?", href=forgot_page, class_name=f"text-sm {LINK}")
    return native_form(
        banner(LoginState.error),
        rx.el.input(type="hidden", name="page", value=page),
        rx.cond(LoginState.just_verified, rx.el.input(type="hidden", name="welcome", value="1")),
        username_field(
            form_id,
            name="identifier",
            label="Username or Email",
            default_value=LoginState.identifier,
            key=LoginState.identifier,  # a new prefill remounts the uncontrolled input
        ),
        password_field("password", "Password", form_id=form_id, label_extra=forgot),
        submit_button("Sign In"),
        divider("or"),
        # A passkey alone signs in (ADR 0104); its script posts to the REST routes, not this form.
        passkey_button("sign-in", "Use a passkey", f"{form_id}-passkey-status", f"{SECONDARY} w-full"),
        google_link("Sign in with Google") if google.is_configured() else rx.fragment(),
        method="post",
        action="/api/auth/form/login",
        class_name="space-y-5",
    )


def _footer_link(text: str, label: str, href: str) -> rx.Component:
    return rx.el.p(
        text, " ", rx.el.a(label, href=href, class_name=LINK), class_name="text-center text-sm text-slate-600"
    )


def _portal_sign_in() -> rx.Component:
    return rx.el.div(
        card_header("Client Portal", "Sign in to follow your projects, invoices and meetings."),
        login_form("portal"),
        rx.el.div(_footer_link("Don't have an account?", "Create one", routes.REGISTER), class_name="mt-6"),
    )


def portal_sign_in() -> rx.Component:
    """What a signed-out visitor of /client-portal sees (the page itself lives in app/ui/portal/page.py)."""
    # Prerendered as it is: the form posts natively, so it works before the scripts have loaded.
    return auth_layout(_portal_sign_in())


PORTAL_BUTTON = (
    "mt-3 inline-flex items-center gap-2 rounded-lg bg-blue-800 px-4 py-2 text-sm font-semibold text-white "
    "hover:bg-blue-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2"
)


def _client_door(text: str, label: str) -> rx.Component:
    """Where clients sign in, with the way there (issue 12: never a dead end on the staff sign-in)."""
    return rx.el.div(
        rx.el.p(text, class_name="text-sm text-slate-700"),
        rx.el.a(
            rx.icon("arrow-right", size=16),
            label,
            href=LoginState.portal_sign_in,
            class_name=PORTAL_BUTTON,
        ),
        class_name="rounded-lg border border-blue-200 bg-blue-50 p-4",
        data_testid="client-door",
    )


def _signed_in_client() -> rx.Component:
    return rx.el.div(
        card_header("This sign-in is for staff", "You are signed in with a client account."),
        _client_door(
            "Your projects, invoices and meetings are in the client portal.",
            "Open the client portal",
        ),
    )


def _staff_form() -> rx.Component:
    return rx.el.div(
        card_header("Staff Sign In", "Sign in to the staff dashboard."),
        rx.cond(
            LoginState.wrong_door,
            rx.el.div(
                _client_door(
                    "This sign-in is for our team. Clients sign in at the client portal with the same username and "
                    "password.",
                    "Go to the client sign-in",
                ),
                class_name="mb-5",
            ),
        ),
        login_form("admin"),
        rx.el.div(
            _footer_link("Need an account?", "Register", routes.REGISTER),
            _footer_link("Are you a client?", "Sign in to the client portal", routes.CLIENT_PORTAL),
            class_name="mt-6 space-y-2",
        ),
    )


@rx.page(
    route=routes.ADMIN_LOGIN,
    title="Staff Sign In",
    description="Sign in to the staff panel.",
    on_load=LoginState.load_admin_login,
)
def admin_login_page() -> rx.Component:
    return auth_layout(rx.cond(LoginState.view == "client", _signed_in_client(), _staff_form()))
