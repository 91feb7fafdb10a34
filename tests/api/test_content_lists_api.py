"""The staff list routes of organizations, projects, products and applications: the spec's `data` plus the paging
fields, with `search`, `sort`, `page` and `page_size` (and the lists' filters) as query parameters."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.careers import JobApplication
from app.models.commerce import Product
from app.models.enums import EmployeeType, ProjectStatus, Role
from app.models.project import Organization
from app.models.user import User
from app.services.accounts import sessions
from tests import factories as f

PAGING = {"data", "total", "page", "page_size", "pages"}


def as_user(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


def _staff(session: Session, etype: EmployeeType) -> User:
    return f.user(session, f"{etype.value}_{uuid.uuid4().hex[:8]}", role=Role.employee, employee_type=etype)


def _tag() -> str:
    return uuid.uuid4().hex[:8]


def test_organizations_route_pages(client: TestClient, session: Session) -> None:
    tag = _tag()
    session.add_all([Organization(name=f"{tag} Org {i}") for i in range(5)])
    session.commit()
    as_user(client, session, _staff(session, EmployeeType.developer))
    body = client.get("/api/protected/organizations", params={"search": tag, "page_size": 2, "page": 2}).json()
    assert set(body) == PAGING
    assert (body["total"], body["page"], body["page_size"], body["pages"]) == (5, 2, 2, 3)
    assert [o["name"] for o in body["data"]] == [f"{tag} Org 2", f"{tag} Org 3"]
    newest = client.get("/api/protected/organizations", params={"search": tag, "sort": "newest", "page_size": 1})
    assert newest.json()["data"][0]["name"] == f"{tag} Org 4"
    past = client.get("/api/protected/organizations", params={"search": tag, "page": 9, "page_size": 2}).json()
    assert past["data"] == [] and past["total"] == 5
    as_user(client, session, _staff(session, EmployeeType.hr))
    assert client.get("/api/protected/organizations").status_code == 403


def test_projects_route_pages_for_staff_and_clients(client: TestClient, session: Session) -> None:
    tag = _tag()
    owner = f.user(session, f"owner_{tag}")
    for i in range(3):
        f.project(session, owner, f"{tag} Project {i}", status=ProjectStatus.review if i else ProjectStatus.planning)
    as_user(client, session, _staff(session, EmployeeType.developer))
    body = client.get("/api/protected/projects", params={"search": tag, "page_size": 2}).json()
    assert set(body) == PAGING and (body["total"], body["pages"]) == (3, 2)
    assert body["data"][0]["name"] == f"{tag} Project 2" and body["data"][0]["client_name"] == owner.username
    review = client.get("/api/protected/projects", params={"search": tag, "status": "review", "sort": "name"}).json()
    assert [p["name"] for p in review["data"]] == [f"{tag} Project 1", f"{tag} Project 2"]
    assert client.get("/api/protected/projects", params={"status": "done"}).status_code == 422
    # The client's own projects, the same shape.
    as_user(client, session, owner)
    mine = client.get("/api/protected/projects").json()
    assert mine["total"] == 3 and {p["client_id"] for p in mine["data"]} == {str(owner.id)}


def test_products_route_pages(client: TestClient, session: Session) -> None:
    tag = _tag()
    session.add_all([Product(name=f"{tag} Product {i}", is_active=i != 0) for i in range(3)])
    session.commit()
    as_user(client, session, _staff(session, EmployeeType.cfo))
    body = client.get("/api/admin/products", params={"search": tag, "page_size": 2}).json()
    assert set(body) == PAGING and (body["total"], body["pages"], len(body["data"])) == (3, 2, 2)
    assert body["data"][0]["name"] == f"{tag} Product 0"  # inactive too, by name
    as_user(client, session, _staff(session, EmployeeType.developer))
    assert client.get("/api/admin/products").status_code == 403


def test_applications_route_pages(client: TestClient, session: Session) -> None:
    tag = _tag()
    session.add_all(
        [
            JobApplication(
                first_name=f"Applicant{i}", last_name=tag, email=f"a{i}.{tag}@example.com", phone="5550100",
                job_code="JOB-001" if i else "JOB-002", resume_path="x", resume_filename="cv.pdf",
                resume_content_type="application/pdf",
            )
            for i in range(3)
        ]
    )  # fmt: skip
    session.commit()
    as_user(client, session, _staff(session, EmployeeType.hr))
    body = client.get("/api/admin/applications", params={"search": tag, "page_size": 2, "sort": "oldest"}).json()
    assert set(body) == PAGING and (body["total"], body["pages"]) == (3, 2)
    assert [a["first_name"] for a in body["data"]] == ["Applicant0", "Applicant1"]
    filtered = client.get("/api/admin/applications", params={"search": tag, "job_code": "JOB-001"}).json()
    assert filtered["total"] == 2
    as_user(client, session, _staff(session, EmployeeType.developer))
    assert client.get("/api/admin/applications").status_code == 403
