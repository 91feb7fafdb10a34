"""Stripe's events about orders: a Checkout paid, a subscription renewed, failed or cancelled (ADR 0082).

Only a signed event records money (the webhook verifies it before calling here). Each order event is applied once
however Stripe delivers it (again, out of order, several at once):

- under the order's row lock (`_locked`, `SELECT ... FOR UPDATE`, read afresh), so deliveries about one order run
  one after another and each decides on what the one before it committed;
- the order's first payment is recorded once: whichever of `checkout.session.completed` and the subscription's first
  `invoice.paid` arrives first records it, the other finds it and adds nothing;
- a renewal is recorded once per Stripe invoice (`payments.stripe_invoice_id`, unique);
- the event id itself is kept (`stripe_events`), as for invoice payments.

Each payment comes with a paid invoice for the record, numbered by the invoice counter, its lines the order's: the
client gets the payment receipt with its PDF by mail and downloads it from the portal like any invoice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.core.db import valid_id
from app.models.base import utcnow
from app.models.billing import Invoice, InvoiceItem, Payment, StripeEvent
from app.models.commerce import Order, OrderItem, Price, Product
from app.models.enums import BillingPeriod, InvoiceStatus, OrderStatus, PaymentStatus
from app.services.billing import invoices, receipts
from app.services.billing.billing import _next_number, totals
from app.services.billing.orders import RECURRING
from app.services.platform import audit

log = logging.getLogger(__name__)

CARD = "card"
PERIOD_NAMES = {BillingPeriod.monthly: "monthly", BillingPeriod.yearly: "yearly"}

Result = str  # "applied", "duplicate" or "ignored"


def dollars(value: Any) -> Decimal:
    """Stripe's integer amount in cents as Decimal dollars."""
    return (Decimal(int(value or 0)) / 100).quantize(Decimal("0.01"))


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _metadata_order(metadata: Any) -> int | None:
    value = str((metadata or {}).get("order_id") or "") if isinstance(metadata, dict) else ""
    return int(value) if value.isdigit() and valid_id(int(value)) else None


def is_order_session(session: dict[str, Any]) -> bool:
    """A Checkout Session this site opened for an order (its metadata names the order)."""
    return _metadata_order(session.get("metadata")) is not None


# --- where an object of Stripe's points -------------------------------------------------------------------------------


def _subscription_of(invoice: dict[str, Any]) -> str | None:
    """A Stripe invoice's subscription: top-level before API 2025-03, under parent.subscription_details since."""
    if sub := _text(invoice.get("subscription")):
        return sub
    details = (invoice.get("parent") or {}).get("subscription_details") or {}
    return _text(details.get("subscription"))


def _invoice_order_hint(invoice: dict[str, Any]) -> int | None:
    """The order id the subscription carries (subscription_data.metadata, copied onto its invoices)."""
    for details in (invoice.get("subscription_details"), (invoice.get("parent") or {}).get("subscription_details")):
        if isinstance(details, dict) and (order_id := _metadata_order(details.get("metadata"))):
            return order_id
    lines = ((invoice.get("lines") or {}).get("data")) or []
    return _metadata_order(lines[0].get("metadata")) if lines and isinstance(lines[0], dict) else None


def _order_by_subscription(s: Session, subscription: str | None, hint: int | None) -> int | None:
    """The order a subscription belongs to: the one recorded with it, else the one its metadata names (an event that
    overtook the Checkout's completion), if that order has no other subscription."""
    if subscription:
        found = s.exec(select(Order.id).where(Order.stripe_subscription_id == subscription)).first()
        if found is not None:
            return found
    if hint is not None:
        order = s.get(Order, hint)
        if order is not None and order.stripe_subscription_id in (None, subscription):
            return hint
    return None


def _locked(s: Session, order_id: int) -> Order | None:
    """The order, its row locked until this transaction ends and read afresh after the lock (SQLite: one writer)."""
    query = select(Order).where(Order.id == order_id).with_for_update()
    return s.exec(query.execution_options(populate_existing=True)).first()


