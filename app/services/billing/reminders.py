"""Overdue reminders: nobody chases an invoice by hand.

An issued invoice past its due date with something outstanding gets a reminder mail (the amount outstanding, the due
date, the portal link, the bank-transfer instructions when set, the PDF attached) on the day after its due date, then
every REMIND_EVERY days after the last one, at most REMINDERS_MAX in all; never once it is paid or is anything but
issued (a voided invoice included), and never when staff switched its reminders off.

Days are business days (the company's time zone). Each reminder is counted on the invoice (`reminders_sent`, and
the day in `last_reminder_on`) in the transaction that queues its mail, under the invoice's row lock, and the lock's
holder decides on the row as it stands after the lock: two passes on one day, in one process or several at once, send
one reminder. The background jobs run a pass daily; `python -m app.cli send-reminders` runs one now.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pydantic import ConfigDict, Field, StrictBool
from sqlalchemy import or_
from sqlmodel import Session, col, select

from app.core.errors import Invalid
from app.core.permissions import Perm
from app.models.billing import Invoice
from app.models.enums import InvoiceStatus
from app.models.user import User
from app.services.billing import invoices, receipts
from app.services.billing.billing import _dto, _locked
from app.services.billing.invoices import InvoicePublic
from app.services.platform import access, audit
from app.services.platform.schema import Body, parse, required

log = logging.getLogger(__name__)

FIRST_AFTER = timedelta(days=1)  # the day after the due date
REMIND_EVERY = timedelta(days=7)
REMINDERS_MAX = 3
BATCH = 100  # invoices read per query of a pass; a pass goes on until none is left


def next_reminder_on(invoice: Invoice) -> date | None:
    """The business day from which the invoice's next reminder is due (None: no more reminders by count or date)."""
    if invoice.due_date is None or invoice.reminders_sent >= REMINDERS_MAX:
        return None
    if invoice.reminders_sent == 0 or invoice.last_reminder_on is None:
        return invoice.due_date + FIRST_AFTER
    # From the last one sent, not from the due date: a pass missed for a day or two never sends two in a row.
    return invoice.last_reminder_on + REMIND_EVERY


def reminder_due(invoice: Invoice, paid: Decimal, today: date) -> bool:
    """Whether `invoice` gets a reminder on business day `today`: overdue (issued, unpaid, past due, something
    outstanding), reminders on, fewer than REMINDERS_MAX sent, none today, and its next day reached."""
    when = next_reminder_on(invoice)
    return (
        invoice.reminders_enabled
        and invoices.is_overdue(invoice, paid, today)
        and when is not None
        and when <= today
        and invoice.last_reminder_on != today
    )


@dataclass(frozen=True)
class SentReminder:
    """One reminder queued by a pass: which invoice, to whom, which of its reminders it was, what it asked for."""

    invoice_number: str
    to: str
    count: int
    outstanding: Decimal


def _candidates(s: Session, today: date, after: int) -> list[int]:
    """Ids past `after` of invoices that may be due a reminder today (overdue, reminders on, fewer than the most,
    none in the last REMIND_EVERY days); `_remind` decides for sure under the lock."""
    query = (
        select(Invoice.id)
        .where(invoices.overdue_clause(today))
        .where(col(Invoice.reminders_enabled).is_(True), col(Invoice.reminders_sent) < REMINDERS_MAX)
        .where(or_(col(Invoice.last_reminder_on).is_(None), col(Invoice.last_reminder_on) <= today - REMIND_EVERY))
        .where(col(Invoice.id) > after)
        .order_by(col(Invoice.id))
        .limit(BATCH)
    )
    return [int(i) for i in s.exec(query).all() if i is not None]


def send_reminders(s: Session, *, today: date | None = None) -> list[SentReminder]:
    """One pass: queue every reminder due on business day `today` (now when not given); returns what was queued.

    Each invoice is decided and counted in a transaction of its own, under its row lock, so a failure on one (logged)
    leaves the others be and a concurrent pass waits for the lock, then finds the reminder already counted.
    """
    day = today or invoices.business_today()
    sent: list[SentReminder] = []
    after = 0
    while ids := _candidates(s, day, after):
        s.rollback()  # the candidates' read ends here: each invoice below is its own transaction
        for invoice_id in ids:
            try:
                done = _remind(s, invoice_id, day)
            except Exception:
                s.rollback()
                log.exception("Reminder for invoice %s failed in this pass", invoice_id)
                continue
            if done is not None:
                sent.append(done)
        after = ids[-1]
    s.rollback()
    return sent


def _remind(s: Session, invoice_id: int, today: date) -> SentReminder | None:
    invoice = _locked(s, invoice_id)
    paid = invoices.paid_amount(s, invoice.id)
    if not reminder_due(invoice, paid, today):
        s.rollback()  # paid, switched off or reminded meanwhile (another pass held the lock first): nothing to do
        return None
    outstanding = invoice.total_amount - paid
    if not receipts.mail_invoice(s, invoice, "invoice_reminder", outstanding=outstanding, due_date=invoice.due_date):
        s.rollback()
        return None
    invoice.reminders_sent += 1
    invoice.last_reminder_on = today
    s.add(invoice)
    details = {"count": invoice.reminders_sent, "outstanding": str(outstanding)}
    audit.record(s, actor=None, action="invoice.reminder", entity=invoice, details=details)
    to = invoice_client_email(s, invoice)
    s.commit()
    return SentReminder(invoice.invoice_number, to, invoice.reminders_sent, outstanding)


def invoice_client_email(s: Session, invoice: Invoice) -> str:
    client = s.get(User, invoice.client_id)
    return client.email if client is not None else ""


# --- staff: reminders on or off per invoice (billing:write) -------------------------------------------------------


class ReminderSwitch(Body):
    """Whether the invoice gets automatic overdue reminders."""

    model_config = ConfigDict(json_schema_extra=required("enabled"))

    enabled: StrictBool | None = Field(None, validate_default=True, description="true: reminders on; false: off.")


def set_reminders(s: Session, *, actor: User, invoice_id: int, data: ReminderSwitch | dict[str, Any]) -> InvoicePublic:
    """Switch an invoice's overdue reminders on or off (billing:write); a draft or an issued, unpaid invoice only
    (a paid or voided one gets none anyway). Audited; commits."""
    access.require(actor, Perm.billing_write, "switch invoice reminders")
    body = parse(ReminderSwitch, data)
    if body.enabled is None:
        raise Invalid("Say whether reminders are on or off", errors={"enabled": "Must be true or false"})
    invoice = _locked(s, invoice_id)
    if invoice.status not in (InvoiceStatus.draft, InvoiceStatus.pending):
        raise Invalid("Reminders can be switched only on drafts and issued, unpaid invoices.")
    if invoice.reminders_enabled != body.enabled:
        invoice.reminders_enabled = body.enabled
        s.add(invoice)
        audit.record(s, actor=actor, action="invoice.reminders", entity=invoice, details={"enabled": body.enabled})
    s.commit()
    return _dto(s, invoice)
