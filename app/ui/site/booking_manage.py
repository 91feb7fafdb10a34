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
from app.ui.styles import BUTTON_OUTLINE, BUTTON_PRIMARY, CONTAINER

_PANEL = "flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"


def _cancelled() -> rx.Component:
    """A cancelled booking, as any of its links shows it: what it was, when and by whom it was cancelled; only here is
    booking again offered (a link to a live booking offers its own changes instead: no duplicate)."""
    s = BookingFlowState
    return rx.el.div(
        rx.el.div(
            rx.icon("calendar-x", size=28, class_name="text-red-700", aria_hidden="true"),
            rx.el.h2("This meeting was cancelled", class_name="text-2xl font-bold text-slate-900"),
            class_name="flex items-center gap-3",
        ),
        rx.el.p(
            rx.el.strong(s.type_name),
            " · ",
            s.duration,
            " min",
            rx.el.br(),
            rx.el.span(s.chosen_label, class_name="line-through decoration-slate-400"),
            class_name="text-lg text-slate-800",
        ),
        rx.el.p(
            rx.cond(s.cancelled_on != "", "This meeting was cancelled on " + s.cancelled_on + ". ", ""),
            s.cancelled_note,
            class_name="text-slate-700",
            data_testid="cancelled-on",
        ),
        rx.el.a("Book a new meeting", href=routes.BOOK_MEETING, class_name=f"{BUTTON_PRIMARY} h-11 w-fit px-5 text-sm"),
        role="status",
        class_name=_PANEL,
        data_testid="booking-cancelled",
    )


def _unknown() -> rx.Component:
    """A token that was never a link of any booking: say so, and point to us, not to booking again (a mistyped link
    to a live booking must not invite a duplicate)."""
    return rx.el.div(
        rx.el.h2("We can't find this booking", class_name="text-2xl font-bold text-slate-900"),
        rx.el.p(BookingFlowState.message, class_name="text-slate-700"),
        rx.el.a("Contact us", href=routes.CONTACT, class_name=f"{BUTTON_OUTLINE} h-11 w-fit px-5 text-sm"),
        role="status",
        class_name=_PANEL,
        data_testid="booking-unknown",
    )


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
    view = rx.match(BookingFlowState.step, ("cancelled", _cancelled()), ("invalid", _unknown()), manage_view())
    return mailed_link_page(
        # Worded for any state the link finds the booking in: ahead, moved, cancelled or past.
        "Manage your booking",
        "Your meeting as it is now. While it is ahead, move it or cancel it here.",
        "manage",
        view,
    )
