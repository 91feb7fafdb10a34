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
    SECONDARY,
    banner,
    divider,
    google_link,
    loading,
    logout_form,
    password_field,
    submit_button,
    text_field,
)
from app.ui.auth.guard import refresh_user
from app.ui.auth.layout import auth_layout, card_header
from app.ui.auth.messages import LOGIN_FAILED, login_error, long_date, valid_user_id
from app.ui.auth.notice import notify
from app.ui.components.native_form import native_form
from app.ui.state.session import SessionState

VERIFY_REDIRECT_SECONDS = 1.5


class LoginState(SessionState):
    identifier: str = ""  # prefilled after a failed attempt
    error: str = ""  # the failed attempt's message, also shown in the form once its notice is gone
    view: str = "loading"  # portal: "form" | "panel" | "denied"
    company: str = ""
    member_since: str = ""
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
        """Signed out: the form. Staff: the admin panel. Clients: their panel."""
        user = await refresh_user(self)
        if user is None:
            self.view = "form"
            return await self._feedback("/client-portal")
        if user.role in STAFF_ROLES:
            return rx.redirect("/admin/dashboard")
        if user.role != Role.client:
            self.view = "denied"
            return await notify(self, "error", "Access Denied", "Unrecognized user role. Please contact support.")
        self.view = "panel"
        self.company = user.company or "Individual"
        self.member_since = long_date(user.created_at.isoformat())
        if self.router.url.query_parameters.get("login") == "1":
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

    @rx.event
    async def forgot_password(self):
        return await notify(self, "info", "Password Reset", "Please contact support for password reset assistance.")


def login_form(page: str) -> rx.Component:
    """The sign-in form; `page` ("portal" or "admin") tells the server where to send failures back to."""
    form_id = f"{page}-login"
    forgot = rx.el.button(
        "Forgot password?",
        type="button",
        on_click=LoginState.forgot_password,
        class_name=f"text-sm {LINK}",
    )
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
        divider("or"),
        google_link("Sign in with Google"),
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


def _portal_panel() -> rx.Component:
    meta = "flex items-center gap-1.5"
    return rx.el.div(
        rx.el.div(
            rx.el.div(
                rx.el.p("Client Portal", class_name="text-sm font-medium text-blue-700"),
                rx.el.h1("Welcome, ", SessionState.display_name, class_name="mt-1 text-2xl font-bold text-slate-900"),
                rx.el.div(
                    rx.el.span(rx.icon("building_2", size=16), LoginState.company, class_name=meta),
                    rx.el.span(rx.icon("calendar", size=16), "Member since ", LoginState.member_since, class_name=meta),
                    class_name="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-600",
                ),
                class_name="min-w-0",
            ),
            rx.el.div(
                rx.el.a(
                    rx.icon("house", size=16),
                    "Home",
                    rx.el.span(" (opens in a new tab)", class_name="sr-only"),
                    href="/",
                    target="_blank",
                    rel="noopener noreferrer",
                    class_name=SECONDARY,
                ),
                logout_form(),
                class_name="flex shrink-0 gap-2",
            ),
            class_name="flex flex-col gap-4 border-b border-slate-200 pb-6 sm:flex-row sm:items-start "
            "sm:justify-between",
        ),
        rx.el.div(
            rx.icon("layout_dashboard", size=20, class_name="mt-0.5 shrink-0 text-blue-600"),
            rx.el.div(
                rx.el.p("Your dashboard is on its way", class_name="font-semibold text-slate-900"),
                rx.el.p(
                    "Projects, invoices and meetings will appear here in tabs as the portal rolls out. "
                    "Until then, your account details are yours to keep up to date.",
                    class_name="mt-1 text-sm text-slate-600",
                ),
                class_name="min-w-0",
            ),
            class_name="mt-6 flex items-start gap-3 rounded-xl border border-blue-100 bg-blue-50/60 p-4",
        ),
        rx.el.div(
            rx.el.a(rx.icon("user_round", size=16), "My Profile", href="/profile", class_name=SECONDARY),
            rx.el.a(rx.icon("settings", size=16), "Settings", href="/settings", class_name=SECONDARY),
            class_name="mt-6 flex flex-wrap gap-3",
        ),
    )


def _access_denied() -> rx.Component:
    return rx.el.div(
        card_header("Access Denied", "Unrecognized user role. Please contact support."),
        logout_form(),
    )


@rx.page(route="/client-portal", title="Client Portal", on_load=LoginState.load_portal)
def client_portal_page() -> rx.Component:
    content = rx.match(
        LoginState.view,
        ("panel", _portal_panel()),
        ("denied", _access_denied()),
        ("form", _portal_sign_in()),
        loading(),
    )
    return auth_layout(
        rx.cond(rx.State.is_hydrated, content, loading()),
        width=rx.cond(LoginState.view == "panel", "max-w-3xl", "max-w-md"),
    )


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
