"""'Download my data': everything the product holds about a client, as one JSON document."""

from __future__ import annotations

import json
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlmodel import Session, col, select

from app.models.base import utcnow
from app.models.inquiry import ContactInquiry
from app.models.user import User, UserPublic
from app.services.billing import invoices
from app.services.billing.invoices import InvoicePublic
from app.services.projects import projects
from app.services.projects.projects import ProjectPublic
from app.services.scheduling import meetings
from app.services.scheduling.meetings import MeetingPublic


class ClientData(BaseModel):
    """Everything the product holds about one client; `document()` is the downloaded file."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    exported_at: datetime
    profile: UserPublic
    projects: list[ProjectPublic]
    invoices: list[InvoicePublic]
    meetings: list[MeetingPublic]
    inquiries: list[ContactInquiry]

    def document(self) -> str:
        """The JSON file: each record as its REST answer shows it; staff-only inquiry fields left out."""
        staff_only = {"assigned_to", "notes", "is_spam", "priority"}
        return json.dumps(
            {
                "exported_at": self.exported_at.isoformat(),
                "profile": self.profile.model_dump(mode="json"),
                "projects": [p.model_dump() for p in self.projects],
                "invoices": [i.model_dump() for i in self.invoices],
                "meetings": [m.model_dump() for m in self.meetings],
                "inquiries": [i.model_dump(mode="json", exclude=staff_only) for i in self.inquiries],
            },
            indent=2,
        )


def export_client_data(s: Session, *, actor: User) -> ClientData:
    """The actor's profile, projects, invoices (with items), meetings and contact inquiries sent from their e-mail."""
    client_view = _as_client(actor)
    own_invoices = []
    for summary in invoices.list_invoices(s, actor=client_view):
        invoice, items, _client = invoices.get_invoice_with_items(s, actor=client_view, invoice_id=summary.id)
        own_invoices.append(invoices.invoice_dto(invoice, items, invoices.paid_amount(s, invoice.id)))
    inquiries = s.exec(
        select(ContactInquiry).where(ContactInquiry.email == actor.email).order_by(col(ContactInquiry.created_at))
    ).all()
    own_meetings = meetings.list_meetings(s, actor=client_view)
    return ClientData(
        exported_at=utcnow(),
        profile=UserPublic.of(actor),
        projects=projects.list_projects(s, actor=client_view),
        invoices=own_invoices,
        meetings=own_meetings.upcoming + own_meetings.past,
        inquiries=list(inquiries),
    )


def _as_client(user: User) -> User:
    """The user seen as a client: even staff export only records that are their own."""
    return User(id=user.id, username=user.username, email=user.email, role="client")  # type: ignore[arg-type]
