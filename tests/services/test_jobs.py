"""The background pass: mail delivery, rate-limit pruning and releasing expired booking holds each run, whatever the
others do."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.core.config import settings
from app.models.base import utcnow
from app.models.enums import MeetingStatus, OutboxStatus
from app.models.meeting import Meeting
from app.models.system import EmailOutbox, RateLimitEvent
from app.services.operations import jobs
from app.services.platform import mail, ratelimit


@pytest.fixture
def scopes(session: Session, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Route the pass's session scopes to the test session, rolling back on failure as a real scope does."""
    opened: list[str] = []

    @contextmanager
    def scope() -> Iterator[Session]:
        opened.append("scope")
        try:
            yield session
        except BaseException:
            session.rollback()
            raise

    monkeypatch.setattr(jobs, "session_scope", scope)
    monkeypatch.setattr(jobs, "_reminded_on", None)  # the reminders' pass runs (once a business day) in this pass too
    return opened


def stale_event(session: Session) -> None:
    session.add(RateLimitEvent(key="login:ip:198.51.100.7", created_at=utcnow() - timedelta(days=2)))
    session.commit()


def test_pruning_runs_when_delivery_fails(
    session: Session, scopes: list[str], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    stale_event(session)

    def broken(s: Session) -> int:
        raise RuntimeError("outbox exploded")

    monkeypatch.setattr(mail, "deliver_pending", broken)
    assert jobs.run_once() == 0
    assert session.exec(select(RateLimitEvent)).all() == []
    assert len(scopes) == 8  # one transaction each: a failed delivery cannot roll the pruning back
    assert "outbox exploded" in caplog.text


def test_delivery_runs_when_pruning_fails(session: Session, scopes: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "smtp_host", None)  # delivered to the log
    row = mail.enqueue(session, public=False, to="m@example.com", letter=mail.Letter("Your code", "t"))
    session.commit()

    def broken(s: Session, older_than: timedelta = timedelta(days=1)) -> int:
        raise RuntimeError("prune exploded")

    monkeypatch.setattr(ratelimit, "prune", broken)
    assert jobs.run_once() == 1
    assert session.exec(select(EmailOutbox).where(EmailOutbox.id == row.id)).one().status == OutboxStatus.sent


def test_the_pass_releases_expired_booking_holds(session: Session, scopes: list[str]) -> None:
    start = utcnow() + timedelta(days=2)
    held = Meeting(
        title="Held",
        start_time=start,
        end_time=start + timedelta(minutes=30),
        status=MeetingStatus.unconfirmed,
        hold_expires_at=utcnow() - timedelta(minutes=1),
        manage_token_hash="e" * 64,
    )
    session.add(held)
    session.commit()
    jobs.run_once()
    session.refresh(held)
    assert held.status == MeetingStatus.cancelled and held.cancelled_by == "expired"
