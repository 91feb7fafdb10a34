"""Staff triage of contact inquiries: search, filter, and change status, priority, assignee or notes."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Unpack

from pydantic import BaseModel, Field
from sqlalchemy import func
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from app.core.errors import Invalid
from app.core.permissions import STAFF_ROLES, Perm
from app.models.enums import InquiryPriority, InquiryStatus
from app.models.inquiry import ContactInquiry
from app.models.system import AuditLog
from app.models.user import User
from app.services.crm import contact
from app.services.platform import audit
from app.services.platform.access import found, require
from app.services.platform.csv_export import table
from app.services.platform.paging import Listing, Ordering, Page, View, one_of
from app.services.platform.schema import Body, Flag, OneOf, RawText, Text, parse


class InquiryPublic(BaseModel):
    """A contact inquiry as staff see it; `assigned_to` is a staff member's user id."""

    id: int
    name: str
    email: str
    company: str | None
    phone: str | None
    service_type: str | None
    budget: str | None
    message: str
    newsletter: bool
    is_spam: bool
    status: str
    priority: str
    assigned_to: str | None
    notes: str | None
    created_at: str
    updated_at: str


_INQUIRY_FIELDS = {
    "id", "name", "email", "company", "phone", "service_type", "budget", "message", "newsletter", "is_spam", "notes",
}  # fmt: skip


class InquiryView(InquiryPublic):
    """An inquiry as one staff member sees it: whether it is assigned to them (not in the REST answer)."""

    assigned_to_me: bool = False


def inquiry_public(i: ContactInquiry) -> InquiryPublic:
    return InquiryPublic(
        **i.model_dump(include=_INQUIRY_FIELDS),
        status=str(i.status),
        priority=str(i.priority),
        assigned_to=str(i.assigned_to) if i.assigned_to else None,
        created_at=i.created_at.isoformat(),
        updated_at=i.updated_at.isoformat(),
    )


def _view(i: InquiryPublic, actor: User) -> InquiryView:
    return InquiryView(**i.model_dump(), assigned_to_me=i.assigned_to == str(actor.id))


INQUIRY_SORTS = {
    "newest": (col(ContactInquiry.created_at).desc(), col(ContactInquiry.id).desc()),
    "oldest": (col(ContactInquiry.created_at), col(ContactInquiry.id)),
    "name": (func.lower(ContactInquiry.name), col(ContactInquiry.id)),
}


def list_inquiries(
    s: Session, *, actor: User, status: str = "", spam: bool = False, **view: Unpack[View]
) -> Page[InquiryView]:
    """A page of inquiries (newest first unless sorted), searched and filtered in SQL; spam-flagged ones only in their
    own list (`spam=True`). Each says whether it is assigned to the actor."""
    query = _inquiries(actor, status=status, spam=spam)
    page = INQUIRIES.page(s, query, **view)
    return page.with_data([_view(i, actor) for i in page.data])


INQUIRY_SEARCH = (ContactInquiry.name, ContactInquiry.email, ContactInquiry.company, ContactInquiry.message)
INQUIRY_COLUMNS = (
    "id", "created_at", "name", "email", "company", "phone", "service_type", "budget", "status", "priority",
    "assigned_to", "newsletter", "is_spam", "message", "notes",
)  # fmt: skip
INQUIRIES = Listing(inquiry_public, INQUIRY_SORTS, INQUIRY_SEARCH)


def _inquiries(actor: User, *, status: str, spam: bool) -> SelectOfScalar[ContactInquiry]:
    require(actor, Perm.inquiries_read, "view inquiries")
    query = select(ContactInquiry).where(col(ContactInquiry.is_spam).is_(spam))
    return one_of(query, ContactInquiry.status, status, InquiryStatus)


def export_inquiries(
    s: Session, *, actor: User, status: str = "", spam: bool = False, **order: Unpack[Ordering]
) -> Iterator[str]:
    """Every inquiry the list shows with these filters, as CSV text in pieces (checked before the first piece)."""
    query = _inquiries(actor, status=status, spam=spam)
    rows = (row.model_dump() for row in INQUIRIES.stream(s, query, **order))
    return table(INQUIRY_COLUMNS, rows)


