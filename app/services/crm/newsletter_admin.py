"""Newsletter subscribers as staff see them (Content Management > Newsletter): the list, its CSV export, and
unsubscribing someone who asked by other means (a reply, a phone call). content:read sees, content:write changes.

Subscribing stays with the visitor (crm/newsletter.py, double opt-in): no staff call adds an address, because
consent must come from whoever owns it. A staff unsubscribe is final on the staff side (nothing here subscribes the
address again; only the visitor's own new double opt-in does) and is recorded in the audit log.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Unpack

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.core.permissions import Perm
from app.models.enums import SubscriberStatus
from app.models.inquiry import NewsletterSubscriber
from app.models.user import User
from app.services.platform import audit
from app.services.platform.access import found, require
from app.services.platform.csv_export import table
from app.services.platform.paging import Listing, Ordering, Page, View, one_of

SUBSCRIBER_SORTS = {
    "newest": (col(NewsletterSubscriber.created_at).desc(), col(NewsletterSubscriber.id).desc()),
    "oldest": (col(NewsletterSubscriber.created_at), col(NewsletterSubscriber.id)),
    "email": (col(NewsletterSubscriber.email), col(NewsletterSubscriber.id)),  # stored lower-case
}
SUBSCRIBER_SEARCH = (NewsletterSubscriber.email,)
SUBSCRIBER_COLUMNS = ("id", "created_at", "email", "status", "source", "confirmed_at")
READING = "view newsletter subscribers"
CHANGING = "unsubscribe newsletter subscribers"


class SubscriberPublic(BaseModel):
    id: int
    email: str
    status: str  # pending (link not clicked yet), confirmed or unsubscribed
    source: str | None  # the form that asked: footer or contact
    confirmed_at: str | None
    created_at: str


def subscriber_dto(sub: NewsletterSubscriber) -> SubscriberPublic:
    return SubscriberPublic(
        **sub.model_dump(include={"email", "source"}),
        id=sub.id or 0,
        status=str(sub.status),
        confirmed_at=sub.confirmed_at.isoformat() if sub.confirmed_at else None,
        created_at=sub.created_at.isoformat(),
    )


SUBSCRIBERS = Listing(subscriber_dto, SUBSCRIBER_SORTS, SUBSCRIBER_SEARCH)


def _subscribers(actor: User, *, status: str) -> Any:
    """The query the list and the export share (so they cannot drift), after the permission check."""
    require(actor, Perm.content_read, READING)
    return one_of(select(NewsletterSubscriber), NewsletterSubscriber.status, status, SubscriberStatus)


def list_subscribers(s: Session, *, actor: User, status: str = "", **view: Unpack[View]) -> Page[SubscriberPublic]:
    """A page of subscribers (newest first unless sorted: oldest, email), by status, searched in the e-mail address
    (content:read)."""
    query = _subscribers(actor, status=status)
    return SUBSCRIBERS.page(s, query, **view)


def export_subscribers(s: Session, *, actor: User, status: str = "", **order: Unpack[Ordering]) -> Iterator[str]:
    """Every subscriber the list shows with these filters, as CSV text in pieces (checked before the first)."""
    query = _subscribers(actor, status=status)
    rows = (row.model_dump() for row in SUBSCRIBERS.stream(s, query, **order))
    return table(SUBSCRIBER_COLUMNS, rows)


def unsubscribe_subscriber(s: Session, *, actor: User, subscriber_id: int) -> SubscriberPublic:
    """Stop sending to a subscriber who asked staff to (content:write); commits.

    The pending confirmation link stops working with it (its token is cleared). Unsubscribing someone already
    unsubscribed changes nothing and records nothing: a second click, or a colleague who was quicker, is no error.
    """
    require(actor, Perm.content_write, CHANGING)
    sub = found(s, NewsletterSubscriber, subscriber_id, "Subscriber")
    if sub.status != SubscriberStatus.unsubscribed:
        previous = str(sub.status)
        sub.status = SubscriberStatus.unsubscribed
        sub.confirm_token = None
        s.add(sub)
        audit.record(s, actor=actor, action="newsletter.unsubscribe", entity=sub, details={"previous_status": previous})
        s.commit()
    return subscriber_dto(sub)
