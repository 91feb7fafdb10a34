"""Orders from the catalogue: the portal's plans, a client's order of one price, and the order lists (ADR 0081).

A client orders one active price of an active product: a one-time (or hourly) price in a quantity, a recurring one
(monthly, yearly) once. The order is numbered ORD-YYYY-NNNN from a per-year counter row, as invoices are (ADR 0040),
its totals are the invoice arithmetic (`billing.price_invoice`), and it stays pending until a signed Stripe event
says it is paid (`order_events`); the browser's return from Checkout proves nothing.

The catalogue's tables are read here directly (models are shared); the catalogue's services are not imported, as
billing and catalogue are independent domains (ADR 0071).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Annotated, Any, Unpack

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import text
from sqlmodel import Session, col, select

from app.core.db import MAX_ID
from app.core.errors import Forbidden, Invalid, NotFound
from app.core.permissions import Perm
from app.models.base import utcnow
from app.models.commerce import Order, OrderItem, Price, Product
from app.models.enums import BillingPeriod, OrderStatus, Role
from app.models.user import User
from app.services.accounts.admin_users import CLIENT_SEARCH
from app.services.billing.billing import price_invoice
from app.services.platform import access, audit
from app.services.platform.paging import Listing, Page, View, one_of
from app.services.platform.schema import Input, Whole, parse, required

QUANTITY_MAX = 100  # a one-time order's quantity (hours of consulting, workshop seats): more is a conversation
RECURRING = {BillingPeriod.monthly: "month", BillingPeriod.yearly: "year"}
PERIOD_WORDS = {BillingPeriod.one_time: "", BillingPeriod.hourly: "hour", **RECURRING}
# The order statuses as people read them: an order is "paid" when completed (the spec's enum says completed).
STATUS_LABELS = {"pending": "awaiting payment", "completed": "paid", "cancelled": "cancelled", "refunded": "refunded"}
ONLY_CLIENTS = "Only client accounts can order services and plans."
NOT_OFFERED = "This plan is no longer offered. Please choose another one."

# The year's counter row, bumped in the transaction that inserts the order (the invoice counter's statement, ADR 0040):
# a parallel orderer waits for this transaction, then takes the next number (or this one if it rolled back).
_BUMP = text(
    "INSERT INTO order_number_counters (year, last_number) VALUES (:year, 1) "
    "ON CONFLICT (year) DO UPDATE SET last_number = order_number_counters.last_number + 1 "
    "RETURNING last_number"
)


def next_order_number(s: Session, year: int) -> str:
    """The year's next order number, ORD-2026-0001 onwards (ORD-2026-10000 follows ORD-2026-9999)."""
    sequence = s.execute(_BUMP, {"year": year}).scalar_one()
    return f"ORD-{year}-{sequence:04d}"


def money_text(amount: Decimal) -> str:
    return f"{amount:.2f}"


def period_word(period: str) -> str:
    """What one price buys: "month", "year", "hour", or "" for a one-time price (or a period not known)."""
    return PERIOD_WORDS.get(BillingPeriod(period), "") if period in BillingPeriod.__members__ else ""


def price_label(amount: Decimal | str, period: str) -> str:
    """ "$149.00 / month", "$125.00 / hour", "$1,200.00" (one-time)."""
    word = period_word(period)
    return f"${Decimal(amount):,.2f}" + (f" / {word}" if word else "")


# --- the plans the portal offers ------------------------------------------------------------------------------------


class PlanPrice(BaseModel):
    """One way to buy a product: its amount ("149.00"), currency, billing period and how the portal words it."""

    id: int
    amount: str
    currency: str
    billing_period: str
    label: str  # "$149.00 / month"
    recurring: bool  # monthly or yearly: a subscription, ordered once


class Plan(BaseModel):
    """An active product with its active prices, cheapest first."""

    id: int
    name: str
    description: str | None
    category: str
    prices: list[PlanPrice]


def plan_price(price: Price) -> PlanPrice:
    return PlanPrice(
        id=int(price.id or 0),
        amount=money_text(price.amount),
        currency=price.currency,
        billing_period=str(price.billing_period),
        label=price_label(price.amount, price.billing_period),
        recurring=price.billing_period in RECURRING,
    )


