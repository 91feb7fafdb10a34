"""The analytics page's rows: the service's report shaped into typed display rows (every value a string)."""

from __future__ import annotations

from datetime import date, timedelta

from sqlmodel import Session

from app.models.enums import InvoiceStatus, Role
from app.models.inquiry import ContactInquiry
from app.services.reporting import analytics
from app.ui.admin.analytics.state import Bar, Month, Shaped, Week, shape
from tests import factories as f


def _bar(bars: list[Bar], label: str) -> Bar:
    return next((b for b in bars if b.label == label), Bar(label=label, value="0"))


def test_the_report_becomes_typed_rows(session: Session) -> None:
    # Other suites' handler tests may have left rows behind: the test reads what its own rows add.
    admin = f.user(session, "rows_admin", role=Role.admin)
    today = date.today()

    def shaped() -> Shaped:
        return shape(analytics.report(session, actor=admin, start=today - timedelta(days=30), end=today))

    before = shaped()
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
    after = shaped()

    assert int(after.figures.inquiries) == int(before.figures.inquiries) + 2
    week = after.weeks[-1]
    assert isinstance(week, Week) and int(week.total) >= 2
    assert any(s.label == "New" for s in week.segments) and all(s.width.endswith("%") for s in week.segments)
    web = _bar(after.services, "Web Development")
    assert int(web.value) == int(_bar(before.services, "Web Development").value) + 2 and web.width.endswith("%")
    assert all(isinstance(m, Month) for m in after.months)
    assert after.months[-1].invoiced.value.startswith("$") and after.months[-1].paid.width.endswith("%")
    planning = _bar(after.projects, "Planning")
    assert int(planning.value) == int(_bar(before.projects, "Planning").value) + 1
    assert planning.color == "bg-blue-500"
