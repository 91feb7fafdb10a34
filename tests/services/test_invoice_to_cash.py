"""Invoice to cash (issue 25): overdue in the business time zone, amounts paid and balance due, the PDF in every
invoice mail (over real SMTP), bank-transfer instructions, and the automatic reminders (schedule, limits, switches,
idempotence within a day, also with two passes at once)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import nullcontext
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from email.message import EmailMessage
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import create_engine, delete, func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.cli import main
from app.core.errors import Forbidden, Invalid
from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.enums import EmployeeType, InvoiceStatus, OutboxStatus, Role
from app.models.system import AuditLog, EmailOutbox
from app.models.user import User
from app.services.billing import billing, invoices, reminders
from app.services.platform import company, mail
from tests import factories as f
from tests.services.test_mail import smtp_settings
from tests.services.test_throttle_races import in_parallel
from tests.smtp_sink import SmtpSink

NEW_YORK = ZoneInfo("America/New_York")
DUE = date(2026, 3, 10)
BANK = "Acme Bank, IBAN DE89 3704 0044 0532 0130 00\nBIC COBADEFFXXX"


@pytest.fixture
def sink() -> Iterator[SmtpSink]:
    s = SmtpSink().start()
    yield s
    s.stop()


@pytest.fixture
def cfo(session: Session) -> User:
    return f.user(session, "cfo_cash", role=Role.employee, employee_type=EmployeeType.cfo)


@pytest.fixture
def new_york(monkeypatch: pytest.MonkeyPatch) -> None:
    """The business time zone is New York (on daylight time from March 8, 2026: its days start at 04:00 UTC)."""
    monkeypatch.setattr(company, "zone", lambda: NEW_YORK)


def _issued(s: Session, cfo: User, client: User, price: str = "100.00", due: date | None = DUE) -> int:
    data = {
        "client_id": str(client.id),
        "due_date": due.isoformat() if due else None,
        "items": [{"description": "Work", "quantity": 1, "unit_price": price}],
    }
    invoice_id = int(billing.create_invoice(s, actor=cfo, data=data).id)
    billing.issue_invoice(s, actor=cfo, invoice_id=invoice_id)
    return invoice_id


def _deliver(s: Session, sink: SmtpSink) -> list[EmailMessage]:
    before = len(sink.messages)
    mail.deliver_pending(s, cfg=smtp_settings(sink.port))
    return sink.messages[before:]


def _pdf_part(msg: EmailMessage) -> EmailMessage:
    [part] = [p for p in msg.iter_attachments() if p.get_content_type() == "application/pdf"]
    return part  # type: ignore[return-value]


def _bank(s: Session) -> None:
    admin = f.user(s, "admin_cash", role=Role.admin)
    company.update(s, actor=admin, data={"bank_instructions": BANK})


# --- overdue ---------------------------------------------------------------------------------------------------------


def test_overdue_starts_at_midnight_in_the_business_zone(session: Session, cfo: User, new_york: None) -> None:
    invoice = session.get(Invoice, _issued(session, cfo, f.user(session, "late_ny")))
    assert invoice is not None
    before = datetime(2026, 3, 11, 3, 59, tzinfo=UTC)  # 23:59 on the 10th in New York (EDT since March 8)
    after = datetime(2026, 3, 11, 4, 0, tzinfo=UTC)  # 00:00 on the 11th there
    assert invoices.business_today(before) == DUE and invoices.business_today(after) == DUE + timedelta(days=1)
    assert not invoices.is_overdue(invoice, Decimal(0), invoices.business_today(before))
    assert invoices.is_overdue(invoice, Decimal(0), invoices.business_today(after))
    assert not invoices.is_overdue(invoice, invoice.total_amount, invoices.business_today(after))  # nothing due


def test_the_staff_list_filters_overdue_around_midnight(
    session: Session, cfo: User, new_york: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = f.user(session, "filter_ny")
    late = _issued(session, cfo, client)
    _issued(session, cfo, client, due=DUE + timedelta(days=1))  # due the next day: not overdue on the 11th
    paid = _issued(session, cfo, client)
    billing.record_payment(session, actor=cfo, invoice_id=paid)
    draft = billing.create_invoice(
        session,
        actor=cfo,
        data={
            "client_id": str(client.id),
            "due_date": "2026-01-01",
            "items": [{"description": "x", "quantity": 1, "unit_price": "5"}],
        },
    )

    def overdue_at(instant: datetime) -> set[int]:
        monkeypatch.setattr(invoices, "utcnow", lambda: instant)
        page = billing.list_invoices(session, actor=cfo, overdue=True, search="filter_ny")
        listed = billing.list_invoices(session, actor=cfo, search="filter_ny")
        assert {r.id for r in listed.data if r.overdue} == {r.id for r in page.data}  # the flag and the filter agree
        return {r.id for r in page.data}

    assert overdue_at(datetime(2026, 3, 11, 3, 59, tzinfo=UTC)) == set()
    assert overdue_at(datetime(2026, 3, 11, 4, 0, tzinfo=UTC)) == {late}
    assert draft.id not in overdue_at(datetime(2026, 6, 1, tzinfo=UTC))


def test_amount_paid_and_balance_due_show_partial_payments(session: Session, cfo: User) -> None:
    client = f.user(session, "partial")
    invoice_id = _issued(session, cfo, client, "100.00", due=None)
    dto = billing.record_payment(session, actor=cfo, invoice_id=invoice_id, data={"amount": "30.00"})
    assert (dto.amount_paid, dto.balance_due, dto.status, dto.overdue) == ("30.00", "70.00", "pending", False)
    [row] = billing.list_invoices(session, actor=cfo, search="partial").data
    assert (row.amount_paid, row.balance_due, row.can_switch_reminders) == ("30.00", "70.00", True)
    [mine] = invoices.list_invoices(session, actor=client)
    assert (mine.amount_paid, mine.balance_due) == ("30.00", "70.00")
    page = invoices.list_invoices_page(session, actor=client)
    assert (page.data[0].amount_paid, page.data[0].balance_due) == ("30.00", "70.00")
    done = billing.record_payment(session, actor=cfo, invoice_id=invoice_id)
    assert (done.amount_paid, done.balance_due, done.status) == ("100.00", "0.00", "paid")
    csv = "".join(billing.export_invoices(session, actor=cfo, search="partial"))
    assert "amount_paid,balance_due,overdue" in csv.splitlines()[0] and ",100.00,0.00,False," in csv


def test_the_pdf_prints_what_is_paid_what_is_due_and_the_bank_details(session: Session, cfo: User) -> None:
    _bank(session)
    invoice_id = _issued(session, cfo, f.user(session, "pdf_payer"), "250.00", due=None)
    billing.record_payment(session, actor=cfo, invoice_id=invoice_id, data={"amount": "100.00"})
    name, pdf = invoices.invoice_pdf(session, actor=cfo, invoice_id=invoice_id)
    text = f.pdf_text(pdf)
    assert name.endswith(".pdf") and pdf.startswith(b"%PDF")
    for expected in ("Amount paid", "$100.00", "Balance due", "$150.00", "How to pay by bank transfer"):
        assert expected in text, (expected, text)
    assert "IBAN DE89 3704 0044 0532 0130 00" in text and "BIC COBADEFFXXX" in text


def test_bank_instructions_are_capped_and_cleared(session: Session) -> None:
    admin = f.user(session, "admin_bank", role=Role.admin)
    with pytest.raises(Invalid) as err:
        company.update(session, actor=admin, data={"bank_instructions": "x" * 1001})
    assert err.value.errors == {"bank_instructions": "Bank transfer instructions must not exceed 1000 characters"}
    assert company.update(session, actor=admin, data={"bank_instructions": BANK}).bank_instructions == BANK
    assert company.update(session, actor=admin, data={"bank_instructions": "  "}).bank_instructions is None


# --- the PDF in the mails ------------------------------------------------------------------------------------------


def test_the_issued_mail_carries_the_pdf_and_the_portal_button(session: Session, cfo: User, sink: SmtpSink) -> None:
    _bank(session)
    client = f.user(session, "mailed_pdf")
    invoice_id = _issued(session, cfo, client)
    number = session.get(Invoice, invoice_id).invoice_number  # type: ignore[union-attr]
    [msg] = _deliver(session, sink)
    assert msg["To"] == client.email and number in msg["Subject"]
    part = _pdf_part(msg)
    assert part.get_filename() == f"invoice-{number}.pdf"
    content = part.get_content()
    assert isinstance(content, bytes) and content.startswith(b"%PDF")
    assert number in f.pdf_text(content)
    body = msg.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "/client-portal?tab=invoices" in body and "IBAN DE89" in body
    html = msg.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert 'href="' in html and "client-portal?tab=invoices" in html and "View your invoices" in html


def test_a_payment_sends_a_receipt_with_the_updated_pdf(session: Session, cfo: User, sink: SmtpSink) -> None:
    client = f.user(session, "receipt")
    invoice_id = _issued(session, cfo, client, "80.00")
    _deliver(session, sink)  # the issued mail
    billing.record_payment(session, actor=cfo, invoice_id=invoice_id, data={"amount": "20.00", "paid_on": "2026-03-02"})
    [msg] = _deliver(session, sink)
    body = msg.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "we received $20.00 for invoice" in body and "on March 2, 2026" in body
    assert "$60.00 of the invoice is still outstanding." in body
    text = f.pdf_text(_pdf_part(msg).get_content())
    assert "Amount paid" in text and "$20.00" in text and "$60.00" in text


def test_binary_attachments_are_checked_when_queued_and_when_built(session: Session, sink: SmtpSink) -> None:
    letter = mail.Letter("s", "t")
    for bad in (
        mail.Attachment("x.pdf", "application/pdf", b"not a pdf"),
        mail.Attachment("x.pdf", "application/zip", b"%PDF-1.4"),
        mail.Attachment("../x.pdf", "application/pdf", b"%PDF-1.4"),
        mail.Attachment("x.pdf", "application/pdf", b"%PDF-" + b"0" * mail.BINARY_MAX_BYTES),
    ):
        with pytest.raises(ValueError):
            mail.enqueue(session, public=False, to="a@example.com", letter=letter, attachments=[bad])
    ok = mail.enqueue(
        session,
        public=False,
        to="a@example.com",
        letter=letter,
        attachments=[mail.Attachment("a.pdf", "application/pdf", b"%PDF-1.7 ok")],
    )
    assert ok is not None and ok.attachments[0]["encoding"] == "base64"  # the row keeps it until sent
    broken = EmailOutbox(
        to_address="b@example.com",
        subject="Bad",
        body_text="x",
        attachments=[{"filename": "b.pdf", "content_type": "application/pdf", "encoding": "base64", "content": "!!"}],
        next_attempt_at=ok.next_attempt_at,
    )
    session.add(broken)
    session.commit()
    [msg] = _deliver(session, sink)
    assert _pdf_part(msg).get_content() == b"%PDF-1.7 ok"
    session.refresh(broken)
    assert broken.status == OutboxStatus.failed  # a row that cannot be decoded fails alone


# --- reminders -------------------------------------------------------------------------------------------------------


def _mine(sent: list[reminders.SentReminder], *numbers: str) -> list[int]:
    return [r.count for r in sent if r.invoice_number in numbers]


def test_reminders_day_after_due_then_weekly_at_most_three(session: Session, cfo: User, sink: SmtpSink) -> None:
    _bank(session)
    invoice_id = _issued(session, cfo, f.user(session, "reminded"))
    invoice = session.get(Invoice, invoice_id)
    assert invoice is not None
    number = invoice.invoice_number
    _deliver(session, sink)

    def on(day: date) -> list[int]:
        return _mine(reminders.send_reminders(session, today=day), number)

    assert on(DUE) == []  # due today: not yet
    assert on(DUE + timedelta(days=1)) == [1]
    [msg] = _deliver(session, sink)
    body = msg.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert number in msg["Subject"] and "was due on March 10, 2026 and $100.00 of it is still outstanding" in body
    assert "/client-portal?tab=invoices" in body and "IBAN DE89" in body
    assert _pdf_part(msg).get_filename() == f"invoice-{number}.pdf"
    assert on(DUE + timedelta(days=1)) == []  # a second pass the same day
    assert on(DUE + timedelta(days=7)) == []  # six days after the first
    assert on(DUE + timedelta(days=8)) == [2]
    assert on(DUE + timedelta(days=15)) == [3]
    assert on(DUE + timedelta(days=22)) == [] and on(DUE + timedelta(days=60)) == []  # at most three
    session.refresh(invoice)
    assert (invoice.reminders_sent, invoice.last_reminder_on) == (3, DUE + timedelta(days=15))
    # In the order written: without an ORDER BY, PostgreSQL may return the rows in any order.
    entries = session.exec(
        select(AuditLog).where(AuditLog.action == "invoice.reminder").order_by(col(AuditLog.id))
    ).all()
    assert [e.details["count"] for e in entries if e.entity_id == str(invoice_id)] == [1, 2, 3]  # type: ignore[index]


def test_no_reminder_once_paid_or_switched_off(session: Session, cfo: User) -> None:
    client = f.user(session, "not_reminded")
    paid = _issued(session, cfo, client)
    billing.record_payment(session, actor=cfo, invoice_id=paid)
    off = _issued(session, cfo, client)
    dto = reminders.set_reminders(session, actor=cfo, invoice_id=off, data={"enabled": False})
    assert dto.reminders_enabled is False
    partly = _issued(session, cfo, client)
    billing.record_payment(session, actor=cfo, invoice_id=partly, data={"amount": "40.00"})
    numbers = [session.get(Invoice, i).invoice_number for i in (paid, off, partly)]  # type: ignore[union-attr]
    sent = reminders.send_reminders(session, today=DUE + timedelta(days=1))
    assert [(r.invoice_number, str(r.outstanding)) for r in sent if r.invoice_number in numbers] == [
        (numbers[2], "60.00")
    ]
    # Any status but issued stops them (a void invoice too): the status check is `pending`, not "not paid".
    with pytest.raises(Invalid):
        reminders.set_reminders(session, actor=cfo, invoice_id=paid, data={"enabled": True})


def test_switching_reminders_needs_billing_write(session: Session, cfo: User) -> None:
    invoice_id = _issued(session, cfo, f.user(session, "switch_client"))
    reader = f.user(session, "switch_reader", role=Role.employee, employee_type=EmployeeType.sales_lead)
    with pytest.raises(Forbidden):
        reminders.set_reminders(session, actor=reader, invoice_id=invoice_id, data={"enabled": False})
    with pytest.raises(Invalid):
        reminders.set_reminders(session, actor=cfo, invoice_id=invoice_id, data={"enabled": "maybe"})
    [row] = billing.list_invoices(session, actor=cfo, search="switch_client").data
    assert row.reminders_enabled is True and row.can_switch_reminders is True
    [seen] = billing.list_invoices(session, actor=reader, search="switch_client").data  # billing:read only
    assert seen.can_switch_reminders is False


def test_the_cli_runs_one_pass_and_prints_it(session: Session, cfo: User, capsys: pytest.CaptureFixture[str]) -> None:
    yesterday = invoices.business_today() - timedelta(days=1)
    invoice_id = _issued(session, cfo, f.user(session, "cli_late"), "42.00", due=yesterday)
    number = session.get(Invoice, invoice_id).invoice_number  # type: ignore[union-attr]
    assert main(["send-reminders"], sessions=lambda: nullcontext(session)) == 0
    out = capsys.readouterr().out
    assert f"Reminder 1 of 3 for {number} to cli_late@example.com: $42.00" in out
    assert main(["send-reminders"], sessions=lambda: nullcontext(session)) == 0
    assert number not in capsys.readouterr().out  # idempotent within the day


# --- two passes at once (committed data, threads with their own connections) --------------------------------------


@pytest.fixture
def committed(engine: Engine) -> Iterator[tuple[int, str]]:
    """An overdue issued invoice, committed; everything it causes is removed afterwards."""
    with Session(engine, expire_on_commit=False) as s:
        mark = s.exec(select(func.coalesce(func.max(AuditLog.id), 0))).one()
        outbox = s.exec(select(func.coalesce(func.max(EmailOutbox.id), 0))).one()
        clerk = f.user(s, "remind_clerk", role=Role.employee, employee_type=EmployeeType.cfo)
        client = f.user(s, "remind_race")
        invoice_id = _issued(s, clerk, client)
        number = s.get(Invoice, invoice_id).invoice_number  # type: ignore[union-attr]
    yield invoice_id, number
    with Session(engine) as s:
        s.exec(delete(Payment).where(col(Payment.invoice_id) == invoice_id))  # type: ignore[call-overload]
        s.exec(delete(InvoiceItem).where(col(InvoiceItem.invoice_id) == invoice_id))  # type: ignore[call-overload]
        s.exec(delete(Invoice).where(col(Invoice.id) == invoice_id))  # type: ignore[call-overload]
        s.exec(delete(AuditLog).where(col(AuditLog.id) > mark))  # type: ignore[call-overload]
        s.exec(delete(EmailOutbox).where(col(EmailOutbox.id) > outbox))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_([clerk.id, client.id])))  # type: ignore[call-overload]
        s.commit()


def test_two_passes_at_once_send_one_reminder(engine: Engine, committed: tuple[int, str]) -> None:
    invoice_id, number = committed
    eng = create_engine(engine.url, pool_size=4, max_overflow=0)
    try:
        for day in (DUE + timedelta(days=1), DUE + timedelta(days=8)):
            results = in_parallel(eng, lambda s, _i, day=day: reminders.send_reminders(s, today=day), 4)
            assert not [r for r in results if isinstance(r, Exception)], results
            assert sum(len(_mine(r, number)) for r in results) == 1
        with Session(eng) as s:
            invoice = s.get(Invoice, invoice_id)
            assert invoice is not None and invoice.reminders_sent == 2
            queued = s.exec(select(EmailOutbox).where(col(EmailOutbox.subject).contains(number))).all()
            assert len([m for m in queued if m.subject.startswith("Reminder")]) == 2
    finally:
        eng.dispose()


def test_reminders_stop_when_the_invoice_is_no_longer_issued(session: Session, cfo: User) -> None:
    invoice_id = _issued(session, cfo, f.user(session, "voided_like"))
    invoice = session.get(Invoice, invoice_id)
    assert invoice is not None
    invoice.status = InvoiceStatus.paid  # any status but pending (the workflow's `void` included) stops them
    session.add(invoice)
    session.commit()
    sent = reminders.send_reminders(session, today=DUE + timedelta(days=1))
    assert invoice.invoice_number not in {r.invoice_number for r in sent}


def test_the_dashboard_counts_the_overdue_and_what_they_owe(session: Session, cfo: User) -> None:
    from app.services.reporting import dashboard

    before = dashboard.summary(session, actor=cfo).waiting
    client = f.user(session, "dash_late")
    yesterday = invoices.business_today() - timedelta(days=1)
    _issued(session, cfo, client, "100.00", due=yesterday)
    part = _issued(session, cfo, client, "50.00", due=yesterday)
    billing.record_payment(session, actor=cfo, invoice_id=part, data={"amount": "20.00"})
    _issued(session, cfo, client, "999.00", due=yesterday + timedelta(days=2))  # not due yet
    after = dashboard.summary(session, actor=cfo).waiting
    assert before.overdue and after.overdue and before.unpaid and after.unpaid
    assert after.overdue.count == before.overdue.count + 2
    assert Decimal(after.overdue.amount) - Decimal(before.overdue.amount) == Decimal("130.00")
    assert after.unpaid.count == before.unpaid.count + 3  # the one not due yet is unpaid, not overdue
    assert Decimal(after.unpaid.amount) - Decimal(before.unpaid.amount) == Decimal("1129.00")
    developer = f.user(session, "dash_dev", role=Role.employee, employee_type=EmployeeType.developer)
    assert dashboard.summary(session, actor=developer).waiting.overdue is None  # not theirs to see
