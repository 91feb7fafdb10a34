"""/client-portal: the one place that decides what a visitor sees.

Signed-out visitors get the sign-in form, clients the dashboard, staff are
redirected to the admin dashboard by `PortalState.on_load`, and any other role sees Access Denied. The prerendered HTML
carries no private data: until the session has been checked it shows the sign-in form, or skeletons to a browser
whose `signed_in` hint says it signed in (app/ui/components/signed_in_hint.py).
"""

from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.auth.login import LoginState, portal_sign_in
from app.ui.components.session_watch import session_watch
from app.ui.components.signed_in_hint import WHEN_SIGNED_IN, WHEN_SIGNED_OUT, forget_hint
from app.ui.components.toast_bridge import toast_bridge
from app.ui.portal import components as ui
from app.ui.portal.dashboard import portal_dashboard
from app.ui.portal.state import PortalState


def signed_out_view() -> rx.Component:
    """The portal's sign-in form (app/ui/auth/login.py)."""
    return portal_sign_in()


def _other_role_view() -> rx.Component:
    return rx.el.main(
        ui.card(
            rx.cond(
                PortalState.is_staff,
                rx.el.p("Redirecting to the admin dashboard...", class_name="text-slate-700"),
                rx.fragment(
                    rx.el.h1("Access Denied", class_name="text-2xl font-bold text-slate-900"),
                    rx.el.p("Unrecognized user role. Please contact support.", class_name="text-slate-600"),
                ),
            ),
            class_name="flex w-full max-w-sm flex-col items-center gap-3 text-center",
        ),
        class_name="flex min-h-screen items-center justify-center bg-slate-50 px-4",
    )


def _checking_view() -> rx.Component:
    """Placeholders while the session is checked, for a browser that signed in (the others see the form at once)."""
    return rx.el.main(
        rx.el.div(ui.skeleton_cards(), class_name="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6"),
        class_name=f"min-h-screen bg-slate-50 {WHEN_SIGNED_IN}",
    )


def client_portal() -> rx.Component:
    checked = PortalState.session_checked
    signed_in = checked & PortalState.is_authenticated
    return rx.fragment(
        rx.cond(~checked, _checking_view()),
        rx.cond(signed_in & ~PortalState.is_client, _other_role_view()),
        # The sign-in layout shows its notices; the dashboard shows the sign-in greeting here. The staff panel's
        # inactivity watch: a warning before the client limit, sign-out when the server ends it.
        rx.cond(checked & PortalState.is_client, rx.fragment(toast_bridge(), session_watch(), portal_dashboard())),
        # Prerendered for every visitor and kept in place (not remounted, so nothing typed is lost) when the check
        # finds no session; hidden meanwhile from a browser that says it signed in.
        rx.cond(
            ~signed_in,
            rx.el.div(signed_out_view(), class_name=rx.cond(checked, "contents", f"contents {WHEN_SIGNED_OUT}")),
        ),
        forget_hint(checked & ~PortalState.is_authenticated),
    )


# Both states load: the portal decides what shows; the sign-in side turns `?error=...` into the spec's notices.
client_portal_page = rx.page(
    route=routes.CLIENT_PORTAL,
    title="Client Portal",
    # Not indexed (robots.txt), but a description still names the page in links and previews.
    description="Sign in to follow your projects, invoices, files and meetings with us.",
    on_load=[PortalState.on_load, LoginState.load_portal],
)(client_portal)
