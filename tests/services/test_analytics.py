"""Analytics figures on known data, on PostgreSQL and on SQLite (the two dialects bucket dates differently)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from sqlmodel import Session

from app.core.db import make_engine
from app.models.billing import Invoice
from app.models.careers import JobApplication
from app.models.enums import EmployeeType, InvoiceStatus, ProjectStatus, Role
from app.models.inquiry import ContactInquiry
from app.services.reporting import analytics
from tests import factories as f
from tests.migrations import migrate


@pytest.fixture(params=["postgresql", "sqlite"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Session]:
    if request.param == "postgresql":
        yield request.getfixturevalue("session")
        return
    url = f"sqlite:///{tmp_path / 'analytics.db'}"
    migrate(url)
    engine = make_engine(url)
    with Session(engine, expire_on_commit=False) as s:
        yield s
    engine.dispose()


def at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)


def inquiry(s: Session, day: str, email: str, service: str | None, status: str = "new", spam: bool = False) -> None:
    s.add(
        ContactInquiry(
            name="X", email=email, message="m", service_type=service, status=status, is_spam=spam, created_at=at(day)
        )
    )


def application(s: Session, day: str, code: str | None) -> None:
    s.add(
        JobApplication(
            job_code=code, first_name="A", last_name="B", email="a@b.example", phone="1", resume_path="r",
            resume_filename="r.pdf", resume_content_type="application/pdf", created_at=at(day),
        )
    )  # fmt: skip


def test_report_matches_the_data(db: Session) -> None:
    s = db
    analyst = f.user(s, "analyst", role=Role.employee, employee_type=EmployeeType.marketing_lead)
    # Projects by status is today's picture of every project, not the period's, and the UI handler tests commit
    # projects to the shared database: count what this test adds, whatever ran before it.
    before = analytics.report(s, actor=analyst, start=date(2026, 3, 2), end=date(2026, 3, 31)).projects_by_status
    client = f.user(s, "converted", email="a@example.com")
    inquiry(s, "2026-03-03", "a@example.com", "web-development")
    inquiry(s, "2026-03-04", "b@example.com", "web-development", status="resolved")
    inquiry(s, "2026-03-10", "a@example.com", "database-design")
    inquiry(s, "2026-03-05", "spam@example.com", None, spam=True)
    inquiry(s, "2026-02-20", "c@example.com", "other")
    for status in (ProjectStatus.planning, ProjectStatus.planning, ProjectStatus.completed):
        f.project(s, client, status=status)
    for number, status, issued, paid, total in (
        ("A-1", InvoiceStatus.pending, date(2026, 3, 5), None, "100.00"),
        ("A-2", InvoiceStatus.paid, date(2026, 3, 20), date(2026, 3, 25), "50.00"),
        ("A-3", InvoiceStatus.draft, date(2026, 3, 21), None, "999.00"),
        ("A-4", InvoiceStatus.paid, date(2026, 1, 10), date(2026, 1, 12), "70.00"),
        ("A-5", InvoiceStatus.void, date(2026, 3, 22), None, "500.00"),  # withdrawn: nothing was invoiced
    ):
        s.add(Invoice(invoice_number=number, client_id=client.id, status=status, issue_date=issued, paid_date=paid,
                      subtotal=Decimal(total), total_amount=Decimal(total)))  # fmt: skip
    application(s, "2026-03-06", "JOB-001")
    application(s, "2026-03-07", "JOB-001")
    application(s, "2026-03-08", None)
    application(s, "2026-04-02", "JOB-002")
    s.commit()

    r = analytics.report(s, actor=analyst, start=date(2026, 3, 2), end=date(2026, 3, 31)).model_dump()
    assert r["inquiries_total"] == 3
    assert sorted((x["week"], x["status"], x["count"]) for x in r["inquiries_by_week_status"]) == [
        ("2026-03-02", "new", 1),
        ("2026-03-02", "resolved", 1),
        ("2026-03-09", "new", 1),
    ]
    assert sorted((x["week"], x["service"], x["count"]) for x in r["inquiries_by_week_service"]) == [
        ("2026-03-02", "web-development", 2),
        ("2026-03-09", "database-design", 1),
    ]
    assert r["conversion"] == {"senders": 2, "became_clients": 1, "rate": 0.5}
    added = {"planning": 2, "completed": 1}
    assert r["projects_by_status"] == {k: before.get(k, 0) + added.get(k, 0) for k in {*before, *added}}
    assert r["billing_by_month"] == [{"month": "2026-03-01", "invoiced": "150.00", "paid": "50.00"}]
    assert r["applications_by_opening"] == {"JOB-001": 2, "general": 1}


def test_weeks_and_the_period_are_the_business_zones_days(db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26, point 4: a team in Florida counts an inquiry sent at 10 PM on Sunday in Sunday's week, not in the
    next week as UTC would (03:00 on Monday), on both databases; the period runs from its midnight to its midnight."""
    from zoneinfo import ZoneInfo

    from app.services.platform import company

    monkeypatch.setattr(company, "zone", lambda: ZoneInfo("America/New_York"))
    analyst = f.user(db, "analyst_tz", role=Role.employee, employee_type=EmployeeType.marketing_lead)
    for moment, email in [
        ("2026-11-09T03:00:00+00:00", "sunday-night@example.com"),  # Sun 8 Nov, 10 PM EST
        ("2026-11-09T05:30:00+00:00", "monday-early@example.com"),  # Mon 9 Nov, 12:30 AM EST
        ("2026-11-01T03:30:00+00:00", "before@example.com"),  # Sat 31 Oct, 11:30 PM EDT: before the period
    ]:
        db.add(ContactInquiry(name="X", email=email, message="m", created_at=datetime.fromisoformat(moment)))
    db.commit()
    r = analytics.report(db, actor=analyst, start=date(2026, 11, 1), end=date(2026, 11, 15))
    assert r.inquiries_total == 2
    assert sorted((x.week, x.count) for x in r.inquiries_by_week_status) == [("2026-11-02", 1), ("2026-11-09", 1)]


def test_report_needs_analytics_read(session: Session) -> None:
    from app.core.errors import Forbidden

    dev = f.user(session, "dev_an", role=Role.employee, employee_type=EmployeeType.developer)
    with pytest.raises(Forbidden):
        analytics.report(session, actor=dev, start=date(2026, 1, 1), end=date(2026, 1, 31))
