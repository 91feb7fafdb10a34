"""Invoices paid online by card (Stripe Checkout), and the Stripe events that record, refund and fail those payments.

Only a signed Stripe event records money: the browser's return to the success URL proves nothing, so the portal says
"payment processing" until the event has arrived. Stripe delivers an event at least once, in any order, sometimes
several at once and sometimes two events for one payment; each is applied exactly once (ADR 0074):

- under the invoice's row lock (`billing._locked`), so deliveries about one invoice run one after another;
- by event id: an applied event's id is stored (`stripe_events`) in the transaction that applied it;
- by payment intent: one payment row per intent (a unique constraint), so a second event about the same payment (the
  session's completion and its asynchronous success, or a refund that arrived first) finds the row and adds nothing.

Money is never counted above the invoice (ADR 0075): a card payment larger than what is still owed (two Checkout
tabs both paid) counts only what was owed; the rest is kept on the row as `excess_amount`, flagged in the audit and
refundable by staff; a refund gives back the excess first.

Events are dispatched by type (`HANDLERS`); each handler names what the object pays by its metadata (`invoice_id`),
so orders add their own handlers (or skip objects without an invoice) without touching these.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any

from pydantic import Field
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app.core.config import settings
from app.core.db import valid_id
from app.core.errors import Conflict, DomainError, Invalid, NotFound
from app.core.permissions import Perm
from app.models.base import utcnow
from app.models.billing import Invoice, Payment, StripeEvent
from app.models.enums import InvoiceStatus, PaymentStatus
from app.models.user import User
from app.services.billing import order_events, receipts
from app.services.billing import stripe_gateway as gateway
from app.services.billing.billing import _locked
from app.services.billing.invoices import COUNTED, paid_amount, refundable
from app.services.platform import access, audit
from app.services.platform.schema import Input, Money

log = logging.getLogger(__name__)

CURRENCY = "usd"  # invoices are in US dollars: the PDF, the portal and the staff list all say $
CARD = "card"
# The portal's page (a literal: services never import the UI); its invoices tab reads `checkout` on return.
PORTAL = "/client-portal"


def cents(amount: Decimal) -> int:
    return int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def dollars(value: Any) -> Decimal:
    """Stripe's integer amount in the smallest unit (cents) as Decimal dollars."""
    return (Decimal(int(value)) / 100).quantize(Decimal("0.01"))


# --- paying ------------------------------------------------------------------------------------------------------


def _own_issued(s: Session, actor: User, invoice_id: int) -> Invoice:
    """The actor's own issued invoice: someone else's, a draft and a missing one are the same NotFound (ADR 0030)."""
    invoice = s.get(Invoice, invoice_id) if valid_id(invoice_id) else None
    if invoice is None or invoice.client_id != actor.id or invoice.status == InvoiceStatus.draft:
        raise NotFound("Invoice not found")
    return invoice


def start_checkout(s: Session, *, actor: User, invoice_id: int) -> str:
    """A Stripe Checkout Session for what is still owed on the caller's own issued invoice: its URL.

    NotFound for someone else's invoice, a draft, or when card payment is not set up; Conflict when nothing is
    outstanding; Unavailable (503) when Stripe cannot be reached. Nothing is recorded as paid here: the signed
    webhook does that. The idempotency key names the invoice, the amount and its payments so far, so a second click
    gets the same session back instead of a second chance to pay twice.
    """
    if not gateway.configured():
        raise NotFound(gateway.NOT_SET_UP)
    invoice = _own_issued(s, actor, invoice_id)
    outstanding = invoice.total_amount - paid_amount(s, invoice.id)
    if invoice.status != InvoiceStatus.pending or outstanding <= 0:
        raise Conflict(f"Invoice {invoice.invoice_number} is paid: nothing is outstanding.")
    payments = len(s.exec(select(Payment.id).where(Payment.invoice_id == invoice.id)).all())
    back = f"{settings.public_url}{PORTAL}?tab=invoices"
    metadata = {"invoice_id": str(invoice.id), "invoice_number": invoice.invoice_number}
    params = {
        "mode": "payment",
        "line_items": [
            {
                "quantity": 1,
                "price_data": {
                    "currency": CURRENCY,
                    "unit_amount": cents(outstanding),
                    "product_data": {"name": invoice.invoice_number},
                },
            }
        ],
        "client_reference_id": str(invoice.id),
        "metadata": metadata,
        # The intent (and so its charge) carries the invoice too: a refund or a failure names it without the session.
        "payment_intent_data": {"metadata": metadata},
        "customer_email": actor.email,
        "success_url": f"{back}&checkout={{CHECKOUT_SESSION_ID}}",
        "cancel_url": back,
    }
    key = f"invoice-{invoice.id}-{cents(outstanding)}-{payments}"
    session_id, url = gateway.create_checkout_session(params, idempotency_key=key)
    audit.record(
        s,
        actor=actor,
        action="invoice.checkout",
        entity=invoice,
        details={"session": session_id, "amount": f"{outstanding:.2f}"},
    )
    s.commit()
    return url


