"""Meetings tab: upcoming and past meetings, cancelling one (with the spec's dialog), and the Book a Meeting view."""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any, ClassVar

import reflex as rx
from reflex.vars.object import ObjectVar

from app.core.errors import DomainError, Unauthorized
from app.models.user import UserPublic
from app.services.scheduling import calendly, meetings
from app.services.scheduling.meeting_types import EventType, list_active
from app.services.scheduling.meetings import ClientMeeting, ClientMeetings
from app.ui import routes
from app.ui.portal import components as ui
from app.ui.portal.cancelling import CancelConfirm, cancel_dialog
from app.ui.portal.rescheduling import RescheduleDialog, reschedule_dialog, zone_detector
from app.ui.portal.state import Badge, ListTab, PortalState, error_message
from app.ui.portal.summary import SummaryState
from app.ui.rows import Row
from app.ui.site.book_meeting import builtin
from app.ui.site.booking_state import TypeView
from app.ui.state.calls import as_actor

CANCEL_REASON = "Cancelled by client"
FALLBACK_DESCRIPTION = "Schedule a meeting to discuss your project or ask questions"
TYPE_GRID = "grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3"
TYPE_BARS = ("h-5 w-2/3", "h-3 w-1/2", "h-12 w-full", "h-9 w-full")  # a type card's placeholder
EXPECTATIONS = (
    "You'll receive a calendar invite with all the details",
    "A video conferencing link will be included in the invite",
    "Come prepared with any questions or project materials",
    "We'll discuss your requirements and next steps",
)


@dataclasses.dataclass
class MeetingView(Row):
    title: str = ""
    scheduled_at: str = ""
    duration: int = 0
    meeting_type: str = ""
    status: Badge = dataclasses.field(default_factory=Badge)
    join_url: str = ""
    reschedule_url: str = ""
    can_move: bool = False  # booked here: the tab's Reschedule dialog moves it
    can_cancel: bool = False


@dataclasses.dataclass
class MeetingTypeView(TypeView):
    """A meeting type as the booking flow lists it, with its host and where its Book Meeting link goes."""

    host: str = ""
    url: str = ""


def meeting_view(m: ClientMeeting) -> MeetingView:
    return MeetingView(
        id=m.id,
        title=m.title,
        scheduled_at=m.scheduled_at,
        duration=m.duration_minutes,
        meeting_type=m.meeting_type or "",
        status=Badge.of(m.status),
        join_url=(m.join_url or "") if m.can_join else "",
        reschedule_url=(m.reschedule_url or "") if m.can_reschedule else "",
        can_move=m.can_move,
        can_cancel=m.can_cancel,
    )


def meeting_type_view(t: EventType, client_id: uuid.UUID) -> MeetingTypeView:
    if builtin():  # the built-in scheduler books the type on /book-meeting, as the signed-in client
        url = f"{routes.BOOK_MEETING}?type={t.slug}"
    else:  # tagged, so the booking lands in this client's portal (the e-mail typed there proves nothing)
        link = t.scheduling_url or t.booking_url or ""
        url = calendly.calendly_link(link, client_id) if link else ""
    return MeetingTypeView(
        slug=t.slug,
        name=t.name,
        duration=t.duration,
        host=t.profile.name or "",
        description=t.description_plain or "",
        url=url,
    )


