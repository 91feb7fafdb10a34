"""Services & plans tab: the catalogue's active plans with their prices, ordering one through Stripe Checkout, and
the client's own orders and subscriptions (ADR 0081).

The order's figures, its number and what may be ordered are the server's (`billing.orders`); the tab keeps only what
is typed (a quantity per one-time price). Back from Checkout, the tab says the payment is being confirmed: only the
signed Stripe event marks an order paid.
"""

from __future__ import annotations

import asyncio
import dataclasses
from decimal import Decimal
from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar
from sqlmodel import Session

from app.core.errors import DomainError, Unauthorized
from app.models.user import User
from app.services.billing import order_checkout, orders
from app.services.billing.orders import QUANTITY_MAX, STATUS_LABELS, OrderPublic, Plan, PlanPrice
from app.ui.format import usd
from app.ui.portal import components as ui
from app.ui.portal.invoices import InvoicesState
from app.ui.portal.state import Badge, ListTab, PortalState, badge_color, error_message
from app.ui.rows import Row, label_of
from app.ui.state.calls import as_actor

ORDERS_SHOWN = 25  # the newest orders; a client has a handful
# After Checkout: how often and how long the tab looks for the webhook's verdict before leaving it to a reload.
WATCH_SECONDS = 2.0
WATCH_TIMES = 60
ORDER_FAILED = "Your order could not be started. Please try again."
SUBSCRIPTION_BADGES = {
    "active": Badge("subscription active", "green"),
    "past_due": Badge("renewal failed", "yellow"),
    "unpaid": Badge("renewal failed", "yellow"),
    "canceled": Badge("subscription cancelled", "red"),
}
PLAN_GRID = "grid grid-cols-1 gap-4 md:grid-cols-2"


@dataclasses.dataclass
class PriceView:
    id: int = 0
    label: str = ""  # "$149.00 / month"
    recurring: bool = False
    unit: str = "Quantity"  # what the quantity counts: "Hours" for an hourly price


@dataclasses.dataclass
class PlanView(Row):
    name: str = ""
    description: str = ""
    category: str = ""
    prices: list[PriceView] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class OrderView(Row):
    number: str = ""
    bought: str = ""  # "Website Care Plan ($149.00 / month)", "2 x Workshop"
    total: str = ""
    created_at: str = ""
    status: Badge = dataclasses.field(default_factory=Badge)
    subscription: Badge = dataclasses.field(default_factory=Badge)  # empty label: not a subscription
    pending: bool = False  # not paid yet: the state a returning client's order waits in


def price_view(p: PlanPrice) -> PriceView:
    unit = "Hours" if p.billing_period == "hourly" else "Quantity"
    return PriceView(id=p.id, label=p.label, recurring=p.recurring, unit=unit)


def plan_view(p: Plan) -> PlanView:
    return PlanView(
        id=p.id,
        name=p.name,
        description=p.description or "",
        category=label_of(p.category),
        prices=[price_view(x) for x in p.prices],
    )


def _item_text(o: OrderPublic) -> str:
    parts = []
    for i in o.items:
        each = orders.price_label(Decimal(i.unit_price), i.billing_period)
        parts.append(f"{i.quantity} x {i.product_name} ({each})" if i.quantity > 1 else f"{i.product_name} ({each})")
    return ", ".join(parts)


def order_view(o: OrderPublic) -> OrderView:
    return OrderView(
        id=o.id,
        number=o.order_number,
        bought=_item_text(o),
        total=usd(o.total_amount),
        created_at=o.created_at,
        status=Badge(STATUS_LABELS.get(o.status, o.status), badge_color(o.status)),
        subscription=SUBSCRIPTION_BADGES.get(o.subscription_status or "", Badge()),
        pending=o.status == "pending",
    )


def _shown(s: Session, actor: User) -> tuple[list[Plan], list[OrderPublic], bool]:
    """The plans, the client's newest orders, and whether they can be ordered online here."""
    mine = orders.list_my_orders(s, actor=actor, page_size=ORDERS_SHOWN).data
    return orders.list_plans(s, actor=actor), mine, order_checkout.ordering_online()


