"""Orders under real concurrency, on committed data: clients ordering at once get unique consecutive numbers, and
Stripe delivering one payment several times at once (the same event, or the Checkout's completion and the
subscription's first invoice.paid) records it once. Each test removes what it wrote."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal

import pytest
from sqlalchemy import delete, func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.commerce import Order, OrderItem, Price, Product
from app.models.enums import BillingPeriod, OrderStatus
from app.models.system import AuditLog, EmailOutbox
from app.models.user import User
from app.services.billing import order_events, orders
from tests import factories as f
from tests.services.test_order_events import session_paid, stripe_invoice_paid
from tests.services.test_throttle_races import in_parallel, kinds

N = 6


@dataclass
class Shop:
    engine: Engine
    clients: list[User]
    prices: dict[str, int] = field(default_factory=dict)

    def order(self, period: str = "one_time") -> Order:
        with Session(self.engine, expire_on_commit=False) as s:
            return orders.place_order(s, actor=self.clients[0], data={"price_id": self.prices[period]})


@pytest.fixture
def shop(engine: Engine) -> Iterator[Shop]:
    with Session(engine, expire_on_commit=False) as s:
        mark = s.exec(select(func.coalesce(func.max(AuditLog.id), 0))).one()
        clients = [f.user(s, f"race_buyer{i}") for i in range(N)]
        product = Product(name="Race plan")
        s.add(product)
        s.flush()
        prices = {
            "one_time": Price(product_id=product.id, amount=Decimal("50.00")),
            "monthly": Price(product_id=product.id, amount=Decimal("20.00"), billing_period=BillingPeriod.monthly),
        }
        s.add_all(prices.values())
        s.commit()
        data = Shop(engine, clients, {k: int(p.id or 0) for k, p in prices.items()})
    yield data
    with Session(engine) as s:
        ids = [c.id for c in clients]
        order_ids = s.exec(select(Order.id).where(col(Order.client_id).in_(ids))).all()
        invoice_ids = s.exec(select(Invoice.id).where(col(Invoice.client_id).in_(ids))).all()
        s.exec(delete(Payment).where(col(Payment.order_id).in_(order_ids)))  # type: ignore[call-overload]
        s.exec(delete(EmailOutbox).where(col(EmailOutbox.invoice_id).in_(invoice_ids)))  # type: ignore[call-overload]
        s.exec(delete(InvoiceItem).where(col(InvoiceItem.invoice_id).in_(invoice_ids)))  # type: ignore[call-overload]
        s.exec(delete(Invoice).where(col(Invoice.id).in_(invoice_ids)))  # type: ignore[call-overload]
        s.exec(delete(OrderItem).where(col(OrderItem.order_id).in_(order_ids)))  # type: ignore[call-overload]
        s.exec(delete(Order).where(col(Order.id).in_(order_ids)))  # type: ignore[call-overload]
        s.exec(delete(Product).where(col(Product.id) == product.id))  # type: ignore[call-overload]
        s.exec(delete(AuditLog).where(col(AuditLog.id) > mark))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_(ids)))  # type: ignore[call-overload]
        s.commit()


def _sequence(number: str) -> int:
    return int(number.rsplit("-", 1)[1])


def test_clients_ordering_at_once_get_unique_consecutive_numbers(shop: Shop, pool: Engine) -> None:
    def place(s: Session, i: int) -> str:
        return orders.place_order(s, actor=shop.clients[i], data={"price_id": shop.prices["one_time"]}).order_number

    numbers = in_parallel(pool, place, N)
    assert kinds(numbers) == {"ok": N}
    sequences = sorted(_sequence(n) for n in numbers)
    assert sequences == list(range(sequences[0], sequences[0] + N))


def _one_payment(engine: Engine, order: Order) -> list[Payment]:
    with Session(engine) as s:
        return list(s.exec(select(Payment).where(Payment.order_id == order.id)))


@pytest.mark.parametrize("round_", range(3))  # one lucky interleaving cannot hide a lost lock
def test_concurrent_deliveries_of_one_payment_record_it_once(shop: Shop, pool: Engine, round_: int) -> None:
    order = shop.order()
    paid = session_paid(order)
    results = in_parallel(pool, lambda s, _i: order_events.apply_event(s, paid), N)
    assert sorted(results) == ["applied"] + ["duplicate"] * (N - 1)
    [payment] = _one_payment(shop.engine, order)
    assert payment.amount == Decimal("50.00")
    with Session(shop.engine) as s:
        assert s.get(Order, order.id).status == OrderStatus.completed  # type: ignore[union-attr]
        assert s.exec(select(func.count()).select_from(Invoice).where(Invoice.id == payment.invoice_id)).one() == 1


def test_the_checkout_and_the_first_invoice_paid_racing_record_one_payment(shop: Shop, pool: Engine) -> None:
    order = shop.order("monthly")
    sub = f"sub_race_{order.id}"
    both = [
        session_paid(order, subscription=sub, stripe_invoice="in_race_first"),
        stripe_invoice_paid(order, sub, "in_race_first", reason="subscription_create"),
    ]
    results = in_parallel(pool, lambda s, i: order_events.apply_event(s, both[i % 2]), N)
    assert sorted(results) == ["applied"] + ["duplicate"] * (N - 1)
    assert [p.stripe_invoice_id for p in _one_payment(shop.engine, order)] == ["in_race_first"]
