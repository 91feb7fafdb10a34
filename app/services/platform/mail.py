"""Outgoing e-mail through the outbox: written in the caller's transaction, delivered over SMTP with retries.

Nothing is lost when the SMTP server is down: a message stays `pending` and is retried with back-off, and only after
the last attempt is it marked `failed` (kept for the operator). A row that cannot make a valid message is marked
`failed` at once, so it never holds up the ones behind it. Without SMTP_HOST, delivery writes the message to the
server log instead, so a local user can still read a verification code.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import logging
import re
import smtplib
import ssl
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import func, or_
from sqlmodel import Session, col, select

from app.core.config import Settings, settings
from app.core.permissions import STAFF_ROLES
from app.models.base import utcnow
from app.models.enums import OutboxStatus
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.platform import company, ratelimit

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
BATCH_SIZE = 50
SUBJECT_MAX = 255  # the column's width
# Unicode categories that must not survive into a header: controls (CR, LF, NUL, NEL, VT, FF, tab ...) and the
# line and paragraph separators.
_BREAKING = frozenset({"Cc", "Zl", "Zp"})


def header_text(value: str, limit: int = SUBJECT_MAX) -> str:
    """`value` as one line of printable text, trimmed and capped, safe for any mail header.

    CR and LF are only the start: mail readers, Python's email package and str.splitlines() also end a line at
    U+2028, U+2029, NEL, VT and FF, so every control and separator character becomes a space. Lone surrogates cannot
    be encoded at all; they become U+FFFD. Python counts code points, so the cap never splits a character.
    """
    cleaned = "".join(
        " " if unicodedata.category(ch) in _BREAKING else "\ufffd" if _is_surrogate(ch) else ch for ch in value
    )
    return " ".join(cleaned.split())[:limit].rstrip()


def _is_surrogate(ch: str) -> bool:
    return "\ud800" <= ch <= "\udfff"


def _body_text(value: str) -> str:
    # PostgreSQL stores no NUL and UTF-8 has no lone surrogates: either would fail the caller's whole transaction.
    return "".join("\ufffd" if _is_surrogate(ch) else ch for ch in value.replace("\x00", ""))


def recipient(to: str) -> str:
    """The one address `to` names, normalised; ValueError for anything else (a list, a display name, a header).

    Callers pass addresses already validated where they were typed, so a refusal here is a programming error.
    """
    try:
        return validate_email(to, check_deliverability=False).normalized
    except EmailNotValidError as exc:
        raise ValueError(f"A mail must go to exactly one valid e-mail address: {exc}") from None


@dataclass(frozen=True)
class Attachment:
    """A small text attachment (an iCalendar invitation), or a file of one of BINARY_TYPES given as bytes (an
    invoice's PDF); a text type may carry parameters (`; method=REQUEST`)."""

    filename: str
    content_type: str
    content: str | bytes


# A file name and a content type with parameters, nothing a header could be broken with.
_FILENAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_CONTENT_TYPE = re.compile(r"(text/[a-z0-9.+-]+)((?:; ?[a-z-]+=[A-Za-z0-9._-]+)*)")
# Binary files a letter may carry, each with what its bytes must start with: a file of another kind under the name
# is refused rather than sent to a client as if it were what its type says.
BINARY_TYPES = {"application/pdf": b"%PDF-"}
# A binary attachment is kept in the outbox row until sent (base64 in its JSON): an invoice's PDF is tens of KB; the
# cap keeps one row, and one message, far below what mail servers take (10 MB and more once base64-encoded).
BINARY_MAX_BYTES = 2 * 1024 * 1024
BASE64 = "base64"


def _attachment(a: Attachment) -> dict[str, str]:
    if not _FILENAME.fullmatch(a.filename):
        raise ValueError("An attachment needs a plain file name")
    if isinstance(a.content, bytes):
        _check_binary(a.content_type, a.content)
        encoded = base64.b64encode(a.content).decode("ascii")
        return {"filename": a.filename, "content_type": a.content_type, "encoding": BASE64, "content": encoded}
    if not _CONTENT_TYPE.fullmatch(a.content_type):
        raise ValueError("A text attachment needs a text/* content type")
    return {"filename": a.filename, "content_type": a.content_type, "content": _body_text(a.content)}


def _check_binary(content_type: str, content: bytes) -> None:
    magic = BINARY_TYPES.get(content_type)
    if magic is None:
        raise ValueError(f"A binary attachment must be one of {', '.join(sorted(BINARY_TYPES))}")
    if len(content) > BINARY_MAX_BYTES:
        raise ValueError(f"An attachment cannot exceed {BINARY_MAX_BYTES // (1024 * 1024)} MB")
    if not content.startswith(magic):
        raise ValueError(f"The attachment's content is not {content_type}")


@dataclass(frozen=True)
class Letter:
    """A message's parts: a subject, the text, and an HTML alternative of it (the letters module renders them)."""

    subject: str
    text: str
    html: str | None = None


def enqueue(
    s: Session,
    *,
    to: str,
    letter: Letter,
    public: bool,
    attachments: Sequence[Attachment] = (),
) -> EmailOutbox | None:
    """Add a message to the outbox; it is sent only if the caller's transaction commits.

    `public`: anyone outside the staff can cause this mail (a form, a link, a sign-up), so it counts against the daily
    caps per recipient and in total; past either it is dropped (logged) and None returned. Every caller must say,
    so no sender the public can reach is left uncapped by default.

    Letters come from `letters.render` (their templates). Subjects are built from names, job codes and titles that
    visitors and staff type: they are made one line here, the one place every message passes, so no stored row can
    carry a header that fails to build or injects another.
    Attachments have a plain file name and either text with a `text/*` type or bytes of one of BINARY_TYPES (at most
    BINARY_MAX_BYTES, kept base64 in the row until sent), checked here and again when built.
    """
    address = recipient(to)
    if public and not _within_public_caps(s, address):
        log.warning("Public mail to %s dropped: the daily cap of mail the public can trigger is reached", address)
        return None
    message = EmailOutbox(
        to_address=address,
        subject=header_text(letter.subject),
        body_text=_body_text(letter.text),
        body_html=_body_text(letter.html) if letter.html is not None else None,
        attachments=[_attachment(a) for a in attachments],
        next_attempt_at=utcnow(),
    )
    s.add(message)
    return message


PUBLIC_WINDOW = timedelta(days=1)
PUBLIC_TOTAL = "mail:public"


def mailbox(address: str) -> str:
    """The mailbox an address reaches, for counting: case-insensitive, and without a `+tag` (a@x and A+1@X land in
    one inbox, so they share one cap)."""
    local, _, domain = address.lower().rpartition("@")
    return f"{local.split('+', 1)[0] or local}@{domain}"


def _within_public_caps(s: Session, address: str) -> bool:
    """Count one public mail to `address`, or refuse it, in the caller's transaction (rolled back with it).

    Per recipient the count is exact under concurrency: ratelimit holds the recipient's lock until the caller commits.
    The total is a backstop far above a normal day, counted without a lock: one lock for all public mail, held to
    each caller's commit, would queue every sign-up and booking behind the slowest, and make any two transactions
    that mail two addresses each a possible deadlock. A burst can pass it by the mails in flight at that moment.
    """
    if ratelimit.count(s, PUBLIC_TOTAL, PUBLIC_WINDOW) >= settings.public_mail_per_day:
        return False
    ours = _our_inbox(s, address)
    limit = settings.public_mail_per_staff_inbox_per_day if ours else settings.public_mail_per_recipient_per_day
    if not ratelimit.claim(s, ratelimit.Limit(f"mail:public:to:{mailbox(address)}", limit, PUBLIC_WINDOW)):
        return False
    ratelimit.record(s, PUBLIC_TOTAL)
    return True


def _our_inbox(s: Session, address: str) -> bool:
    """Whether the address is the company's own: a staff account's, the staff notification inbox, or the company's
    (the organizer of meetings without one). Strangers cannot turn those against a third party, and each inquiry,
    application or booking that mails them is a day's real business, so their cap is far higher (still bounded)."""
    box = mailbox(address)
    inboxes = [settings.staff_notify_email or "", company.profile(s).email or ""]
    if any(mailbox(inbox) == box for inbox in inboxes if inbox):
        return True
    staff = select(func.count()).select_from(User).where(func.lower(User.email) == address.lower())
    return bool(s.exec(staff.where(col(User.role).in_(STAFF_ROLES))).one())


def _retry_delay(attempts: int) -> timedelta:
    return timedelta(minutes=min(2**attempts, 240))  # 2, 4, 8 ... minutes, at most 4 hours


def build_message(row: EmailOutbox, cfg: Settings = settings) -> EmailMessage:
    """The message for an outbox row; raises (ValueError, UnicodeError ...) when the row cannot make a valid one."""
    msg = EmailMessage()
    msg["From"] = cfg.mail_from
    # Checked again here: a row may predate enqueue's checks or be written by hand, and a list here is a mass mailing.
    msg["To"] = recipient(row.to_address)
    msg["Subject"] = row.subject  # not cleaned again: a header that enqueue did not write is refused, not rewritten
    msg["Message-ID"] = make_msgid(domain=cfg.mail_from.rsplit("@", 1)[-1].strip("> ") or None)
    msg.set_content(row.body_text)
    if row.body_html:
        msg.add_alternative(row.body_html, subtype="html")
    for item in row.attachments or []:
        _attach(msg, item)
    msg.as_bytes()  # serialise once, so an encoding problem shows here (permanent) and not while sending (retried)
    return msg


def _attach(msg: EmailMessage, item: object) -> None:
    # Checked again: a row may be written by hand; a bad one raises and is marked failed, never sent half-built.
    if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ATTACHMENT_KEYS):
        raise ValueError("malformed attachment")
    if item.get("encoding") == BASE64:
        try:
            content = base64.b64decode(item["content"], validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("malformed attachment: its base64 content does not decode") from None
        _attachment(Attachment(item["filename"], item["content_type"], content))  # the name, type, size and bytes
        maintype, subtype = item["content_type"].split("/", 1)
        msg.add_attachment(content, maintype=maintype, subtype=subtype, filename=item["filename"])
        return
    if "encoding" in item:
        raise ValueError("malformed attachment: unknown encoding")
    checked = _attachment(Attachment(item["filename"], item["content_type"], item["content"]))
    maintype_subtype, _, params = checked["content_type"].partition(";")
    subtype = maintype_subtype.split("/", 1)[1]
    extra = dict(p.strip().split("=", 1) for p in params.split(";") if p.strip())
    msg.add_attachment(checked["content"], subtype=subtype, filename=checked["filename"], params=extra)


ATTACHMENT_KEYS = ("filename", "content_type", "content")


class _Unreachable(Exception):
    """Connecting to the SMTP server failed (refused, timed out, no greeting)."""


def _connect(cfg: Settings) -> smtplib.SMTP:
    assert cfg.smtp_host
    try:
        if cfg.smtp_tls == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                cfg.smtp_host, cfg.smtp_port, timeout=20, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=20)
    except OSError as exc:  # refused, timed out, no greeting (smtplib's errors are OSErrors too)
        # Only the connection itself: an error once the server has answered may be this message's fault.
        raise _Unreachable(f"{exc.__class__.__name__}: {exc}") from exc
    try:
        if cfg.smtp_tls == "starttls":
            smtp.starttls(context=ssl.create_default_context())
        if cfg.smtp_user and cfg.smtp_password:
            smtp.login(cfg.smtp_user, cfg.smtp_password.get_secret_value())
    except BaseException:
        smtp.close()
        raise
    return smtp