def checkout_returned(s: Session, *, actor: User, session_id: str) -> int | None:
    """The invoice a Checkout Session the caller returned from was paying, if Stripe says it is complete and the
    invoice is the caller's: the portal shows it as "payment processing" until the webhook records the money. None
    for anything else (a session id made up, someone else's, not complete, Stripe unreachable): a display hint only,
    never a payment."""
    if not gateway.configured() or not session_id.startswith("cs_") or len(session_id) > 255:
        return None
    try:
        found = gateway.retrieve_checkout_session(session_id)
    except DomainError:
        return None
    reference = str(found.get("client_reference_id") or "")
    if found.get("status") != "complete" or not reference.isdigit():
        return None
    try:
        invoice = _own_issued(s, actor, int(reference))
    except NotFound:
        return None
    return invoice.id if invoice.status == InvoiceStatus.pending else None


# --- Stripe's events ---------------------------------------------------------------------------------------------

Handler = Callable[[Session, dict[str, Any], dict[str, Any]], str]


def apply_event(s: Session, event: dict[str, Any]) -> str:
    """Apply a verified Stripe event once: "applied", "duplicate" (seen before) or "ignored" (a type or an object this
    site does not act on; Stripe gets 200 so it stops sending it)."""
    # An order's events (its Checkout, its subscription's invoices and end) are the orders' to apply (ADR 0082).
    if (result := order_events.apply_event(s, event)) is not None:
        return result
    handler = HANDLERS.get(str(event.get("type")))
    event_id = event.get("id")
    obj = (event.get("data") or {}).get("object")
    if handler is None or not isinstance(event_id, str) or not isinstance(obj, dict):
        return "ignored"
    return handler(s, event, obj)


def _invoice_id(obj: dict[str, Any]) -> int | None:
    value = str((obj.get("metadata") or {}).get("invoice_id") or "")
    return int(value) if value.isdigit() and valid_id(int(value)) else None


def _once(s: Session, event: dict[str, Any], invoice_id: int | None, apply: Callable[[Invoice], str]) -> str:
    """Run `apply` on the locked invoice unless this event was applied before, and remember the event with it."""
    if invoice_id is None:
        return "ignored"
    try:
        invoice = _locked(s, invoice_id)
    except NotFound:
        log.warning("Stripe event %s names invoice %s, which does not exist", event["id"], invoice_id)
        return "ignored"
    # Read after the lock: a delivery that waited for it sees what the one before it committed.
    if s.get(StripeEvent, event["id"]) is not None:
        s.rollback()
        return "duplicate"
    result = apply(invoice)
    s.add(StripeEvent(id=event["id"], type=str(event["type"])[:100], invoice_id=invoice.id))
    try:
        s.commit()
    except IntegrityError:  # the same event applied by another process between our check and our commit
        s.rollback()
        return "duplicate"
    return result


def _by_intent(s: Session, intent: str) -> Payment | None:
    return s.exec(select(Payment).where(Payment.stripe_payment_intent_id == intent)).first()


