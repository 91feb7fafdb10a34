"""The built-in booking flow's parts: time picker (visitor's time zone), details form, confirmation (or, signed out,
"confirm from the e-mail"), the mailed confirmation link's view, manage view."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.ui import routes
from app.ui.site.booking_state import ZONES, BookingFlowState
from app.ui.styles import BUTTON_OUTLINE, BUTTON_PRIMARY, FOCUS_RING, TEXT_LINK

# Typed loosely on purpose: mypy sees the state's fields as plain Python values and its handlers as namespaces, where
# Reflex makes them Vars and event specs (see tools/dev/typecheck_ui.py).
S: Any = BookingFlowState
_INPUT = (
    "block w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-xs "
    "focus:border-blue-700 focus:outline-2 focus:outline-blue-600 sm:text-sm"
)
_PANEL = "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
_DANGER = (
    "inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 font-semibold text-white hover:bg-red-800 "
    f"disabled:opacity-60 {FOCUS_RING}"
)


def _message() -> rx.Component:
    return rx.el.div(
        rx.cond(
            S.message != "",
            rx.el.p(
                rx.icon("info", size=16, class_name="mt-0.5 shrink-0", aria_hidden="true"),
                S.message,
                class_name="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950",
            ),
        ),
        role="status",
    )


def _heading(title: rx.Var | str, back: rx.Component | None = None) -> rx.Component:
    return rx.el.div(
        rx.el.h2(title, class_name="text-xl font-bold text-slate-900 sm:text-2xl"),
        back or rx.fragment(),
        class_name="flex flex-wrap items-center justify-between gap-3",
    )


def _back(label: str, event: Any) -> rx.Component:
    return rx.el.button(
        rx.icon("arrow-left", size=16, aria_hidden="true"),
        label,
        type="button",
        on_click=event,
        class_name=f"{BUTTON_OUTLINE} h-10 px-4 text-sm",
    )


def zone_detector() -> rx.Component:
    """Sets the flow to the visitor's time zone when the page mounts: the browser reads it in compiled code and sends
    it as the event's argument (a script returned by a handler would need eval, which the CSP refuses)."""
    zone = rx.Var("Intl.DateTimeFormat().resolvedOptions().timeZone").to(str)
    return rx.el.span(hidden=True, on_mount=S.set_zone(zone))


def zone_picker() -> rx.Component:
    return rx.el.div(
        rx.el.label("Times shown in", html_for="booking-zone", class_name="text-sm font-medium text-slate-800"),
        rx.el.select(
            rx.el.option("UTC", value="UTC"),
            *[rx.el.option(z.replace("_", " "), value=z) for z in ZONES],
            id="booking-zone",
            value=S.zone_name,
            on_change=S.set_zone,
            class_name=f"{_INPUT} h-10 sm:w-72",
        ),
        class_name="flex flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-3",
    )


def _slot(slot: Any) -> rx.Component:
    return rx.el.button(
        slot.label,
        type="button",
        on_click=S.choose_slot(slot.start),
        disabled=S.busy,
        data_slot=slot.start,
        class_name="h-10 w-full whitespace-nowrap rounded-lg border border-blue-200 bg-blue-50 px-2 text-sm "
        f"font-semibold text-blue-900 hover:border-blue-700 hover:bg-blue-100 {FOCUS_RING}",
    )


def _day(day: Any) -> rx.Component:
    return rx.el.section(
        rx.el.h3(
            rx.el.span(day.weekday, class_name="font-semibold text-slate-900"),
            rx.el.span(day.label, class_name="text-slate-600"),
            class_name="flex items-baseline gap-2 text-sm",
        ),
        rx.el.div(
            rx.foreach(day.slots, _slot), class_name="mt-2 grid grid-cols-[repeat(auto-fill,minmax(5.5rem,1fr))] gap-2"
        ),
        class_name="rounded-xl border border-slate-200 p-3",
    )