class InquiryUpdate(Body):
    """Staff triage: any field to any value. An empty assignee or notes clears them."""

    status: Annotated[InquiryStatus | None, OneOf("Status", not_null=True, refusal="Unknown status")] = None
    priority: Annotated[InquiryPriority | None, OneOf("Priority", not_null=True, refusal="Unknown priority")] = None
    assigned_to: RawText = Field(None, description="A staff member's user id; empty or null: nobody.")
    is_spam: Flag = Field(False, description="Flag as spam, or rescue a message the honeypot caught (false).")
    notes: Annotated[str | None, Text("Notes", 10_000)] = None


def update_inquiry(
    s: Session, *, actor: User, inquiry_id: int, data: InquiryUpdate | Mapping[str, Any], ip: str | None = None
) -> InquiryView:
    """Change status, priority, assignee or notes (any value to any value: staff triage freely)."""
    require(actor, Perm.inquiries_write, "update inquiries")
    inquiry = found(s, ContactInquiry, inquiry_id, "Inquiry")
    changes = parse(InquiryUpdate, data).sent()
    errors: dict[str, str] = {}
    if "assigned_to" in changes:
        changes["assigned_to"] = _assignee(s, changes["assigned_to"], errors)
    # Staff rescue a real message caught by the honeypot (back in the inbox as new), or flag one by hand.
    if inquiry.is_spam and changes.get("is_spam") is False and "status" not in changes:
        changes["status"] = InquiryStatus.new
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    if not changes:
        raise Invalid("Nothing to update")
    rescued = inquiry.is_spam and changes.get("is_spam") is False
    if rescued:
        _lock(s, inquiry)
        if not inquiry.is_spam:  # rescued meanwhile by someone else: their restore sent the acknowledgement
            rescued = False
    before = {k: str(getattr(inquiry, k)) for k in changes}
    for key, value in changes.items():
        setattr(inquiry, key, value)
    s.add(inquiry)
    after = {k: str(v) for k, v in changes.items()}
    if rescued and not _acknowledged(s, inquiry):
        contact.acknowledge_rescued(s, inquiry)
        after["acknowledged"] = "True"
    audit.record(s, actor=actor, action="inquiry.update", entity=inquiry, details={"from": before, "to": after}, ip=ip)
    s.commit()
    s.refresh(inquiry)
    return _view(inquiry_public(inquiry), actor)


def _lock(s: Session, inquiry: ContactInquiry) -> None:
    """Hold the row until commit and re-read it, so two parallel "Not spam" clicks send one acknowledgement."""
    s.exec(select(ContactInquiry.id).where(ContactInquiry.id == inquiry.id).with_for_update()).first()
    s.refresh(inquiry)


def _acknowledged(s: Session, inquiry: ContactInquiry) -> bool:
    """Whether the visitor already got the acknowledgement: at submission (it was not spam then, so staff flagged it
    by hand later) or at an earlier rescue."""
    entries = s.exec(
        select(AuditLog.details).where(
            AuditLog.action == "inquiry.update",
            AuditLog.entity_type == "contact_inquiries",
            AuditLog.entity_id == str(inquiry.id),
        )
    ).all()
    for details in entries:
        details = details or {}
        if details.get("to", {}).get("acknowledged") == "True":
            return True
        if details.get("from", {}).get("is_spam") == "False" and details.get("to", {}).get("is_spam") == "True":
            return True  # flagged by hand: it was a normal message when it arrived, acknowledged then
    return False


def _assignee(s: Session, value: Any, errors: dict[str, str]) -> uuid.UUID | None:
    if value in (None, ""):
        return None
    try:
        user = s.get(User, uuid.UUID(str(value)))
    except ValueError:
        user = None
    if user is None or user.role not in STAFF_ROLES:
        errors["assigned_to"] = "Inquiries can be assigned to staff only"
        return None
    return user.id
