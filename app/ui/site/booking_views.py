"""The built-in booking flow's parts: time picker (visitor's time zone), details form, confirmation (or, signed out,
"confirm from the e-mail"), the mailed confirmation link's view, manage view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.ui import routes
from app.ui.components.behaviour import Behaviour
from app.ui.site.booking_state import WEEKDAYS, BookingFlowState
from app.ui.state.company import CompanyState
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
    return rx.el.span(hidden=True, on_mount=S.detect_zone(zone))


def _zone_option(option: Any, index: Any) -> rx.Component:
    chosen = option.name == S.zone_name
    group = rx.cond(
        S.zone_first > 0,
        rx.cond(
            index == 0,
            _group_title("Suggested"),
            rx.cond(index == S.zone_first, _group_title("All time zones"), rx.fragment()),
        ),
        rx.fragment(),
    )
    return rx.el.li(
        group,
        rx.el.button(
            rx.el.span(option.label, class_name="font-medium"),
            rx.el.span(option.country, class_name="text-xs text-slate-600"),
            rx.cond(
                chosen, rx.icon("check", size=16, class_name="absolute top-3 right-3 text-blue-800"), rx.fragment()
            ),
            type="button",
            on_click=S.set_zone(option.name),
            aria_pressed=rx.cond(chosen, "true", "false"),
            data_zone=option.name,
            class_name="relative flex w-full flex-col items-start rounded-md px-3 py-2 pr-9 text-left text-sm "
            f"text-slate-900 hover:bg-blue-50 aria-pressed:bg-blue-50 {FOCUS_RING}",
        ),
    )


def _group_title(text: str) -> rx.Component:
    return rx.el.p(text, class_name="px-3 pt-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase")


class ZonePickerBehaviour(Behaviour):
    """Renders nothing; wires the picker's arrow keys, Escape and outside press (`zone_picker.js`)."""

    script = (Path(__file__).with_name("zone_picker.js")).read_text(encoding="utf-8")

    def add_hooks(self) -> list[str | rx.Var]:
        return ["useEffect(() => setupZonePicker(), []);"]


def zone_picker() -> rx.Component:
    """The time zone, named by city and offset; opened, a search (city, country, abbreviation or offset) over the
    suggested zones and then every zone. A button and a list of buttons: labelled, and used with Tab and Enter (Enter
    in the search picks the first match, Escape closes), the arrow keys (from the search down the zones and back) and
    a press outside, which closes it."""
    return rx.el.div(
        ZonePickerBehaviour.create(),
        rx.el.span("Time zone", id="booking-zone-label", class_name="text-sm font-medium text-slate-800"),
        rx.el.button(
            rx.icon("globe", size=16, class_name="shrink-0 text-slate-600", aria_hidden="true"),
            rx.el.span(S.zone_label, class_name="min-w-0 flex-1 truncate text-left"),
            rx.icon(
                "chevron-down",
                size=16,
                aria_hidden="true",
                class_name=rx.cond(S.zone_open, "rotate-180 transition-transform", "transition-transform"),
            ),
            id="booking-zone",
            type="button",
            on_click=S.toggle_zones,
            aria_expanded=rx.cond(S.zone_open, "true", "false"),
            aria_controls="booking-zone-panel",
            aria_labelledby="booking-zone-label booking-zone",
            class_name=f"{_INPUT} flex h-11 items-center gap-2 text-left",
        ),
        rx.cond(
            S.zone_open,
            rx.el.div(
                rx.el.label("Search time zones", html_for="booking-zone-search", class_name="text-sm text-slate-700"),
                rx.el.input(
                    id="booking-zone-search",
                    type="search",
                    auto_focus=True,
                    auto_complete="off",
                    placeholder="City, country or +5:30",
                    default_value=S.zone_query,
                    on_change=S.search_zones.debounce(200),
                    on_key_down=S.zone_keys,
                    class_name=f"{_INPUT} h-11",
                ),
                rx.el.p(
                    rx.cond(
                        S.zone_options.length() > 0,
                        rx.el.span(S.zone_options.length(), " time zones"),
                        "No time zone matches. Try a city, a country or an offset such as +5:30.",
                    ),
                    role="status",
                    class_name=rx.cond(S.zone_options.length() > 0, "sr-only", "px-1 text-sm text-slate-600"),
                ),
                rx.el.ul(
                    rx.foreach(S.zone_options, _zone_option),
                    aria_label="Time zones",
                    class_name="max-h-72 overflow-y-auto overscroll-contain",
                ),
                id="booking-zone-panel",
                # Over the calendar beside it on a wide screen (the column is narrow), in the flow on a phone.
                class_name="mt-1 flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-2 shadow-lg "
                "lg:absolute lg:top-full lg:left-0 lg:z-20 lg:w-80",
            ),
            rx.fragment(),
        ),
        id="booking-zone-picker",
        class_name="relative flex flex-col gap-1.5",
    )