# --- what a payment leaves behind ---------------------------------------------------------------------------------


def _period(invoice: dict[str, Any]) -> str:
    """ "Dec 28, 2026 to Jan 28, 2027", from the Stripe invoice's first line, or "" when it does not say."""
    lines = ((invoice.get("lines") or {}).get("data")) or []
    period = (lines[0].get("period") or {}) if lines and isinstance(lines[0], dict) else {}
    try:
        start, end = (datetime.fromtimestamp(int(period[k]), UTC).date() for k in ("start", "end"))
    except (KeyError, TypeError, ValueError, OverflowError):
        return ""
    return f"{start:%b} {start.day}, {start.year} to {end:%b} {end.day}, {end.year}"


def _lines(s: Session, order: Order, charged: Decimal, period: str) -> list[tuple[str, int, Decimal, Decimal]]:
    """The invoice's lines: the order's items (a subscription's named with its period), or, when Stripe charged
    another amount than the order's total (a price changed in Stripe), one line of what was charged."""
    rows = s.exec(
        select(OrderItem, Product.name, Price.billing_period)
        .join(Product, col(Product.id) == col(OrderItem.product_id))
        .outerjoin(Price, col(Price.id) == col(OrderItem.price_id))
        .where(OrderItem.order_id == order.id)
        .order_by(col(OrderItem.id))
    ).all()
    lines = []
    for item, name, billing_period in rows:
        label = name
        if billing_period in RECURRING:
            label = f"{name}, {PERIOD_NAMES[BillingPeriod(billing_period)]} subscription" + (
                f" ({period})" if period else ""
            )
        lines.append((label[:500], item.quantity, item.unit_price, item.total_price))
    if sum((amount for *_, amount in lines), Decimal(0)) != charged:
        log.warning("Order %s: Stripe charged %s, the order totals %s", order.order_number, charged, order.total_amount)
        lines = [(f"Order {order.order_number}" + (f" ({period})" if period else ""), 1, charged, charged)]
    return lines


def _paid(
    s: Session,
    order: Order,
    *,
    charged: Decimal,
    currency: str,
    intent: str | None,
    stripe_invoice: str | None,
    what: str,
    period: str = "",
) -> Invoice:
    """Record a card payment on the order, with a paid invoice for the record (numbered like every invoice)."""
    today = invoices.business_today()  # the business time zone's day, as every invoice date (ADR 0076)
    lines = _lines(s, order, charged, period)
    subtotal, tax, total = totals([amount for *_, amount in lines], Decimal(0))
    invoice = Invoice(
        invoice_number=_next_number(s, utcnow().year),
        client_id=order.client_id,
        status=InvoiceStatus.paid,
        description=f"Order {order.order_number}: {what}"[:500],
        subtotal=subtotal,
        tax_amount=tax,
        total_amount=total,
        issue_date=today,
        paid_date=today,
    )
    s.add(invoice)
    s.flush()
    invoice_id = int(invoice.id or 0)
    s.add_all(
        InvoiceItem(invoice_id=invoice_id, description=d, quantity=q, unit_price=p, amount=a) for d, q, p, a in lines
    )
    payment = Payment(
        invoice_id=invoice_id,
        order_id=order.id,
        amount=charged,
        currency=currency[:3],
        payment_method=CARD,
        stripe_payment_intent_id=intent,
        stripe_invoice_id=stripe_invoice,
        status=PaymentStatus.succeeded,
        processed_at=utcnow(),
    )
    s.add(payment)
    receipts.send_receipt(s, invoice, payment)  # the client's receipt, the paid invoice's PDF attached
    details = {"amount": f"{charged:.2f}", "invoice": invoice.invoice_number, "stripe_invoice": stripe_invoice or ""}
    audit.record(s, actor=None, action="order.payment", entity=order, details={**details, "what": what})
    return invoice


def _first_payment(s: Session, order: Order) -> Payment | None:
    query = select(Payment).where(Payment.order_id == order.id, Payment.status == PaymentStatus.succeeded)
    return s.exec(query.order_by(col(Payment.id))).first()


