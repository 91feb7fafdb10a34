"""The inactivity watcher's hooks: limits for assets/session-watch.js, and the 'Session Expiring Soon' banner."""

import reflex as rx

from app.ui.state.session import SessionState


def session_script() -> rx.Component:
    """assets/session-watch.js: the inactivity rules' browser side, and the token drop on a sign-in or sign-out post.

    Rendered by the pages that need it (signed-in layouts, and every sign-in or sign-out form), not by every public
    page (2 KB less there). React 19 hoists an async script into <head>, the prerendered page's included, and loads it
    once however often it is rendered, client-side navigation included.
    """
    return rx.el.script(src="/session-watch.js", async_=True)


def session_watch() -> rx.Component:
    """Render inside signed-in layouts (the staff shell and the client portal); the script reads the limit from here,
    shows the banner when it is near, and leaves the page when the server has ended the session."""
    return rx.fragment(
        session_script(),
        rx.el.div(
            id="session-watch",
            custom_attrs={
                "data-idle-minutes": SessionState.idle_minutes,
                "data-expired-url": SessionState.expired_url,
                "data-ended-url": SessionState.ended_url,
            },
            hidden=True,
        ),
        rx.el.div(
            rx.el.p("Warning: Session Expiring Soon", class_name="font-semibold"),
            rx.el.p(
                "Your session will expire in 5 minutes due to inactivity. Move your mouse to stay logged in.",
                class_name="text-sm",
            ),
            id="session-warning",
            role="alert",
            hidden=True,
            # Bottom left (top on phones): Reflex's own "Cannot connect to server" toast takes the bottom right, and
            # after a long idle both can show at once.
            class_name="fixed inset-x-4 top-4 z-50 max-w-sm rounded-lg border border-amber-300 bg-amber-50 p-4 "
            "text-amber-900 shadow-lg sm:inset-x-auto sm:top-auto sm:bottom-4 sm:left-4",
        ),
    )
