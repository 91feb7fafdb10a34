"""'Download my data': everything the product holds about a client, as one JSON document."""

from __future__ import annotations

from sqlmodel import Session, col, select

from app.models.base import utcnow
from app.models.inquiry import ContactInquiry
from app.models.user import User, UserPublic
from app.services.billing import invoices
from app.services.projects import projects
from app.services.scheduling import meetings


def export_client_data(s: Session, *, actor: User) -> dict[str, object]:
    """The actor's profile, projects, invoices (with items), meetings and contact inquiries sent from their e-mail."""
    client_view = _as_client(actor)
    own_invoices = []
    for summary in invoices.list_invoices(s, actor=client_view):
        invoice, items, _client = invoices.get_invoice_with_items(s, actor=client_view, invoice_id=summary.id)
        own_invoices.append(invoices.invoice_dto(invoice, items).model_dump())
    inquiries = s.exec(
        select(ContactInquiry).where(ContactInquiry.email == actor.email).order_by(col(ContactInquiry.created_at))
    ).all()
    own_meetings = meetings.list_meetings(s, actor=client_view)
    return {
        "exported_at": utcnow().isoformat(),
        "profile": UserPublic.of(actor).model_dump(mode="json"),
        "projects": [p.model_dump() for p in projects.list_projects(s, actor=client_view)],
        "invoices": own_invoices,
        "meetings": [m.model_dump() for m in own_meetings.upcoming + own_meetings.past],
        "inquiries": [
            i.model_dump(mode="json", exclude={"assigned_to", "notes", "is_spam", "priority"}) for i in inquiries
        ],
    }


def _as_client(user: User) -> User:
    """The user seen as a client: even staff export only records that are their own."""
    return User(id=user.id, username=user.username, email=user.email, role="client")  # type: ignore[arg-type]
