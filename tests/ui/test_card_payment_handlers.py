"""The portal's "Pay now" and the staff list's Refund as Reflex handlers: the same services as the REST routes, so the
same refusals for any payload a browser sends, and nothing about card payment without a Stripe key."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.app import app  # noqa: F401  (registers the pages and their states)
from app.core.config import settings
from app.models.billing import Invoice, Payment, StripeEvent
from app.models.enums import EmployeeType, InvoiceStatus, Role
from app.models.system import AuditLog
from app.models.user import User
from app.services.billing import online
from app.ui.admin.billing.state import BillingState
from app.ui.portal.invoices import InvoicesState
from tests import factories as f
from tests.ui.harness import drain, handler_state, in_own_loop, root_state, sign_in
from tools.dev.stripe_standin import StandIn


@dataclass
class World:
    alice: User
    bob: User
    clerk: User
    invoice: Invoice
    draft: Invoice
    bob_invoice: Invoice


@pytest.fixture
def world(engine: Engine) -> Iterator[World]:
    tag = uuid.uuid4().hex[:6]
    with Session(engine, expire_on_commit=False) as s:
        alice, bob = f.user(s, f"alice_{tag}"), f.user(s, f"bob_{tag}")
        clerk = f.user(s, f"clerk_{tag}", role=Role.employee, employee_type=EmployeeType.cfo)
        w = World(
            alice, bob, clerk, f.invoice(s, alice), f.invoice(s, alice, status=InvoiceStatus.draft), f.invoice(s, bob)
        )
    yield w
    with Session(engine) as s:
        ids = [w.invoice.id, w.draft.id, w.bob_invoice.id]
        for model in (StripeEvent, Payment):
            s.exec(delete(model).where(col(model.invoice_id).in_(ids)))  # type: ignore[call-overload]
        s.exec(delete(AuditLog).where(col(AuditLog.actor_id).in_([w.alice.id, w.clerk.id])))  # type: ignore[call-overload]
        s.exec(delete(Invoice).where(col(Invoice.client_id).in_([w.alice.id, w.bob.id])))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_([w.alice.id, w.bob.id, w.clerk.id])))  # type: ignore[call-overload]
        s.commit()


def redirect_url(events: object) -> str:
    spec = events[0] if isinstance(events, list) else events
    args = {str(k._js_expr): v for k, v in spec.args}  # type: ignore[attr-defined]
    return str(args["path"]._var_value)


@in_own_loop
async def test_pay_now_is_checked_like_the_route(engine: Engine, world: World, standin: StandIn) -> None:
    root = root_state(sign_in(engine, world.alice))
    state = await root.get_state(InvoicesState)
    await state.load()
    assert [(i.id, i.can_pay) for i in state.invoices] == [(world.invoice.id, True)]
    for invoice_id in (world.bob_invoice.id, world.draft.id, "x", -1):
        await drain(state.pay(invoice_id))
        assert state.download_error in ("Invoice not found", "") and state.paying_id == 0
    assert standin.sessions == {}
    last = await drain(state.pay(world.invoice.id))
    assert redirect_url(last).startswith(f"{standin.url}/pay/cs_test_")
    assert [s["client_reference_id"] for s in standin.sessions.values()] == [str(world.invoice.id)]


@in_own_loop
async def test_back_from_checkout_shows_processing_until_the_webhook_pays(
    engine: Engine, world: World, standin: StandIn
) -> None:
    root = root_state(sign_in(engine, world.alice))
    state = await root.get_state(InvoicesState)
    with Session(engine, expire_on_commit=False) as s:
        alice, bob = s.get(User, world.alice.id), s.get(User, world.bob.id)
        assert alice is not None and bob is not None
        sid = online.start_checkout(s, actor=alice, invoice_id=world.invoice.id).rsplit("/", 1)[1]
        # Before paying: an unfinished or made-up session shows nothing.
        assert online.checkout_returned(s, actor=alice, session_id=sid) is None
        assert online.checkout_returned(s, actor=alice, session_id="cs_made_up") is None
        standin.pay(sid)
        assert online.checkout_returned(s, actor=alice, session_id=sid) == world.invoice.id
        assert online.checkout_returned(s, actor=bob, session_id=sid) is None  # not Bob's invoice
        assert online.apply_event(s, standin.events[-1]) == "applied"
        assert online.checkout_returned(s, actor=alice, session_id=sid) is None  # paid: no longer processing
    await state.load()
    assert [(i.status.label, i.can_pay) for i in state.invoices] == [("paid", False)]


@in_own_loop
async def test_refund_needs_billing_write_in_the_handler(engine: Engine, world: World, standin: StandIn) -> None:
    with Session(engine) as s:
        alice = s.get(User, world.alice.id)
        url = online.start_checkout(s, actor=alice, invoice_id=world.invoice.id)  # type: ignore[arg-type]
        standin.pay(url.rsplit("/", 1)[1])
        online.apply_event(s, standin.events[-1])
        payment = s.exec(select(Payment).where(Payment.invoice_id == world.invoice.id)).one()
    # A client's session calling the staff handler directly: refused, nothing sent to Stripe.
    state = handler_state(BillingState, sign_in(engine, world.alice), "/admin/billing")
    await drain(state.ask_refund(payment.id, "anything"))
    await drain(state.confirm_refund())
    assert standin.events[-1]["type"] == "checkout.session.completed"
    clerk = handler_state(BillingState, sign_in(engine, world.clerk), "/admin/billing")
    await drain(clerk.load())
    [row] = [r for r in clerk.rows if r.id == world.invoice.id]
    [line] = row.payments
    assert line.can_refund and line.reference == payment.stripe_payment_intent_id and "card" in line.text
    await drain(clerk.ask_refund(payment.id, line.refund_what))
    assert (clerk.dialog, clerk.dialog_name) == ("refund", f"$1,177.54 of the card payment {line.reference}")
    await drain(clerk.confirm_refund())
    assert standin.events[-1]["type"] == "charge.refunded"
    assert standin.events[-1]["data"]["object"]["amount_refunded"] == 117754


@in_own_loop
async def test_without_a_stripe_key_nothing_offers_card_payment(
    engine: Engine, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "stripe_secret_key", None)
    root = root_state(sign_in(engine, world.alice))
    state = await root.get_state(InvoicesState)
    await state.load()
    assert [i.can_pay for i in state.invoices] == [False]
    await drain(state.pay(world.invoice.id))
    assert state.download_error == "Card payment is not available on this site."