def _completed(order: Order, *, session: str | None, intent: str | None, subscription: str | None) -> None:
    """A paid order: completed (the portal says "paid"), with its Stripe references; a subscription is active."""
    if order.status == OrderStatus.pending:
        order.status = OrderStatus.completed
    order.stripe_session_id = order.stripe_session_id or session
    order.stripe_payment_intent_id = order.stripe_payment_intent_id or intent
    if subscription and order.stripe_subscription_id is None:
        order.stripe_subscription_id = subscription
        order.subscription_status = order.subscription_status or "active"


# --- the events -----------------------------------------------------------------------------------------------------

Apply = Callable[[Order], Result]
Handler = Callable[[Session, dict[str, Any], dict[str, Any]], Result]


def _seen(s: Session, event: dict[str, Any]) -> bool:
    """Whether this event id was applied before; if not, it is remembered in the caller's transaction (the invoice
    payments' table of applied events, ADR 0074)."""
    if s.get(StripeEvent, event["id"]) is not None:
        return True
    s.add(StripeEvent(id=event["id"], type=str(event["type"])[:100]))
    return False


def _under_lock(s: Session, event: dict[str, Any], order_id: int | None, apply: Apply) -> Result:
    """Run `apply` on the locked order unless the event was applied before; commit what it did with the event id."""
    if order_id is None:
        return "ignored"
    order = _locked(s, order_id)
    if order is None:
        log.warning("Stripe event %s names order %s, which does not exist", event.get("id"), order_id)
        s.rollback()
        return "ignored"
    # Read after the lock: a delivery that waited for it sees what the one before it committed.
    if _seen(s, event):
        s.rollback()
        return "duplicate"
    result = apply(order)
    s.add(order)
    try:
        s.commit()
    except IntegrityError:  # the same event, or the same Stripe payment, recorded by another process meanwhile
        s.rollback()
        return "duplicate"
    return result


def checkout_completed(s: Session, event: dict[str, Any], session: dict[str, Any]) -> Result:
    """checkout.session.completed / async_payment_succeeded for an order: paid once `payment_status` is "paid"."""
    if session.get("payment_status") != "paid":
        return "ignored"  # a delayed method: its own async_payment_succeeded event follows

    def apply(order: Order) -> Result:
        subscription = _text(session.get("subscription"))
        intent = _text(session.get("payment_intent"))
        first = _first_payment(s, order)
        _completed(order, session=_text(session.get("id")), intent=intent, subscription=subscription)
        if first is not None:  # the subscription's invoice.paid came first, or the same payment in another event
            return "duplicate"
        charged, currency = dollars(session.get("amount_total")), str(session.get("currency") or order.currency)
        stripe_invoice = _text(session.get("invoice"))
        what = "first period" if subscription else "paid by card"
        _paid(s, order, charged=charged, currency=currency, intent=intent, stripe_invoice=stripe_invoice, what=what)
        return "applied"

    return _under_lock(s, event, _metadata_order(session.get("metadata")), apply)


def checkout_expired(s: Session, event: dict[str, Any], session: dict[str, Any]) -> Result:
    """checkout.session.expired: the client left Checkout unpaid; a pending order is cancelled (nothing was paid)."""

    def apply(order: Order) -> Result:
        if order.status != OrderStatus.pending or _first_payment(s, order) is not None:
            return "duplicate"
        order.status = OrderStatus.cancelled
        audit.record(s, actor=None, action="order.expired", entity=order)
        return "applied"

    return _under_lock(s, event, _metadata_order(session.get("metadata")), apply)


def _paid_already(s: Session, stripe_invoice: str | None) -> bool:
    return s.exec(select(Payment.id).where(Payment.stripe_invoice_id == stripe_invoice)).first() is not None


