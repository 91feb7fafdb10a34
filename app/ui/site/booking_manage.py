"""/book-meeting/manage?token=...: the e-mailed manage link's page (reschedule or cancel without signing in)."""

from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.blocks import page_hero
from app.ui.layouts.site import site_layout
from app.ui.seo import public_page
from app.ui.site.booking_state import BookingFlowState
from app.ui.site.booking_views import manage_view, zone_detector
from app.ui.state.company import AT_BUILD
from app.ui.styles import CONTAINER


def mailed_link_page(title: str, lead: str, mode: str, view: rx.Component) -> rx.Component:
    """A page that a mailed booking link opens: the hero, the visitor's zone, and `view` once the link's booking is
    loaded (the flow's `mode` says so)."""
    return site_layout(
        page_hero("Your Meeting", title, lead),
        rx.el.section(
            rx.el.div(
                zone_detector(),
                rx.cond(
                    BookingFlowState.mode == mode,
                    view,
                    rx.el.p("Loading your booking...", role="status", class_name="text-slate-600"),
                ),
                class_name=f"{CONTAINER} max-w-5xl",
            ),
            class_name="bg-slate-50 py-12 sm:py-16",
        ),
    )


@public_page(
    routes.BOOK_MEETING_MANAGE,
    f"Your booking | {AT_BUILD.name}",
    "Reschedule or cancel your meeting.",
    on_load=BookingFlowState.load_manage,
)
def booking_manage_page() -> rx.Component:
    return mailed_link_page(
        "Reschedule or cancel", "Pick another time or cancel; your host is told at once.", "manage", manage_view()
    )
