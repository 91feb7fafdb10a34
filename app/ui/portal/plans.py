"""Services & plans tab: the catalogue's active plans with their prices, ordering one through Stripe Checkout, and
the client's own orders and subscriptions (ADR 0081).

The order's figures, its number and what may be ordered are the server's (`billing.orders`); the tab keeps only what
is typed (a quantity per one-time price). Back from Checkout, the tab says the payment is being confirmed: only the
signed Stripe event marks an order paid.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import reflex as rx
from reflex.vars.object import ObjectVar

from app.services.billing import orders
from app.services.billing.orders import STATUS_LABELS, OrderPublic, Plan, PlanPrice
from app.ui.format import usd
from app.ui.portal import components as ui
from app.ui.portal.state import Badge, ListTab, PortalState, badge_color
from app.ui.rows import Row, label_of

ORDERS_SHOWN = 25  # the newest orders; a client has a handful
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


def price_view(p: PlanPrice) -> PriceView:
    return PriceView(id=p.id, label=p.label, recurring=p.recurring)


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
    )


class PlansState(ListTab, PortalState):
    plans: rx.Field[list[PlanView]] = rx.field(default_factory=list)
    orders: rx.Field[list[OrderView]] = rx.field(default_factory=list)

    @rx.event
    async def load(self) -> None:
        found = await self._fetch(
            lambda s, actor: (
                orders.list_plans(s, actor=actor),
                orders.list_my_orders(s, actor=actor, page_size=ORDERS_SHOWN).data,
            ),
            "Failed to load services and plans",
        )
        if found is not None:
            plans, mine = found
            self.plans = [plan_view(p) for p in plans]
            self.orders = [order_view(o) for o in mine]


def _price_row(price: ObjectVar[PriceView]) -> rx.Component:
    return rx.el.div(
        rx.el.span(price.label, class_name="text-lg font-semibold text-slate-900", data_testid="plan-price"),
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
            class_name="flex flex-wrap items-end gap-x-8 gap-y-3",
        ),
        class_name="flex flex-col gap-4",
        data_testid="order-card",
    )


def plans_tab() -> rx.Component:
    return ui.tab_section(
        "Services & plans",
        ui.loaded(
            PlansState.loading,
            PlansState.error,
            rx.fragment(
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
