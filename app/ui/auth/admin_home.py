"""/admin/dashboard, minimal until the admin panel lands: who is signed in, their role and permissions, Logout."""

from __future__ import annotations

import reflex as rx

from app.core.permissions import STAFF_ROLES, Role
from app.ui.auth.components import loading, logout_form
from app.ui.auth.guard import AUTH_REQUIRED, STAFF_REQUIRED, refresh_user, turn_away
from app.ui.auth.layout import auth_layout
from app.ui.auth.notice import notify
from app.ui.state.session import SessionState


class AdminHomeState(SessionState):
    allowed: bool = False

    @rx.event
    async def load(self):
        """Staff only: the signed-out and clients go to the portal's sign-in with the reason."""
        self.allowed = False
        user = await refresh_user(self)
        if user is None:
            return await turn_away(self, AUTH_REQUIRED)
        if user.role not in STAFF_ROLES:
            return await turn_away(self, STAFF_REQUIRED)
        self.allowed = True
        if self.router.url.query_parameters.get("login") == "1":
            where = "Admin" if user.role == Role.admin else "Employee"
            return [
                await notify(self, "success", "Login Successful", f"Redirecting to {where} Dashboard..."),
                rx.redirect("/admin/dashboard", replace=True),  # a reload must not greet again
            ]
        return None


def _fact(label: str, value: rx.Component | rx.Var | str) -> rx.Component:
    return rx.el.div(
        rx.el.dt(label, class_name="text-xs font-medium uppercase tracking-wide text-slate-500"),
        rx.el.dd(value, class_name="mt-1 text-lg font-semibold text-slate-900"),
        class_name="rounded-xl border border-slate-200 bg-slate-50 p-4",
    )


def _dashboard() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.div(
                rx.el.p("Staff Dashboard", class_name="text-sm font-medium text-blue-700"),
                rx.el.h1("Welcome, ", SessionState.full_name, class_name="mt-1 text-2xl font-bold text-slate-900"),
                class_name="min-w-0",
            ),
            logout_form(),
            class_name="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between",
        ),
        rx.el.dl(
            _fact("Your role", SessionState.role_title),
            _fact("Active permissions", SessionState.permissions.length().to_string()),
            _fact("System status", "Healthy"),
            class_name="mt-6 grid gap-3 sm:grid-cols-3",
        ),
        rx.el.p(
            "The panel's sections (users, clients, inquiries, content) open here as they are released.",
            class_name="mt-6 text-sm text-slate-600",
        ),
    )


@rx.page(route="/admin/dashboard", title="Staff Dashboard", on_load=AdminHomeState.load)
def admin_dashboard_page() -> rx.Component:
    return auth_layout(
        rx.cond(rx.State.is_hydrated & AdminHomeState.allowed, _dashboard(), loading()),
        width="max-w-3xl",
    )
