"""Paying invoices by card over HTTP: the real Stripe SDK against the stand-in, and Stripe's signed webhook events
delivered as Stripe delivers them: once, again, out of order, forged, stale, or twice for one payment."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, col, select

from app.core.config import settings
from app.models.billing import Invoice, Payment
from app.models.enums import EmployeeType, InvoiceStatus, PaymentStatus, Role
from app.models.system import AuditLog, EmailOutbox
from app.services.billing import billing, invoices, stripe_gateway
from tests import factories as f
from tests.api.test_portal_api import login
from tests.stripe_standin import signed
from tools.dev.stripe_standin import StandIn

TOTAL = Decimal("1177.54")  # factories.invoice: 10 x 95.00 + 150.50, plus 7% tax


@pytest.fixture
def people(session: Session) -> dict[str, Any]:
    alice, bob = f.user(session, "alice"), f.user(session, "bob")
    clerk = f.user(session, "clerk", role=Role.employee, employee_type=EmployeeType.cfo)
    return {
        "alice": alice,
        "bob": bob,
        "clerk": clerk,
        "invoice": f.invoice(session, alice),
        "draft": f.invoice(session, alice, status=InvoiceStatus.draft),
        "bob_invoice": f.invoice(session, bob),
    }


def pay(client: TestClient, invoice: Invoice) -> str:
    r = client.post(f"/api/protected/invoices/{invoice.id}/pay")
    assert r.status_code == 200, r.text
    return str(r.json()["data"]["url"])


def paid_event(client: TestClient, standin: StandIn, invoice: Invoice) -> dict[str, Any]:
    """The client pays the invoice on the stand-in's page: the checkout.session.completed event Stripe sends."""
    url = pay(client, invoice)
    standin.pay(url.rsplit("/", 1)[1])
    event = standin.events[-1]
    assert event["type"] == "checkout.session.completed"
    return event


def deliver(client: TestClient, event: dict[str, Any], **kw: Any) -> Any:
    body, headers = signed(event, **kw)
    return client.post("/api/stripe/webhook", content=body, headers=headers)


def payments(s: Session, invoice: Invoice) -> list[Payment]:
    s.expire_all()
    return list(s.exec(select(Payment).where(Payment.invoice_id == invoice.id).order_by(col(Payment.id))))


def status_of(s: Session, invoice: Invoice) -> InvoiceStatus:
    s.expire_all()
    found = s.get(Invoice, invoice.id)
    assert found is not None
    return found.status


def test_pay_answers_a_checkout_session_for_what_is_outstanding(
    client: TestClient, standin: StandIn, people: dict
) -> None:
    login(client, "alice")
    invoice = people["invoice"]
    url = pay(client, invoice)
    assert url.startswith(f"{standin.url}/pay/cs_test_")
    method, path, params, headers = standin.requests[-1]
    assert (method, path, params["mode"]) == ("POST", "/v1/checkout/sessions", "payment")
    line = params["line_items"][0]
    assert line["price_data"]["unit_amount"] == "117754" and line["price_data"]["currency"] == "usd"
    assert line["price_data"]["product_data"]["name"] == invoice.invoice_number
    assert params["client_reference_id"] == str(invoice.id) == params["metadata"]["invoice_id"]
    assert params["success_url"] == (
        f"{settings.public_url}/client-portal?tab=invoices&checkout={{CHECKOUT_SESSION_ID}}"
    )
    assert params["cancel_url"] == f"{settings.public_url}/client-portal?tab=invoices"
    assert headers["Idempotency-Key"].startswith(f"invoice-{invoice.id}-117754-")
    # A second click gets the same session: one Checkout, one chance to pay.
    assert pay(client, invoice) == url
    assert len(standin.sessions) == 1


