"""Ordering over HTTP against the Stripe stand-in (the real SDK): POST /api/protected/orders opens a Checkout Session
in the right mode for the right amount, and Stripe's signed events delivered to /api/stripe/webhook complete the
order once, renew, fail and cancel its subscription, as the client and staff then see (ADRs 0081, 0082)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, col, select

from app.core.config import settings
from app.models.billing import Invoice, Payment
from app.models.commerce import Order
from app.models.enums import BillingPeriod, EmployeeType, InvoiceStatus, OrderStatus, Role
from tests import factories as f
from tests.api.test_portal_api import login
from tests.api.test_stripe_api import deliver
from tests.services.test_orders import plan
from tools.dev.stripe_standin import StandIn


def order(client: TestClient, price_id: int, quantity: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"price_id": price_id}
    if quantity is not None:
        body["quantity"] = quantity
    r = client.post("/api/protected/orders", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json()["data"])


def the_order(s: Session, number: str) -> Order:
    s.expire_all()
    return s.exec(select(Order).where(Order.order_number == number)).one()


def payments(s: Session, found: Order) -> list[Payment]:
    return list(s.exec(select(Payment).where(Payment.order_id == found.id).order_by(col(Payment.id))))


def test_a_one_time_order_is_paid_through_checkout_and_the_webhook_once(
    client: TestClient, session: Session, standin: StandIn
) -> None:
    f.user(session, "orderer")
    hours = plan(session, "Consulting hours", "125.00", BillingPeriod.hourly)
    login(client, "orderer")
    started = order(client, int(hours.id or 0), 3)

    assert started["url"].startswith(f"{standin.url}/pay/cs_test_")
    _method, path, params, headers = standin.requests[-1]
    assert path == "/v1/checkout/sessions" and params["mode"] == "payment"
    assert params["line_items"] == [
        {
            "price_data": {"currency": "usd", "unit_amount": "12500", "product_data": {"name": "Consulting hours"}},
            "quantity": "3",
        }
    ]
    found = the_order(session, started["order_number"])
    assert params["metadata"] == {"order_id": str(found.id), "order_number": found.order_number}
    assert params["payment_intent_data"]["metadata"]["order_id"] == str(found.id)
    assert params["client_reference_id"] == f"order-{found.id}" and params["customer_email"] == "orderer@example.com"
    assert params["success_url"] == f"{settings.public_url}/client-portal?tab=plans&ordered={{CHECKOUT_SESSION_ID}}"
    assert headers["Idempotency-Key"] == f"order-{found.id}"
    assert found.status == OrderStatus.pending and found.stripe_session_id == started["url"].rsplit("/", 1)[1]

    standin.pay(found.stripe_session_id or "")
    [completed] = [e for e in standin.events if e["type"] == "checkout.session.completed"]
    assert deliver(client, completed).json() == {"result": "applied"}
    assert deliver(client, completed).json() == {"result": "duplicate"}  # Stripe's retry

    found = the_order(session, started["order_number"])
    [payment] = payments(session, found)
    assert found.status == OrderStatus.completed and payment.amount == Decimal("375.00")
    assert payment.stripe_payment_intent_id == found.stripe_payment_intent_id is not None
    invoice = session.get(Invoice, payment.invoice_id)
    assert invoice is not None and invoice.status == InvoiceStatus.paid and invoice.total_amount == Decimal("375.00")
    listed = client.get("/api/protected/orders").json()["data"]
    assert [(o["order_number"], o["status"]) for o in listed] == [(found.order_number, "completed")]
    pdf = client.get(f"/api/protected/invoices/{invoice.id}/download")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"


def test_a_monthly_plan_subscribes_renews_fails_and_is_cancelled(
    client: TestClient, session: Session, standin: StandIn
) -> None:
    f.user(session, "subscriber")
    care = plan(session, "Care plan", "149.00", BillingPeriod.monthly)
    login(client, "subscriber")
    started = order(client, int(care.id or 0))
    _method, _path, params, _headers = standin.requests[-1]
    assert params["mode"] == "subscription"
    assert params["line_items"][0]["price_data"]["recurring"] == {"interval": "month"}
    found = the_order(session, started["order_number"])
    assert params["subscription_data"]["metadata"]["order_id"] == str(found.id)

    standin.pay(found.stripe_session_id or "")
    # Stripe reports the first period twice: the session's completion and the first invoice.paid.
    results = [deliver(client, e).json()["result"] for e in standin.events]
    assert results == ["applied", "duplicate"]
    found = the_order(session, started["order_number"])
    assert (found.status, found.subscription_status) == (OrderStatus.completed, "active")
    sub = found.stripe_subscription_id or ""
    assert sub in standin.subscriptions and len(payments(session, found)) == 1

    assert deliver(client, standin.renew(sub)).json() == {"result": "applied"}
    assert len(payments(session, found)) == 2
    assert deliver(client, standin.renew(sub, declined=True)).json() == {"result": "applied"}
    assert client.get("/api/protected/orders").json()["data"][0]["subscription_status"] == "past_due"
    assert deliver(client, standin.cancel(sub)).json() == {"result": "applied"}

    mine = client.get("/api/protected/orders").json()["data"][0]
    assert (mine["status"], mine["subscription_status"], mine["recurring"]) == ("completed", "canceled", True)
    f.user(session, "order_cfo", role=Role.employee, employee_type=EmployeeType.cfo)
    login(client, "order_cfo")
    rows = client.get("/api/admin/orders", params={"search": found.order_number}).json()["data"]
    assert [(r["client_username"], r["subscription_status"]) for r in rows] == [("subscriber", "canceled")]
    paid = session.exec(select(Invoice).join(Payment, col(Payment.invoice_id) == col(Invoice.id))
                        .where(Payment.order_id == found.id)).all()  # fmt: skip
    assert [i.status for i in paid] == [InvoiceStatus.paid, InvoiceStatus.paid]


def test_a_price_with_a_stripe_id_is_named_by_it(client: TestClient, session: Session, standin: StandIn) -> None:
    f.user(session, "priced_buyer")
    price = plan(session, "Yearly care", "1490.00", BillingPeriod.yearly)
    price.stripe_price_id = "price_care_yearly"
    session.add(price)
    session.commit()
    standin.prices["price_care_yearly"] = {
        "unit_amount": 149000,
        "currency": "usd",
        "name": "Yearly care",
        "recurring": {"interval": "year"},
    }
    login(client, "priced_buyer")
    order(client, int(price.id or 0))
    _method, _path, params, _headers = standin.requests[-1]
    assert params["line_items"] == [{"price": "price_care_yearly", "quantity": "1"}]


def test_refusals(client: TestClient, session: Session, standin: StandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    f.user(session, "refused_buyer")
    f.user(session, "refused_staff", role=Role.employee, employee_type=EmployeeType.cfo)
    fine = plan(session, "Fine", "10.00")
    gone = plan(session, "Gone", "10.00", active=False)
    monthly = plan(session, "Monthly", "10.00", BillingPeriod.monthly)
    assert client.post("/api/protected/orders", json={"price_id": fine.id}).status_code == 401

    login(client, "refused_staff")
    r = client.post("/api/protected/orders", json={"price_id": fine.id})
    assert r.status_code == 403 and r.json()["message"] == "Only client accounts can order services and plans."

    login(client, "refused_buyer")
    r = client.post("/api/protected/orders", json={"price_id": gone.id})
    assert r.status_code == 422 and r.json()["errors"] == {
        "price_id": "This plan is no longer offered. Please choose another one."
    }
    r = client.post("/api/protected/orders", json={"price_id": fine.id, "quantity": 101})
    assert r.status_code == 422 and "quantity" in r.json()["errors"]
    r = client.post("/api/protected/orders", json={"price_id": monthly.id, "quantity": 2})
    assert r.status_code == 422 and "quantity" in r.json()["errors"]
    assert client.post("/api/protected/orders", json={"price_id": 99_999_999}).status_code == 404
    assert standin.requests == []  # nothing reached Stripe

    # Stripe unreachable: 503, and the order placed meanwhile is cancelled (nothing was charged).
    monkeypatch.setattr(settings, "stripe_api_base", "http://127.0.0.1:9")
    r = client.post("/api/protected/orders", json={"price_id": fine.id})
    assert r.status_code == 503 and "Nothing was charged" in r.json()["message"]
    assert [o["status"] for o in client.get("/api/protected/orders").json()["data"]] == ["cancelled"]

    # No secret key: ordering online is not offered at all.
    monkeypatch.setattr(settings, "stripe_secret_key", None)
    r = client.post("/api/protected/orders", json={"price_id": fine.id})
    assert r.status_code == 404 and "not available" in r.json()["message"]
    assert len(client.get("/api/protected/orders").json()["data"]) == 1
