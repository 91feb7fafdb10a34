"""The orders' handlers: the portal's Services & plans tab loads the plans and the client's own orders, and the staff
panel's orders list answers only to billing readers (a crafted event from anyone else gets nothing).

Built on tests/ui/harness.py: the real state tree with the handshake's cookie, rows committed and removed after.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

import pytest
from reflex import constants
from reflex.state import State
from sqlalchemy import delete
from sqlmodel import Session, col, select

from app.core.config import settings
from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.commerce import Order, OrderItem, Price, Product
from app.models.enums import BillingPeriod, EmployeeType, Role
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.billing import order_checkout, order_events, orders
from app.ui.admin.orders.state import OrdersState
from app.ui.portal.plans import PlansState
from tests import factories as f
from tests.ui.harness import call, call_returning, handler_state, new_tag, sign_in
from tests.ui.test_card_payment_handlers import redirect_url
from tools.dev.stripe_standin import StandIn


@dataclass
class Shop:
    tag: str
    client: User
    other: User
    cfo: User
    developer: User
    monthly: Price
    order: Order


@pytest.fixture
def shop(db: Session) -> Iterator[Shop]:
    tag = new_tag()
    product = Product(name=f"Care {tag}", description="Hosting and updates")
    db.add(product)
    db.flush()
    monthly = Price(product_id=product.id, amount=Decimal("149.00"), billing_period=BillingPeriod.monthly)
    db.add(monthly)
    db.commit()
    client = f.user(db, f"buyer_{tag}", first_name="Ada", last_name="Buyer")
    other = f.user(db, f"other_{tag}")
    order = orders.place_order(db, actor=client, data={"price_id": monthly.id})
    orders.place_order(db, actor=other, data={"price_id": monthly.id})
    yield Shop(
        tag,
        client,
        other,
        f.user(db, f"cfo_{tag}", role=Role.employee, employee_type=EmployeeType.cfo),
        f.user(db, f"dev_{tag}", role=Role.employee, employee_type=EmployeeType.developer),
        monthly,
        order,
    )
    ids = [client.id, other.id]
    order_ids = [o.id for o in db.exec(select(Order).where(col(Order.client_id).in_(ids)))]
    invoice_ids = [i.id for i in db.exec(select(Invoice).where(col(Invoice.client_id).in_(ids)))]
    db.exec(delete(Payment).where(col(Payment.order_id).in_(order_ids)))  # type: ignore[call-overload]
    db.exec(delete(EmailOutbox).where(col(EmailOutbox.invoice_id).in_(invoice_ids)))  # type: ignore[call-overload]
    db.exec(delete(InvoiceItem).where(col(InvoiceItem.invoice_id).in_(invoice_ids)))  # type: ignore[call-overload]
    db.exec(delete(Invoice).where(col(Invoice.id).in_(invoice_ids)))  # type: ignore[call-overload]
    db.exec(delete(OrderItem).where(col(OrderItem.order_id).in_(order_ids)))  # type: ignore[call-overload]
    db.exec(delete(Order).where(col(Order.id).in_(order_ids)))  # type: ignore[call-overload]
    db.exec(delete(Product).where(col(Product.id) == product.id))  # type: ignore[call-overload]
    db.commit()


def test_the_plans_tab_shows_the_plans_and_only_the_clients_own_orders(db: Session, shop: Shop) -> None:
    state = handler_state(PlansState, sign_in(db, shop.client), "/client-portal")
    call(state, "load")
    assert state.error == "" and not state.loading
    care = next(p for p in state.plans if p.name == f"Care {shop.tag}")
    assert [(x.id, x.label, x.recurring) for x in care.prices] == [(shop.monthly.id, "$149.00 / month", True)]
    assert [(o.number, o.total, o.status.label) for o in state.orders] == [
        (shop.order.order_number, "$149.00", "awaiting payment")
    ]
    assert state.orders[0].bought == f"Care {shop.tag} ($149.00 / month)"


def test_the_staff_orders_list_answers_billing_readers_only(db: Session, shop: Shop) -> None:
    state = handler_state(OrdersState, sign_in(db, shop.cfo), "/admin/billing")
    call(state, "set_search", shop.tag)
    assert {r.client for r in state.rows} == {"Ada Buyer", f"other_{shop.tag}"}
    assert {r.status.label for r in state.rows} == {"Awaiting payment"}

    refused = handler_state(OrdersState, sign_in(db, shop.developer), "/admin/billing")
    call(refused, "set_search", shop.tag)
    assert refused.rows == [] and refused.total == 0
    client_state = handler_state(OrdersState, sign_in(db, shop.client), "/admin/billing")
    call(client_state, "set_search", shop.tag)
    assert client_state.rows == []


def test_ordering_is_checked_like_the_route_and_leaves_for_checkout(
    db: Session, shop: Shop, standin: StandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Staff crafting the event are refused by the service, as the route refuses them; nothing reaches Stripe.
    crafted = handler_state(PlansState, sign_in(db, shop.cfo), "/client-portal")
    call(crafted, "order", shop.monthly.id)
    assert crafted.order_error == orders.ONLY_CLIENTS and standin.sessions == {}

    state = handler_state(PlansState, sign_in(db, shop.client), "/client-portal")
    call(state, "load")
    assert state.can_order
    for bad in ("x", -1, 2_000_000_000):
        call(state, "order", bad)
        assert state.ordering_id == 0
    assert standin.sessions == {}
    last = call_returning(state, "order", shop.monthly.id)
    assert redirect_url(last).startswith(f"{standin.url}/pay/cs_test_")
    [session] = standin.sessions.values()
    assert session["mode"] == "subscription" and session["metadata"]["order_id"]

    # Back from Checkout: the order shows "payment processing" until the webhook has paid it.
    token = sign_in(db, shop.client)
    returned = returning(token, f"tab=plans&ordered={session['id']}")
    assert call_returning(returned, "load") is not None  # the watch that looks again
    assert returned.active_tab == "plans"
    pending = next(o for o in returned.orders if o.id == returned.processing_id)
    assert pending.status.label == "awaiting payment"
    standin.pay(session["id"])
    for event in standin.events:
        order_events.apply_event(db, event)
    call(returned, "load")
    assert returned.processing_id == 0
    paid = next(o for o in returned.orders if o.id == pending.id)
    assert (paid.status.label, paid.subscription.label) == ("paid", "subscription active")
    # Someone else's session id is no hint of anything.
    other = returning(sign_in(db, shop.other), f"tab=plans&ordered={session['id']}")
    call(other, "load")
    assert other.processing_id == 0

    monkeypatch.setattr(settings, "stripe_secret_key", None)
    call(state, "load")
    assert not state.can_order  # without a key nothing about ordering shows
    call(state, "order", shop.monthly.id)
    assert state.order_error == order_checkout.NO_ONLINE_ORDERS


def returning(token: str, query: str) -> PlansState:
    """The Plans tab of a fresh tree whose page was loaded at /client-portal?<query> (back from Checkout)."""
    root = State(_reflex_internal_init=True)
    root._update_router_vars(
        {
            constants.RouteVar.HEADERS: {"cookie": f"access_token={token}"},
            constants.RouteVar.PATH: "/client-portal",
            constants.RouteVar.ORIGIN: f"/client-portal?{query}",
            constants.RouteVar.CLIENT_IP: "203.0.113.7",
        },
        {},
    )
    return root.get_substate(PlansState.get_full_name().split("."))
