"""/book-meeting/confirm?token=...: the page the link mailed to a signed-out booker opens, to confirm the booking."""

from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.seo import public_page
from app.ui.site.booking_manage import mailed_link_page
from app.ui.site.booking_state import BookingFlowState
from app.ui.site.booking_views import confirm_view
from app.ui.state.company import AT_BUILD


@public_page(
    routes.BOOK_MEETING_CONFIRM,
    f"Confirm your booking | {AT_BUILD.name}",
    "Confirm the meeting you booked.",
    on_load=BookingFlowState.load_confirm,
)
def booking_confirm_page() -> rx.Component:
    return mailed_link_page(
        "Confirm your booking", "One click, and your host gets the invitation.", "confirm", confirm_view()
    )
