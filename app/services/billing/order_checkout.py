"""Paying for an order: its Stripe Checkout Session (ADR 0081), and the way back to the portal.

A one-time (or hourly) price is a `payment`-mode session, a monthly or yearly one a `subscription`-mode session; the
order's id travels in the session's metadata and in what Stripe makes from it, so the webhook's events name the
order (`order_events`). Nothing here marks an order paid.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from sqlmodel import Session, select

from app.core.config import settings
from app.core.errors import DomainError, NotFound
from app.models.commerce import Order, OrderItem, Price, Product
from app.models.enums import OrderStatus
from app.models.user import User
from app.services.billing import stripe_gateway as gateway
from app.services.billing.online import cents
from app.services.billing.orders import RECURRING, OrderCreate, place_order
from app.services.platform import audit

NO_ONLINE_ORDERS = "Ordering online is not available on this site. Please contact us to order."
# The portal's page (a literal: services never import the UI); its Plans tab reads `ordered` on the way back.
PORTAL = "/client-portal"


class OrderCheckout(BaseModel):
    """An order placed and its Stripe Checkout Session opened: where to send the client, and the order's number."""

    url: str
    order_number: str


def ordering_online() -> bool:
    """Clients can order online only where card payment is set up (a Stripe secret key); otherwise the plans show
    without an order button."""
    return gateway.configured()


def _line_item(price: Price, product: Product, quantity: int) -> dict[str, Any]:
    """The Checkout line: the price's Stripe id when it has one, else the price inline (on the product's Stripe id,
    or named after the product)."""
    if price.stripe_price_id:
        return {"price": price.stripe_price_id, "quantity": quantity}
    inline: dict[str, Any] = {"currency": price.currency, "unit_amount": cents(price.amount)}
    if product.stripe_product_id:
        inline["product"] = product.stripe_product_id
    else:
        inline["product_data"] = {"name": product.name}
    if price.billing_period in RECURRING:
        inline["recurring"] = {"interval": RECURRING[price.billing_period]}
    return {"price_data": inline, "quantity": quantity}


def _checkout_params(order: Order, item: OrderItem, price: Price, product: Product, email: str) -> dict[str, Any]:
    recurring = price.billing_period in RECURRING
    metadata = {"order_id": str(order.id), "order_number": order.order_number}
    back = f"{settings.public_url}{PORTAL}?tab=plans"
    # The order goes on the session and on what Stripe makes from it (the subscription, whose invoices carry it; the
    # payment intent, whose charge and refunds carry it), so every later event names the order.
    carried = (
        {"subscription_data": {"metadata": metadata}} if recurring else {"payment_intent_data": {"metadata": metadata}}
    )
    return {
        "mode": "subscription" if recurring else "payment",
        "line_items": [_line_item(price, product, item.quantity)],
        # "order-<id>": the invoices' Checkout uses the bare invoice id here; the prefix keeps the two apart.
        "client_reference_id": f"order-{order.id}",
        "metadata": metadata,
        **carried,
        "customer_email": email,
        "success_url": f"{back}&ordered={{CHECKOUT_SESSION_ID}}",
        "cancel_url": back,
    }


def start_checkout(s: Session, *, actor: User, data: OrderCreate | Mapping[str, Any]) -> OrderCheckout:
    """Place the client's order (`place_order`'s checks) and open its Stripe Checkout Session: `payment` mode for a
    one-time price, `subscription` mode for a monthly or yearly one. The order stays pending until the signed webhook
    says it is paid. When Stripe cannot be reached, the order is cancelled (nothing was charged) and Unavailable
    (503) says so; NotFound when ordering online is not set up."""
    if not ordering_online():
        raise NotFound(NO_ONLINE_ORDERS)
    order = place_order(s, actor=actor, data=data)
    item = s.exec(select(OrderItem).where(OrderItem.order_id == order.id)).one()
    price, product = s.get(Price, item.price_id), s.get(Product, item.product_id)
    assert price is not None and product is not None  # just checked by place_order, in this request
    params = _checkout_params(order, item, price, product, actor.email)
    try:
        # One session per order: a retried call (a lost answer) gets the same session back from Stripe.
        session_id, url = gateway.create_checkout_session(params, idempotency_key=f"order-{order.id}")
    except DomainError:
        order.status = OrderStatus.cancelled
        s.add(order)
        audit.record(s, actor=actor, action="order.checkout_failed", entity=order)
        s.commit()
        raise
    order.stripe_session_id = session_id
    s.add(order)
    audit.record(s, actor=actor, action="order.checkout", entity=order, details={"session": session_id})
    s.commit()
    return OrderCheckout(url=url, order_number=order.order_number)


def returned_order(s: Session, *, actor: User, session_id: str) -> int | None:
    """The actor's own order whose Checkout Session they came back from, while it is still pending: the portal shows
    it as "payment processing" until the webhook has recorded the money. None for anything else (a display hint
    only, never a payment)."""
    if not session_id.startswith("cs_") or len(session_id) > 255:
        return None
    query = select(Order.id).where(
        Order.client_id == actor.id, Order.stripe_session_id == session_id, Order.status == OrderStatus.pending
    )
    return s.exec(query).first()