class PlansState(ListTab, PortalState):
    plans: rx.Field[list[PlanView]] = rx.field(default_factory=list)
    orders: rx.Field[list[OrderView]] = rx.field(default_factory=list)
    can_order: bool = False  # card payment is set up: the plans have order buttons
    quantities: dict[str, str] = {}  # a one-time price's quantity as typed, by price id
    ordering_id: int = 0  # the price whose Checkout is being opened (its button says so)
    order_error: str = ""
    # The order whose Checkout the client came back from, until the webhook has marked it paid (0: none).
    processing_id: int = 0
    _watching: bool = False

    def _show(self, found: tuple[list[Plan], list[OrderPublic], bool]) -> None:
        plans, mine, self.can_order = found
        self.plans = [plan_view(p) for p in plans]
        self.orders = [order_view(o) for o in mine]
        if not any(o.id == self.processing_id and o.pending for o in self.orders):
            self.processing_id = 0  # paid (or gone): its card now says so

    @rx.event
    async def load(self):
        self.ordering_id = 0  # a page shown again (the browser's back from Checkout) offers its buttons again
        found = await self._fetch(_shown, "Failed to load services and plans")
        if found is None:
            return None
        query = self.router.url.query_parameters
        if query.get("tab") == "plans":
            self.active_tab = "plans"  # back from Checkout: this tab, not the first one
        session_id = str(query.get("ordered") or "")[:255]
        if session_id and not self.processing_id:
            user = await self._require_user()
            returned = await as_actor(
                user, lambda s, a: order_checkout.returned_order(s, actor=a, session_id=session_id)
            )
            self.processing_id = returned or 0
        self._show(found)
        if self.processing_id and not self._watching:
            self._watching = True
            return PlansState.watch
        return None

    @rx.event(background=True)
    async def watch(self):
        """Look again every WATCH_SECONDS until the returning client's order is paid (or WATCH_TIMES have passed);
        then the Invoices tab loads again, as the payment's paid invoice is there now."""
        try:
            for _ in range(WATCH_TIMES):
                await asyncio.sleep(WATCH_SECONDS)
                async with self:
                    if not self.processing_id:
                        return
                    found = await self._fetch(_shown, "")
                    if found is None:
                        return
                    self._show(found)
                    paid = not self.processing_id
                if paid:
                    yield InvoicesState.load
                    return
        finally:
            async with self:
                self._watching = False

    @rx.event
    def set_quantity(self, price_id: str, value: str) -> None:
        self.quantities = {**self.quantities, str(price_id)[:12]: str(value)[:6]}

    @rx.event
    async def order(self, price_id: int):
        """Place the order and open its Stripe Checkout: the service checks the client, the plan and the quantity
        exactly as POST /api/protected/orders does."""
        if self.ordering_id:
            return
        try:
            pid = int(price_id)
        except (TypeError, ValueError):
            return
        self.order_error = ""
        self.ordering_id = pid
        yield
        data = {"price_id": pid, "quantity": self.quantities.get(str(pid)) or None}
        try:
            user = await self._require_user()
            started = await as_actor(user, lambda s, actor: order_checkout.start_checkout(s, actor=actor, data=data))
        except Unauthorized:
            self.ordering_id = 0
            await self._signed_out()
            return
        except DomainError as exc:
            self.ordering_id = 0
            self.order_error = error_message(exc, ORDER_FAILED)
            return
        yield rx.redirect(started.url)  # Stripe's page (another origin): the browser leaves the site


_P: Any = PlansState  # its vars and events, read on the class, are Vars and event specs at run time


def _with_id(handler: Any, row_id: Any) -> Any:
    """The event of `handler` for one row (Reflex's event namespaces are callable, which mypy cannot see)."""
    return handler(row_id)


def _order_button(price: ObjectVar[PriceView], icon: str, label: str) -> rx.Component:
    return ui.action_button(
        icon,
        rx.cond(PlansState.ordering_id == price.id, "Opening checkout…", label),
        _with_id(PlansState.order, price.id),
        ui.BUTTON_PRIMARY,
        disabled=PlansState.ordering_id != 0,
        data_testid="plan-order",
    )