class MeetingsState(CancelConfirm, RescheduleDialog, ListTab, PortalState):
    upcoming: rx.Field[list[MeetingView]] = rx.field(default_factory=list)
    past: rx.Field[list[MeetingView]] = rx.field(default_factory=list)
    # "list" or "book" (the Book a Meeting view).
    view: str = "list"
    meeting_types: rx.Field[list[MeetingTypeView]] = rx.field(default_factory=list)
    types_loading: bool = True
    types_error: str = ""

    @rx.event
    async def load(self) -> None:
        lists = await self._fetch(lambda s, actor: meetings.list_meetings(s, actor=actor), "Failed to load meetings")
        if lists is None:
            return
        self._show(lists)
        self.view = "list"  # back from booking on /book-meeting: show the list with the new meeting

    def _show(self, lists: ClientMeetings) -> None:
        self.upcoming = [meeting_view(m) for m in lists.upcoming]
        self.past = [meeting_view(m) for m in lists.past]

    cancel_noun: ClassVar[str] = "meeting"

    @rx.event
    def ask_cancel(self, meeting_id: int) -> None:
        self._ask(meeting_id)

    async def _cancel(self, user: UserPublic, record_id: int) -> str:
        await as_actor(
            user,
            lambda s, actor: meetings.cancel_meeting(s, actor=actor, meeting_id=record_id, reason=CANCEL_REASON),
        )
        self._show(await as_actor(user, lambda s, actor: meetings.list_meetings(s, actor=actor)))
        return "The meeting has been cancelled."

    async def _moved(self, user: UserPublic, notice: str) -> Any:
        self._show(await as_actor(user, lambda s, actor: meetings.list_meetings(s, actor=actor)))
        self.notice = notice
        return SummaryState.load  # the summary's "Next meeting" may be this one

    @rx.event
    async def show_booking(self):
        """Switch to the Book a Meeting view and load the active meeting types."""
        self.view = "book"
        self.types_loading = True
        self.types_error = ""
        yield
        try:
            user = await self._require_user()
            rows = await as_actor(user, lambda s, _actor: list_active(s))
        except Unauthorized:
            await self._signed_out()
            return
        except DomainError as exc:
            self.types_error = error_message(exc, "Meeting types are temporarily unavailable.")
            rows = []
        self.meeting_types = [meeting_type_view(t, user.id) for t in rows]
        self.types_loading = False

    @rx.event
    def show_list(self) -> None:
        self.view = "list"


# An event handler that returns the event it chains reads as a namespace to mypy, an event spec to Reflex.
_tab: Any = MeetingsState


def _meeting_row(m: ObjectVar[MeetingView], *, actions: bool) -> rx.Component:
    return ui.card(
        ui.card_header(
            rx.el.h4(m.title, class_name="font-semibold text-slate-900 break-words"),
            rx.el.p(
                rx.icon("calendar", size=14, class_name="shrink-0"),
                rx.el.span(ui.local_date_time(m.scheduled_at)),
                class_name="flex items-center gap-1.5 text-sm text-slate-600",
            ),
            rx.el.div(
                ui.icon_text("clock", m.duration, " minutes"),
                rx.cond(m.meeting_type != "", ui.icon_text("tag", m.meeting_type)),
                class_name="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600",
            ),
            status=m.status,
            class_name="flex min-w-0 flex-col gap-1",
        ),
        rx.cond(
            (m.join_url != "") | (m.reschedule_url != "") | m.can_move | m.can_cancel,
            rx.el.div(
                rx.cond(m.join_url != "", ui.link_button("video", "Join Meeting", m.join_url, ui.BUTTON_PRIMARY)),
                rx.cond(
                    m.reschedule_url != "",
                    ui.link_button("calendar-clock", "Reschedule", m.reschedule_url, ui.BUTTON_SECONDARY),
                ),
                rx.cond(
                    m.can_move,
                    ui.action_button(
                        "calendar-clock",
                        "Reschedule",
                        _tab.ask_move(m.id, m.title, m.scheduled_at),
                        ui.BUTTON_SECONDARY,
                        aria_label=f"Reschedule meeting {m.title}",
                    ),
                ),
                rx.cond(
                    m.can_cancel,
                    ui.action_button(
                        "x",
                        "Cancel",
                        MeetingsState.ask_cancel(m.id),
                        ui.BUTTON_DANGER,
                        aria_label=f"Cancel meeting {m.title}",
                    ),
                ),
                class_name="flex flex-wrap gap-2",
            ),
        )
        if actions
        else rx.fragment(),
        class_name="flex flex-col gap-3",
        data_testid="meeting-card",
    )


def _meeting_list(meetings: Any, when: str, empty: rx.Component) -> rx.Component:
    """The upcoming or past meetings (only upcoming ones have actions), or `empty` when there are none."""
    return rx.el.div(
        rx.cond(
            meetings.length() > 0,
            rx.foreach(meetings, lambda m: _meeting_row(m, actions=when == "upcoming")),
            empty,
        ),
        class_name="flex flex-col gap-3",
        data_testid=f"{when}-meetings",
    )


