"""Staff content calls: organizations, projects (with milestones and progress), products and prices, meetings."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.models.base import utcnow
from app.models.commerce import Product
from app.models.enums import EmployeeType, Role
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.accounts import sessions
from tests import factories as f


def as_user(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


def test_organizations_crud_and_search(client: TestClient, session: Session) -> None:
    as_user(client, session, f.user(session, "cto_org", role=Role.employee, employee_type=EmployeeType.cto))
    bad = client.post("/api/protected/organizations", json={"name": "", "website": "ftp://x", "size": "huge"})
    assert bad.status_code == 422
    assert set(bad.json()["errors"]) == {"name", "website", "size"}
    made = client.post(
        "/api/protected/organizations",
        json={"name": "Harbor Dental", "industry": "Healthcare", "size": "small", "website": "https://harbor.example"},
    )
    assert made.status_code == 201 and made.json()["message"] == "Organization created successfully"
    org_id = made.json()["data"]["id"]
    assert [
        o["name"] for o in client.get("/api/protected/organizations", params={"search": "health"}).json()["data"]
    ] == ["Harbor Dental"]
    edited = client.put(f"/api/protected/organizations/{org_id}", json={"description": "Dental group", "name": ""})
    assert edited.json()["data"]["name"] == "Harbor Dental"  # an empty string means "not sent"
    assert (
        client.delete(f"/api/protected/organizations/{org_id}").json()["message"] == "Organization deleted successfully"
    )


def test_project_form_rules(client: TestClient, session: Session) -> None:
    as_user(client, session, f.user(session, "pm_proj", role=Role.employee, employee_type=EmployeeType.product_manager))
    owner = f.user(session, "proj_owner")
    missing = client.post("/api/protected/projects", json={"name": "X"})
    assert set(missing.json()["errors"]) == {"client_id", "status", "project_type"}
    old = client.post(
        "/api/protected/projects",
        json={"name": "Old", "client_id": str(owner.id), "status": "planning", "project_type": "consulting",
              "start_date": "1899-12-31", "budget": "10.005"},
    )  # fmt: skip
    assert old.json()["errors"] == {
        "budget": "Budget must be in whole cents",
        "start_date": "Start date cannot be before January 1, 1900",
    }
    ok = client.post(
        "/api/protected/projects",
        json={"name": "Portal", "client_id": str(owner.id), "status": "in_progress", "project_type": "web_development",
              "budget": "12500.50", "start_date": "2026-01-05", "actual_hours": 999, "description": ""},
    )  # fmt: skip
    assert ok.status_code == 201
    project = ok.json()["data"]
    assert project["budget"] == "12500.50" and project["actual_hours"] == 0  # read-only, never from the form
    pid = project["id"]
    updated = client.put(f"/api/protected/projects/{pid}", json={"progress_percentage": 40, "deadline": "2026-12-31"})
    assert updated.json()["data"]["progress_percentage"] == 40
    assert client.put(f"/api/protected/projects/{pid}", json={"progress_percentage": 140}).status_code == 422
    ms = client.put(
        f"/api/protected/projects/{pid}/milestones",
        json={"milestones": [{"title": "Design", "status": "completed"}, {"title": "Build", "due_date": "2026-06-01"}]},
    )
    assert [m["title"] for m in ms.json()["data"]["milestones"]] == ["Design", "Build"]
    # The client sees the staff's progress and milestones in the portal.
    as_user(client, session, owner)
    seen = client.get("/api/protected/projects").json()["data"][0]
    assert seen["progress_percentage"] == 40 and [m["status"] for m in seen["milestones"]] == ["completed", "pending"]
    assert client.put(f"/api/protected/projects/{pid}", json={"name": "Hijacked"}).status_code == 422


def test_products_and_prices(client: TestClient, session: Session) -> None:
    as_user(client, session, f.user(session, "cfo_prod", role=Role.employee, employee_type=EmployeeType.cfo))
    made = client.post(
        "/api/admin/products",
        json={
            "name": "Care Plan",
            "category": "service_package",
            "prices": [
                {"amount": "99.00", "billing_period": "monthly"},
                {"amount": "990.00", "billing_period": "yearly"},
            ],
        },
    )
    assert made.status_code == 201
    product = made.json()["data"]
    assert [p["amount"] for p in product["prices"]] == ["99.00", "990.00"]
    monthly = product["prices"][0]["id"]
    client.put(f"/api/admin/prices/{monthly}", json={"is_active": False})
    public = client.get("/api/products").json()["data"]
    care = next(p for p in public if p["name"] == "Care Plan")
    assert [p["amount"] for p in care["prices"]] == ["990.00"]  # the public sees active prices only
    client.put(f"/api/admin/products/{product['id']}", json={"is_active": False})
    assert all(p["name"] != "Care Plan" for p in client.get("/api/products").json()["data"])
    bad = client.post(f"/api/admin/products/{product['id']}/prices", json={"amount": "-1", "currency": "eur"})
    assert set(bad.json()["errors"]) == {"amount", "currency"}


def test_a_null_product_category_is_refused_not_a_500(client: TestClient, session: Session) -> None:
    # Found by tests/api/test_schemathesis.py: PUT {"category": null} hit the NOT NULL column (500).
    as_user(client, session, f.user(session, "cat_admin", role=Role.admin))
    product = Product(name="Plan")
    session.add(product)
    session.commit()
    r = client.put(f"/api/admin/products/{product.id}", json={"category": None})
    assert r.status_code == 422, r.text
    assert client.post("/api/admin/products", json={"name": "Other", "category": None}).status_code == 422


def test_staff_schedule_meetings_and_the_client_is_told(client: TestClient, session: Session) -> None:
    support = f.user(session, "support_mtg", role=Role.employee, employee_type=EmployeeType.customer_support)
    guest = f.user(session, "mtg_client")
    as_user(client, session, support)
    start = (utcnow() + timedelta(days=3)).replace(microsecond=0).isoformat()
    made = client.post(
        "/api/admin/meetings",
        json={"client_id": str(guest.id), "title": "Roadmap review", "start_time": start, "duration_minutes": 45,
              "meeting_url": "https://meet.example.com/r", "meeting_type": "Video call"},
    )  # fmt: skip
    assert made.status_code == 201 and made.json()["data"]["duration_minutes"] == 45
    assert (
        session.exec(select(EmailOutbox).where(EmailOutbox.to_address == guest.email))
        .one()
        .subject.startswith("Meeting scheduled")
    )
    listed = client.get("/api/admin/meetings", params={"client_id": str(guest.id)}).json()["data"]
    assert [m["title"] for m in listed] == ["Roadmap review"] and listed[0]["client_name"] == "mtg_client"
    assert client.post(f"/api/admin/meetings/{made.json()['data']['id']}/complete").status_code == 422  # not started
    as_user(client, session, guest)
    assert [m["title"] for m in client.get("/api/protected/meetings").json()["upcoming"]] == ["Roadmap review"]


def test_content_writes_need_the_permission(client: TestClient, session: Session) -> None:
    as_user(client, session, f.user(session, "dev_c", role=Role.employee, employee_type=EmployeeType.developer))
    assert client.post("/api/protected/organizations", json={"name": "X"}).status_code == 403
    assert client.post("/api/admin/products", json={"name": "X"}).status_code == 403
    assert client.post("/api/admin/invoices", json={}).status_code == 403
    assert client.get("/api/admin/analytics").status_code == 403
    assert client.get("/api/protected/organizations").status_code == 200  # developers read content


def test_site_content_calls_edit_what_the_public_api_serves(client: TestClient, session: Session) -> None:
    as_user(client, session, f.user(session, "ml_site", role=Role.employee, employee_type=EmployeeType.marketing_lead))
    bad = client.post("/api/admin/site/jobs", json={"title": "QA", "code": "QA 1"})
    assert bad.status_code == 422
    assert set(bad.json()["errors"]) == {"code", "department", "location", "employment_type"}
    job = {"title": "QA Engineer", "code": "JOB-777", "department": "Engineering", "location": "Remote",
           "employment_type": "Full-time", "benefits": "Remote work\nLearning budget"}  # fmt: skip
    made = client.post("/api/admin/site/jobs", json=job)
    assert made.status_code == 201 and made.json()["message"] == "Job opening created successfully"
    listed = client.get("/api/jobs").json()["data"]
    assert next(j for j in listed if j["id"] == "JOB-777")["benefits"] == ["Remote work", "Learning budget"]
    item_id = made.json()["data"]["id"]
    closed = client.put(f"/api/admin/site/jobs/{item_id}", json={"is_active": False})
    assert closed.json()["message"] == "Job opening updated successfully"
    assert all(j["id"] != "JOB-777" for j in client.get("/api/jobs").json()["data"])
    assert client.get("/api/admin/site/nonsense").status_code == 404
    assert client.delete(f"/api/admin/site/jobs/{item_id}").json()["message"] == "Job opening deleted successfully"
    assert client.delete(f"/api/admin/site/jobs/{item_id}").status_code == 404
