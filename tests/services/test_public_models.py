"""Each REST answer's model (`response_model`) names exactly the keys its service returns: FastAPI filters an answer
through the model, so a key the model lacked would vanish from the API without an error anywhere."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel
from sqlmodel import Session, select

from app.models.billing import InvoiceItem
from app.models.enums import Role
from app.models.inquiry import ContactInquiry
from app.services.billing.invoices import InvoiceItemPublic, InvoicePublic, invoice_dto
from app.services.platform import audit
from app.services.projects.projects import MilestonePublic, ProjectPublic, project_dto
from app.services.reporting import analytics, dashboard
from app.services.scheduling.meetings import MeetingPublic, meeting_dto
from tests import factories as f


def _keys(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields)


def test_the_answer_models_carry_every_key_of_the_services_records(session: Session) -> None:
    client = f.user(session, "public_models")
    project = f.project(session, client)
    milestone = f.milestone(session, project, "Design", 0)
    # The typed records are the answer models themselves: their dumps are what FastAPI sends.
    shown = project_dto(project, [milestone])
    assert type(shown) is ProjectPublic and set(shown.model_dump()) == _keys(ProjectPublic)
    assert type(shown.milestones[0]) is MilestonePublic and shown.milestones[0].title == "Design"

    invoice = f.invoice(session, client)
    items = list(session.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice.id)))
    assert items, "the factory's invoice has lines"
    invoiced = invoice_dto(invoice, items)
    assert type(invoiced) is InvoicePublic and set(invoiced.model_dump()) == _keys(InvoicePublic)
    assert type(invoiced.items[0]) is InvoiceItemPublic and len(invoiced.items) == len(items)

    meeting = f.meeting(session, client)
    met = meeting_dto(meeting)
    assert type(met) is MeetingPublic and set(met.model_dump()) == _keys(MeetingPublic)

    session.add(ContactInquiry(name="Pat", email="pat@example.com", message="Hello"))  # for the analytics figures
    session.commit()

    admin = f.user(session, "public_models_admin", role=Role.admin)
    audit.record(session, actor=admin, action="user.update", entity=client, details={"fields": ["phone"]})
    session.commit()
    # The audit log, the dashboard and analytics return their answer models themselves (typed, no keys to drift).
    entry = audit.recent(session, actor=admin, limit=1)[0]
    assert (entry.action, entry.actor, entry.details) == ("user.update", admin.username, {"fields": ["phone"]})
    figures = dashboard.summary(session, actor=admin)
    assert figures.total_users and figures.total_users >= 2 and figures.active_sessions is not None
    shown = analytics.report(session, actor=admin, end=date.today())  # the factories date their rows by the server
    assert shown.inquiries_total >= 1 and shown.inquiries_by_week_service and shown.billing_by_month
