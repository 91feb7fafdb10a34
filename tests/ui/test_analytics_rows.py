"""The analytics page's rows: the service's report shaped into typed display rows (every value a string)."""

from __future__ import annotations

from datetime import date, timedelta

from sqlmodel import Session

from app.models.enums import InvoiceStatus, Role
from app.models.inquiry import ContactInquiry
from app.services import analytics
from app.ui.admin.analytics import Bar, Month, Week, shape
from tests import factories as f


def test_the_report_becomes_typed_rows(session: Session) -> None:
    admin = f.user(session, "rows_admin", role=Role.admin)
    client = f.user(session, "rows_client")
    session.add_all(
        [
            ContactInquiry(name="A", email="a@example.com", message="Hi", service_type="web_development"),
            ContactInquiry(name="B", email="b@example.com", message="Hi", service_type="web_development"),
        ]
    )
    session.commit()
    f.project(session, client)
    f.invoice(session, client, status=InvoiceStatus.paid)
    today = date.today()
    shaped = shape(analytics.report(session, actor=admin, start=today - timedelta(days=30), end=today))

    assert shaped.figures.inquiries == "2"
    week = shaped.weeks[-1]
    assert isinstance(week, Week) and week.total == "2"
    assert [s.title for s in week.segments] == ["New: 2"] and week.segments[0].width == "100.0%"
    assert shaped.services[0] == Bar(label=shaped.services[0].label, value="2", width="100.0%", color="bg-blue-500")
    assert all(isinstance(m, Month) for m in shaped.months)
    assert shaped.months[-1].invoiced.startswith("$") and shaped.months[-1].paid_width.endswith("%")
    planning = next(b for b in shaped.projects if b.label == "Planning")
    assert planning.value == "1" and planning.color == "bg-blue-500"
