"""Invoices, their line items, and payments against invoices or orders."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from decimal import Decimal

from sqlmodel import Field, SQLModel

from app.models.base import Stamped, created_at, enum_field, money, text, timestamp
from app.models.enums import InvoiceStatus, PaymentStatus


class Invoice(Stamped, table=True):
    __tablename__ = "invoices"

    id: int | None = Field(default=None, primary_key=True)
    invoice_number: str = Field(max_length=32, unique=True)
    client_id: uuid.UUID = Field(foreign_key="users.id", ondelete="RESTRICT", index=True)
    project_id: int | None = Field(default=None, foreign_key="projects.id", ondelete="SET NULL")
    status: InvoiceStatus = enum_field(InvoiceStatus, InvoiceStatus.draft, index=True)
    description: str | None = Field(default=None, max_length=500)
    subtotal: Decimal = money()
    tax_amount: Decimal = money()
    total_amount: Decimal = money()
    issue_date: date | None = None
    due_date: date | None = None
    paid_date: date | None = None
    notes: str | None = text()


class InvoiceNumberCounter(SQLModel, table=True):
    """The last invoice number handed out in a year: bumped under its row lock in the transaction that inserts the
    invoice, so parallel creators queue and numbers are unique, gapless and past 9999 simply longer."""

    __tablename__ = "invoice_number_counters"

    year: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    last_number: int


class InvoiceItem(Stamped, table=True):
    __tablename__ = "invoice_items"

    id: int | None = Field(default=None, primary_key=True)
    invoice_id: int = Field(foreign_key="invoices.id", ondelete="CASCADE", index=True)
    description: str = Field(max_length=500)
    quantity: int = 1
    unit_price: Decimal = money()
    amount: Decimal = money()


class Payment(SQLModel, table=True):
    __tablename__ = "payments"

    id: int | None = Field(default=None, primary_key=True)
    invoice_id: int | None = Field(default=None, foreign_key="invoices.id", ondelete="SET NULL", index=True)
    order_id: int | None = Field(default=None, foreign_key="orders.id", ondelete="SET NULL", index=True)
    amount: Decimal = money()
    currency: str = Field(default="usd", max_length=3)
    payment_method: str | None = Field(default=None, max_length=50)
    stripe_payment_intent_id: str | None = Field(default=None, max_length=255)
    # The Stripe invoice a subscription's payment settled (its first period or a renewal): one payment per Stripe
    # invoice however often Stripe reports it (ADR 0081); NULL for every other payment.
    stripe_invoice_id: str | None = Field(default=None, max_length=255, unique=True)
    status: PaymentStatus = enum_field(PaymentStatus, PaymentStatus.pending)
    processed_at: datetime | None = timestamp()
    created_at: datetime = created_at()