def _info() -> rx.Component:
    """Cal.com's left column: who hosts, what and how long; in the manage flow, the booking's current time."""
    return rx.el.div(
        rx.cond(S.mode == "manage", _back("Back", S.back_to_view), _back("Change meeting type", S.back_to_types)),
        rx.el.p(
            rx.icon("circle-user-round", size=18, class_name="text-blue-800", aria_hidden="true"),
            rx.el.span("Host: ", class_name="sr-only"),
            rx.cond(S.host != "", S.host, CompanyState.name),
            class_name="flex items-center gap-2 text-sm font-medium text-slate-700",
            data_testid="booking-host",
        ),
        rx.el.h2(S.type_name, class_name="text-xl font-bold text-slate-900 sm:text-2xl"),
        rx.el.p(
            rx.icon("clock", size=16, class_name="text-blue-800", aria_hidden="true"),
            S.duration,
            " minutes",
            class_name="flex items-center gap-2 text-sm text-slate-700",
        ),
        rx.cond(
            S.mode == "manage",
            rx.el.p(
                rx.el.span("Now booked for", class_name="block text-xs font-semibold text-slate-600 uppercase"),
                S.chosen_label,
                class_name="rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-950",
            ),
            rx.cond(
                S.description != "",
                rx.el.p(S.description, class_name="text-sm leading-relaxed text-slate-600"),
                rx.fragment(),
            ),
        ),
        zone_picker(),
        class_name="flex flex-col gap-4",
        data_testid="booking-info",
    )


def _cell(cell: Any) -> rx.Component:
    chosen = cell.key == S.day
    today_mark = rx.cond(
        cell.today,
        rx.el.span(class_name="absolute bottom-1.5 left-1/2 size-1 -translate-x-1/2 rounded-full bg-current"),
        rx.fragment(),
    )
    free = rx.el.button(
        cell.day,
        today_mark,
        type="button",
        on_click=S.choose_day(cell.key),
        aria_label=cell.label,
        aria_pressed=rx.cond(chosen, "true", "false"),
        data_day=cell.key,
        class_name=rx.cond(
            chosen,
            f"relative h-11 w-full rounded-lg bg-blue-800 text-sm font-bold text-white sm:h-12 {FOCUS_RING}",
            "relative h-11 w-full rounded-lg bg-blue-100 text-sm font-bold text-blue-900 hover:bg-blue-200 "
            f"sm:h-12 {FOCUS_RING}",
        ),
    )
    # A day without times is only drawn: a screen reader walks the free days, each named with its date.
    busy = rx.el.span(
        cell.day,
        today_mark,
        aria_hidden="true",
        class_name="relative flex h-11 w-full items-center justify-center text-sm text-slate-500 sm:h-12",
    )
    return rx.el.div(rx.cond(cell.key == "", rx.fragment(), rx.cond(cell.free, free, busy)))


def _month_button(icon: str, label: str, month: Any) -> rx.Component:
    return rx.el.button(
        rx.icon(icon, size=18, aria_hidden="true"),
        type="button",
        on_click=S.change_month(month),
        disabled=(month == "") | S.loading,
        aria_label=label,
        class_name=f"{BUTTON_OUTLINE} size-10 p-0 disabled:opacity-40",
    )


def _calendar() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h3(S.month_label, id="booking-month", class_name="text-lg font-bold text-slate-900"),
            rx.el.div(
                _month_button("chevron-left", "Previous month", S.prev_month),
                _month_button("chevron-right", "Next month", S.next_month),
                class_name="flex gap-2",
            ),
            class_name="flex items-center justify-between gap-3",
        ),
        rx.el.div(
            rx.el.div(
                *[rx.el.div(d, class_name="py-1 text-center") for d in WEEKDAYS],
                aria_hidden="true",
                class_name="grid grid-cols-7 text-xs font-semibold text-slate-600 uppercase",
            ),
            rx.el.div(rx.foreach(S.cells, _cell), class_name="grid grid-cols-7 gap-1"),
            role="group",
            aria_labelledby="booking-month",
            aria_busy=rx.cond(S.loading, "true", "false"),
            class_name=rx.cond(S.loading, "opacity-60 transition-opacity", "transition-opacity"),
        ),
        rx.el.p(
            rx.el.span(class_name="inline-block size-3 rounded bg-blue-100", aria_hidden="true"),
            "Days with free times",
            class_name="flex items-center gap-2 text-xs text-slate-600",
            aria_hidden="true",
        ),
        class_name="flex flex-col gap-3",
        aria_label="Choose a day",
        data_testid="booking-calendar",
    )