def list_plans(s: Session, *, actor: User) -> list[Plan]:
    """Every active product that has an active price, by name, each with its active prices (signed-in users; the
    portal's Services & plans). A handful of products: the catalogue is the company's offer, not a data set."""
    del actor  # any signed-in user may look; only clients may order (place_order)
    rows = s.exec(
        select(Product, Price)
        .join(Price, col(Price.product_id) == col(Product.id))
        .where(col(Product.is_active).is_(True), col(Price.is_active).is_(True))
        .order_by(col(Product.name), col(Product.id), col(Price.amount), col(Price.id))
    ).all()
    plans: dict[int, Plan] = {}
    for product, price in rows:
        plan = plans.get(int(product.id or 0))
        if plan is None:
            plan = plans[int(product.id or 0)] = Plan(
                id=int(product.id or 0),
                name=product.name,
                description=product.description,
                category=str(product.category),
                prices=[],
            )
        plan.prices.append(plan_price(price))
    return list(plans.values())


# --- ordering ---------------------------------------------------------------------------------------------------------


class OrderCreate(Input):
    """What a client orders: one price, and how many (one-time prices only; a subscription is ordered once)."""

    model_config = ConfigDict(json_schema_extra=required("price_id"))

    price_id: Annotated[int | None, Whole("Plan", 1, MAX_ID, refusal="Plan not found", required=True)] = Field(
        None, validate_default=True, description="The id of one of the plan's prices (GET /api/protected/plans)."
    )
    quantity: Annotated[int | None, Whole("Quantity", 1, QUANTITY_MAX)] = Field(
        None, description=f"1 to {QUANTITY_MAX} for a one-time price; a recurring price is ordered once. Default 1."
    )


def _offered(s: Session, price_id: int) -> tuple[Price, Product]:
    """The price and its product, both active; a missing price is NotFound, a withdrawn one a clear refusal."""
    price = s.get(Price, price_id)
    product = s.get(Product, price.product_id) if price is not None else None
    if price is None or product is None:
        raise NotFound("Plan not found")
    if not (price.is_active and product.is_active):
        raise Invalid(NOT_OFFERED, errors={"price_id": NOT_OFFERED})
    return price, product


def _quantity(price: Price, quantity: int | None) -> int:
    if price.billing_period in RECURRING and quantity not in (None, 1):
        message = "A subscription is ordered once: the quantity must be 1."
        raise Invalid(message, errors={"quantity": message})
    return quantity or 1


def place_order(s: Session, *, actor: User, data: OrderCreate | Mapping[str, Any]) -> Order:
    """A pending order of one price by the signed-in client, numbered and priced on the server (committed).

    Forbidden for anyone but a client; NotFound for a price that does not exist; Invalid for a withdrawn product or
    price, or a quantity other than 1 on a subscription.
    """
    if actor.role != Role.client:
        raise Forbidden(ONLY_CLIENTS)
    body = parse(OrderCreate, data)
    price, product = _offered(s, int(body.price_id or 0))
    quantity = _quantity(price, body.quantity)
    line = {"description": product.name, "quantity": quantity, "unit_price": price.amount}
    priced = price_invoice([line], "0")  # the invoice arithmetic: the paid invoice will carry the same figures
    order = Order(
        order_number=next_order_number(s, utcnow().year),
        client_id=actor.id,
        status=OrderStatus.pending,
        currency=price.currency,
        subtotal=priced.subtotal,
        tax_amount=priced.tax,
        total_amount=priced.total,
    )
    s.add(order)
    s.flush()  # the unique order_number stays the last word
    item = OrderItem(
        order_id=int(order.id or 0),
        product_id=int(product.id or 0),
        price_id=price.id,
        quantity=quantity,
        unit_price=price.amount,
        total_price=priced.lines[0].amount,
    )
    s.add(item)
    audit.record(s, actor=actor, action="order.create", entity=order, details={"total": money_text(order.total_amount)})
    s.commit()
    return order


# --- what the portal and staff see ------------------------------------------------------------------------------------


class OrderItemPublic(BaseModel):
    product_id: int
    product_name: str
    price_id: int | None
    billing_period: str
    quantity: int
    unit_price: str
    total_price: str