def _list_view() -> rx.Component:
    return rx.el.div(
        ui.section_title(
            "Upcoming Meetings",
            ui.action_button("calendar-plus", "Book New Meeting", MeetingsState.show_booking, ui.BUTTON_PRIMARY),
        ),
        ui.success_text(MeetingsState.notice),
        ui.loaded(
            MeetingsState.loading,
            MeetingsState.error,
            rx.el.div(
                _meeting_list(
                    MeetingsState.upcoming, "upcoming", ui.empty_state("No upcoming meetings.", icon="calendar")
                ),
                rx.el.h2("Past Meetings", class_name="mt-4 text-xl font-semibold text-slate-900"),
                _meeting_list(
                    MeetingsState.past, "past", rx.el.p("No past meetings.", class_name="text-sm text-slate-500")
                ),
                class_name="flex flex-col gap-3",
            ),
        ),
        cancel_dialog(MeetingsState, "Are you sure you want to cancel this meeting? This action cannot be undone."),
        reschedule_dialog(MeetingsState),
        zone_detector(MeetingsState),
        class_name="flex flex-col gap-4",
    )


def _meeting_type_card(t: ObjectVar[MeetingTypeView]) -> rx.Component:
    return ui.card(
        rx.el.div(
            rx.el.h3(t.name, class_name="text-lg font-semibold text-slate-900"),
            rx.el.span(
                "1-on-1",
                class_name="shrink-0 whitespace-nowrap rounded-full bg-blue-50 px-2 py-0.5 text-xs font-medium "
                "text-blue-700",
            ),
            class_name="flex items-start justify-between gap-3",
        ),
        rx.el.div(
            rx.el.span(rx.icon("clock", size=14), t.duration, " minutes", class_name="flex items-center gap-1.5"),
            rx.cond(t.host != "", rx.el.span(rx.icon("user", size=14), t.host, class_name="flex items-center gap-1.5")),
            class_name="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600",
        ),
        rx.el.p(
            rx.cond(t.description != "", t.description, FALLBACK_DESCRIPTION),
            class_name="line-clamp-3 text-sm text-slate-700",
        ),
        rx.el.div(
            rx.cond(
                t.url != "",
                # Built in: the same tab books as the signed-in client; Calendly's pages open in a new one.
                ui.link_button(
                    "calendar-plus",
                    "Book Meeting",
                    t.url,
                    ui.BUTTON_PRIMARY + " w-full",
                    new_tab=not builtin(),
                    id=t.slug,
                ),
                rx.el.button("Book Meeting", type="button", disabled=True, class_name=ui.BUTTON_PRIMARY + " w-full"),
            ),
            class_name="mt-auto",
        ),
        class_name="flex h-full flex-col gap-3",
        data_testid="meeting-type-card",
    )


def _booking_view() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            ui.action_button("arrow-left", "Back to Meetings", MeetingsState.show_list, ui.BUTTON_SECONDARY),
        ),
        rx.el.div(
            rx.el.h2("Book a Meeting", class_name="text-xl font-semibold text-slate-900"),
            rx.el.p("Choose the kind of meeting that suits you.", class_name="text-sm text-slate-600"),
        ),
        rx.cond(
            MeetingsState.types_loading,
            ui.skeleton_cards(TYPE_BARS, class_name=TYPE_GRID, label=None),
            rx.cond(
                MeetingsState.meeting_types.length() > 0,
                rx.el.div(rx.foreach(MeetingsState.meeting_types, _meeting_type_card), class_name=TYPE_GRID),
                ui.empty_state(
                    "No meeting types available",
                    rx.el.p("Please contact us directly to schedule a meeting.", class_name="text-sm text-slate-500"),
                    rx.cond(MeetingsState.types_error != "", ui.error_text(MeetingsState.types_error)),
                    icon="calendar-x",
                ),
            ),
        ),
        ui.card(
            rx.el.h3("What to expect", class_name="font-semibold text-slate-900"),
            rx.el.ul(
                *[
                    rx.el.li(
                        rx.icon("circle-check", size=16, class_name="mt-0.5 shrink-0 text-green-600"),
                        rx.el.span(text),
                        class_name="flex items-start gap-2",
                    )
                    for text in EXPECTATIONS
                ],
                class_name="flex flex-col gap-2 text-sm text-slate-700",
            ),
            class_name="flex flex-col gap-3",
        ),
        class_name="flex flex-col gap-4",
    )


def meetings_tab() -> rx.Component:
    return rx.el.section(
        rx.cond(MeetingsState.view == "book", _booking_view(), _list_view()),
        class_name="flex flex-col gap-4",
    )
