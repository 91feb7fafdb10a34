"""Calendly, when it is configured: the portal's tagged booking links, the signed webhook that reports bookings,
cancellations and reschedules, and cancelling an event there when a client cancels in the portal."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import time
import uuid
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

import httpx
from sqlmodel import Session, select

from app.core.config import settings
from app.core.errors import Unauthorized
from app.core.security import token_digest
from app.models.base import utcnow
from app.models.enums import MeetingStatus, Role
from app.models.meeting import Meeting
from app.models.user import User

log = logging.getLogger(__name__)

RESCHEDULE_URL = "https://calendly.com/reschedulings/{uuid}"
SIGNATURE_TOLERANCE_S = 300
CANCEL_TIMEOUT_S = 5.0
_EVENT_UUID = re.compile(r"^[A-Za-z0-9-]{1,64}$")


def verify_signature(header: str, body: bytes, secret: str, *, now: float | None = None) -> None:
    """Check Calendly's `t=...,v1=...` HMAC-SHA256 signature over "{t}.{body}", within five minutes."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    timestamp, signature = parts.get("t", ""), parts.get("v1", "")
    if not timestamp.isdigit() or not signature:
        raise Unauthorized("Invalid webhook signature")
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature):
        raise Unauthorized("Invalid webhook signature")
    if abs((now or time.time()) - int(timestamp)) > SIGNATURE_TOLERANCE_S:
        raise Unauthorized("Webhook signature has expired")


def _when(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def calendly_tag(user_id: uuid.UUID) -> str:
    """What the portal adds to a scheduling-service link (as `utm_content`, which the service reports back in the
    webhook's `tracking`): the signed-in client's id and a keyed digest of it, which nobody else can make."""
    return f"{user_id}.{token_digest(f'calendly-booker:{user_id}')[:32]}"


def calendly_link(url: str, client_id: uuid.UUID) -> str:
    """A scheduling-service booking link that tells the webhook which signed-in client booked."""
    return f"{url}{'&' if '?' in url else '?'}{urlencode({'utm_content': calendly_tag(client_id)})}"


def _tagged_client(s: Session, payload: dict[str, Any]) -> User | None:
    """The client whose portal link the booking came through (a valid tag), else None."""
    tag = str((payload.get("tracking") or {}).get("utm_content") or "")
    try:
        user_id = uuid.UUID(tag.partition(".")[0])
    except ValueError:
        return None
    if not hmac.compare_digest(calendly_tag(user_id), tag):
        return None
    user = s.get(User, user_id)
    return user if user is not None and user.role == Role.client else None


def apply_webhook(s: Session, event: dict[str, Any]) -> str:
    """Record a booking, cancellation or reschedule reported by the scheduling service; returns what happened.

    A booking is in a client's portal only when it came through that client's own tagged link (`calendly_link`):
    anyone can type a client's e-mail on the service's public page, so the address proves nothing. Other bookings are
    recorded for staff, in no portal, and staff can link them to a client.
    """
    kind, payload = event.get("event"), event.get("payload") or {}
    scheduled = payload.get("scheduled_event") or {}
    event_id = scheduled.get("uri")
    email = str(payload.get("email") or "").strip().lower()
    if kind not in ("invitee.created", "invitee.canceled") or not event_id or not email:
        return "ignored"
    meeting = s.exec(select(Meeting).where(Meeting.calendly_event_id == event_id)).first()
    if kind == "invitee.canceled":
        if meeting is None or meeting.status == MeetingStatus.cancelled:
            return "ignored"
        meeting.status = MeetingStatus.cancelled
        meeting.cancelled_at = utcnow()
        # A reschedule arrives as a cancellation of the old event followed by the new booking.
        rescheduled = bool(payload.get("rescheduled"))
        meeting.cancel_reason = (
            "Rescheduled" if rescheduled else ((payload.get("cancellation") or {}).get("reason") or "Cancelled")
        )
        s.add(meeting)
        s.commit()
        return "rescheduled" if rescheduled else "cancelled"
    if meeting is None:
        client = _tagged_client(s, payload)
        title = scheduled.get("name") or "Meeting"
        meeting = Meeting(title=title, calendly_event_id=event_id, client_id=client.id if client else None)
    meeting.start_time, meeting.end_time = _when(scheduled["start_time"]), _when(scheduled["end_time"])
    location = scheduled.get("location") or {}
    meeting.meeting_url = location.get("join_url") or meeting.meeting_url
    meeting.location = location.get("location") or meeting.location
    meeting.meeting_type = scheduled.get("name") or meeting.meeting_type
    meeting.attendees = [email]
    meeting.status = MeetingStatus.scheduled
    s.add(meeting)
    s.commit()
    return "booked"


def cancel_event(event_id: str | None, reason: str) -> str:
    """Cancel a Calendly-booked event at Calendly when it is configured; a sentence for the staff e-mail ("" when
    there was nothing to do). Never raises: the client's cancellation stands either way."""
    token = settings.calendly_token.get_secret_value() if settings.calendly_token else ""
    if not token or not event_id:
        return ""
    uuid = event_id.rstrip("/").rsplit("/", 1)[-1]
    if not _EVENT_UUID.match(uuid):
        return "The Calendly event id is not valid; please cancel it in Calendly."
    # Only to the configured API host: the bearer token goes nowhere else.
    url = f"{settings.calendly_api_url.rstrip('/')}/scheduled_events/{uuid}/cancellation"
    try:
        response = httpx.post(
            url,
            json={"reason": reason[:500]},
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
            timeout=CANCEL_TIMEOUT_S,
        )
    except httpx.HTTPError:
        log.warning("cancelling a Calendly event failed", exc_info=True)
        return "It could not be cancelled in Calendly (no answer); please cancel it there."
    if response.status_code in (200, 201, 204):
        return "It was cancelled in Calendly too."
    if response.status_code == 403 and "already" in response.text.lower():
        return "It was already cancelled in Calendly."
    log.warning("Calendly refused a cancellation: %s", response.status_code)
    return f"Calendly refused to cancel it (HTTP {response.status_code}); please cancel it there."
