"""The client portal over HTTP: scoping, cancellation rules, the invoice PDF, meetings and the data export."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.enums import EmployeeType, InvoiceStatus, MeetingStatus, ProjectStatus, Role
from app.services.accounts import sessions
from tests import factories as f


def login(client: TestClient, username: str) -> None:
    r = client.post("/api/auth/login", json={"identifier": username, "password": f.PASSWORD})
    assert r.status_code == 200, r.text


@pytest.fixture
def two_clients(session: Session) -> dict[str, object]:
    alice, bob = f.user(session, "alice"), f.user(session, "bob")
    p = f.project(session, alice, "Alice site", status=ProjectStatus.in_progress, progress_percentage=60)
    f.milestone(session, p, "Launch", 2)
    f.milestone(session, p, "Design", 1)
    return {
        "alice": alice,
        "bob": bob,
        "project": p,
        "bob_project": f.project(session, bob, "Bob app"),
        "invoice": f.invoice(session, alice),
        "draft": f.invoice(session, alice, status=InvoiceStatus.draft),
        "bob_invoice": f.invoice(session, bob),
        "meeting": f.meeting(session, alice),
        "past": f.meeting(session, alice, in_hours=-72, status=MeetingStatus.completed, title="Discovery"),
        "bob_meeting": f.meeting(session, bob),
    }


def test_clients_see_only_their_own_records(client: TestClient, two_clients: dict) -> None:
    login(client, "alice")
    projects = client.get("/api/protected/projects").json()["data"]
    assert [p["name"] for p in projects] == ["Alice site"]
    assert [m["title"] for m in projects[0]["milestones"]] == ["Design", "Launch"]  # in order
    assert projects[0]["progress_percentage"] == 60
    invoices = client.get("/api/protected/invoices").json()["data"]
    assert [i["invoice_number"] for i in invoices] == [two_clients["invoice"].invoice_number]  # no draft, not Bob's
    meetings = client.get("/api/protected/meetings").json()
    assert [m["title"] for m in meetings["upcoming"]] == ["Kick-off call"]
    assert [m["title"] for m in meetings["past"]] == ["Discovery"]
    assert meetings["upcoming"][0]["duration_minutes"] == 45 and meetings["upcoming"][0]["join_url"]


def test_another_clients_records_answer_404(client: TestClient, two_clients: dict) -> None:
    login(client, "alice")
    assert client.get(f"/api/protected/invoices/{two_clients['bob_invoice'].id}/download").status_code == 404
    assert client.get(f"/api/protected/invoices/{two_clients['draft'].id}/download").status_code == 404
    assert (
        client.put(f"/api/protected/projects/{two_clients['bob_project'].id}", json={"status": "cancelled"}).status_code
        == 404
    )
    r = client.post(f"/api/protected/meetings/{two_clients['bob_meeting'].id}/cancel", json={})
    assert r.status_code == 404 and r.json()["message"] == "Meeting not found"


def test_invoice_pdf_is_a_real_pdf_of_the_invoice(client: TestClient, two_clients: dict) -> None:
    login(client, "alice")
    inv = two_clients["invoice"]
    r = client.get(f"/api/protected/invoices/{inv.id}/download")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"] == f'attachment; filename="invoice-{inv.invoice_number}.pdf"'
    assert r.content.startswith(b"%PDF-")
    text = f.pdf_text(r.content)
    for expected in (inv.invoice_number, "Design work", "Hosting setup", "$950.00", "$1,100.50", "$77.04", "$1,177.54"):
        assert expected in text, expected


def test_staff_with_billing_read_download_any_invoice(client: TestClient, session: Session, two_clients: dict) -> None:
    f.user(session, "cfo1", role=Role.employee, employee_type=EmployeeType.cfo)
    f.user(session, "dev1", role=Role.employee, employee_type=EmployeeType.developer)
    login(client, "dev1")
    assert client.get(f"/api/protected/invoices/{two_clients['invoice'].id}/download").status_code == 404
    login(client, "cfo1")
    assert client.get(f"/api/protected/invoices/{two_clients['invoice'].id}/download").status_code == 200
    assert len(client.get("/api/protected/invoices").json()["data"]) == 3  # drafts included for staff


def test_cancel_project_rules(client: TestClient, session: Session, two_clients: dict) -> None:
    login(client, "alice")
    pid = two_clients["project"].id
    assert client.put(f"/api/protected/projects/{pid}", json={"status": "completed"}).status_code == 422
    ok = client.put(f"/api/protected/projects/{pid}", json={"status": "cancelled"})
    assert ok.status_code == 200 and ok.json()["data"]["status"] == "cancelled"
    again = client.put(f"/api/protected/projects/{pid}", json={"status": "cancelled"})
    assert again.status_code == 422 and "already cancelled" in again.json()["message"]
    done = f.project(session, two_clients["alice"], "Done", status=ProjectStatus.completed)
    assert client.put(f"/api/protected/projects/{done.id}", json={"status": "cancelled"}).status_code == 422


def test_cancel_meeting_rules(client: TestClient, two_clients: dict) -> None:
    login(client, "alice")
    past = client.post(f"/api/protected/meetings/{two_clients['past'].id}/cancel", json={})
    assert past.status_code == 422
    ok = client.post(f"/api/protected/meetings/{two_clients['meeting'].id}/cancel", json={})
    assert ok.status_code == 200
    assert ok.json()["data"]["status"] == "cancelled" and ok.json()["data"]["cancel_reason"] == "Cancelled by client"
    assert client.post(f"/api/protected/meetings/{two_clients['meeting'].id}/cancel", json={}).status_code == 422


def test_export_contains_only_the_clients_data(client: TestClient, two_clients: dict) -> None:
    login(client, "alice")
    r = client.get("/api/protected/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = json.loads(r.content)
    assert data["profile"]["username"] == "alice"
    assert [p["name"] for p in data["projects"]] == ["Alice site"]
    assert len(data["invoices"]) == 1 and len(data["invoices"][0]["items"]) == 2
    assert {m["title"] for m in data["meetings"]} == {"Kick-off call", "Discovery"}
    assert "password_hash" not in r.text


def test_portal_calls_need_a_session(client: TestClient) -> None:
    for path in (
        "/api/protected/projects",
        "/api/protected/invoices",
        "/api/protected/meetings",
        "/api/protected/export",
    ):
        assert client.get(path).status_code == 401


def test_downloads_follow_the_session_not_the_short_token(
    client: TestClient, session: Session, two_clients: dict
) -> None:
    """A page left open past the access token's 15 minutes still downloads while its session lives."""
    import jwt

    from app.core.config import settings
    from app.services.accounts import sessions

    issued = sessions.start(session, two_clients["alice"])
    claims = jwt.decode(issued.access_token, options={"verify_signature": False})
    stale = jwt.encode(
        {**claims, "exp": claims["exp"] - 3600, "iat": claims["iat"] - 3600},
        settings.secret_key.get_secret_value(),
        algorithm="HS256",
    )
    client.cookies.set("access_token", stale)
    assert client.get("/api/protected/projects").status_code == 401  # JSON API: the token must be fresh
    assert client.get(f"/api/protected/invoices/{two_clients['invoice'].id}/download").status_code == 200
    sessions.end(session, access_token=stale, refresh_token=None)
    assert client.get(f"/api/protected/invoices/{two_clients['invoice'].id}/download").status_code == 401


