"""GET /api/calendly/event-types: from the database, from Calendly (a local fake), and a quick 503 when it is down."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlmodel import Session

from app.core.config import settings
from app.models.enums import Role
from app.models.meeting import MeetingType
from app.services.accounts import sessions
from app.services.scheduling import meeting_types
from tests import factories as f
from tests.fake_calendly import FakeCalendly, event_type

TOKEN = "cal-api-token"


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    meeting_types.clear_cache()
    yield
    meeting_types.clear_cache()


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeCalendly]:
    server = FakeCalendly(TOKEN).start()
    monkeypatch.setattr(settings, "calendly_token", SecretStr(TOKEN))
    monkeypatch.setattr(settings, "calendly_api_url", server.url)
    yield server
    server.stop()


def test_database_types_without_a_token(client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "calendly_token", None)
    session.add(MeetingType(slug="free-consultation", name="Free Consultation", host_name="Marcus Reed"))
    session.add(MeetingType(slug="off", name="Off", is_active=False))
    session.commit()
    r = client.get("/api/calendly/event-types")
    assert r.status_code == 200
    [only] = r.json()["data"]
    assert only["name"] == "Free Consultation" and only["profile"] == {"name": "Marcus Reed"}
    assert only["uri"].endswith("/free-consultation") and only["duration"] == 30 and only["active"] is True
    assert set(only) == {
        "name",
        "duration",
        "active",
        "profile",
        "description_plain",
        "scheduling_url",
        "booking_url",
        "uri",
    }


def test_empty_database_answers_an_empty_list(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "calendly_token", None)
    r = client.get("/api/calendly/event-types")
    assert r.status_code == 200 and r.json() == {"data": []}


def test_calendly_types_with_a_token(client: TestClient, fake: FakeCalendly) -> None:
    fake.event_types = [event_type("intro", "Intro Call", duration=15), event_type("gone", "Gone", active=False)]
    r = client.get("/api/calendly/event-types")
    assert r.status_code == 200
    assert [(t["name"], t["duration"], t["scheduling_url"]) for t in r.json()["data"]] == [
        ("Intro Call", 15, "https://calendly.com/acme/intro")
    ]


def test_calendly_down_answers_503_quickly(
    client: TestClient, fake: FakeCalendly, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(meeting_types, "TIMEOUT_S", 0.5)
    fake.hang = True
    started = time.monotonic()
    r = client.get("/api/calendly/event-types")
    assert time.monotonic() - started < 3
    assert r.status_code == 503
    assert r.json()["message"] == (
        "Meeting types are temporarily unavailable. Please contact us directly to schedule a meeting."
    )


def test_calendly_error_answers_503(client: TestClient, fake: FakeCalendly) -> None:
    fake.fail_status = 502
    assert client.get("/api/calendly/event-types").status_code == 503


def test_staff_health_reports_the_scheduling_service(client: TestClient, session: Session, fake: FakeCalendly) -> None:
    admin = f.user(session, "cal_health_admin", role=Role.admin)
    client.cookies.set("access_token", sessions.start(session, admin).access_token)
    assert client.get("/api/admin/dashboard").json()["system"]["scheduling"]["status"] == "ok"
    meeting_types.clear_cache()
    fake.fail_status = 502
    system = client.get("/api/admin/dashboard").json()["system"]
    assert system["status"] == "degraded" and system["scheduling"]["status"] == "down"
    # The public check never calls out to the scheduling service, and stays up while it is down.
    before = len(fake.requests)
    assert client.get("/api/health").json() == {"status": "ok"}
    assert len(fake.requests) == before
