"""/book-meeting: the Book a Meeting view (loading skeletons, empty state, or the active meeting types)."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar
from reflex_components_core.react_router import ReactRouterLink

from app.core.config import settings
from app.core.errors import DomainError
from app.services.scheduling import meeting_types
from app.services.scheduling.meeting_types import EventType
from app.ui import routes
from app.ui.components.blocks import badge, band, new_tab_link, page_hero, skeleton_grid
from app.ui.layouts.site import site_layout
from app.ui.seo import public_page
from app.ui.site.booking_state import BookingFlowState
from app.ui.site.booking_views import confirmation, details_form, time_picker, zone_detector
from app.ui.state.calls import call
from app.ui.state.company import AT_BUILD, CompanyState
from app.ui.styles import BUTTON_PRIMARY, TEXT_LINK

log = logging.getLogger(__name__)

SKELETONS = 3  # spec: skeleton count 3
EMPTY_TITLE = "No meeting types available"
EMPTY_TEXT = "Please contact us directly to schedule a meeting."
FALLBACK_DESCRIPTION = "Schedule a meeting to discuss your project or ask questions"
EXPECTATIONS: list[tuple[str, str]] = [
    ("calendar-check", "You'll receive a calendar invite with all the meeting details as soon as you book."),
    (
        "video",
        "The invite carries the video link (or your host sends it before the meeting), so you can join from anywhere.",
    ),
    ("clipboard-list", "Come prepared with your goals, questions and any examples or documents that help."),
    ("message-square", "We'll discuss your requirements and agree on clear next steps together."),
]


@dataclasses.dataclass
class TypeCard:
    """What the view shows of one meeting type."""

    id: str = ""  # the booking button's id: the last path segment of the type's uri
    name: str = ""
    duration: int = 0
    host: str = ""
    description: str = ""
    url: str = ""  # its scheduling link, else its booking link, else none


def _card(t: EventType) -> TypeCard:
    """What the view shows of one meeting type; the link is scheduling_url, else booking_url, else none."""
    url = t.scheduling_url or t.booking_url or ""
    if not url:
        log.error("Meeting type %r has no scheduling or booking link; its Book Meeting button is disabled", t.name)
    return TypeCard(
        id=t.slug,
        name=t.name,
        duration=t.duration,
        host=t.profile.name or AT_BUILD.name,
        description=(t.description_plain or "").strip() or FALLBACK_DESCRIPTION,
        url=url,
    )


class BookMeetingState(rx.State):
    status: str = "loading"  # loading, ready, error
    types: rx.Field[list[TypeCard]] = rx.field(default_factory=list)
    error: str = ""

    @rx.event
    async def load(self) -> None:
        self.status, self.error = "loading", ""
        try:
            found = await call(meeting_types.list_active)
        except DomainError as exc:  # the scheduling service is down: its message says what to do instead
            self.types, self.status, self.error = [], "error", exc.message
            return
        self.types = [_card(t) for t in found]
        self.status = "ready"


def builtin() -> bool:
    """Book in-app (the default), or through Calendly's pages when a token is configured."""
    return not (settings.calendly_token and settings.calendly_token.get_secret_value())


def _book_button(t: ObjectVar[TypeCard]) -> rx.Component:
    flow: Any = BookingFlowState  # its handlers are event specs to Reflex, namespaces to mypy
    return rx.el.button(
        rx.icon("calendar-plus", size=16, aria_hidden="true"),
        "Book Meeting",
        rx.el.span(": ", t.name, class_name="sr-only"),
        type="button",
        on_click=flow.choose_type(t.id),
        disabled=~rx.State.is_hydrated,
        class_name=f"{BUTTON_PRIMARY} h-11 w-full px-5 text-sm",
    )


