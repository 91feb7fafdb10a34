"""Meeting types from the database, and from the Calendly API (a local fake) with caching, timeouts and failures."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from pydantic import SecretStr
from sqlmodel import Session

from app.core.config import Settings
from app.core.errors import Unavailable
from app.models.meeting import MeetingType
from app.services.scheduling import meeting_types
from tests.fake_calendly import FakeCalendly, event_type

TOKEN = "cal-test-token"


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    meeting_types.clear_cache()
    yield
    meeting_types.clear_cache()


@pytest.fixture
def fake() -> Iterator[FakeCalendly]:
    server = FakeCalendly(TOKEN).start()
    yield server
    server.stop()


def calendly_cfg(fake: FakeCalendly, token: str = TOKEN) -> Settings:
    return Settings(calendly_token=SecretStr(token), calendly_api_url=fake.url, public_url="https://site.example")


def test_database_types_in_the_spec_shape(session: Session) -> None:
    session.add(MeetingType(slug="deep-dive", name="Deep Dive", duration_minutes=60, sort_order=2))
    session.add(
        MeetingType(
            slug="free-consultation",
            name="Free Consultation",
            duration_minutes=30,
            host_name="Marcus Reed",
            description="A no-obligation call.",
            scheduling_url="https://site.example/contact?meeting=free-consultation",
            sort_order=1,
        )
    )
    session.add(MeetingType(slug="retired", name="Retired", is_active=False, sort_order=0))
    session.commit()
    cfg = Settings(public_url="https://site.example", company_name="Coastline IT Solutions", calendly_token=None)
    first, second = meeting_types.list_active(session, cfg)
    assert first.model_dump() == {
        "name": "Free Consultation",
        "duration": 30,
        "active": True,
        "profile": {"name": "Marcus Reed"},
        "description_plain": "A no-obligation call.",
        "scheduling_url": "https://site.example/contact?meeting=free-consultation",
        "booking_url": None,
        "uri": "https://site.example/meeting-types/free-consultation",
    }
    assert second.name == "Deep Dive" and second.uri.rsplit("/", 1)[-1] == "deep-dive"
    assert second.profile.model_dump() == {"name": "Coastline IT Solutions"}  # no host named: the company hosts


def test_calendly_types_are_mapped_and_filtered(session: Session, fake: FakeCalendly) -> None:
    fake.event_types = [
        event_type("intro", "Intro Call", duration=15),
        event_type("old", "Old Call", active=False),
        event_type("hidden", "Hidden Call", secret=True),
        event_type("adhoc", "One-off", type="AdhocEventType"),
        event_type("review", "Review", profile=None, description_plain=None),
    ]
    types = meeting_types.list_active(session, calendly_cfg(fake))
    assert [t.name for t in types] == ["Intro Call", "Review"]
    assert types[0].model_dump() == {
        "name": "Intro Call",
        "duration": 15,
        "active": True,
        "profile": {"name": "Marcus Reed"},
        "description_plain": "About Intro Call",
        "scheduling_url": "https://calendly.com/acme/intro",
        "booking_url": None,
        "uri": "https://api.calendly.com/event_types/intro",
    }
    assert types[1].profile.model_dump() == {"name": None} and types[1].description_plain is None
    assert fake.requests[0] == "/users/me"
    assert "organization=" in fake.requests[1] and "active=true" in fake.requests[1]


def test_calendly_pages_are_followed(session: Session, fake: FakeCalendly) -> None:
    fake.event_types = [event_type(f"t{n}", f"Type {n}") for n in range(5)]
    fake.page_size = 2
    types = meeting_types.list_active(session, calendly_cfg(fake))
    assert [t.name for t in types] == [f"Type {n}" for n in range(5)]


def test_calendly_answers_are_cached_briefly(
    session: Session, fake: FakeCalendly, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.event_types = [event_type("intro", "Intro Call")]
    cfg = calendly_cfg(fake)
    meeting_types.list_active(session, cfg)[0].name = "mutated by a caller"
    assert meeting_types.list_active(session, cfg)[0].name == "Intro Call"
    assert len(fake.requests) == 2  # the second call was served from the cache
    real = time.monotonic
    monkeypatch.setattr(meeting_types.time, "monotonic", lambda: real() + meeting_types.CACHE_TTL_S + 1)
    meeting_types.list_active(session, cfg)
    assert len(fake.requests) == 4


def test_a_wrong_token_is_unavailable(session: Session, fake: FakeCalendly) -> None:
    with pytest.raises(Unavailable) as exc:
        meeting_types.list_active(session, calendly_cfg(fake, token="wrong"))
    assert exc.value.status_code == 503
    assert exc.value.message == (
        "Meeting types are temporarily unavailable. Please contact us directly to schedule a meeting."
    )


def test_an_upstream_error_is_unavailable(session: Session, fake: FakeCalendly) -> None:
    fake.fail_status = 500
    with pytest.raises(Unavailable):
        meeting_types.list_active(session, calendly_cfg(fake))


def test_a_hanging_upstream_times_out_quickly(
    session: Session, fake: FakeCalendly, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(meeting_types, "TIMEOUT_S", 0.5)
    fake.hang = True
    started = time.monotonic()
    with pytest.raises(Unavailable):
        meeting_types.list_active(session, calendly_cfg(fake))
    assert time.monotonic() - started < 3


def test_while_calendly_fails_the_last_types_it_gave_are_served_and_it_is_not_asked_again_at_once(
    session: Session, fake: FakeCalendly, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.event_types = [event_type("intro", "Intro Call")]
    cfg = calendly_cfg(fake)
    assert [t.name for t in meeting_types.list_active(session, cfg)] == ["Intro Call"]
    clock = time.monotonic() + meeting_types.CACHE_TTL_S + 1  # the cached answer has expired
    monkeypatch.setattr(meeting_types.time, "monotonic", lambda: clock)
    fake.fail_status = 500
    asked = len(fake.requests)
    assert [t.name for t in meeting_types.list_active(session, cfg)] == ["Intro Call"]  # stale, not a 503
    assert len(fake.requests) == asked + 1
    for _ in range(5):  # within the back-off nobody waits for the failing service
        assert [t.name for t in meeting_types.list_active(session, cfg)] == ["Intro Call"]
    assert len(fake.requests) == asked + 1
    clock += meeting_types.RETRY_AFTER_FAILURE_S + 1
    fake.fail_status = None
    fake.event_types = [event_type("intro", "Intro Call"), event_type("deep", "Deep Dive")]
    assert [t.name for t in meeting_types.list_active(session, cfg)] == ["Intro Call", "Deep Dive"]


def test_a_failure_with_nothing_cached_is_a_fast_503_for_the_next_visitors(
    session: Session, fake: FakeCalendly, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(meeting_types, "TIMEOUT_S", 0.5)
    fake.hang = True
    with pytest.raises(Unavailable):
        meeting_types.list_active(session, calendly_cfg(fake))
    started = time.monotonic()
    with pytest.raises(Unavailable):
        meeting_types.list_active(session, calendly_cfg(fake))
    assert time.monotonic() - started < 0.1


def test_an_unreachable_upstream_is_unavailable(session: Session) -> None:
    cfg = Settings(calendly_token=SecretStr(TOKEN), calendly_api_url="http://127.0.0.1:9")
    with pytest.raises(Unavailable):
        meeting_types.list_active(session, cfg)
