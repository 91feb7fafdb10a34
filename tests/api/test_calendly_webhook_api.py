"""Scheduling-service webhooks: signed sample payloads book, cancel and reschedule a client's meetings."""

from __future__ import annotations

import hashlib
import hmac
import json
import time

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlmodel import Session, select

from app.core.config import settings
from app.models.meeting import Meeting
from app.models.user import User
from app.services.scheduling import calendly, meetings
from tests import factories as f

SECRET = "whsec-test"
EVENT_URI = "https://api.calendly.com/scheduled_events/AAAA-1111"


def signed(body: dict, secret: str = SECRET, at: int | None = None) -> tuple[bytes, dict[str, str]]:
    raw = json.dumps(body).encode()
    t = str(at or int(time.time()))
    sig = hmac.new(secret.encode(), f"{t}.".encode() + raw, hashlib.sha256).hexdigest()
    return raw, {"Calendly-Webhook-Signature": f"t={t},v1={sig}", "Content-Type": "application/json"}


def booked(
    email: str, uri: str = EVENT_URI, start: str = "2030-05-01T15:00:00.000000Z", *, via: User | None = None
) -> dict:
    """The service's invitee.created; `via`: booked through that client's tagged portal link."""
    return {
        "event": "invitee.created",
        "payload": {
            "email": email,
            "rescheduled": False,
            "tracking": {"utm_content": calendly.calendly_tag(via.id) if via else None},
            "scheduled_event": {
                "uri": uri,
                "name": "Project Discovery Call",
                "start_time": start,
                "end_time": start.replace("15:00", "16:00"),
                "location": {"type": "zoom", "join_url": "https://zoom.example/j/1"},
            },
        },
    }


@pytest.fixture(autouse=True)
def webhook_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "calendly_webhook_secret", SecretStr(SECRET))


def test_booking_then_cancellation(client: TestClient, session: Session) -> None:
    wendy = f.user(session, "wendy")
    raw, headers = signed(booked("Wendy@example.com", via=wendy))
    r = client.post("/api/calendly/webhook", content=raw, headers=headers)
    assert r.status_code == 200 and r.json()["result"] == "booked"
    meeting = session.exec(select(Meeting).where(Meeting.calendly_event_id == EVENT_URI)).one()
    assert meeting.title == "Project Discovery Call" and meeting.meeting_url == "https://zoom.example/j/1"
    assert meeting.client_id == wendy.id
    assert (meeting.end_time - meeting.start_time).total_seconds() == 3600
    # The same delivery twice (webhooks are retried) creates no second meeting.
    client.post("/api/calendly/webhook", content=raw, headers=headers)
    assert len(session.exec(select(Meeting).where(Meeting.calendly_event_id == EVENT_URI)).all()) == 1

    cancel = {
        "event": "invitee.canceled",
        "payload": {**booked("wendy@example.com")["payload"], "cancellation": {"reason": "Conflict"}},
    }
    raw, headers = signed(cancel)
    assert client.post("/api/calendly/webhook", content=raw, headers=headers).json()["result"] == "cancelled"
    session.refresh(meeting)
    assert meeting.status == "cancelled" and meeting.cancel_reason == "Conflict"


def test_reschedule_cancels_the_old_event_and_books_the_new(client: TestClient, session: Session) -> None:
    rita = f.user(session, "rita")
    raw, headers = signed(booked("rita@example.com", via=rita))
    client.post("/api/calendly/webhook", content=raw, headers=headers)
    old = {"event": "invitee.canceled", "payload": {**booked("rita@example.com")["payload"], "rescheduled": True}}
    raw, headers = signed(old)
    assert client.post("/api/calendly/webhook", content=raw, headers=headers).json()["result"] == "rescheduled"
    new = booked("rita@example.com", uri=EVENT_URI + "-new", start="2030-05-02T15:00:00.000000Z", via=rita)
    raw, headers = signed(new)
    assert client.post("/api/calendly/webhook", content=raw, headers=headers).json()["result"] == "booked"
    statuses = {m.calendly_event_id: m.status for m in session.exec(select(Meeting)).all()}
    assert statuses == {EVENT_URI: "cancelled", EVENT_URI + "-new": "scheduled"}


def test_bad_or_stale_signatures_are_refused(client: TestClient, session: Session) -> None:
    f.user(session, "sam")
    raw, headers = signed(booked("sam@example.com"), secret="wrong-secret")
    assert client.post("/api/calendly/webhook", content=raw, headers=headers).status_code == 401
    raw, headers = signed(booked("sam@example.com"), at=int(time.time()) - 3600)
    assert client.post("/api/calendly/webhook", content=raw, headers=headers).status_code == 401
    assert client.post("/api/calendly/webhook", content=raw).status_code == 401
    assert session.exec(select(Meeting)).first() is None


def test_a_booking_names_no_client_by_the_address_typed(client: TestClient, session: Session) -> None:
    """Defect (issue 23, point 3, the scheduling service's path): anyone can type a client's e-mail on the service's
    public page, and the booking showed up in that client's portal. Only the client's own tagged link puts it there;
    any other booking is recorded for staff, in no portal."""
    victim = f.user(session, "vera")
    other = f.user(session, "otto")
    forged = {"utm_content": f"{victim.id}.{'0' * 32}"}
    for n, tracking in enumerate(({}, forged)):
        body = booked("Vera@example.com", uri=f"{EVENT_URI}-{n}")
        body["payload"]["tracking"] = tracking
        raw, headers = signed(body)
        assert client.post("/api/calendly/webhook", content=raw, headers=headers).json()["result"] == "booked"
    rows = session.exec(select(Meeting)).all()
    assert len(rows) == 2 and all(m.client_id is None for m in rows)  # recorded for staff, in nobody's portal
    assert meetings.list_meetings(session, actor=victim).upcoming == []
    raw, headers = signed(booked("stranger@example.com", uri=EVENT_URI + "-s", via=other))  # otto's own link
    client.post("/api/calendly/webhook", content=raw, headers=headers)
    assert (
        session.exec(select(Meeting).where(Meeting.calendly_event_id == EVENT_URI + "-s")).one().client_id == other.id
    )


def test_without_a_secret_the_webhook_does_not_exist(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "calendly_webhook_secret", None)
    raw, headers = signed(booked("x@example.com"))
    assert client.post("/api/calendly/webhook", content=raw, headers=headers).status_code == 404