def time_picker() -> rx.Component:
    week_nav = rx.el.div(
        rx.el.button(
            rx.icon("chevron-left", size=16, aria_hidden="true"),
            "Earlier",
            type="button",
            on_click=S.change_week(-1),
            disabled=S.week == 0,
            class_name=f"{BUTTON_OUTLINE} h-10 px-3 text-sm disabled:opacity-50",
        ),
        rx.el.button(
            "Later",
            rx.icon("chevron-right", size=16, aria_hidden="true"),
            type="button",
            on_click=S.change_week(1),
            disabled=S.week >= 4,
            class_name=f"{BUTTON_OUTLINE} h-10 px-3 text-sm disabled:opacity-50",
        ),
        class_name="flex gap-2",
    )
    return rx.el.div(
        _heading(
            rx.el.span(S.type_name, rx.el.span(" · ", S.duration, " min", class_name="font-normal text-slate-600")),
            rx.cond(S.mode == "manage", _back("Back", S.back_to_view), _back("Change meeting type", S.back_to_types)),
        ),
        rx.el.p(
            "Choose a time. ", rx.cond(S.mode == "manage", "Your booking moves there.", ""), class_name="text-slate-600"
        ),
        rx.el.div(
            zone_picker(), week_nav, class_name="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between"
        ),
        _message(),
        rx.cond(
            S.loading,
            rx.el.p("Loading times...", class_name="py-8 text-center text-slate-600", role="status"),
            rx.cond(
                S.days.length() > 0,
                rx.el.div(rx.foreach(S.days, _day), class_name="grid gap-3 md:grid-cols-2 lg:grid-cols-3"),
                rx.el.p(
                    "No free times in this week. Try later weeks, or ",
                    ReactRouterLink.create("contact us", to=routes.CONTACT, class_name=TEXT_LINK),
                    ".",
                    class_name="rounded-xl border-2 border-dashed border-slate-300 py-8 text-center text-slate-600",
                ),
            ),
        ),
        class_name=f"{_PANEL} flex flex-col gap-5",
        data_testid="time-picker",
    )


def _field(label: str, name: str, *, required: bool = False, **props: object) -> rx.Component:
    message = S.errors[name].to(str)
    return rx.el.div(
        rx.el.label(
            label,
            rx.el.span(" *", class_name="text-red-700", aria_hidden="true") if required else rx.fragment(),
            html_for=f"booking-{name}",
            class_name="text-sm font-medium text-slate-800",
        ),
        rx.el.input(id=f"booking-{name}", name=name, required=required, class_name=f"{_INPUT} h-11", **props),
        rx.cond(message, rx.el.p(message, class_name="mt-1 text-sm text-red-700")),
        class_name="space-y-1.5",
    )


def details_form() -> rx.Component:
    return rx.el.form(
        _heading("Your details", _back("Change time", S.back_to_times)),
        rx.el.p(
            rx.icon("calendar-clock", size=16, class_name="shrink-0", aria_hidden="true"),
            rx.el.span(rx.el.strong(S.type_name), ": ", S.chosen_label),
            class_name="flex items-center gap-2 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-900",
        ),
        rx.cond(
            S.booker != "",
            rx.el.p("Booking as ", rx.el.strong(S.booker), ".", class_name="text-slate-700"),
            rx.el.div(
                _field("Full Name", "name", required=True, auto_complete="name", max_length=100),
                _field("Email Address", "email", required=True, type="email", auto_complete="email"),
                _field("Company", "company", auto_complete="organization", max_length=200),
                class_name="grid gap-4 sm:grid-cols-2",
            ),
        ),
        rx.el.div(
            rx.el.label(
                "Anything we should know? (optional)",
                html_for="booking-notes",
                class_name="text-sm font-medium text-slate-800",
            ),
            rx.el.textarea(id="booking-notes", name="notes", rows=3, max_length=2000, class_name=f"{_INPUT} py-2"),
            class_name="space-y-1.5",
        ),
        _message(),
        rx.el.button(
            rx.cond(S.busy, "Booking...", "Confirm booking"),
            type="submit",
            disabled=S.busy | ~rx.State.is_hydrated,
            class_name=f"{BUTTON_PRIMARY} h-12 w-full px-6 text-base sm:w-auto",
        ),
        on_submit=S.submit,
        aria_label="Booking details",
        class_name=f"{_PANEL} flex flex-col gap-5",
    )


