"""The mails about an invoice that go to its client, each with the invoice's PDF attached: issued, reminded, and a
payment received (`send_receipt`, which staff payments call and the online-payment flow can call too)."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlmodel import Session

from app.models.billing import Invoice, Payment
from app.models.user import User
from app.services.billing import invoices
from app.services.platform import letters, mail

PDF = "application/pdf"


def mail_invoice(s: Session, invoice: Invoice, letter: str, /, **context: Any) -> bool:
    """Queue letter `letter` about `invoice` to its client, in the caller's transaction, with the invoice's PDF as it
    stands now (amount paid and balance included) attached. The letter gets `name` and `number` besides `context`.
    False when the client has no account to mail (never: RESTRICT keeps it; checked rather than assumed)."""
    client = s.get(User, invoice.client_id)
    if client is None:
        return False
    s.flush()  # the PDF reads this transaction's own changes (a payment just added)
    filename, pdf = invoices.pdf_file(s, invoice)
    rendered = letters.render(
        s, letter, name=client.first_name or client.username, number=invoice.invoice_number, **context
    )
    # Not public: only staff (or the payment provider, for a received payment) cause these mails.
    queued = mail.enqueue(
        s, to=client.email, letter=rendered, public=False, attachments=[mail.Attachment(filename, PDF, pdf)]
    )
    if queued is not None:
        queued.invoice_id = invoice.id  # the invoice's history lists it (ADR 0079)
    return queued is not None


def send_receipt(s: Session, invoice: Invoice, payment: Payment, *, paid_on: date | None = None) -> bool:
    """Queue the payment receipt for `payment` on `invoice` (both already in the caller's transaction, the invoice
    under its row lock): the amount, the day it was paid (`paid_on`, else the business day it was processed) and what
    is still outstanding, with the updated PDF. The caller commits."""
    s.flush()
    outstanding = max(invoice.total_amount - invoices.paid_amount(s, invoice.id), invoices.ZERO)
    day = paid_on or invoices.business_today(payment.processed_at)
    return mail_invoice(s, invoice, "payment_receipt", amount=payment.amount, paid_on=day, outstanding=outstanding)