def _settle(s: Session, invoice: Invoice) -> None:
    """Paid once its payments cover the total, back to issued (pending) when refunds uncover it."""
    covered = paid_amount(s, invoice.id) >= invoice.total_amount
    if invoice.status == InvoiceStatus.pending and covered:
        invoice.status, invoice.paid_date = InvoiceStatus.paid, date.today()
    elif invoice.status == InvoiceStatus.paid and not covered:
        invoice.status, invoice.paid_date = InvoiceStatus.pending, None
    s.add(invoice)


def _received(s: Session, invoice: Invoice, intent: str, received: Decimal, currency: str) -> Payment | None:
    """Record the money a payment intent brought in, once: None when its payment is already recorded.

    Only what is still owed counts toward the invoice; anything beyond is kept as the row's excess and flagged.
    """
    row = _by_intent(s, intent)
    if row is not None and row.status in COUNTED:
        return None
    s.flush()
    owed = max(Decimal(0), invoice.total_amount - paid_amount(s, invoice.id))
    if invoice.status not in (InvoiceStatus.pending, InvoiceStatus.paid):
        owed = Decimal(0)  # an invoice no longer payable takes nothing: the money is kept as excess, for a refund
    applied = min(received, owed)
    row = row or Payment(invoice_id=invoice.id, stripe_payment_intent_id=intent, payment_method=CARD)
    row.amount, row.excess_amount, row.currency = applied, received - applied, currency[:3]
    row.status, row.processed_at = PaymentStatus.succeeded, utcnow()
    s.add(row)
    details = {"amount": f"{received:.2f}", "payment_intent": intent}
    audit.record(s, actor=None, action="invoice.card_payment", entity=invoice, details=details)
    if row.excess_amount > 0:
        excess = {**details, "applied": f"{applied:.2f}", "excess": f"{row.excess_amount:.2f}"}
        log.warning("Card payment %s exceeds what invoice %s owed by %s", intent, invoice.id, row.excess_amount)
        audit.record(s, actor=None, action="invoice.overpayment", entity=invoice, details=excess)
    return row


def _session_paid(s: Session, event: dict[str, Any], session: dict[str, Any]) -> str:
    """checkout.session.completed / async_payment_succeeded: the money is in once payment_status is "paid" (a
    delayed method completes unpaid and succeeds later, in its own event)."""
    intent = session.get("payment_intent")
    if session.get("payment_status") != "paid" or not isinstance(intent, str):
        return "ignored"
    received = dollars(session.get("amount_total") or 0)
    currency = str(session.get("currency") or CURRENCY)

    def apply(invoice: Invoice) -> str:
        row = _received(s, invoice, intent, received, currency)
        if row is None:
            return "duplicate"
        _settle(s, invoice)
        receipts.send_receipt(s, invoice, row)  # the client's receipt, with the updated PDF
        return "applied"

    return _once(s, event, _invoice_id(session), apply)


def _charge_refunded(s: Session, event: dict[str, Any], charge: dict[str, Any]) -> str:
    """charge.refunded: Stripe's running total of what was refunded of the charge. Applied as a running total (never
    lowered), so a replay or an older event changes nothing; a refund reported before the payment records both."""
    intent = charge.get("payment_intent")
    if not isinstance(intent, str):
        return "ignored"
    known = _by_intent(s, intent)
    invoice_id = known.invoice_id if known is not None else _invoice_id(charge)

    def apply(invoice: Invoice) -> str:
        row = _by_intent(s, intent)
        if row is None or row.status not in COUNTED:  # the refund came first: the charge itself says what was paid
            row = _received(s, invoice, intent, dollars(charge.get("amount") or 0), str(charge.get("currency") or ""))
        if row is None:
            return "duplicate"
        total = dollars(charge.get("amount_refunded") or 0)
        if total <= row.refunded_amount:
            return "duplicate"
        before, row.refunded_amount = row.refunded_amount, min(total, row.amount + row.excess_amount)
        if row.refunded_amount >= row.amount + row.excess_amount:
            row.status = PaymentStatus.refunded
        s.add(row)
        refund = {"refunded": f"{row.refunded_amount - before:.2f}", "payment_intent": intent}
        audit.record(s, actor=None, action="invoice.refund", entity=invoice, details=refund)
        _settle(s, invoice)
        return "applied"

    return _once(s, event, invoice_id, apply)