def _join() -> rx.Component:
    return rx.cond(
        S.join_url != "",
        rx.el.p(
            "Join link: ",
            rx.el.a(S.join_url, href=S.join_url, target="_blank", rel="noopener noreferrer", class_name=TEXT_LINK),
            class_name="break-all text-slate-700",
        ),
        rx.el.p("Your host will send you the link to join before the meeting.", class_name="text-slate-700"),
    )


def _add_to_calendar() -> rx.Component:
    return rx.el.button(
        rx.icon("calendar-plus", size=16, aria_hidden="true"),
        "Add to calendar",
        type="button",
        on_click=S.download_invite,
        class_name=f"{BUTTON_OUTLINE} h-11 px-5 text-sm",
    )


def _outcome(icon: str, colour: str, title: str, *children: rx.Component, test_id: str) -> rx.Component:
    """The panel after the booking step: an icon and a title, the meeting and its time, then `children`."""
    return rx.el.div(
        rx.el.div(
            rx.icon(icon, size=28, class_name=colour, aria_hidden="true"),
            rx.el.h2(title, class_name="text-2xl font-bold text-slate-900"),
            class_name="flex items-center gap-3",
        ),
        rx.el.p(rx.el.strong(S.type_name), rx.el.br(), S.chosen_label, class_name="text-lg text-slate-800"),
        *children,
        role="status",
        class_name=f"{_PANEL} flex flex-col gap-4",
        data_testid=test_id,
    )


def _held() -> rx.Component:
    """Booked signed out: the slot is held until the booker confirms from the e-mail (the service's rule)."""
    return _outcome(
        "mail-check",
        "text-blue-700",
        "Check your e-mail to confirm",
        rx.el.p(
            "We've sent a confirmation link to ",
            rx.el.strong(S.email_to),
            ". We hold this time for you until ",
            S.held_until,
            ": open the link to confirm your booking, or the time is released. Your host is told once you confirm.",
            class_name="text-slate-700",
        ),
        rx.el.p(
            "Have a client account? Sign in before you book and your booking is confirmed at once.",
            class_name="text-sm text-slate-600",
        ),
        rx.el.div(
            rx.el.a("Cancel this booking", href=S.manage_url, class_name=f"{BUTTON_OUTLINE} h-11 px-5 text-sm"),
            class_name="flex flex-wrap gap-3",
        ),
        test_id="booking-held",
    )


def confirmation() -> rx.Component:
    return rx.cond(S.status == "unconfirmed", _held(), _booked())


def _booked() -> rx.Component:
    return _outcome(
        "circle-check",
        "text-green-700",
        "You're booked!",
        _join(),
        rx.el.p("We've e-mailed you the invitation, with a link to reschedule or cancel.", class_name="text-slate-600"),
        rx.el.div(
            _add_to_calendar(),
            rx.el.a("Reschedule or cancel", href=S.manage_url, class_name=f"{BUTTON_OUTLINE} h-11 px-5 text-sm"),
            rx.cond(
                S.booker != "",
                rx.el.a(
                    "See it in your portal", href=routes.CLIENT_PORTAL, class_name=f"{BUTTON_PRIMARY} h-11 px-5 text-sm"
                ),
            ),
            class_name="flex flex-wrap gap-3",
        ),
        test_id="booking-confirmation",
    )