def _slot(slot: Any) -> rx.Component:
    return rx.el.button(
        slot.label,
        type="button",
        on_click=S.choose_slot(slot.start),
        disabled=S.busy,
        data_slot=slot.start,
        class_name="h-11 w-full whitespace-nowrap rounded-lg border border-blue-200 bg-white px-2 text-sm "
        f"font-semibold text-blue-900 hover:border-blue-700 hover:bg-blue-50 {FOCUS_RING}",
    )


def _times() -> rx.Component:
    no_days = rx.el.p(
        "No free times this month. Try the next month, or ",
        ReactRouterLink.create("contact us", to=routes.CONTACT, class_name=TEXT_LINK),
        ".",
        class_name="text-sm text-slate-600",
    )
    return rx.el.section(
        rx.cond(
            S.day != "",
            rx.el.div(
                rx.el.h3(S.day_label, id="booking-day", class_name="font-bold text-slate-900"),
                rx.el.p(
                    rx.cond(S.mode == "manage", "Pick the new time.", "Pick a time."),
                    class_name="text-sm text-slate-600",
                ),
                rx.el.div(
                    rx.foreach(S.day_slots, _slot),
                    role="group",
                    aria_labelledby="booking-day",
                    class_name="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-1",
                ),
                class_name="flex flex-col gap-2",
            ),
            rx.cond(
                S.loading,
                rx.el.p("Loading times...", class_name="text-sm text-slate-600"),
                rx.cond(
                    S.cells.length() > 0,
                    rx.cond(
                        S.has_free,
                        rx.el.p(
                            rx.icon("mouse-pointer-click", size=16, aria_hidden="true", class_name="shrink-0"),
                            "Choose a day to see its times.",
                            class_name="flex items-center gap-2 text-sm text-slate-600",
                        ),
                        no_days,
                    ),
                    rx.fragment(),
                ),
            ),
        ),
        aria_label="Times",
        class_name="flex flex-col gap-2 lg:max-h-[26rem] lg:overflow-y-auto lg:pr-1",
        data_testid="booking-times",
    )


def time_picker() -> rx.Component:
    """The day-and-time step, as Cal.com lays it out: the meeting beside a month calendar and the chosen day's times
    (stacked on a phone: the meeting, the calendar, then the times)."""
    return rx.el.div(
        _info(),
        rx.el.div(_message(), _calendar(), class_name="flex flex-col gap-3 lg:border-x lg:border-slate-200 lg:px-6"),
        _times(),
        _move_dialog(),
        class_name=f"{_PANEL} grid gap-8 lg:grid-cols-[16rem_minmax(0,1fr)_12rem] lg:gap-6",
        data_testid="time-picker",
    )


def _ask(
    title: str, *, description: Any, keep: str, confirm: str, working: str, on_confirm: Any, style: str, **root: Any
) -> rx.Component:
    """The booking pages' "are you sure": `keep` closes it, `confirm` runs `on_confirm` and says `working` meanwhile
    (`root`: the dialog's `open` and `on_open_change`)."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(title),
            rx.alert_dialog.description(description),
            rx.el.div(
                rx.alert_dialog.cancel(
                    rx.el.button(keep, type="button", class_name=f"{BUTTON_OUTLINE} h-10 px-4 text-sm")
                ),
                rx.el.button(
                    rx.cond(S.busy, working, confirm),
                    type="button",
                    disabled=S.busy,
                    on_click=on_confirm,
                    class_name=f"{style} h-10 px-4 text-sm",
                ),
                class_name="mt-4 flex flex-wrap justify-end gap-3",
            ),
        ),
        **root,
    )


def _move_dialog() -> rx.Component:
    """Rescheduling asks first: the move mails both sides and replaces the manage link."""
    return _ask(
        "Move your meeting?",
        description=rx.fragment(
            "Move your meeting from ",
            rx.el.strong(S.chosen_label),
            " to ",
            rx.el.strong(S.move_label),
            "? We'll e-mail you and your host the updated invitation.",
        ),
        keep="Keep current time",
        confirm="Confirm",
        working="Moving...",
        on_confirm=S.reschedule,
        style=BUTTON_PRIMARY,
        open=S.move_start != "",
        on_open_change=S.move_dialog,
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
    return _ask(
        "Cancel booking",
        description="Are you sure you want to cancel this meeting? Your host will be told.",
        keep="No, keep it",
        confirm="Yes, cancel",
        working="Cancelling...",
        on_confirm=S.cancel,
        style=_DANGER,
        open=S.confirm_cancel,
        on_open_change=S.ask_cancel,
    )