def test_an_id_past_the_database_range_is_a_422_naming_it(client: TestClient, session: Session) -> None:
    # A client's invoice download used to answer 500: PostgreSQL refused to compare the id with an INTEGER column.
    owner = f.user(session, "range_owner")
    client.cookies.set("access_token", sessions.start(session, owner).access_token)
    r = client.get("/api/protected/invoices/2147483648/download")
    assert r.status_code == 422, r.text
    assert set(r.json()["errors"]) == {"invoice_id"}
    assert client.get("/api/protected/invoices/2147483647/download").status_code == 404


def test_the_invoice_list_is_one_page_with_the_paging_fields(client: TestClient, session: Session) -> None:
    """Staff who read billing see every client's invoices, so the list pages in SQL (20,000 invoices must not be
    one answer); a client's own list pages the same way."""
    owner = f.user(session, "many_invoices")
    made = [f.invoice(session, owner) for _ in range(30)]
    f.invoice(session, owner, status=InvoiceStatus.draft)
    login(client, "many_invoices")
    first = client.get("/api/protected/invoices").json()
    assert (first["total"], first["page"], first["page_size"], first["pages"]) == (30, 1, 25, 2)
    assert [i["id"] for i in first["data"]] == [inv.id for inv in reversed(made)][:25]  # newest first, no draft
    second = client.get("/api/protected/invoices", params={"page": 2}).json()
    assert len(second["data"]) == 5
    f.user(session, "billing_reader", role=Role.employee, employee_type=EmployeeType.cfo)
    login(client, "billing_reader")
    staff = client.get("/api/protected/invoices", params={"page_size": 10}).json()
    assert len(staff["data"]) == 10 and staff["total"] >= 31  # drafts included for staff
    assert client.get("/api/protected/invoices", params={"page_size": 10**6}).json()["page_size"] == 100  # clamped
