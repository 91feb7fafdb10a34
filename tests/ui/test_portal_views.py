"""What the portal's tabs make of the services' DTOs: badge colours and labels, dollars, dates, links, fallbacks."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from app.services.projects.projects import ClientProject, MilestonePublic
from app.services.scheduling import calendly
from app.services.scheduling.meeting_types import EventHost, EventType
from app.services.scheduling.meetings import ClientMeeting
from app.ui.format import long_date, usd
from app.ui.portal import meetings as portal_meetings
from app.ui.portal.meetings import meeting_type_view, meeting_view
from app.ui.portal.projects import project_view
from app.ui.portal.state import Badge, badge_color, status_label


@pytest.mark.parametrize(
    ("status", "color"),
    [
        ("completed", "green"),
        ("paid", "green"),
        ("in_progress", "blue"),
        ("in progress", "blue"),
        ("scheduled", "blue"),
        ("planning", "yellow"),
        ("pending", "yellow"),
        ("cancelled", "red"),
        ("review", "gray"),
        ("draft", "gray"),
        ("", "gray"),
    ],
)
def test_badge_colours_follow_the_spec(status: str, color: str) -> None:
    assert badge_color(status) == color


def test_labels_dollars_and_dates() -> None:
    assert status_label("in_progress") == "in progress"
    assert usd("18500.00") == "$18,500.00" and usd("0.5") == "$0.50" and usd(None) == "" and usd("x") == ""
    assert long_date("2026-03-05") == "March 5, 2026"
    assert long_date("2026-11-22T23:59:00+00:00") == "November 22, 2026"
    assert long_date(None) == "" and long_date("soon") == ""


def _project(**changes: Any) -> ClientProject:
    fields: dict[str, Any] = {
        "id": 7,
        "name": "Site",
        "description": None,
        "status": "in_progress",
        "project_type": "web_development",
        "client_id": str(uuid.uuid4()),
        "organization_id": None,
        "manager_id": None,
        "budget": None,
        "progress_percentage": 140,
        "deadline": None,
        "start_date": None,
        "end_date": None,
        "estimated_hours": None,
        "actual_hours": 0,
        "created_at": "2026-01-01T00:00:00+00:00",
        "milestones": [
            MilestonePublic(
                id=1, title="Design", description=None, due_date="2026-01-02", status="completed", order_index=0
            ),
            MilestonePublic(id=2, title="Launch", description=None, due_date=None, status="pending", order_index=1),
        ],
        "can_cancel": True,
    }
    return ClientProject(**{**fields, **changes})


def test_project_view_keeps_milestone_order_and_offers_cancel_by_the_services_flag() -> None:
    view = project_view(_project())
    assert (view.status, view.progress, view.can_cancel) == (Badge("in progress", "blue"), 100, True)
    assert (view.deadline, view.budget, view.description) == ("", "", "")  # the page shows the spec's fallbacks
    assert [(m.title, m.status.color, m.due) for m in view.milestones] == [
        ("Design", "green", "January 2, 2026"),
        ("Launch", "yellow", ""),
    ]
    assert not project_view(_project(status="completed", can_cancel=False)).can_cancel


def _meeting(**changes: Any) -> ClientMeeting:
    fields: dict[str, Any] = {
        "id": 3,
        "title": "Review",
        "description": None,
        "meeting_type": "Technical Review",
        "status": "scheduled",
        "scheduled_at": "2026-05-01T15:00:00+00:00",
        "end_time": "2026-05-01T15:45:00+00:00",
        "duration_minutes": 45,
        "join_url": "https://meet.example.com/x",
        "location": None,
        "calendly_event_id": "https://api.calendly.com/scheduled_events/ABC123",
        "reschedule_url": "https://calendly.com/reschedulings/ABC123",
        "cancel_reason": None,
        "client_id": None,
        "can_cancel": True,
        "can_reschedule": True,
        "can_move": False,
        "can_join": True,
    }
    return ClientMeeting(**{**fields, **changes})


def test_meeting_links_and_cancel_follow_the_services_flags() -> None:
    view = meeting_view(_meeting())
    assert (view.join_url, view.reschedule_url, view.can_cancel) == (
        "https://meet.example.com/x",
        "https://calendly.com/reschedulings/ABC123",
        True,
    )
    done = meeting_view(_meeting(status="cancelled", can_cancel=False, can_reschedule=False, can_join=False))
    assert (done.join_url, done.reschedule_url, done.can_cancel, done.status.color) == ("", "", False, "red")
    booked_here = meeting_view(
        _meeting(calendly_event_id=None, reschedule_url=None, can_reschedule=False, can_move=True)
    )
    assert (booked_here.reschedule_url, booked_here.can_move) == ("", True)  # the tab's dialog moves it


def test_meeting_type_view_prefers_scheduling_url_and_names_the_button_by_the_uri(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(portal_meetings, "builtin", lambda: False)  # Calendly configured: its booking pages
    t = EventType(
        name="Free Consultation",
        duration=30,
        active=True,
        profile=EventHost(name="Marcus Reed"),
        description_plain=None,
        scheduling_url=None,
        booking_url="https://book.example.com/free",
        uri="https://api.calendly.com/event_types/FREE30",
    )
    client = uuid.uuid4()
    tag = f"utm_content={calendly.calendly_tag(client)}"
    view = meeting_type_view(t, client)
    assert (view.slug, view.host, view.description, view.url) == (
        "FREE30",
        "Marcus Reed",
        "",
        f"https://book.example.com/free?{tag}",  # tagged: the webhook puts the booking in this client's portal
    )
    scheduling = t.model_copy(update={"scheduling_url": "https://s.example.com/a?month=2030-05"})
    assert meeting_type_view(scheduling, client).url == f"https://s.example.com/a?month=2030-05&{tag}"
    assert meeting_type_view(t.model_copy(update={"booking_url": None}), client).url == ""  # the button is disabled
    monkeypatch.setattr(portal_meetings, "builtin", lambda: True)  # the built-in scheduler: booked in the app
    assert meeting_type_view(t, client).url == "/book-meeting?type=FREE30"


@pytest.mark.parametrize(
    ("actual", "estimated", "text"),
    [
        (7.25, 40, "7.25 of 40 hours"),
        (128, 220, "128 of 220 hours"),
        (0, 80, "0 of 80 hours"),
        (3, None, "3 hours (no estimate)"),
        (0, None, "0 hours (no estimate)"),
    ],
)
def test_a_project_shows_hours_worked_against_the_estimate(actual: float, estimated: int | None, text: str) -> None:
    view = project_view(_project(actual_hours=actual, estimated_hours=estimated))
    assert view.hours == text
