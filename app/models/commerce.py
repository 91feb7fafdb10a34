"""The product catalogue (products and their prices) and orders."""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from app.models.base import Stamped, created_at, enum_field, money, text
from app.models.enums import BillingPeriod, OrderStatus, ProductCategory


class Product(Stamped, table=True):
    __tablename__ = "products"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    description: str | None = text()
    category: ProductCategory = enum_field(ProductCategory, ProductCategory.service_package)
    is_active: bool = True
    stripe_product_id: str | None = Field(default=None, max_length=255)
    # "metadata" is reserved by SQLAlchemy models, so the attribute is `meta` over a column named metadata.
    meta: dict[str, Any] | None = Field(default=None, sa_column=sa.Column("metadata", sa.JSON, nullable=True))


class Price(SQLModel, table=True):
    __tablename__ = "prices"

    id: int | None = Field(default=None, primary_key=True)
    product_id: int = Field(foreign_key="products.id", ondelete="CASCADE", index=True)
    amount: Decimal = money()
    currency: str = Field(default="usd", max_length=3)
    billing_period: BillingPeriod = enum_field(BillingPeriod, BillingPeriod.one_time)
    is_active: bool = True
    stripe_price_id: str | None = Field(default=None, max_length=255)
    created_at: datetime = created_at()


class Order(Stamped, table=True):
    __tablename__ = "orders"

    id: int | None = Field(default=None, primary_key=True)
    order_number: str = Field(max_length=32, unique=True)
    client_id: uuid.UUID = Field(foreign_key="users.id", ondelete="RESTRICT", index=True)
    status: OrderStatus = enum_field(OrderStatus, OrderStatus.pending)
    subtotal: Decimal = money()
    tax_amount: Decimal = money()
    total_amount: Decimal = money()
    stripe_session_id: str | None = Field(default=None, max_length=255)
    stripe_payment_intent_id: str | None = Field(default=None, max_length=255)
    # The order's currency: its price's (every item of an order is in one currency, as a Checkout Session is).
    currency: str = Field(default="usd", max_length=3)
    # A recurring order's Stripe subscription and its status as Stripe last reported it ("active", "past_due",
    # "canceled", ...); both None for a one-time order (ADR 0081).
    stripe_subscription_id: str | None = Field(default=None, max_length=255, unique=True)
    subscription_status: str | None = Field(default=None, max_length=32)


class OrderNumberCounter(SQLModel, table=True):
    """The last order number handed out in a year, bumped under its row lock in the transaction that inserts the order
    (the invoice counter's pattern, ADR 0040): unique, gapless, and past 9999 simply longer."""

    __tablename__ = "order_number_counters"

    year: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    last_number: int


class OrderItem(SQLModel, table=True):
    __tablename__ = "order_items"

    id: int | None = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="orders.id", ondelete="CASCADE", index=True)
    product_id: int = Field(foreign_key="products.id", ondelete="RESTRICT")
    price_id: int | None = Field(default=None, foreign_key="prices.id", ondelete="SET NULL")
    quantity: int = 1
    unit_price: Decimal = money()
    total_price: Decimal = money()