def manage_view() -> rx.Component:
    details = rx.el.div(
        _heading("Your booking"),
        _message(),
        rx.el.p(
            rx.el.strong(S.type_name),
            " · ",
            S.duration,
            " min",
            rx.el.br(),
            S.chosen_label,
            class_name="text-lg text-slate-800",
        ),
        rx.cond(
            S.status == "unconfirmed",
            rx.el.p(
                "This booking waits for your confirmation: open the link we e-mailed you before ",
                S.held_until,
                ", or the time is released.",
                class_name="rounded-lg bg-blue-50 px-3 py-2 text-slate-800",
            ),
            _join(),
        ),
        # Each button by its flag: the service decided what the booker may do with this booking.
        rx.el.div(
            rx.cond(S.can_add_to_calendar, _add_to_calendar(), rx.fragment()),
            rx.cond(
                S.can_reschedule,
                rx.el.button(
                    rx.icon("calendar-clock", size=16, aria_hidden="true"),
                    "Reschedule",
                    type="button",
                    on_click=S.start_reschedule,
                    class_name=f"{BUTTON_PRIMARY} h-11 px-5 text-sm",
                ),
                rx.fragment(),
            ),
            rx.cond(
                S.can_cancel,
                rx.el.button(
                    rx.icon("x", size=16, aria_hidden="true"),
                    "Cancel booking",
                    type="button",
                    on_click=S.ask_cancel(True),
                    class_name=f"{_DANGER} h-11 px-5 text-sm",
                ),
                rx.fragment(),
            ),
            class_name="flex flex-wrap gap-3",
        ),
        _cancel_dialog(),
        class_name=f"{_PANEL} flex flex-col gap-4",
        data_testid="booking-details",
    )
    gone = rx.el.div(
        _heading(rx.cond(S.step == "cancelled", "Your booking is cancelled", "This link cannot be used")),
        rx.cond(
            S.step == "cancelled",
            rx.cond(
                S.status == "unconfirmed",
                rx.el.p("The time we held for you is free again.", class_name="text-slate-700"),
                rx.el.p("We've let your host know and sent you the cancellation.", class_name="text-slate-700"),
            ),
            _message(),
        ),
        rx.el.a("Book a new meeting", href=routes.BOOK_MEETING, class_name=f"{BUTTON_PRIMARY} h-11 w-fit px-5 text-sm"),
        role="status",
        class_name=f"{_PANEL} flex flex-col gap-4",
    )
    return rx.match(
        S.step,
        ("view", details),
        ("times", time_picker()),
        ("loading", rx.el.p("Loading...", class_name="text-slate-600")),
        gone,
    )


def confirm_view() -> rx.Component:
    """The mailed confirmation link's page: the held booking and the button that confirms it."""
    ask = rx.el.div(
        _heading("Confirm your booking"),
        _message(),
        rx.el.p(rx.el.strong(S.type_name), rx.el.br(), S.chosen_label, class_name="text-lg text-slate-800"),
        rx.el.p("Booked for ", rx.el.strong(S.email_to), ".", class_name="text-slate-700"),
        rx.el.div(
            rx.el.button(
                rx.icon("circle-check", size=16, aria_hidden="true"),
                rx.cond(S.busy, "Confirming...", "Confirm booking"),
                type="button",
                disabled=S.busy,
                on_click=S.confirm_booking,
                class_name=f"{BUTTON_PRIMARY} h-11 px-5 text-sm",
            ),
            class_name="flex flex-wrap gap-3",
        ),
        class_name=f"{_PANEL} flex flex-col gap-4",
        data_testid="booking-confirm",
    )
    gone = rx.el.div(
        _heading("This link cannot be used"),
        _message(),
        rx.el.a("Book a new meeting", href=routes.BOOK_MEETING, class_name=f"{BUTTON_PRIMARY} h-11 w-fit px-5 text-sm"),
        role="status",
        class_name=f"{_PANEL} flex flex-col gap-4",
    )
    return rx.cond(S.step == "confirm", ask, gone)


def _cancel_dialog() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Cancel booking"),
            rx.alert_dialog.description("Are you sure you want to cancel this meeting? Your host will be told."),
            rx.el.div(
                rx.alert_dialog.cancel(
                    rx.el.button("No, keep it", type="button", class_name=f"{BUTTON_OUTLINE} h-10 px-4 text-sm")
                ),
                rx.el.button(
                    rx.cond(S.busy, "Cancelling...", "Yes, cancel"),
                    type="button",
                    disabled=S.busy,
                    on_click=S.cancel,
                    class_name=f"{_DANGER} h-10 px-4 text-sm",
                ),
                class_name="mt-4 flex flex-wrap justify-end gap-3",
            ),
        ),
        open=S.confirm_cancel,
        on_open_change=S.ask_cancel,
    )
