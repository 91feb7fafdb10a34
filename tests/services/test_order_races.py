"""Orders under real concurrency, on committed data: clients ordering at once get unique consecutive numbers. Each
test removes what it wrote."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal

import pytest
from sqlalchemy import create_engine, delete, func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.commerce import Order, OrderItem, Price, Product
from app.models.enums import BillingPeriod
from app.models.system import AuditLog
from app.models.user import User
from app.services.billing import orders
from tests import factories as f
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
        s.exec(delete(InvoiceItem).where(col(InvoiceItem.invoice_id).in_(invoice_ids)))  # type: ignore[call-overload]
        s.exec(delete(Invoice).where(col(Invoice.id).in_(invoice_ids)))  # type: ignore[call-overload]
        s.exec(delete(OrderItem).where(col(OrderItem.order_id).in_(order_ids)))  # type: ignore[call-overload]
        s.exec(delete(Order).where(col(Order.id).in_(order_ids)))  # type: ignore[call-overload]
        s.exec(delete(Product).where(col(Product.id) == product.id))  # type: ignore[call-overload]
        s.exec(delete(AuditLog).where(col(AuditLog.id) > mark))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_(ids)))  # type: ignore[call-overload]
        s.commit()


@pytest.fixture
def pool(engine: Engine) -> Iterator[Engine]:
    """A connection for every thread, so all of them really are in the database at once."""
    eng = create_engine(engine.url, pool_size=N, max_overflow=0)
    yield eng
    eng.dispose()


def _sequence(number: str) -> int:
    return int(number.rsplit("-", 1)[1])


def test_clients_ordering_at_once_get_unique_consecutive_numbers(shop: Shop, pool: Engine) -> None:
    def place(s: Session, i: int) -> str:
        return orders.place_order(s, actor=shop.clients[i], data={"price_id": shop.prices["one_time"]}).order_number

    numbers = in_parallel(pool, place, N)
    assert kinds(numbers) == {"ok": N}
    sequences = sorted(_sequence(n) for n in numbers)
    assert sequences == list(range(sequences[0], sequences[0] + N))