def invoice_paid(s: Session, event: dict[str, Any], invoice: dict[str, Any]) -> Result:
    """invoice.paid for a subscription: its first period (when it overtook the Checkout's completion) or a renewal,
    each recorded once per Stripe invoice, with a paid invoice of ours."""
    subscription = _subscription_of(invoice)
    stripe_invoice = _text(invoice.get("id"))
    if subscription is None or stripe_invoice is None:
        return "ignored"
    order_id = _order_by_subscription(s, subscription, _invoice_order_hint(invoice))

    def apply(order: Order) -> Result:
        if _paid_already(s, stripe_invoice):
            return "duplicate"
        first = _first_payment(s, order)
        creating = invoice.get("billing_reason") == "subscription_create" or first is None
        _completed(order, session=None, intent=None, subscription=subscription)
        if creating and first is not None:  # the Checkout's completion recorded the first period already
            first.stripe_invoice_id = first.stripe_invoice_id or stripe_invoice
            s.add(first)
            return "duplicate"
        if order.subscription_status != "canceled":
            order.subscription_status = "active"  # a retry that succeeded ends "past due"
        charged, currency = dollars(invoice.get("amount_paid")), str(invoice.get("currency") or order.currency)
        _paid(
            s,
            order,
            charged=charged,
            currency=currency,
            intent=_text(invoice.get("payment_intent")),
            stripe_invoice=stripe_invoice,
            what="first period" if creating else "renewal",
            period=_period(invoice),
        )
        return "applied"

    return _under_lock(s, event, order_id, apply)


def invoice_failed(s: Session, event: dict[str, Any], invoice: dict[str, Any]) -> Result:
    """invoice.payment_failed for a subscription: a renewal was declined; the subscription is past due until a
    retry succeeds (invoice.paid) or Stripe gives up (customer.subscription.deleted). A failure reported after the
    same Stripe invoice was paid (events out of order) changes nothing."""
    subscription = _subscription_of(invoice)
    stripe_invoice = _text(invoice.get("id"))
    if subscription is None:
        return "ignored"
    order_id = _order_by_subscription(s, subscription, _invoice_order_hint(invoice))

    def apply(order: Order) -> Result:
        if order.subscription_status in ("past_due", "canceled") or _paid_already(s, stripe_invoice):
            return "duplicate"
        order.subscription_status = "past_due"
        audit.record(
            s, actor=None, action="order.renewal_failed", entity=order, details={"stripe_invoice": stripe_invoice}
        )
        return "applied"

    return _under_lock(s, event, order_id, apply)


def subscription_deleted(s: Session, event: dict[str, Any], subscription: dict[str, Any]) -> Result:
    """customer.subscription.deleted: the subscription ended (cancelled, or Stripe gave up on failed renewals)."""
    sub_id = _text(subscription.get("id"))
    order_id = _order_by_subscription(s, sub_id, _metadata_order(subscription.get("metadata")))

    def apply(order: Order) -> Result:
        if order.subscription_status == "canceled":
            return "duplicate"
        order.subscription_status = "canceled"
        order.stripe_subscription_id = order.stripe_subscription_id or sub_id
        audit.record(s, actor=None, action="order.subscription_cancelled", entity=order)
        return "applied"

    return _under_lock(s, event, order_id, apply)


HANDLERS: dict[str, Handler] = {
    "checkout.session.completed": checkout_completed,
    "checkout.session.async_payment_succeeded": checkout_completed,
    "checkout.session.expired": checkout_expired,
    "invoice.paid": invoice_paid,
    "invoice.payment_failed": invoice_failed,
    "customer.subscription.deleted": subscription_deleted,
}


def apply_event(s: Session, event: dict[str, Any]) -> Result | None:
    """Apply a verified Stripe event about an order: "applied", "duplicate" or "ignored"; None when the event is not
    about an order (a Checkout Session without an order in its metadata: an invoice's payment)."""
    handler = HANDLERS.get(str(event.get("type")))
    obj = (event.get("data") or {}).get("object")
    if handler is None or not isinstance(obj, dict) or not isinstance(event.get("id"), str):
        return None
    if str(event.get("type")).startswith("checkout.session.") and not is_order_session(obj):
        return None
    return handler(s, event, obj)
