"""Outgoing e-mail through the outbox: written in the caller's transaction, delivered over SMTP with retries.

Nothing is lost when the SMTP server is down: a message stays `pending` and is retried with back-off, and only after
the last attempt is it marked `failed` (kept for the operator). Without SMTP_HOST, delivery writes the message to the
server log instead, so a local user can still read a verification code.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import func, or_
from sqlmodel import Session, col, select

from app.core.config import Settings, settings
from app.models.base import utcnow
from app.models.enums import OutboxStatus
from app.models.system import EmailOutbox

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
BATCH_SIZE = 50


def enqueue(s: Session, *, to: str, subject: str, text: str, html: str | None = None) -> EmailOutbox:
    """Add a message to the outbox; it is sent only if the caller's transaction commits."""
    message = EmailOutbox(
        to_address=to, subject=subject[:255], body_text=text, body_html=html, next_attempt_at=utcnow()
    )
    s.add(message)
    return message


def _retry_delay(attempts: int) -> timedelta:
    return timedelta(minutes=min(2**attempts, 240))  # 2, 4, 8 ... minutes, at most 4 hours


def build_message(row: EmailOutbox, cfg: Settings = settings) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = cfg.mail_from
    msg["To"] = row.to_address
    msg["Subject"] = row.subject
    msg["Message-ID"] = make_msgid(domain=cfg.mail_from.rsplit("@", 1)[-1].strip("> ") or None)
    msg.set_content(row.body_text)
    if row.body_html:
        msg.add_alternative(row.body_html, subtype="html")
    return msg


def _send(msg: EmailMessage, cfg: Settings) -> None:
    assert cfg.smtp_host
    if cfg.smtp_tls == "ssl":
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(
            cfg.smtp_host, cfg.smtp_port, timeout=20, context=ssl.create_default_context()
        )
    else:
        smtp = smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=20)
    with smtp:
        if cfg.smtp_tls == "starttls":
            smtp.starttls(context=ssl.create_default_context())
        if cfg.smtp_user and cfg.smtp_password:
            smtp.login(cfg.smtp_user, cfg.smtp_password.get_secret_value())
        smtp.send_message(msg)


def _claim_next(s: Session, now: datetime) -> EmailOutbox | None:
    query = (
        select(EmailOutbox)
        .where(EmailOutbox.status == OutboxStatus.pending)
        .where(or_(col(EmailOutbox.next_attempt_at).is_(None), col(EmailOutbox.next_attempt_at) <= now))
        .order_by(col(EmailOutbox.id))
        .limit(1)
        .with_for_update(skip_locked=True)  # another worker skips a row being sent; SQLite has one writer anyway
    )
    return s.exec(query).first()


def deliver_pending(s: Session, *, cfg: Settings = settings, limit: int = BATCH_SIZE) -> int:
    """Send due messages, one per transaction; returns how many were delivered."""
    now = utcnow()
    sent = 0
    for _ in range(limit):
        row = _claim_next(s, now)
        if row is None:
            break
        row.attempts += 1
        try:
            msg = build_message(row, cfg)
            if cfg.smtp_host:
                _send(msg, cfg)
            else:
                log.warning("SMTP_HOST is not set; mail not sent, shown here instead:\n%s", msg.as_string())
        except (OSError, smtplib.SMTPException) as exc:
            row.last_error = f"{exc.__class__.__name__}: {exc}"[:500]
            if row.attempts >= MAX_ATTEMPTS:
                row.status = OutboxStatus.failed
                log.error("Giving up on outbox message %s to %s: %s", row.id, row.to_address, row.last_error)
            else:
                row.next_attempt_at = now + _retry_delay(row.attempts)
                log.warning("Outbox message %s not delivered (attempt %s): %s", row.id, row.attempts, row.last_error)
        else:
            row.status = OutboxStatus.sent
            row.sent_at = utcnow()
            row.last_error = None
            sent += 1
        s.add(row)
        s.commit()  # releases the row lock; a crash never re-sends what was already delivered
    return sent


def queue_health(s: Session) -> dict[str, object]:
    """Pending and failed counts, and the age of the oldest pending message (for the admin dashboard)."""
    pending = s.exec(select(func.count()).where(EmailOutbox.status == OutboxStatus.pending)).one()
    failed = s.exec(select(func.count()).where(EmailOutbox.status == OutboxStatus.failed)).one()
    oldest = s.exec(select(func.min(EmailOutbox.created_at)).where(EmailOutbox.status == OutboxStatus.pending)).one()
    if oldest is not None and oldest.tzinfo is None:  # SQLite returns naive values from aggregates
        oldest = oldest.replace(tzinfo=UTC)
    age = (utcnow() - oldest).total_seconds() if oldest else 0.0
    return {
        "pending": pending,
        "failed": failed,
        "oldest_pending_seconds": round(age),
        "smtp": bool(settings.smtp_host),
    }
