"""Orders and subscriptions in Billing (billing:read): one page of every client's orders at a time, searched,
filtered by status and sorted in SQL by `orders.list_orders`. Nothing here writes: an order changes only by its
client's Checkout and Stripe's signed events."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import reflex as rx

from app.core.permissions import Perm
from app.services.billing import orders
from app.services.billing.orders import STATUS_LABELS, OrderRow
from app.ui.admin.business_time import day_text
from app.ui.admin.common import dollars
from app.ui.admin.paged import PagedList, SectionListing
from app.ui.admin.state import AdminState
from app.ui.rows import Choice, Row

FEATURE = "Billing"
PAGE_SIZE = 10
STATUS_COLORS = {"pending": "yellow", "completed": "green", "cancelled": "grey", "refunded": "red"}
SUBSCRIPTION_LABELS = {"active": "Active", "past_due": "Renewal failed", "unpaid": "Unpaid", "canceled": "Cancelled"}
SUBSCRIPTION_COLORS = {"active": "green", "past_due": "yellow", "unpaid": "yellow", "canceled": "red"}
STATUS_FILTERS = [
    ("", "All orders"),
    ("pending", "Awaiting payment"),
    ("completed", "Paid"),
    ("cancelled", "Cancelled"),
    ("refunded", "Refunded"),
]
SORTS = [("newest", "Newest first"), ("oldest", "Oldest first"), ("number", "Order number"), ("total", "Highest total")]


@dataclasses.dataclass
class OrderLine(Row):
    """One order of the table, its values formatted for display."""

    number: str = ""
    client: str = ""
    bought: str = ""
    total: str = ""
    created_at: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    subscription: Choice = dataclasses.field(default_factory=Choice)  # empty: a one-time order


def order_line(o: OrderRow) -> OrderLine:
    items = ", ".join(
        (f"{i.quantity} x " if i.quantity > 1 else "")
        + f"{i.product_name} ({orders.price_label(i.unit_price, i.billing_period)})"
        for i in o.items
    )
    return OrderLine(
        id=o.id,
        number=o.order_number,
        client=o.client_name or "—",
        bought=items,
        total=dollars(o.total_amount),
        created_at=day_text(o.created_at),
        status=Choice.of(o.status, {k: v.capitalize() for k, v in STATUS_LABELS.items()}),
        subscription=Choice.of(o.subscription_status or "", SUBSCRIPTION_LABELS),
    )


class OrdersState(PagedList[OrderLine], AdminState):
    listing: ClassVar[SectionListing[OrderLine]] = SectionListing(
        Perm.billing_read, FEATURE, orders.list_orders, order_line, "orders", noun="order"
    )
    rows: list[OrderLine] = []
    status_filter: str = ""
    sort: str = "newest"
    page_size: int = PAGE_SIZE

    def close_dialogs(self) -> None:
        """The panel has no dialogs."""

    def _filters(self) -> dict[str, Any]:
        return {"status": self.status_filter}

    @rx.event
    async def set_status_filter(self, value: str) -> None:
        self.status_filter = str(value) if str(value) in STATUS_LABELS else ""
        await self._first_page()
