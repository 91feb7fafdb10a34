"""/client-portal (sign-in, or the signed-in client's panel) and /admin/login.

Both forms post natively to /api/auth/form/login: signing in must be a full page load so the websocket's next
handshake carries the new cookie. The server answers with a 303 back here carrying an error *code*, turned into the
spec's text below (free text from the URL is never shown).
"""

from __future__ import annotations

import asyncio

import reflex as rx
from reflex_base.event import EventSpec

from app.core.permissions import STAFF_ROLES, Role
from app.ui.auth.components import (
    LINK,
    banner,
    google_option,
    loading,
    password_field,
    submit_button,
    text_field,
)
from app.ui.auth.guard import refresh_user
from app.ui.auth.layout import auth_layout, card_header
from app.ui.auth.messages import LOGIN_FAILED, login_error, valid_user_id
from app.ui.auth.notice import notify
from app.ui.components.native_form import native_form
from app.ui.state.session import SessionState

VERIFY_REDIRECT_SECONDS = 1.5


class LoginState(SessionState):
    identifier: str = ""  # prefilled after a failed attempt
    error: str = ""  # the failed attempt's message, also shown in the form once its notice is gone
    view: str = "loading"  # "form" once the sign-in form should show
    just_verified: bool = False  # arrived from a successful verification: greet with the welcome dialog after sign-in

    async def _feedback(self, path: str) -> list[EventSpec]:
        """The notice for the query a form post's redirect left (`?error=`, `?logged_out=1`, `?expired=1`)."""
        query = self.router.url.query_parameters
        self.identifier = query.get("identifier", "")[:254]
        self.just_verified = query.get("verified") == "1"
        error = query.get("error", "")
        self.error = login_error(error) or ""
        if error == "unverified":
            events = [await notify(self, "info", "Account Not Verified", "Redirecting to verification...")]
            if uid := valid_user_id(query.get("uid", "")):
                events.append(LoginState.go_verify(uid))
            return events
        if message := login_error(error):
            return [await notify(self, "error", LOGIN_FAILED, message)]
        if query.get("logged_out") == "1":
            notice = await notify(self, "success", "Logged Out", "You have been successfully logged out.")
        elif self.just_verified:
            return [await notify(self, "success", "Email Verified", "Sign in to open your client portal.")]
        elif query.get("expired") == "1":
            text = "You have been automatically logged out due to inactivity."
            notice = await notify(self, "info", "Session Expired", text)
        else:
            return []
        return [notice, rx.redirect(path, replace=True)]  # a reload must not say it again

    @rx.event
    async def load_portal(self):
        """The sign-in side of /client-portal: notices for the signed out, the greeting after a client signs in.

        Staff redirects, the dashboard and Access Denied belong to the portal page's own state (app/ui/portal).
        """
        user = await refresh_user(self)
        if user is None:
            self.view = "form"
            return await self._feedback("/client-portal")
        if user.role == Role.client and self.router.url.query_parameters.get("login") == "1":
            return [
                await notify(self, "success", "Login Successful", "Welcome to your portal!"),
                rx.redirect("/client-portal", replace=True),  # a reload must not greet again
            ]
        return None

    @rx.event
    async def load_admin_login(self):
        """The staff sign-in form; staff who are already signed in go straight to the dashboard."""
        user = await refresh_user(self)
        if user is not None and user.role in STAFF_ROLES:
            return rx.redirect("/admin/dashboard")
        self.view = "form"
        return await self._feedback("/admin/login")

    @rx.event(background=True)
    async def go_verify(self, uid: str):
        """After the 'Account Not Verified' notice, continue to the verification step."""
        if (checked := valid_user_id(uid)) is None:
            return None
        await asyncio.sleep(VERIFY_REDIRECT_SECONDS)
        return rx.redirect(f"/register?verify={checked}")


def login_form(page: str) -> rx.Component:
    """The sign-in form; `page` ("portal" or "admin") tells the server where to send failures back to."""
    form_id = f"{page}-login"
    forgot = rx.el.a("Forgot password?", href=f"/forgot-password?from={page}", class_name=f"text-sm {LINK}")
    return native_form(
        banner(LoginState.error),
        rx.el.input(type="hidden", name="page", value=page),
        rx.cond(LoginState.just_verified, rx.el.input(type="hidden", name="welcome", value="1")),
        text_field(
            "identifier",
            "Username or Email",
            form_id=form_id,
            required=True,
            auto_complete="username",
            auto_capitalize="none",
            spell_check=False,
            default_value=LoginState.identifier,
            key=LoginState.identifier,  # a new prefill remounts the uncontrolled input
        ),
        password_field("password", "Password", form_id=form_id, label_extra=forgot),
        submit_button("Sign In"),
        google_option("Sign in with Google"),
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
        rx.el.div(_footer_link("Don't have an account?", "Create one", "/register"), class_name="mt-6"),
    )


def portal_sign_in() -> rx.Component:
    """What a signed-out visitor of /client-portal sees (the page itself lives in app/ui/portal/page.py)."""
    return auth_layout(rx.cond(rx.State.is_hydrated, _portal_sign_in(), loading()))


@rx.page(route="/admin/login", title="Staff Sign In", on_load=LoginState.load_admin_login)
def admin_login_page() -> rx.Component:
    return auth_layout(
        card_header("Staff Sign In", "Sign in to the staff dashboard."),
        login_form("admin"),
        rx.el.div(
            _footer_link("Need an account?", "Register", "/register"),
            _footer_link("Are you a client?", "Sign in to the client portal", "/client-portal"),
            class_name="mt-6 space-y-2",
        ),
    )
