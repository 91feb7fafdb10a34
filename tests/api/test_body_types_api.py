"""A body field of the wrong JSON type (a list, a number or an object where text, a flag or a list belongs) is a 422
naming the field, nested fields by their path; values of the right type still reach the services unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.enums import Role
from app.models.inquiry import ContactInquiry
from app.services.accounts import sessions
from tests import factories as f

CHECK = "Please check the highlighted fields."


@pytest.fixture
def admin_client(client: TestClient, session: Session) -> TestClient:
    admin = f.user(session, "types_admin", role=Role.admin)
    client.cookies.set("access_token", sessions.start(session, admin).access_token)
    return client


def _errors(r: Any) -> dict[str, str]:
    assert r.status_code == 422, r.text
    assert r.json()["message"] == CHECK
    return r.json()["errors"]


def test_admin_user_bodies(admin_client: TestClient, session: Session) -> None:
    user = {"username": "typed", "email": "typed@example.com", "password": "Password-123", "role": "client"}
    r = admin_client.post("/api/admin/users", json={**user, "extra_permissions": 5})
    assert _errors(r) == {"extra_permissions": "Must be a list of text"}
    r = admin_client.post("/api/protected/create-client", json={**user, "company": ["Acme"]})
    assert _errors(r) == {"company": "Must be text"}
    target = f.user(session, "types_target")
    r = admin_client.put(f"/api/admin/users/{target.id}", json={"phone": 5551234567, "revoked_permissions": [1]})
    assert _errors(r) == {"phone": "Must be text", "revoked_permissions": "Must be a list of text"}


def test_nested_lists_name_the_item_and_field(admin_client: TestClient, session: Session) -> None:
    client_user = f.user(session, "types_client")
    invoice = {"client_id": str(client_user.id)}
    r = admin_client.post("/api/admin/invoices", json={**invoice, "items": [1]})
    assert _errors(r) == {"items.0": "Must be an object"}
    r = admin_client.post("/api/admin/invoices", json={**invoice, "items": [{"description": "W", "quantity": [2]}]})
    assert _errors(r) == {"items.0.quantity": "Must be a number"}
    project = f.project(session, client_user)
    r = admin_client.put(f"/api/protected/projects/{project.id}/milestones", json={"milestones": "Design"})
    assert _errors(r) == {"milestones": "Must be a list"}


def test_other_staff_bodies(admin_client: TestClient, session: Session) -> None:
    inquiry = ContactInquiry(name="Pat", email="pat@example.com", message="Hi")
    session.add(inquiry)
    session.commit()
    r = admin_client.put(f"/api/admin/inquiries/{inquiry.id}", json={"status": {"a": 1}})
    assert _errors(r) == {"status": "Must be text"}
    r = admin_client.post("/api/admin/site/testimonials", json={"name": "Pat", "text": "Great", "rating": {"a": 1}})
    assert _errors(r) == {"rating": "Must be a number"}
    r = admin_client.post("/api/admin/products", json={"name": "Kit", "is_active": 1})
    assert _errors(r) == {"is_active": "Must be true or false"}
    r = admin_client.post("/api/admin/meetings", json={"title": "Call", "start_time": ["2031-01-01"]})
    assert _errors(r) == {"start_time": "Must be text"}


def test_the_services_own_words_are_kept(admin_client: TestClient) -> None:
    # Values of the right shape but a wrong meaning are still judged, and worded, by the services.
    r = admin_client.post("/api/admin/products", json={"name": "Kit", "metadata": ["not", "an", "object"]})
    assert r.status_code == 422
    assert r.json() == {"message": "Metadata must be an object", "errors": {"metadata": "Metadata must be an object"}}


def test_right_shapes_pass_unchanged(admin_client: TestClient, session: Session) -> None:
    client_user = f.user(session, "types_client2")
    body = {
        "client_id": str(client_user.id),
        "tax_rate": 7,
        "items": [{"description": "Work", "quantity": "2", "unit_price": 10.5}],
        "id": "ignored",  # keys a form sends that no service reads still pass, as before
    }
    r = admin_client.post("/api/admin/invoices", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["data"]["total_amount"] == "22.47"
    r = admin_client.post(
        "/api/admin/site/team",
        json={"name": "Sam", "role": "Dev", "bio": "Codes", "skills": "Go\nRust", "is_published": "on"},
    )
    assert r.status_code == 201, r.text
    assert r.json()["data"]["skills"] == ["Go", "Rust"] and r.json()["data"]["is_published"] is True


def test_a_client_may_still_only_cancel(client: TestClient, session: Session) -> None:
    owner = f.user(session, "types_owner")
    project = f.project(session, owner)
    client.cookies.set("access_token", sessions.start(session, owner).access_token)
    r = client.put(f"/api/protected/projects/{project.id}", json={"status": "cancelled", "extra": 1})
    assert r.status_code == 422 and r.json()["errors"] == {"status": "Only 'cancelled' is accepted"}
    r = client.put(f"/api/protected/projects/{project.id}", json={"status": ["cancelled"]})
    assert _errors(r) == {"status": "Must be text"}
    assert client.put(f"/api/protected/projects/{project.id}", json={"status": "cancelled"}).status_code == 200
