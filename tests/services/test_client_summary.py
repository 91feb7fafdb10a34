"""The portal's summary (issue 26, point 10): only the client's own records, what is due after partial payments,
the invoice to pay first (overdue before later), the next meeting and the active projects."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from sqlmodel import Session

from app.models.billing import Invoice
from app.models.enums import EmployeeType, InvoiceStatus, MeetingStatus, ProjectStatus, Role
from app.services.billing import billing
from app.services.reporting.client_summary import client_summary
from tests import factories as f


def _due(s: Session, invoice: Invoice, days: int) -> Invoice:
    invoice.due_date = date.today() + timedelta(days=days)
    s.add(invoice)
    s.commit()
    s.refresh(invoice)
    return invoice


def test_the_summary_holds_only_the_clients_own_records_with_partial_payments_and_overdue(session: Session) -> None:
    cfo = f.user(session, "cfo_sum", role=Role.employee, employee_type=EmployeeType.cfo)
    alice, bob = f.user(session, "alice_sum"), f.user(session, "bob_sum")
    later = _due(session, f.invoice(session, alice), 30)
    overdue = _due(session, f.invoice(session, alice, items=[("Audit", 1, "200.00")]), -5)
    f.invoice(session, alice, status=InvoiceStatus.paid)
    f.invoice(session, alice, status=InvoiceStatus.draft)
    _due(session, f.invoice(session, bob), -40)  # bob's, more overdue: never alice's to pay
    billing.record_payment(session, actor=cfo, invoice_id=later.id, data={"amount": "40.10", "method": "check"})
    f.meeting(session, bob, in_hours=1, title="Bob private call")
    f.meeting(session, alice, in_hours=2, title="Cancelled call", status=MeetingStatus.cancelled)
    f.meeting(session, alice, in_hours=72, title="Design review")
    f.meeting(session, alice, in_hours=24, title="Kick-off call")
    f.meeting(session, alice, in_hours=-72, title="Past call")
    f.project(session, alice, "Alice site", status=ProjectStatus.in_progress, progress_percentage=40)
    f.project(session, alice, "Alice app", status=ProjectStatus.planning)
    f.project(session, alice, "Alice old site", status=ProjectStatus.completed, progress_percentage=100)
    f.project(session, alice, "Alice dropped", status=ProjectStatus.cancelled)
    f.project(session, bob, "Bob secret app", status=ProjectStatus.in_progress)

    got = client_summary(session, actor=alice)

    assert got.unpaid_invoices == 2
    expected = later.total_amount - Decimal("40.10") + overdue.total_amount
    assert later.total_amount == Decimal("1177.54") and overdue.total_amount == Decimal("214.00")
    assert got.balance_due == f"{expected:.2f}" == "1351.44"
    assert got.next_invoice is not None
    assert got.next_invoice.invoice_number == overdue.invoice_number
    assert got.next_invoice.overdue and got.next_invoice.balance_due == "214.00"
    assert got.next_invoice.due_date == (date.today() - timedelta(days=5)).isoformat()
    assert got.next_meeting is not None
    assert got.next_meeting.title == "Kick-off call"
    assert got.next_meeting.join_url == "https://meet.example.com/abc"
    assert sorted(p.name for p in got.active_projects) == ["Alice app", "Alice site"]
    assert {p.name: p.progress_percentage for p in got.active_projects}["Alice site"] == 40

    # Once the overdue invoice is paid, the later one is next, with what is left on it after the partial payment.
    billing.record_payment(session, actor=cfo, invoice_id=overdue.id)
    after = client_summary(session, actor=alice)
    assert after.unpaid_invoices == 1 and after.next_invoice is not None
    assert after.next_invoice.invoice_number == later.invoice_number and not after.next_invoice.overdue
    assert after.balance_due == after.next_invoice.balance_due == f"{later.total_amount - Decimal('40.10'):.2f}"


def test_a_client_with_nothing_and_staff_see_an_empty_summary(session: Session) -> None:
    carol = f.user(session, "carol_sum")
    admin = f.user(session, "admin_sum", role=Role.admin)
    f.invoice(session, carol)
    f.meeting(session, carol)
    f.project(session, carol, "Carol site", status=ProjectStatus.in_progress)
    for actor in (f.user(session, "dave_sum"), admin):  # staff read every client's records, yet see none here
        got = client_summary(session, actor=actor)
        assert (got.balance_due, got.unpaid_invoices, got.next_invoice, got.next_meeting, got.active_projects) == (
            "0.00",
            0,
            None,
            None,
            [],
        )
