"""Orders over HTTP: GET /api/protected/plans and /api/protected/orders for signed-in users (their own orders only),
GET /api/admin/orders for staff who read billing."""

from __future__ import annotations

from decimal import Decimal

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.enums import BillingPeriod, EmployeeType, Role
from app.services.billing import orders
from tests import factories as f
from tests.api.test_billing_api import as_user
from tests.services.test_orders import plan


def test_plans_and_own_orders_for_signed_in_clients(client: TestClient, session: Session) -> None:
    assert client.get("/api/protected/plans").status_code == 401
    assert client.get("/api/protected/orders").status_code == 401
    care = plan(session, "API Care", "149.00", BillingPeriod.monthly)
    buyer, other = f.user(session, "api_buyer"), f.user(session, "api_other")
    mine = orders.place_order(session, actor=buyer, data={"price_id": care.id})
    orders.place_order(session, actor=other, data={"price_id": care.id})
    as_user(client, session, buyer)

    plans = client.get("/api/protected/plans").json()["data"]
    [shown] = [p for p in plans if p["name"] == "API Care"]
    assert shown["prices"] == [
        {
            "id": care.id,
            "amount": "149.00",
            "currency": "usd",
            "billing_period": "monthly",
            "label": "$149.00 / month",
            "recurring": True,
        }
    ]
    body = client.get("/api/protected/orders").json()
    assert body["total"] == 1 and body["pages"] == 1
    [order] = body["data"]
    assert (order["order_number"], order["status"], order["total_amount"], order["recurring"]) == (
        mine.order_number,
        "pending",
        "149.00",
        True,
    )
    assert order["items"][0]["product_name"] == "API Care" and order["subscription_status"] is None


def test_staff_order_list_needs_billing_read(client: TestClient, session: Session) -> None:
    care = plan(session, "API Staff plan", "20.00")
    buyer = f.user(session, "api_staff_buyer", first_name="Grace", last_name="Hopper")
    order = orders.place_order(session, actor=buyer, data={"price_id": care.id, "quantity": 2})
    as_user(client, session, buyer)
    assert client.get("/api/admin/orders").status_code == 403
    as_user(client, session, f.user(session, "api_dev", role=Role.employee, employee_type=EmployeeType.developer))
    assert client.get("/api/admin/orders").status_code == 403

    as_user(client, session, f.user(session, "api_cfo", role=Role.employee, employee_type=EmployeeType.cfo))
    r = client.get("/api/admin/orders", params={"search": "hopper"})
    assert r.status_code == 200, r.text
    [row] = r.json()["data"]
    assert (row["order_number"], row["client_name"], row["total_amount"]) == (
        order.order_number,
        "Grace Hopper",
        "40.00",
    )
    assert Decimal(row["items"][0]["unit_price"]) == Decimal("20.00") and row["items"][0]["quantity"] == 2
    bad = client.get("/api/admin/orders", params={"status": "paid"})
    assert bad.status_code == 422 and bad.json()["errors"] == {"status": "Unknown status"}
    assert client.get("/api/admin/orders", params={"status": "completed", "search": "hopper"}).json()["data"] == []
