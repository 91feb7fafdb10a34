"""/book-meeting/confirm?token=...: the page the link mailed to a signed-out booker opens, to confirm the booking."""

from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.blocks import page_hero
from app.ui.layouts.site import site_layout
from app.ui.seo import public_page
from app.ui.site.booking_state import BookingFlowState
from app.ui.site.booking_views import confirm_view, zone_detector
from app.ui.state.company import AT_BUILD
from app.ui.styles import CONTAINER


@public_page(
    routes.BOOK_MEETING_CONFIRM,
    f"Confirm your booking | {AT_BUILD.name}",
    "Confirm the meeting you booked.",
    on_load=BookingFlowState.load_confirm,
)
def booking_confirm_page() -> rx.Component:
    return site_layout(
        page_hero("Your Meeting", "Confirm your booking", "One click, and your host gets the invitation."),
        rx.el.section(
            rx.el.div(
                zone_detector(),
                rx.cond(
                    BookingFlowState.mode == "confirm",
                    confirm_view(),
                    rx.el.p("Loading your booking...", role="status", class_name="text-slate-600"),
                ),
                class_name=f"{CONTAINER} max-w-4xl",
            ),
            class_name="bg-slate-50 py-12 sm:py-16",
        ),
    )
