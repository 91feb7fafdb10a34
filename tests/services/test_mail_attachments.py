"""Outbox attachments keep the queue's guarantees: checked at enqueue and again when built; a bad row fails alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import Session

from app.models.base import utcnow
from app.models.enums import OutboxStatus
from app.models.system import EmailOutbox
from app.services.platform import mail
from tests.services.test_mail import smtp_settings
from tests.smtp_sink import SmtpSink

ICS = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"


@pytest.fixture
def sink() -> Iterator[SmtpSink]:
    s = SmtpSink().start()
    yield s
    s.stop()


def test_an_attachment_arrives_with_its_type_and_parameters(session: Session, sink: SmtpSink) -> None:
    invite = mail.Attachment("invite.ics", "text/calendar; method=REQUEST", ICS)
    mail.enqueue(
        session, public=False, to="ann@example.com", letter=mail.Letter("Invite", "See attached"), attachments=[invite]
    )
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    [part] = list(sink.messages[0].iter_attachments())
    assert part.get_content_type() == "text/calendar" and part.get_param("method") == "REQUEST"
    assert part.get_filename() == "invite.ics" and "BEGIN:VCALENDAR" in part.get_content()


@pytest.mark.parametrize(
    ("filename", "content_type"),
    [
        ("invite.ics\r\nBcc: x@example.com", "text/calendar"),
        ("../invite.ics", "text/calendar"),
        ("invite.ics", "application/octet-stream"),
        ("invite.ics", "text/calendar; method=REQUEST\r\nBcc: x@example.com"),
    ],
)
def test_enqueue_refuses_unsafe_names_and_types(session: Session, filename: str, content_type: str) -> None:
    with pytest.raises(ValueError):
        mail.enqueue(
            session,
            public=False,
            to="a@example.com",
            letter=mail.Letter("s", "t"),
            attachments=[mail.Attachment(filename, content_type, "")],
        )


def test_a_poisoned_attachment_fails_its_row_alone(session: Session, sink: SmtpSink) -> None:
    bad = EmailOutbox(
        to_address="a@example.com",
        subject="Bad",
        body_text="x",
        attachments=[{"filename": "x\r\nBcc: y@example.com", "content_type": "text/plain", "content": ""}],
        next_attempt_at=utcnow(),
    )
    session.add(bad)
    mail.enqueue(session, public=False, to="b@example.com", letter=mail.Letter("Good", "ok"))
    session.commit()
    assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 1
    assert sink.recipients == [["b@example.com"]]
    session.refresh(bad)
    assert bad.status == OutboxStatus.failed and bad.attempts == 1
