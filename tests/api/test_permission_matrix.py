"""Every staff route and every kind of caller answers as docs/permissions.md says.

The allowed sets below are written out by hand from the documented table (not computed from app.core.permissions),
so a change to the table that is not a deliberate change to the documentation fails here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.content import TeamMember
from app.models.enums import EmployeeType, Role
from app.models.inquiry import ContactInquiry, NewsletterSubscriber
from app.services.accounts import sessions
from tests import factories as f

EMPLOYEES = [t.value for t in EmployeeType]
CALLERS = ["anonymous", "client", "admin", *EMPLOYEES]
ALL_STAFF = {"admin", *EMPLOYEES}
NEW_PASSWORD = {"newPassword": "Another-pass-1"}


@dataclass(frozen=True)
class Route:
    name: str
    allowed: set[str]
    call: Callable[[TestClient, dict[str, Any]], Any]


ROUTES = [
    Route(
        "list users",
        {"admin", "founder", "coo", "cfo", "cto", "sales_lead", "product_manager", "customer_support", "hr", "legal"},
        lambda c, w: c.get("/api/admin/users"),
    ),
    Route(
        "create employee of a type the caller holds",
        {"admin", "founder", "hr"},
        lambda c, w: c.post(
            "/api/admin/users",
            json={"username": "made_hr", "email": "made_hr@example.com", "password_hash": "Password-123",
                  "role": "employee", "employee_type": "hr"},
        ),
    ),
    Route(
        # A developer gets content:read, which HR does not hold: only those who hold it may hand it out.
        "create employee of a type with more",
        {"admin", "founder"},
        lambda c, w: c.post(
            "/api/admin/users",
            json={"username": "made_dev", "email": "made_dev@example.com", "password_hash": "Password-123",
                  "role": "employee", "employee_type": "developer"},
        ),
    ),
    Route(
        "promote employee to founder",
        {"admin", "founder"},
        lambda c, w: c.put(f"/api/admin/users/{w['target_employee'].id}", json={"employee_type": "founder"}),
    ),
    Route(
        "change an employee's e-mail",
        {"admin", "founder"},
        lambda c, w: c.put(f"/api/admin/users/{w['target_employee'].id}", json={"email": "moved@example.com"}),
    ),
    Route(
        "view a user's permissions",
        {"admin", "founder", "coo", "cfo", "cto", "sales_lead", "product_manager", "customer_support", "hr", "legal"},
        lambda c, w: c.get(f"/api/admin/users/{w['target_employee'].id}/permissions"),
    ),
    Route(
        # Revoking gives nothing: users:manage is enough.
        "revoke one permission of an employee",
        {"admin", "founder", "hr"},
        lambda c, w: c.put(
            f"/api/admin/users/{w['target_employee'].id}/permissions",
            json={"permission": "content:read", "held": False},
        ),
    ),
    Route(
        "grant one permission to an employee",
        {"admin", "founder"},
        lambda c, w: c.put(
            f"/api/admin/users/{w['target_employee'].id}/permissions",
            json={"permission": "billing:write", "held": True},
        ),
    ),
    Route(
        "create client",
        {"admin", "founder", "sales_lead", "customer_support", "hr"},
        lambda c, w: c.post(
            "/api/protected/create-client",
            json={"username": "made_client", "email": "made_client@example.com", "password": "Password-123"},
        ),
    ),
    Route(
        "update client",
        {"admin", "founder", "hr"},
        lambda c, w: c.put(f"/api/admin/users/{w['target_client'].id}", json={"company": "Renamed Inc"}),
    ),
    Route(
        "delete client",
        {"admin", "founder", "hr"},
        lambda c, w: c.delete(f"/api/admin/users/{w['target_client'].id}"),
    ),
    Route(
        "reset client password",
        {"admin", "founder", "sales_lead", "customer_support", "hr"},
        lambda c, w: c.put(f"/api/protected/reset-password/{w['target_client'].id}", json=NEW_PASSWORD),
    ),
    Route(
        "reset employee password",
        {"admin", "founder"},
        lambda c, w: c.put(f"/api/protected/reset-password/{w['target_employee'].id}", json=NEW_PASSWORD),
    ),
    Route(
        "send a client a reset link",
        {"admin", "founder", "sales_lead", "customer_support", "hr"},
        lambda c, w: c.post(f"/api/protected/reset-password/{w['target_client'].id}/send-link"),
    ),
    Route(
        "send an employee a reset link",
        {"admin", "founder"},
        lambda c, w: c.post(f"/api/protected/reset-password/{w['target_employee'].id}/send-link"),
    ),
    Route("list inquiries", ALL_STAFF, lambda c, w: c.get("/api/admin/inquiries")),
    Route(
        "update inquiry",
        ALL_STAFF,
        lambda c, w: c.put(f"/api/admin/inquiries/{w['inquiry'].id}", json={"status": "in_progress"}),
    ),
    Route("dashboard", ALL_STAFF, lambda c, w: c.get("/api/admin/dashboard")),
    Route("audit log", {"admin", "founder", "coo", "cfo", "legal"}, lambda c, w: c.get("/api/admin/audit")),
    Route("read company settings", {"admin", "founder"}, lambda c, w: c.get("/api/admin/settings/company")),
    Route(
        "change company settings",
        {"admin", "founder"},
        lambda c, w: c.put("/api/admin/settings/company", json={"phone": "(772) 555-0111"}),
    ),
    Route("list organizations", ALL_STAFF - {"hr"}, lambda c, w: c.get("/api/protected/organizations")),
    Route(
        "create organization",
        {"admin", "founder", "coo", "cto", "marketing_lead", "product_manager"},
        lambda c, w: c.post("/api/protected/organizations", json={"name": "Matrix Org"}),
    ),
    Route(
        "list a project's time entries",
        ALL_STAFF - {"hr"},
        lambda c, w: c.get(f"/api/protected/projects/{w['project'].id}/time-entries"),
    ),
    Route(
        "log time on a project",
        {"admin", "founder", "coo", "cto", "marketing_lead", "product_manager"},
        lambda c, w: c.post(
            f"/api/protected/projects/{w['project'].id}/time-entries",
            json={"work_date": "2026-01-05", "hours": 1.5, "note": "Matrix"},
        ),
    ),
    Route("list site content", ALL_STAFF - {"hr"}, lambda c, w: c.get("/api/admin/site/services")),
    Route(
        "create site content",
        {"admin", "founder", "coo", "cto", "marketing_lead", "product_manager"},
        lambda c, w: c.post("/api/admin/site/team", json={"name": "Matrix", "role": "Dev", "bio": "Builds"}),
    ),
    Route(
        "update site content",
        {"admin", "founder", "coo", "cto", "marketing_lead", "product_manager"},
        lambda c, w: c.put(f"/api/admin/site/team/{w['team_member'].id}", json={"role": "Lead"}),
    ),
    Route(
        "delete site content",
        {"admin", "founder", "coo", "cto", "marketing_lead", "product_manager"},
        lambda c, w: c.delete(f"/api/admin/site/team/{w['team_member'].id}"),
    ),
    Route("list newsletter subscribers", ALL_STAFF - {"hr"}, lambda c, w: c.get("/api/admin/newsletter/subscribers")),
    Route(
        "unsubscribe a newsletter subscriber",
        {"admin", "founder", "coo", "cto", "marketing_lead", "product_manager"},
        lambda c, w: c.post(f"/api/admin/newsletter/subscribers/{w['subscriber'].id}/unsubscribe"),
    ),
    Route(
        "list all products",
        {"admin", "founder", "coo", "cfo", "cto", "marketing_lead", "sales_lead", "product_manager"},
        lambda c, w: c.get("/api/admin/products"),
    ),
    Route(
        "create product",
        {"admin", "founder", "coo", "cfo", "product_manager"},
        lambda c, w: c.post("/api/admin/products", json={"name": "Matrix Product"}),
    ),
    Route(
        "list invoices",
        {"admin", "founder", "coo", "cfo", "sales_lead", "customer_support", "legal"},
        lambda c, w: c.get("/api/admin/invoices"),
    ),
    Route(
        "create invoice",
        {"admin", "founder", "cfo"},
        lambda c, w: c.post(
            "/api/admin/invoices",
            json={"client_id": str(w["target_client"].id),
                  "items": [{"description": "Work", "quantity": 1, "unit_price": "10.00"}]},
        ),
    ),
    Route(
        "list meetings",
        {"admin", "founder", "coo", "cto", "developer", "sales_lead", "product_manager", "customer_support", "hr"},
        lambda c, w: c.get("/api/admin/meetings"),
    ),
    Route(
        "schedule meeting",
        {"admin", "founder", "coo", "cto", "sales_lead", "product_manager", "customer_support"},
        lambda c, w: c.post(
            "/api/admin/meetings",
            json={"client_id": str(w["target_client"].id), "title": "Matrix call",
                  "start_time": "2031-01-06T15:00:00+00:00", "duration_minutes": 30},
        ),
    ),
    Route(
        "analytics",
        {"admin", "founder", "coo", "cfo", "cto", "marketing_lead", "sales_lead", "product_manager"},
        lambda c, w: c.get("/api/admin/analytics"),
    ),
]  # fmt: skip


@pytest.fixture
def world(session: Session) -> dict[str, Any]:
    inquiry = ContactInquiry(name="Pat", email="pat@example.com", message="Need a site")
    member = TeamMember(name="Sam", role="Designer", bio="Designs")
    subscriber = NewsletterSubscriber(email="matrix.reader@example.com", status="confirmed")
    session.add_all([inquiry, member, subscriber])
    session.commit()
    return {
        "target_client": f.user(session, "target_client"),
        "target_employee": f.user(session, "target_emp", role=Role.employee, employee_type=EmployeeType.developer),
        "inquiry": inquiry,
        "team_member": member,
        "subscriber": subscriber,
        "project": f.project(session, f.user(session, "project_owner")),  # not target_client: it is deleted
    }


def sign_in_as(client: TestClient, session: Session, caller: str) -> None:
    if caller == "anonymous":
        return
    if caller == "client":
        user = f.user(session, "caller_client")
    elif caller == "admin":
        user = f.user(session, "caller_admin", role=Role.admin)
    else:
        user = f.user(session, f"caller_{caller}", role=Role.employee, employee_type=EmployeeType(caller))
    client.cookies.set("access_token", sessions.start(session, user).access_token)


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.name)
def test_route_answers_by_role(
    client: TestClient, session: Session, world: dict[str, Any], route: Route, caller: str
) -> None:
    sign_in_as(client, session, caller)
    r = route.call(client, world)
    if caller == "anonymous":
        assert r.status_code == 401, r.text
    elif caller in route.allowed:
        assert r.status_code in (200, 201), f"{caller} should be allowed: {r.status_code} {r.text}"
    else:
        assert r.status_code == 403, f"{caller} should be refused: {r.status_code} {r.text}"
        message = r.json()["message"]
        assert "permission" in message or "Access Denied" in message or "Access Restricted" in message
