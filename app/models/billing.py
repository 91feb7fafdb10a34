"""Invoices, their line items, and payments against invoices or orders."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from app.models.base import Stamped, created_at, enum_field, money, text, timestamp
from app.models.enums import InvoiceStatus, PaymentStatus

TAX_RATE = sa.Numeric(5, 2)
VOID_REASON_MAX = 200


class Invoice(Stamped, table=True):
    __tablename__ = "invoices"
    # The list's default order, newest first (a backward scan of this index): a page of 25 reads 25 rows, not all.
    __table_args__ = (sa.Index("ix_invoices_created_at_id", "created_at", "id"),)

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
    # The rate the lines were priced with, in percent (null only on invoices made before it was stored).
    tax_rate: Decimal | None = Field(default=None, sa_type=TAX_RATE, nullable=True)
    # A void invoice's why, when and who (ADR 0078); null on every other invoice.
    void_reason: str | None = Field(default=None, max_length=VOID_REASON_MAX)
    voided_at: datetime | None = timestamp()
    voided_by: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    # Overdue reminders (billing.reminders): staff may switch them off per invoice; each one sent is counted, and the
    # business day it went out kept, so a second pass on the same day sends nothing.
    reminders_enabled: bool = True
    reminders_sent: int = 0
    last_reminder_on: date | None = None


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
    # One row per Stripe PaymentIntent however often Stripe reports it (ADR 0074); NULL for payments typed in by staff.
    stripe_payment_intent_id: str | None = Field(default=None, max_length=255, unique=True)
    # The Stripe invoice a subscription's payment settled (its first period or a renewal): one payment per Stripe
    # invoice however often Stripe reports it (ADR 0082); NULL for every other payment.
    stripe_invoice_id: str | None = Field(default=None, max_length=255, unique=True)
    status: PaymentStatus = enum_field(PaymentStatus, PaymentStatus.pending)
    processed_at: datetime | None = timestamp()
    created_at: datetime = created_at()
    # A card payment's money beyond `amount` (ADR 0075): `amount` is what counts toward the invoice, never more than
    # was outstanding; `excess_amount` is what the card paid beyond it (kept, audited, refundable); `refunded_amount`
    # is what Stripe has refunded of the charge so far, as Stripe reports it (a running total, so replays are no-ops).
    excess_amount: Decimal = money()
    refunded_amount: Decimal = money()


class StripeEvent(SQLModel, table=True):
    """A Stripe event already applied: its id, so a redelivery of the same event is recognised and changes nothing."""

    __tablename__ = "stripe_events"

    id: str = Field(primary_key=True, max_length=255)
    type: str = Field(max_length=100)
    invoice_id: int | None = Field(default=None, foreign_key="invoices.id", ondelete="SET NULL")
    processed_at: datetime = created_at()
