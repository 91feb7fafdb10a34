"""The outbox: mail is delivered over a real SMTP conversation, retried while the server is down, never lost."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage

import pytest
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

from app.core.config import Settings
from app.models.base import utcnow
from app.models.enums import OutboxStatus
from app.models.system import EmailOutbox
from app.services.accounts import auth
from app.services.platform import mail
from tests import factories as f
from tests.smtp_sink import SmtpSink


@pytest.fixture
def sink() -> Iterator[SmtpSink]:
    s = SmtpSink().start()
    yield s
    s.stop()


def smtp_settings(port: int) -> Settings:
    return Settings(_env_file=None, smtp_host="127.0.0.1", smtp_port=port, smtp_tls="none")  # type: ignore[call-arg]


def test_enqueued_mail_is_delivered_over_smtp(session: Session, sink: SmtpSink) -> None:
    letter = mail.Letter("Hello", "Plain body", "<p>HTML body</p>")
    mail.enqueue(session, public=False, to="ann@example.com", letter=letter)
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    [msg] = sink.messages
    assert msg["To"] == "ann@example.com"
    assert msg["Subject"] == "Hello"
    assert "Plain body" in msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    row = session.exec(select(EmailOutbox)).one()
    assert row.status == OutboxStatus.sent and row.sent_at is not None and row.attempts == 1
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 0  # never sent twice


def _dead_port() -> int:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_mail_waits_and_retries_while_smtp_is_down(session: Session) -> None:
    dead_port = _dead_port()
    mail.enqueue(session, public=False, to="bob@example.com", letter=mail.Letter("Code", "123456"))
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(dead_port)) == 0
    row = session.exec(select(EmailOutbox)).one()
    assert row.status == OutboxStatus.pending
    # The server was not reached: the message is not at fault and spends none of its attempts; it waits a short
    # while, not its back-off, so an outage of a minute delays it by about a minute.
    assert row.attempts == 0 and row.last_error and "ConnectionRefusedError" in row.last_error
    assert row.next_attempt_at is not None
    assert mail.UNREACHABLE_RETRY - timedelta(seconds=10) < row.next_attempt_at - utcnow() <= mail.UNREACHABLE_RETRY
    # Not due yet: a second run does not hammer the server.
    assert mail.deliver_pending(session, cfg=smtp_settings(dead_port)) == 0
    assert session.exec(select(EmailOutbox)).one().last_error == row.last_error


def test_an_unreachable_server_costs_one_connection_per_pass_not_one_per_message(
    session: Session, sink: SmtpSink
) -> None:
    for n in range(5):
        mail.enqueue(session, public=False, to=f"q{n}@example.com", letter=mail.Letter(f"Queued {n}", "t"))
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(_dead_port())) == 0
    rows = session.exec(select(EmailOutbox).order_by(EmailOutbox.id)).all()  # type: ignore[arg-type]
    assert [r.last_error is not None for r in rows] == [True, False, False, False, False]
    assert all(r.status == OutboxStatus.pending and r.attempts == 0 for r in rows)
    # The server is back: the others go at once, the one that waits goes once its short delay is over.
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 4
    rows[0].next_attempt_at = utcnow() - timedelta(seconds=1)
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    assert sorted(m["Subject"] for m in sink.messages) == [f"Queued {n}" for n in range(5)]


def test_one_pass_delivers_its_messages_over_one_smtp_session(session: Session, sink: SmtpSink) -> None:
    for n in range(20):
        mail.enqueue(session, public=False, to=f"s{n}@example.com", letter=mail.Letter(f"Batch {n}", "t"))
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 20
    assert len(sink.messages) == 20 and sink.sessions == 1


def test_a_refused_message_does_not_end_the_session_for_the_others(session: Session, sink: SmtpSink) -> None:
    mail.enqueue(session, public=False, to="refused@example.com", letter=mail.Letter("Refused", "t"))
    mail.enqueue(session, public=False, to="fine@example.com", letter=mail.Letter("Fine", "t"))
    session.commit()
    sink.refuse("550 No such mailbox", to={"refused@example.com"})
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    assert [m["Subject"] for m in sink.messages] == ["Fine"] and sink.sessions == 1


def test_mail_is_marked_failed_only_after_the_last_attempt(session: Session, sink: SmtpSink) -> None:
    sink.refuse("451 Try again later")  # reached, but the message is refused: that spends an attempt
    row = mail.enqueue(session, public=False, to="c@example.com", letter=mail.Letter("s", "t"))
    row.attempts = mail.MAX_ATTEMPTS - 2
    session.commit()
    mail.deliver_pending(session, cfg=smtp_settings(sink.port))
    row = session.exec(select(EmailOutbox)).one()
    assert row.status == OutboxStatus.pending and row.attempts == mail.MAX_ATTEMPTS - 1
    row.next_attempt_at = utcnow() - timedelta(seconds=1)
    session.commit()
    mail.deliver_pending(session, cfg=smtp_settings(sink.port))
    row = session.exec(select(EmailOutbox)).one()
    assert row.status == OutboxStatus.failed and "451" in (row.last_error or "")


def test_retry_after_smtp_comes_back(session: Session, sink: SmtpSink) -> None:
    row = mail.enqueue(session, public=False, to="d@example.com", letter=mail.Letter("Later", "t"))
    row.attempts = 2
    row.next_attempt_at = utcnow() - timedelta(seconds=1)
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    assert [m["Subject"] for m in sink.messages] == ["Later"]


def test_without_smtp_host_mail_goes_to_the_log(session: Session, caplog: pytest.LogCaptureFixture) -> None:
    mail.enqueue(session, public=False, to="e@example.com", letter=mail.Letter("Your code", "Your code is 654321"))
    session.commit()
    cfg = Settings(_env_file=None, smtp_host=None)  # type: ignore[call-arg]
    with caplog.at_level(logging.WARNING, logger="app.services.platform.mail"):
        assert mail.deliver_pending(session, cfg=cfg) == 1
    assert "654321" in caplog.text


def test_uncommitted_mail_is_never_sent(session: Session, sink: SmtpSink) -> None:
    mail.enqueue(session, public=False, to="f@example.com", letter=mail.Letter("Rolled back", "t"))
    session.rollback()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 0
    assert sink.messages == []


def test_queue_health_counts(session: Session) -> None:
    mail.enqueue(session, public=False, to="g@example.com", letter=mail.Letter("s", "t"))
    session.commit()
    health = mail.queue_health(session)
    assert health.pending == 1 and health.failed == 0


# Every character that some mail reader, Python's email package or str.splitlines() treats as the end of a line,
# plus other control characters and a tab.
BREAKERS = ["\r\n", "\r", "\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x00", "\x1b", "\t"]


@pytest.mark.parametrize("breaker", BREAKERS, ids=[repr(b) for b in BREAKERS])
def test_header_values_are_made_one_line_at_enqueue(session: Session, sink: SmtpSink, breaker: str) -> None:
    row = mail.enqueue(
        session,
        public=False,
        to="h@example.com",
        letter=mail.Letter(f"  Job X{breaker}Bcc: attacker@example.com{breaker}  ", "t"),
    )
    session.commit()
    assert row.subject.startswith("Job X") and row.subject.endswith("Bcc: attacker@example.com")
    assert row.subject.isprintable() and row.subject == " ".join(row.subject.split())
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    [msg] = sink.messages
    assert msg["Bcc"] is None and sink.recipients == [["h@example.com"]]
    assert msg["Subject"] == row.subject


def test_subject_is_capped_to_the_column_on_a_character_boundary(session: Session, sink: SmtpSink) -> None:
    letter = mail.Letter("Meeting: " + "\U0001f600" * 300, "t")
    row = mail.enqueue(session, public=False, to="i@example.com", letter=letter)
    session.commit()
    assert len(row.subject) == 255 and row.subject.endswith("\U0001f600")
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    assert sink.messages[0]["Subject"] == row.subject


def test_unencodable_text_is_repaired_at_enqueue(session: Session, sink: SmtpSink) -> None:
    row = mail.enqueue(
        session,
        public=False,
        to="j@example.com",
        letter=mail.Letter("Hi \ud800", "Hello \ud800 and \x00 there\nsecond line"),
    )
    session.commit()
    assert row.subject == "Hi \ufffd"
    assert row.body_text == "Hello \ufffd and  there\nsecond line"
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1


@pytest.mark.parametrize(
    "to",
    [
        "a@example.com, b@example.com",
        "a@example.com\r\nBcc: attacker@example.com",
        "a@example.com\u2028Bcc: attacker@example.com",
        "Ann <a@example.com>",
        "not an address",
        "",
    ],
)
def test_enqueue_refuses_anything_but_one_address(session: Session, to: str) -> None:
    with pytest.raises(ValueError, match="one valid e-mail address"):
        mail.enqueue(session, public=False, to=to, letter=mail.Letter("s", "t"))


def poisoned_row(session: Session, **fields: str) -> EmailOutbox:
    """A row written past enqueue (an old release, a manual insert): the outbox must survive it."""
    values = {"to_address": "victim@example.com", "subject": "s", "body_text": "t", **fields}
    row = EmailOutbox(**values, next_attempt_at=utcnow())  # type: ignore[arg-type]
    session.add(row)
    session.commit()
    return row


def verification_mail(session: Session) -> str:
    user = f.user(session, "verifyme", is_verified=False)
    return auth.issue_code(session, user)


def test_a_message_that_cannot_be_built_is_failed_and_the_next_one_is_sent(
    session: Session, sink: SmtpSink, caplog: pytest.LogCaptureFixture
) -> None:
    poison = poisoned_row(session, subject="Hi\r\nBcc: attacker@example.com")
    code = verification_mail(session)
    with caplog.at_level(logging.DEBUG, logger="app.services.platform.mail"):
        assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    [msg] = sink.messages
    assert code in msg["Subject"] and sink.recipients == [["verifyme@example.com"]]
    session.refresh(poison)
    assert poison.status == OutboxStatus.failed and poison.attempts == 1
    assert poison.last_error and "ValueError" in poison.last_error
    assert code not in caplog.text  # the verification code is in the subject and the body: neither is logged
    # Never retried: the next pass leaves it alone.
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 0
    session.refresh(poison)
    assert poison.attempts == 1 and len(sink.messages) == 1


def test_a_body_that_cannot_be_encoded_is_failed_and_the_next_one_is_sent(session: Session, sink: SmtpSink) -> None:
    # PostgreSQL cannot store a lone surrogate, so hand the row to the sender as if the driver had returned one.
    poison = poisoned_row(session)
    set_committed_value(poison, "body_text", "Your code \ud800")
    verification_mail(session)
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    assert sink.recipients == [["verifyme@example.com"]]
    assert poison.status == OutboxStatus.failed and poison.last_error and "UnicodeEncodeError" in poison.last_error


def test_a_stored_list_of_recipients_is_never_sent(session: Session, sink: SmtpSink) -> None:
    poison = poisoned_row(session, to_address="a@example.com, b@example.com")
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 0
    assert sink.messages == [] and poison.status == OutboxStatus.failed


def test_an_unexpected_send_error_is_retried_later_and_does_not_block_the_queue(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = mail.enqueue(session, public=False, to="k@example.com", letter=mail.Letter("First", "t"))
    second = mail.enqueue(session, public=False, to="l@example.com", letter=mail.Letter("Second", "t"))
    session.commit()
    tried: list[str] = []

    def broken_send(_connection: object, msg: EmailMessage) -> None:
        tried.append(str(msg["Subject"]))
        raise RuntimeError("library bug")

    monkeypatch.setattr(mail._Connection, "send", broken_send)
    assert mail.deliver_pending(session, cfg=smtp_settings(1)) == 0
    assert tried == ["First", "Second"]
    for row in (first, second):
        assert row.status == OutboxStatus.pending and row.attempts == 1
        assert row.last_error == "RuntimeError: library bug"
        assert row.next_attempt_at is not None and row.next_attempt_at > utcnow()
