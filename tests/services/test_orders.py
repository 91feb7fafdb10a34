"""Orders from the catalogue: numbers from a counter, the plans a client sees, an order priced on the server and
refused when it should be, the lists, and Stripe's events about orders applied once (ADRs 0081, 0082)."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import Session, select

from app.core.errors import Forbidden, Invalid, NotFound
from app.models.commerce import Order, OrderItem, Price, Product
from app.models.enums import BillingPeriod, EmployeeType, OrderStatus, Role
from app.models.user import User
from app.services.billing import orders
from tests import factories as f

_ids = itertools.count(1)


def plan(
    s: Session,
    name: str,
    amount: str,
    period: BillingPeriod = BillingPeriod.one_time,
    *,
    active: bool = True,
    price_active: bool = True,
) -> Price:
    product = Product(name=name, description=f"{name} described", is_active=active)
    s.add(product)
    s.flush()
    price = Price(product_id=product.id, amount=Decimal(amount), billing_period=period, is_active=price_active)
    s.add(price)
    s.commit()
    return price


@pytest.fixture
def client(session: Session) -> User:
    return f.user(session, "order_client")


@pytest.fixture
def clerk(session: Session) -> User:
    return f.user(session, "order_clerk", role=Role.employee, employee_type=EmployeeType.cfo)


# --- numbers ----------------------------------------------------------------------------------------------------


def test_order_numbers_follow_a_counter_and_grow_past_9999(session: Session) -> None:
    assert orders.next_order_number(session, 2092) == "ORD-2092-0001"
    assert orders.next_order_number(session, 2092) == "ORD-2092-0002"
    session.execute(text("UPDATE order_number_counters SET last_number = 9998 WHERE year = 2092"))
    assert [orders.next_order_number(session, 2092) for _ in range(3)] == [
        "ORD-2092-9999",
        "ORD-2092-10000",
        "ORD-2092-10001",
    ]
    assert orders.next_order_number(session, 2093) == "ORD-2093-0001"  # each year its own sequence


# --- plans ------------------------------------------------------------------------------------------------------


def test_plans_are_the_active_products_with_their_active_prices(session: Session, client: User) -> None:
    care = plan(session, "AAA Care Plan", "149.00", BillingPeriod.monthly)
    session.add(Price(product_id=care.product_id, amount=Decimal("1490.00"), billing_period=BillingPeriod.yearly))
    session.add(Price(product_id=care.product_id, amount=Decimal("99.00"), is_active=False))
    session.commit()
    plan(session, "AAA Withdrawn", "10.00", active=False)
    plan(session, "AAA No price", "10.00", price_active=False)

    shown = {p.name: p for p in orders.list_plans(session, actor=client) if p.name.startswith("AAA")}
    assert list(shown) == ["AAA Care Plan"]
    assert [(x.label, x.recurring) for x in shown["AAA Care Plan"].prices] == [
        ("$149.00 / month", True),
        ("$1,490.00 / year", True),
    ]


# --- ordering ---------------------------------------------------------------------------------------------------


def test_an_order_is_numbered_and_priced_on_the_server(session: Session, client: User) -> None:
    hours = plan(session, "Consulting", "125.50", BillingPeriod.hourly)
    order = orders.place_order(session, actor=client, data={"price_id": hours.id, "quantity": "3"})

    assert order.status == OrderStatus.pending and order.client_id == client.id
    assert order.order_number.startswith("ORD-") and order.currency == "usd"
    assert (order.subtotal, order.tax_amount, order.total_amount) == (
        Decimal("376.50"),
        Decimal("0.00"),
        Decimal("376.50"),
    )
    item = session.exec(select(OrderItem).where(OrderItem.order_id == order.id)).one()
    assert (item.quantity, item.unit_price, item.total_price, item.price_id) == (
        3,
        Decimal("125.50"),
        Decimal("376.50"),
        hours.id,
    )

    mine = orders.list_my_orders(session, actor=client).data
    assert [(o.order_number, o.status, o.total_amount, o.recurring) for o in mine] == [
        (order.order_number, "pending", "376.50", False)
    ]
    assert mine[0].items[0].product_name == "Consulting"


@pytest.mark.parametrize(
    ("period", "quantity", "field"),
    [
        (BillingPeriod.one_time, 0, "quantity"),
        (BillingPeriod.one_time, orders.QUANTITY_MAX + 1, "quantity"),
        (BillingPeriod.one_time, "two", "quantity"),
        (BillingPeriod.monthly, 2, "quantity"),  # a subscription is ordered once
    ],
)
def test_quantities_out_of_bounds_are_refused(
    session: Session, client: User, period: BillingPeriod, quantity: Any, field: str
) -> None:
    price = plan(session, "Bounded", "10.00", period)
    with pytest.raises(Invalid) as refused:
        orders.place_order(session, actor=client, data={"price_id": price.id, "quantity": quantity})
    assert field in refused.value.errors
    assert session.exec(select(Order).where(Order.client_id == client.id)).all() == []


def test_withdrawn_plans_missing_prices_and_non_clients_are_refused(
    session: Session, client: User, clerk: User
) -> None:
    gone = plan(session, "Gone", "10.00", active=False)
    old_price = plan(session, "Old price", "10.00", price_active=False)
    fine = plan(session, "Fine", "10.00")
    for price in (gone, old_price):
        with pytest.raises(Invalid, match="no longer offered"):
            orders.place_order(session, actor=client, data={"price_id": price.id})
    with pytest.raises(NotFound):
        orders.place_order(session, actor=client, data={"price_id": 2_000_000_000})
    with pytest.raises(Invalid):
        orders.place_order(session, actor=client, data={})
    with pytest.raises(Forbidden, match="Only client accounts"):
        orders.place_order(session, actor=clerk, data={"price_id": fine.id})
    assert session.exec(select(Order)).all() == []


def test_staff_list_needs_billing_read_and_shows_client_and_items(session: Session, client: User, clerk: User) -> None:
    price = plan(session, "Listed plan", "149.00", BillingPeriod.monthly)
    order = orders.place_order(session, actor=client, data={"price_id": price.id})
    rows = orders.list_orders(session, actor=clerk, search=order.order_number).data
    assert [(r.order_number, r.client_username, r.items[0].product_name, r.recurring) for r in rows] == [
        (order.order_number, "order_client", "Listed plan", True)
    ]
    assert orders.list_orders(session, actor=clerk, status="completed", search=order.order_number).data == []
    writer = f.user(session, "order_writer", role=Role.employee, employee_type=EmployeeType.developer)
    with pytest.raises(Forbidden):
        orders.list_orders(session, actor=writer)
    with pytest.raises(Forbidden):
        orders.list_orders(session, actor=client)