class OrderPublic(BaseModel):
    """An order and its lines. Amounts are text with two decimals; `status` is the spec's (completed = paid), and
    `subscription_status` Stripe's for a recurring order (active, past_due, canceled), else null."""

    id: int
    order_number: str
    client_id: str
    status: str
    currency: str
    subtotal: str
    tax_amount: str
    total_amount: str
    recurring: bool
    subscription_status: str | None
    created_at: str
    items: list[OrderItemPublic]


class OrderRow(OrderPublic):
    """A row of the staff list: the order and its client's name."""

    client_name: str
    client_username: str


def _items(s: Session, order_ids: list[int]) -> dict[int, list[OrderItemPublic]]:
    """The lines of these orders, with their products' names and periods, in one query."""
    found: dict[int, list[OrderItemPublic]] = {i: [] for i in order_ids}
    if not order_ids:
        return found
    rows = s.exec(
        select(OrderItem, Product.name, Price.billing_period)
        .join(Product, col(Product.id) == col(OrderItem.product_id))
        .outerjoin(Price, col(Price.id) == col(OrderItem.price_id))
        .where(col(OrderItem.order_id).in_(order_ids))
        .order_by(col(OrderItem.id))
    ).all()
    for item, name, period in rows:
        found[item.order_id].append(
            OrderItemPublic(
                product_id=item.product_id,
                product_name=name,
                price_id=item.price_id,
                billing_period=str(period or BillingPeriod.one_time),
                quantity=item.quantity,
                unit_price=money_text(item.unit_price),
                total_price=money_text(item.total_price),
            )
        )
    return found


def _public(order: Order, items: list[OrderItemPublic]) -> dict[str, Any]:
    return {
        "id": order.id,
        "order_number": order.order_number,
        "client_id": str(order.client_id),
        "status": str(order.status),
        "currency": order.currency,
        "subtotal": money_text(order.subtotal),
        "tax_amount": money_text(order.tax_amount),
        "total_amount": money_text(order.total_amount),
        "recurring": any(i.billing_period in RECURRING for i in items),
        "subscription_status": order.subscription_status,
        "created_at": order.created_at.isoformat(),
        "items": items,
    }


NEWEST_FIRST = (col(Order.created_at).desc(), col(Order.id).desc())


def _same(order: Order) -> Order:
    return order


def list_my_orders(s: Session, *, actor: User, **view: Unpack[View]) -> Page[OrderPublic]:
    """One page of the signed-in user's own orders, newest first (the portal; GET /api/protected/orders)."""
    query = select(Order).where(Order.client_id == actor.id)
    found = Listing(_same, {"newest": NEWEST_FIRST}).page(s, query, **view)
    items = _items(s, [int(o.id or 0) for o in found.data])
    return found.with_data([OrderPublic(**_public(o, items[int(o.id or 0)])) for o in found.data])


def _pair(row: tuple[Order, User]) -> tuple[Order, User]:
    return row


ORDER_SORTS = {
    "newest": NEWEST_FIRST,
    "oldest": (col(Order.created_at), col(Order.id)),
    "number": (col(Order.order_number), col(Order.id)),
    "total": (col(Order.total_amount).desc(), col(Order.id).desc()),
}
ORDERS = Listing(_pair, ORDER_SORTS, (Order.order_number, *CLIENT_SEARCH))


def list_orders(s: Session, *, actor: User, status: str = "", **view: Unpack[View]) -> Page[OrderRow]:
    """A page of every client's orders and subscriptions for staff (billing:read), searched by order number and the
    client's names, filtered by status, newest first unless asked."""
    access.require(actor, Perm.billing_read, "view orders")
    query = select(Order, User).join(User, col(Order.client_id) == col(User.id))
    found = ORDERS.page(s, one_of(query, Order.status, status, OrderStatus), **view)
    items = _items(s, [int(o.id or 0) for o, _ in found.data])
    return found.with_data([_row(o, client, items[int(o.id or 0)]) for o, client in found.data])


def _row(order: Order, client: User, items: list[OrderItemPublic]) -> OrderRow:
    name = " ".join(p for p in (client.first_name, client.last_name) if p)
    return OrderRow(**_public(order, items), client_name=name or client.username, client_username=client.username)