def _price_row(price: ObjectVar[PriceView]) -> rx.Component:
    quantity_id = "quantity-" + price.id.to_string()
    return rx.el.div(
        rx.el.span(price.label, class_name="text-lg font-semibold text-slate-900", data_testid="plan-price"),
        rx.cond(
            PlansState.can_order,
            rx.el.div(
                rx.cond(
                    price.recurring,
                    rx.fragment(),
                    rx.el.div(
                        rx.el.label(price.unit, html_for=quantity_id, class_name="text-sm text-slate-600"),
                        rx.el.input(
                            id=quantity_id,
                            type="number",
                            min="1",
                            max=str(QUANTITY_MAX),
                            step="1",
                            value=_P.quantities.get(price.id.to_string(), "1"),
                            on_change=lambda v: _P.set_quantity(price.id.to_string(), v),
                            class_name="w-20 rounded-md border border-slate-300 px-2 py-1.5 text-sm",
                        ),
                        class_name="flex items-center gap-2",
                    ),
                ),
                rx.cond(
                    price.recurring,
                    _order_button(price, "repeat", "Subscribe"),
                    _order_button(price, "shopping-cart", "Order"),
                ),
                class_name="flex flex-wrap items-center gap-3",
            ),
        ),
        class_name="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-3",
    )


def _plan_card(plan: ObjectVar[PlanView]) -> rx.Component:
    return ui.card(
        rx.el.div(
            rx.el.h3(plan.name, class_name="text-lg font-semibold text-slate-900"),
            rx.el.p(plan.category, class_name="text-xs font-medium uppercase tracking-wide text-slate-500"),
        ),
        rx.cond(plan.description != "", rx.el.p(plan.description, class_name="text-sm text-slate-600")),
        rx.el.div(rx.foreach(plan.prices, _price_row), class_name="mt-auto flex flex-col gap-3"),
        class_name="flex flex-col gap-3",
        data_testid="plan-card",
    )


def _order_card(order: ObjectVar[OrderView]) -> rx.Component:
    return ui.card(
        ui.card_header(
            rx.el.h3(order.number, class_name="text-lg font-semibold text-slate-900"),
            rx.el.p(order.bought, class_name="text-sm text-slate-600 break-words"),
            status=order.status,
        ),
        rx.el.div(
            ui.fact("Ordered", ui.local_date(order.created_at)),
            ui.fact("Total", order.total, "text-lg font-semibold text-slate-900"),
            rx.cond(order.subscription.label != "", ui.status_badge(order.subscription)),
            rx.cond(
                PlansState.processing_id == order.id,
                rx.el.p(
                    rx.icon("loader-circle", size=16, class_name="animate-spin"),
                    "Payment processing",
                    role="status",
                    class_name="flex items-center gap-1.5 text-sm font-medium text-amber-800",
                    data_testid="order-processing",
                ),
            ),
            class_name="flex flex-wrap items-end gap-x-8 gap-y-3",
        ),
        class_name="flex flex-col gap-4",
        data_testid="order-card",
    )


def plans_tab() -> rx.Component:
    return ui.tab_section(
        "Services & plans",
        ui.error_text(PlansState.order_error),
        ui.loaded(
            PlansState.loading,
            PlansState.error,
            rx.fragment(
                rx.cond(
                    ~PlansState.can_order & (PlansState.plans.length() > 0),
                    rx.el.p(
                        "Ordering online is not available here yet: please contact us to order.",
                        class_name="text-sm text-slate-600",
                    ),
                ),
                rx.cond(
                    PlansState.plans.length() > 0,
                    rx.el.div(rx.foreach(PlansState.plans, _plan_card), class_name=PLAN_GRID),
                    ui.empty_state("No services or plans are offered right now.", icon="package"),
                ),
                rx.cond(
                    PlansState.orders.length() > 0,
                    rx.el.div(
                        rx.el.h3("Your orders", class_name="text-lg font-semibold text-slate-900"),
                        rx.el.p(
                            "Each payment's invoice is under Invoices, ready to download.",
                            class_name="text-sm text-slate-600",
                        ),
                        rx.el.div(rx.foreach(PlansState.orders, _order_card), class_name="flex flex-col gap-4"),
                        class_name="mt-4 flex flex-col gap-3",
                    ),
                ),
            ),
        ),
    )
