"""The outbox: mail is delivered over a real SMTP conversation, retried while the server is down, never lost."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.core.config import Settings
from app.models.base import utcnow
from app.models.enums import OutboxStatus
from app.models.system import EmailOutbox
from app.services import mail
from tests.smtp_sink import SmtpSink


@pytest.fixture
def sink() -> Iterator[SmtpSink]:
    s = SmtpSink().start()
    yield s
    s.stop()


def smtp_settings(port: int) -> Settings:
    return Settings(_env_file=None, smtp_host="127.0.0.1", smtp_port=port, smtp_tls="none")  # type: ignore[call-arg]


def test_enqueued_mail_is_delivered_over_smtp(session: Session, sink: SmtpSink) -> None:
    mail.enqueue(session, to="ann@example.com", subject="Hello", text="Plain body", html="<p>HTML body</p>")
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    [msg] = sink.messages
    assert msg["To"] == "ann@example.com"
    assert msg["Subject"] == "Hello"
    assert "Plain body" in msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    row = session.exec(select(EmailOutbox)).one()
    assert row.status == OutboxStatus.sent and row.sent_at is not None and row.attempts == 1
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 0  # never sent twice


def test_mail_waits_and_retries_while_smtp_is_down(session: Session) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        dead_port = int(sock.getsockname()[1])
    mail.enqueue(session, to="bob@example.com", subject="Code", text="123456")
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(dead_port)) == 0
    row = session.exec(select(EmailOutbox)).one()
    assert row.status == OutboxStatus.pending
    assert row.attempts == 1 and row.last_error
    assert row.next_attempt_at is not None and row.next_attempt_at > utcnow()
    # Not due yet: a second run does not hammer the server.
    assert mail.deliver_pending(session, cfg=smtp_settings(dead_port)) == 0
    assert session.exec(select(EmailOutbox)).one().attempts == 1


def test_mail_is_marked_failed_only_after_the_last_attempt(session: Session) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead_port = int(sock.getsockname()[1])
    row = mail.enqueue(session, to="c@example.com", subject="s", text="t")
    row.attempts = mail.MAX_ATTEMPTS - 1
    session.commit()
    mail.deliver_pending(session, cfg=smtp_settings(dead_port))
    assert session.exec(select(EmailOutbox)).one().status == OutboxStatus.failed


def test_retry_after_smtp_comes_back(session: Session, sink: SmtpSink) -> None:
    row = mail.enqueue(session, to="d@example.com", subject="Later", text="t")
    row.attempts = 2
    row.next_attempt_at = utcnow() - timedelta(seconds=1)
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    assert [m["Subject"] for m in sink.messages] == ["Later"]


def test_without_smtp_host_mail_goes_to_the_log(session: Session, caplog: pytest.LogCaptureFixture) -> None:
    mail.enqueue(session, to="e@example.com", subject="Your code", text="Your code is 654321")
    session.commit()
    cfg = Settings(_env_file=None, smtp_host=None)  # type: ignore[call-arg]
    with caplog.at_level(logging.WARNING, logger="app.services.mail"):
        assert mail.deliver_pending(session, cfg=cfg) == 1
    assert "654321" in caplog.text


def test_uncommitted_mail_is_never_sent(session: Session, sink: SmtpSink) -> None:
    mail.enqueue(session, to="f@example.com", subject="Rolled back", text="t")
    session.rollback()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 0
    assert sink.messages == []


def test_queue_health_counts(session: Session) -> None:
    mail.enqueue(session, to="g@example.com", subject="s", text="t")
    session.commit()
    health = mail.queue_health(session)
    assert health["pending"] == 1 and health["failed"] == 0