def _type_card(t: ObjectVar[TypeCard]) -> rx.Component:
    url = t.url
    return rx.el.article(
        rx.el.div(
            rx.el.h3(t.name, class_name="text-lg font-bold text-slate-900"),
            badge("1-on-1", tone="blue", icon="user-round"),
            class_name="flex items-start justify-between gap-3",
        ),
        rx.el.ul(
            rx.el.li(
                rx.icon("clock", size=16, class_name="text-blue-800", aria_hidden="true"),
                t.duration,
                " minutes",
                class_name="flex items-center gap-1.5",
            ),
            rx.el.li(
                rx.icon("circle-user-round", size=16, class_name="text-blue-800", aria_hidden="true"),
                t.host,
                class_name="flex items-center gap-1.5",
            ),
            aria_label="Meeting details",
            class_name="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-700",
        ),
        rx.el.p(t.description, class_name="mt-4 line-clamp-3 flex-1 text-sm leading-relaxed text-slate-600"),
        rx.el.div(
            _book_button(t)
            if builtin()
            else rx.cond(
                url != "",
                new_tab_link(
                    rx.icon("calendar-plus", size=16, aria_hidden="true"),
                    "Book Meeting",
                    announced=(": ", t.name),
                    href=url,
                    class_name=f"{BUTTON_PRIMARY} h-11 w-full px-5 text-sm",
                ),
                rx.el.button(
                    rx.icon("calendar-plus", size=16, aria_hidden="true"),
                    "Book Meeting",
                    type="button",
                    disabled=True,
                    class_name=f"{BUTTON_PRIMARY} h-11 w-full px-5 text-sm",
                ),
            ),
            class_name="mt-6",
        ),
        data_meeting_type=t.id,
        class_name="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm",
    )


def _message(icon: str, title: rx.Var | str, text: rx.Var | str, *, role: str) -> rx.Component:
    return rx.el.div(
        rx.icon(icon, size=32, class_name="text-slate-400", aria_hidden="true"),
        rx.el.h3(title, class_name="mt-4 text-lg font-bold text-slate-900"),
        rx.el.p(text, class_name="mt-1 text-slate-600"),
        rx.el.p(
            "E-mail ",
            rx.el.a(CompanyState.email, href=f"mailto:{CompanyState.email}", class_name=TEXT_LINK),
            " or use our ",
            ReactRouterLink.create("contact form", to=routes.CONTACT, class_name=TEXT_LINK),
            ".",
            class_name="mt-4 text-sm text-slate-600",
        ),
        role=role,
        class_name="flex flex-col items-center rounded-2xl border-2 border-dashed border-slate-300 bg-white px-6 "
        "py-12 text-center",
    )


def _flow() -> rx.Component:
    """The built-in flow: the type cards, then times, details and the confirmation in their place."""
    return rx.fragment(
        zone_detector(),
        rx.match(
            BookingFlowState.step,
            ("times", time_picker()),
            ("details", details_form()),
            ("done", confirmation()),
            _types(),
        ),
    )


def _types() -> rx.Component:
    return rx.match(
        BookMeetingState.status,
        ("loading", skeleton_grid(SKELETONS, label="Loading meeting types")),
        (
            "error",
            _message("calendar-x", "Meeting types are unavailable", BookMeetingState.error, role="alert"),
        ),
        rx.cond(
            BookMeetingState.types.length() > 0,
            rx.el.div(rx.foreach(BookMeetingState.types, _type_card), class_name="grid gap-6 md:grid-cols-3"),
            _message("calendar-x", EMPTY_TITLE, EMPTY_TEXT, role="status"),
        ),
    )


def _expectations() -> rx.Component:
    return rx.el.section(
        rx.el.h2("What to expect", id="expect-heading", class_name="text-xl font-bold text-slate-900"),
        rx.el.ul(
            *[
                rx.el.li(
                    rx.el.span(
                        rx.icon(icon, size=18, aria_hidden="true"),
                        class_name="flex size-9 shrink-0 items-center justify-center rounded-lg bg-blue-50 "
                        "text-blue-800",
                    ),
                    rx.el.span(text, class_name="pt-1.5"),
                    class_name="flex items-start gap-3 text-slate-700",
                )
                for icon, text in EXPECTATIONS
            ],
            class_name="mt-5 grid gap-4 md:grid-cols-2",
        ),
        aria_labelledby="expect-heading",
        class_name="mt-12 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8",
    )


@public_page(
    routes.BOOK_MEETING,
    f"Book a Meeting | {AT_BUILD.name}",
    "Book a free consultation or a project discovery call with our team: pick a meeting type and a time that "
    "suits you.",
    on_load=[BookMeetingState.load, BookingFlowState.load_types] if builtin() else BookMeetingState.load,
)
def book_meeting_page() -> rx.Component:
    return site_layout(
        page_hero(
            "Book a Meeting",
            "Let's talk about your project",
            "Choose the kind of meeting that fits, then pick a time that suits you. It's free and there's no "
            "obligation.",
        ),
        band(
            rx.el.h2("Meeting types", id="types-heading", class_name="sr-only"),
            _flow() if builtin() else _types(),
            _expectations(),
            labelled_by="types-heading",
            class_name="bg-slate-50 py-16 sm:py-20",
        ),
    )