def _failed(s: Session, event: dict[str, Any], obj: dict[str, Any], intent: Any, amount: Any, reason: str) -> str:
    """A payment that did not go through: recorded as a failed payment (nothing counts), unless the same intent has
    since succeeded (the payer retried with another card in the same Checkout)."""
    if not isinstance(intent, str):
        return "ignored"

    def apply(invoice: Invoice) -> str:
        row = _by_intent(s, intent)
        if row is not None:
            return "duplicate"
        tried = dollars(amount or 0)
        s.add(
            Payment(
                invoice_id=invoice.id,
                amount=tried,
                currency=str(obj.get("currency") or CURRENCY)[:3],
                payment_method=CARD,
                stripe_payment_intent_id=intent,
                status=PaymentStatus.failed,
                processed_at=utcnow(),
            )
        )
        details = {"amount": f"{tried:.2f}", "payment_intent": intent, "reason": reason[:200]}
        audit.record(s, actor=None, action="invoice.payment_failed", entity=invoice, details=details)
        return "applied"

    return _once(s, event, _invoice_id(obj), apply)


def _session_failed(s: Session, event: dict[str, Any], session: dict[str, Any]) -> str:
    """checkout.session.async_payment_failed: a delayed method (a bank debit) failed after the session completed."""
    reason = "The delayed payment method failed"
    return _failed(s, event, session, session.get("payment_intent"), session.get("amount_total"), reason)


def _intent_failed(s: Session, event: dict[str, Any], intent: dict[str, Any]) -> str:
    """payment_intent.payment_failed: a card was declined (the payer may still retry in the same Checkout)."""
    error = intent.get("last_payment_error") or {}
    reason = str(error.get("message") or "The payment was declined")
    return _failed(s, event, intent, intent.get("id"), intent.get("amount"), reason)


HANDLERS: dict[str, Handler] = {
    "checkout.session.completed": _session_paid,
    "checkout.session.async_payment_succeeded": _session_paid,
    "checkout.session.async_payment_failed": _session_failed,
    "payment_intent.payment_failed": _intent_failed,
    "charge.refunded": _charge_refunded,
}


# --- refunds by staff -------------------------------------------------------------------------------------------


class RefundCreate(Input):
    """A refund of a card payment: all that is left to refund of it unless an amount is given."""

    amount: Annotated[Decimal | None, Money("Amount")] = Field(None, description="Defaults to all that is left.")


def refund_payment(s: Session, *, actor: User, payment_id: int, amount: Decimal | None = None) -> str:
    """Ask Stripe to refund a card payment (billing:write): its refund id. The money and the invoice change when
    Stripe's charge.refunded event arrives (the webhook), as for a refund made in Stripe's own dashboard."""
    access.require(actor, Perm.billing_write, "refund payments")
    payment = s.get(Payment, payment_id) if valid_id(payment_id) else None
    if payment is None or payment.invoice_id is None:
        raise NotFound("Payment not found")
    intent = payment.stripe_payment_intent_id
    left = refundable(payment)
    if not intent:
        raise Conflict("Only card payments can be refunded here; refund a bank transfer by bank transfer.")
    if left <= 0:
        raise Conflict("Nothing is left to refund on this payment.")
    value = left if amount is None else amount
    if value <= 0 or value > left or value != value.quantize(Decimal("0.01")):
        message = f"Amount must be between $0.01 and the refundable ${left:,.2f}"
        raise Invalid(message, errors={"amount": message})
    # The key names what is refunded so far: a double click refunds once, a later second refund is a new one.
    key = f"refund-{payment.id}-{cents(payment.refunded_amount)}-{cents(value)}"
    refund_id, status = gateway.create_refund(intent, cents(value), idempotency_key=key)
    invoice = s.get(Invoice, payment.invoice_id)
    details = {"amount": f"{value:.2f}", "payment_intent": intent, "refund": refund_id, "status": status}
    audit.record(s, actor=actor, action="invoice.refund_requested", entity=invoice, details=details)
    s.commit()
    return refund_id