class _Connection:
    """One SMTP session for a pass over the outbox, opened for its first message and reused for the others.

    A connection (and TLS handshake and login) per message capped delivery at a few messages a second, less than
    a busy contact form queues. A server that closed the session between two messages gets one new connection.
    """

    def __init__(self, cfg: Settings) -> None:
        self.cfg = cfg
        self._smtp: smtplib.SMTP | None = None

    def send(self, msg: EmailMessage) -> None:
        fresh = self._smtp is None
        if self._smtp is None:
            self._smtp = _connect(self.cfg)
        try:
            self._smtp.send_message(msg)  # on a refusal smtplib resets the transaction: the session stays usable
        except smtplib.SMTPServerDisconnected:
            self._smtp = None
            if fresh:
                raise
            self._smtp = _connect(self.cfg)
            self._smtp.send_message(msg)

    def close(self) -> None:
        if self._smtp is not None:
            with contextlib.suppress(OSError):
                self._smtp.quit()
            self._smtp.close()
            self._smtp = None


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
    """Send due messages, one per transaction; returns how many were delivered.

    No message can stop the queue: each row's outcome (sent, retry later, failed) is committed before the next row is
    claimed, and no exception of one message escapes, since the same row would otherwise come first again next pass.
    """
    now = utcnow()
    sent = 0
    connection = _Connection(cfg)
    try:
        for _ in range(limit):
            row = _claim_next(s, now)
            if row is None:
                break
            try:
                sent += _deliver(row, cfg, connection.send)
            except ServerUnreachable:
                s.add(row)
                s.commit()
                break  # every other message would wait out the same connection timeout: try them all next pass
            s.add(row)
            s.commit()  # releases the row lock; a crash never re-sends what was already delivered
    finally:
        connection.close()
    return sent