def test_pay_refuses_others_drafts_paid_and_unreachable(
    client: TestClient, standin: StandIn, people: dict, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    login(client, "alice")
    assert client.post(f"/api/protected/invoices/{people['bob_invoice'].id}/pay").status_code == 404
    assert client.post(f"/api/protected/invoices/{people['draft'].id}/pay").status_code == 404
    assert client.post("/api/protected/invoices/999999/pay").status_code == 404
    paid = f.invoice(session, people["alice"], status=InvoiceStatus.paid)
    r = client.post(f"/api/protected/invoices/{paid.id}/pay")
    assert r.status_code == 409 and "nothing is outstanding" in r.json()["message"]
    standin.stop()
    r = client.post(f"/api/protected/invoices/{people['invoice'].id}/pay")
    assert r.status_code == 503 and r.json()["message"] == stripe_gateway.UNREACHABLE
    monkeypatch.setattr(settings, "stripe_secret_key", None)
    assert client.post(f"/api/protected/invoices/{people['invoice'].id}/pay").status_code == 404
    assert client.post("/api/protected/invoices/1/pay", headers={"Cookie": ""}).status_code in (401, 404)


def test_pay_without_sign_in_is_401(client: TestClient, standin: StandIn, people: dict) -> None:
    assert client.post(f"/api/protected/invoices/{people['invoice'].id}/pay").status_code == 401


def test_a_signed_completion_pays_the_invoice_once(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    login(client, "alice")
    invoice = people["invoice"]
    event = paid_event(client, standin, invoice)
    assert status_of(session, invoice) == InvoiceStatus.pending  # the browser's return proves nothing
    r = deliver(client, event)
    assert r.status_code == 200 and r.json() == {"result": "applied"}
    [payment] = payments(session, invoice)
    intent = event["data"]["object"]["payment_intent"]
    assert (payment.amount, payment.currency, payment.payment_method) == (TOTAL, "usd", "card")
    assert (payment.stripe_payment_intent_id, payment.status) == (intent, PaymentStatus.succeeded)
    assert status_of(session, invoice) == InvoiceStatus.paid
    # The client's receipt, with the invoice's PDF, once.
    receipt = f"Payment received for invoice {invoice.invoice_number}"
    [mail] = session.exec(select(EmailOutbox).where(EmailOutbox.subject == receipt)).all()
    assert mail.to_address == people["alice"].email and mail.attachments[0]["content_type"] == "application/pdf"
    # Stripe redelivers the same event: nothing changes.
    assert deliver(client, event).json() == {"result": "duplicate"}
    assert len(payments(session, invoice)) == 1
    assert len(session.exec(select(EmailOutbox).where(EmailOutbox.subject == receipt)).all()) == 1
    # Nothing is outstanding now: no second Checkout.
    assert client.post(f"/api/protected/invoices/{invoice.id}/pay").status_code == 409
    actions = session.exec(select(AuditLog.action).where(AuditLog.entity_id == str(invoice.id))).all()
    assert "invoice.checkout" in actions and "invoice.card_payment" in actions


def test_forged_stale_and_missing_signatures_are_refused(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    login(client, "alice")
    invoice = people["invoice"]
    event = paid_event(client, standin, invoice)
    assert deliver(client, event, secret="whsec_forged").status_code == 400
    assert deliver(client, event, age=301).status_code == 400  # older than Stripe's five minutes
    body, headers = signed(event)
    tampered = body.replace(b"117754", b"100")
    assert client.post("/api/stripe/webhook", content=tampered, headers=headers).status_code == 400
    assert client.post("/api/stripe/webhook", content=body).status_code == 400
    r = client.post("/api/stripe/webhook", content=body, headers={"Stripe-Signature": "t=1,v1=00"})
    assert r.status_code == 400 and r.json()["message"] == "Invalid or expired Stripe signature"
    assert payments(session, invoice) == [] and status_of(session, invoice) == InvoiceStatus.pending
    assert deliver(client, event, age=240).json() == {"result": "applied"}  # within the tolerance


def test_the_same_payment_intent_in_two_events_is_one_payment(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    login(client, "alice")
    invoice = people["invoice"]
    completed = paid_event(client, standin, invoice)
    succeeded = {**completed, "id": "evt_test_async_1", "type": "checkout.session.async_payment_succeeded"}
    assert deliver(client, completed).json() == {"result": "applied"}
    assert deliver(client, succeeded).json() == {"result": "duplicate"}
    assert len(payments(session, invoice)) == 1 and status_of(session, invoice) == InvoiceStatus.paid


def test_a_completed_but_unpaid_session_records_nothing(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    login(client, "alice")
    invoice = people["invoice"]
    event = paid_event(client, standin, invoice)
    event["data"]["object"]["payment_status"] = "unpaid"  # a delayed method: its own event follows
    assert deliver(client, event).json() == {"result": "ignored"}
    assert payments(session, invoice) == []


def test_a_refund_reported_before_the_payment(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    login(client, "alice")
    invoice = people["invoice"]
    completed = paid_event(client, standin, invoice)
    intent = completed["data"]["object"]["payment_intent"]
    stripe_gateway.create_refund(intent, 117754, idempotency_key="test-refund")  # through the SDK
    refunded = standin.events[-1]
    assert refunded["type"] == "charge.refunded"
    assert deliver(client, refunded).json() == {"result": "applied"}  # Stripe's order is not guaranteed
    [payment] = payments(session, invoice)
    assert (payment.amount, payment.refunded_amount, payment.status) == (TOTAL, TOTAL, PaymentStatus.refunded)
    assert status_of(session, invoice) == InvoiceStatus.pending  # the money came and went
    assert deliver(client, completed).json() == {"result": "duplicate"}
    assert len(payments(session, invoice)) == 1 and status_of(session, invoice) == InvoiceStatus.pending
    assert invoices.paid_amount(session, invoice.id) == 0


def test_a_staff_partial_refund_reopens_the_invoice(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    login(client, "alice")
    invoice = people["invoice"]
    assert deliver(client, paid_event(client, standin, invoice)).json() == {"result": "applied"}
    [payment] = payments(session, invoice)
    # A client cannot refund.
    assert client.post(f"/api/admin/payments/{payment.id}/refund", json={}).status_code == 403
    login(client, "clerk")
    r = client.post(f"/api/admin/payments/{payment.id}/refund", json={"amount": "100.00"})
    assert r.status_code == 200, r.text
    assert status_of(session, invoice) == InvoiceStatus.paid  # until Stripe confirms
    refunded = standin.events[-1]
    assert refunded["data"]["object"]["amount_refunded"] == 10000
    assert deliver(client, refunded).json() == {"result": "applied"}
    assert deliver(client, refunded).json() == {"result": "duplicate"}
    [payment] = payments(session, invoice)
    assert (payment.refunded_amount, payment.status) == (Decimal("100.00"), PaymentStatus.succeeded)
    assert status_of(session, invoice) == InvoiceStatus.pending
    assert invoices.paid_amount(session, invoice.id) == TOTAL - 100
    # More than is left: Stripe's refusal, in words.
    r = client.post(f"/api/admin/payments/{payment.id}/refund", json={"amount": "5000.00"})
    assert r.status_code == 422 and "refundable $1,077.54" in r.json()["message"]
    # The client can pay the rest: a new session for $100.00.
    login(client, "alice")
    pay(client, invoice)
    assert standin.requests[-1][2]["line_items"][0]["price_data"]["unit_amount"] == "10000"


def test_an_overpayment_is_kept_flagged_and_never_counted(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    """The client opens Checkout, staff then record a bank transfer of $100, and the card pays the whole $1,177.54:
    the invoice counts $1,077.54 of it, the $100 is kept on the payment as excess, audited, and refunded first."""
    login(client, "alice")
    invoice = people["invoice"]
    url = pay(client, invoice)
    billing.record_payment(session, actor=people["clerk"], invoice_id=invoice.id, data={"amount": "100.00"})
    standin.pay(url.rsplit("/", 1)[1])
    assert deliver(client, standin.events[-1]).json() == {"result": "applied"}
    card = payments(session, invoice)[-1]
    assert (card.amount, card.excess_amount) == (TOTAL - 100, Decimal("100.00"))
    assert invoices.paid_amount(session, invoice.id) == TOTAL and status_of(session, invoice) == InvoiceStatus.paid
    flagged = session.exec(select(AuditLog).where(AuditLog.action == "invoice.overpayment")).one()
    assert flagged.details == {
        "amount": "1177.54",
        "applied": "1077.54",
        "excess": "100.00",
        "payment_intent": card.stripe_payment_intent_id,
    }
    login(client, "clerk")
    assert client.post(f"/api/admin/payments/{card.id}/refund", json={"amount": "100.00"}).status_code == 200
    assert deliver(client, standin.events[-1]).json() == {"result": "applied"}
    assert status_of(session, invoice) == InvoiceStatus.paid  # the refund gave back the excess only
    assert invoices.paid_amount(session, invoice.id) == TOTAL


def test_a_declined_card_is_recorded_and_a_retry_succeeds(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    login(client, "alice")
    invoice = people["invoice"]
    sid = pay(client, invoice).rsplit("/", 1)[1]
    standin.pay(sid, declined=True)
    failed = standin.events[-1]
    assert failed["type"] == "payment_intent.payment_failed"
    assert deliver(client, failed).json() == {"result": "applied"}
    [payment] = payments(session, invoice)
    assert (payment.status, payment.payment_method) == (PaymentStatus.failed, "card")
    assert status_of(session, invoice) == InvoiceStatus.pending
    standin.pay(sid)  # another card, same Checkout, same payment intent
    assert deliver(client, standin.events[-1]).json() == {"result": "applied"}
    [payment] = payments(session, invoice)
    assert (payment.status, payment.amount) == (PaymentStatus.succeeded, TOTAL)
    assert status_of(session, invoice) == InvoiceStatus.paid
    assert deliver(client, failed).json() == {"result": "duplicate"}


def test_unknown_and_foreign_events_get_200_and_change_nothing(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    for event in (
        {"id": "evt_test_unknown", "type": "customer.created", "data": {"object": {"id": "cus_1"}}},
        {"id": "evt_test_other", "type": "checkout.session.completed", "data": {"object": {"payment_status": "paid"}}},
        {
            "id": "evt_test_no_invoice",
            "type": "checkout.session.completed",
            "data": {"object": {"payment_status": "paid", "payment_intent": "pi_x", "metadata": {}}},
        },
    ):
        r = deliver(client, event)
        assert r.status_code == 200 and r.json() == {"result": "ignored"}
    _, headers = signed({"id": "x"})
    assert client.post("/api/stripe/webhook", content=b"[]", headers=headers).status_code == 400
    payload = json.dumps([1])
    from tools.dev.stripe_standin import sign

    r = client.post(
        "/api/stripe/webhook", content=payload, headers={"Stripe-Signature": sign(payload, standin.webhook_secret)}
    )
    assert r.status_code == 422
    assert session.exec(select(Payment)).all() == []


def test_without_a_webhook_secret_the_webhook_is_404(
    client: TestClient, standin: StandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "stripe_webhook_secret", None)
    body, headers = signed({"id": "evt_1", "type": "customer.created", "data": {"object": {}}})
    assert client.post("/api/stripe/webhook", content=body, headers=headers).status_code == 404


def test_staff_list_shows_card_payments_with_their_reference(
    client: TestClient, standin: StandIn, people: dict, session: Session
) -> None:
    login(client, "alice")
    invoice = people["invoice"]
    event = paid_event(client, standin, invoice)
    deliver(client, event)
    rows = billing.list_invoices(session, actor=people["clerk"], search=invoice.invoice_number).data
    [row] = [r for r in rows if r.id == invoice.id]
    [brief] = row.payments
    assert (brief.method, brief.amount, brief.refundable, brief.can_refund) == ("card", "1177.54", "1177.54", True)
    assert brief.stripe_payment_intent_id == event["data"]["object"]["payment_intent"]
