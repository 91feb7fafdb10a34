"""Newsletter subscriptions with double opt-in: a pending row and an e-mailed link, which confirms it.

Every request answers the same neutral success, whether the address is new, pending or already confirmed, so the
form cannot be used to find out who subscribes.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Mapping
from datetime import timedelta
from typing import Annotated, Any

from pydantic import AfterValidator, ConfigDict, Field
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app.core.config import settings
from app.core.db import MAX_ID, get_by_id
from app.core.errors import Invalid
from app.core.net import network
from app.core.security import token_digest
from app.models.base import utcnow
from app.models.enums import SubscriberStatus
from app.models.inquiry import NewsletterSubscriber
from app.services.platform import letters, mail, ratelimit
from app.services.platform.schema import Body, Email, RawText, parse, required

CONFIRM_TTL = timedelta(days=7)
SUBSCRIBED = "Almost done! Check your inbox to confirm your subscription."
INVALID_EMAIL = "Please enter a valid email address"
LINK_INVALID = (
    "This confirmation link is invalid or has already been used. "
    "If you subscribed more than once, please use the link in the most recent e-mail."
)
LINK_EXPIRED = "This confirmation link has expired. Please subscribe again."
UNSUBSCRIBE_INVALID = "This unsubscribe link is invalid."
TOO_MANY = "Too many requests from your address. Please try again later."
PER_IP = (10, timedelta(hours=1))
# Confirmation mails per address and day: the form must not become a way to flood someone's inbox.
MAILS_PER_ADDRESS = (3, timedelta(days=1))
SOURCES = ("footer", "contact")  # the forms that ask; the first is the default


def _digest(token: str) -> str:
    return token_digest(f"newsletter:{token}")


def _new_token() -> str:
    # The expiry travels inside the token and is covered by the stored digest, so it cannot be altered and the
    # table needs no expiry column.
    expires = int(time.time() + CONFIRM_TTL.total_seconds())
    return f"{expires:x}.{secrets.token_urlsafe(24)}"


def _expired(token: str) -> bool:
    try:
        return int(token.split(".", 1)[0], 16) < time.time()
    except ValueError:
        return True


def confirm_url(token: str) -> str:
    return f"{settings.public_url}/api/newsletter/confirm?token={token}"


def stage(s: Session, *, email: str, source: str) -> None:
    """Record a request for a valid, normalised address in the caller's transaction (no commit, no IP limit)."""
    sub = s.exec(select(NewsletterSubscriber).where(NewsletterSubscriber.email == email)).first()
    if sub is not None and sub.status == SubscriberStatus.confirmed:
        return  # already subscribed: no mail, and the caller answers as usual
    if not ratelimit.claim(s, ratelimit.Limit(f"newsletter:mail:{email}", *MAILS_PER_ADDRESS)):
        return  # the earlier links still work; sending more would only flood the inbox
    token = _new_token()
    if sub is None:
        sub = NewsletterSubscriber(email=email)
        try:
            # A savepoint: a concurrent request for the same address must not undo the caller's own work.
            with s.begin_nested():
                s.add(sub)
        except IntegrityError:
            sub = s.exec(select(NewsletterSubscriber).where(NewsletterSubscriber.email == email)).one()
            if sub.status == SubscriberStatus.confirmed:
                return
    sub.status = SubscriberStatus.pending
    sub.confirm_token = _digest(token)
    sub.source = source[:30]
    s.add(sub)
    letter = letters.render(s, "newsletter_confirm", confirm_url=confirm_url(token), days=CONFIRM_TTL.days)
    mail.enqueue(s, to=email, letter=letter, public=True)


def _known_source(value: str | None) -> str:
    return value if value in SOURCES else SOURCES[0]


class SubscribeCreate(Body):
    """The Stay Updated box (or the contact form's checkbox): an address and where the request came from."""

    model_config = ConfigDict(json_schema_extra=required("email"))

    email: Annotated[str | None, Email(INVALID_EMAIL)] = Field(None, validate_default=True)
    source: Annotated[RawText, AfterValidator(_known_source)] = Field(
        SOURCES[0], description=f"One of {', '.join(SOURCES)}; anything else counts as {SOURCES[0]}."
    )


def subscribe(s: Session, *, data: SubscribeCreate | Mapping[str, Any], ip: str | None = None) -> str:
    """Ask for a subscription (double opt-in); returns the neutral success message; commits."""
    request = parse(SubscribeCreate, data)
    assert request.email and request.source  # required by the model
    if ip:
        ratelimit.hit(s, key=f"newsletter:ip:{network(ip)}", limit=PER_IP[0], window=PER_IP[1], message=TOO_MANY)
    stage(s, email=request.email, source=request.source)
    s.commit()
    return SUBSCRIBED


def confirm(s: Session, *, token: str) -> NewsletterSubscriber:
    """Confirm the subscription an e-mailed link names; a second click on the same link is still a success."""
    token = (token or "").strip()
    if not token or len(token) > 200:
        raise Invalid(LINK_INVALID)
    sub = s.exec(select(NewsletterSubscriber).where(NewsletterSubscriber.confirm_token == _digest(token))).first()
    if sub is None or sub.status == SubscriberStatus.unsubscribed:
        raise Invalid(LINK_INVALID)
    if sub.status == SubscriberStatus.confirmed:
        return sub
    if _expired(token):
        raise Invalid(LINK_EXPIRED)
    sub.status = SubscriberStatus.confirmed
    sub.confirmed_at = utcnow()
    s.add(sub)
    s.commit()
    return sub


def _unsubscribe_signature(sub_id: int, email: str) -> str:
    return token_digest(f"newsletter-unsubscribe:{sub_id}:{email}")[:32]


def unsubscribe_url(sub: NewsletterSubscriber) -> str:
    """A permanent one-click link for the foot of newsletter mails (signed, so ids cannot be guessed)."""
    token = f"{sub.id}.{_unsubscribe_signature(sub.id or 0, sub.email)}"
    return f"{settings.public_url}/api/newsletter/unsubscribe?token={token}"


def unsubscribe(s: Session, *, token: str) -> None:
    """Stop sending to the subscriber the signed token names; commits."""
    sub_id, _, signature = (token or "").strip().partition(".")
    # ASCII digits only ("²".isdigit() is true, int() refuses it), and few enough for int() to parse.
    plausible = sub_id.isascii() and sub_id.isdigit() and len(sub_id) <= len(str(MAX_ID))
    sub = get_by_id(s, NewsletterSubscriber, int(sub_id)) if plausible else None
    expected = _unsubscribe_signature(sub.id or 0, sub.email) if sub else ""
    if sub is None or not hmac.compare_digest(signature.encode(), expected.encode()):
        raise Invalid(UNSUBSCRIBE_INVALID)
    sub.status = SubscriberStatus.unsubscribed
    sub.confirm_token = None
    s.add(sub)
    s.commit()