class ServerUnreachable(Exception):
    """The SMTP server could not be reached at all: no message is at fault, so none spends an attempt."""


# While the server is down, messages wait this long (not their back-off) for the next try: an outage of a minute
# delays the mail by about a minute, and a long one costs one connection attempt per pass, not one per message.
UNREACHABLE_RETRY = timedelta(seconds=15)


def _deliver(row: EmailOutbox, cfg: Settings, send: Callable[[EmailMessage], None]) -> bool:
    """Send one row and record its outcome on it; raises ServerUnreachable (row rescheduled) when SMTP is down."""
    # Logs name the row and the recipient, never the subject or body: they carry verification codes.
    row.attempts += 1
    try:
        msg = build_message(row, cfg)
    except Exception as exc:  # the row itself is bad: no retry can fix it
        row.status = OutboxStatus.failed
        row.last_error = _error_text(exc)
        log.error("Outbox message %s to %s cannot be built; marked failed: %s", row.id, row.to_address, row.last_error)
        return False
    try:
        if cfg.smtp_host:
            send(msg)
        else:
            log.warning("SMTP_HOST is not set; mail not sent, shown here instead:\n%s", msg.as_string())
    except _Unreachable as exc:
        row.attempts -= 1
        row.last_error = _error_text(exc)
        row.next_attempt_at = utcnow() + UNREACHABLE_RETRY
        log.warning("SMTP server unreachable; outbox message %s waits: %s", row.id, row.last_error)
        raise ServerUnreachable from exc
    except Exception as exc:  # SMTP and network errors, and anything unexpected: worth another attempt later
        row.last_error = _error_text(exc)
        if row.attempts >= MAX_ATTEMPTS:
            row.status = OutboxStatus.failed
            log.error("Giving up on outbox message %s to %s: %s", row.id, row.to_address, row.last_error)
        else:
            row.next_attempt_at = utcnow() + _retry_delay(row.attempts)
            log.warning("Outbox message %s not delivered (attempt %s): %s", row.id, row.attempts, row.last_error)
        return False
    row.status = OutboxStatus.sent
    row.sent_at = utcnow()
    row.last_error = None
    return True


def _error_text(exc: Exception) -> str:
    # Stored in a 500-character column of a database that refuses NUL; one line keeps the log line one line too.
    return header_text(f"{exc.__class__.__name__}: {exc}", 500)


@dataclass(frozen=True)
class QueueHealth:
    """The outbox now: messages waiting and given up on, how long the oldest has waited, whether SMTP is set up."""

    pending: int
    failed: int
    oldest_pending_seconds: int
    smtp: bool


def queue_health(s: Session) -> QueueHealth:
    """Pending and failed counts, and the age of the oldest pending message (the dashboard's check, /metrics)."""
    pending = s.exec(select(func.count()).where(EmailOutbox.status == OutboxStatus.pending)).one()
    failed = s.exec(select(func.count()).where(EmailOutbox.status == OutboxStatus.failed)).one()
    oldest = s.exec(select(func.min(EmailOutbox.created_at)).where(EmailOutbox.status == OutboxStatus.pending)).one()
    if oldest is not None and oldest.tzinfo is None:  # SQLite returns naive values from aggregates
        oldest = oldest.replace(tzinfo=UTC)
    age = (utcnow() - oldest).total_seconds() if oldest else 0.0
    return QueueHealth(int(pending), int(failed), round(age), bool(settings.smtp_host))
