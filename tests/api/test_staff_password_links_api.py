"""Staff send links, not passwords (issue 12, point 1), over HTTP; the spec's set-a-password call stays for API
clients."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.models.enums import EmployeeType, Role
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.accounts import sessions
from tests import factories as f


def _as(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


def _mail_count(session: Session, address: str) -> int:
    return len(session.exec(select(EmailOutbox).where(EmailOutbox.to_address == address)).all())


def test_creating_without_a_password_invites_and_says_so(client: TestClient, session: Session) -> None:
    _as(client, session, f.user(session, "api_inviter", role=Role.admin))
    made = client.post(
        "/api/admin/users",
        json={"username": "invitee", "email": "invitee@example.com", "role": "employee", "employee_type": "developer"},
    )
    assert made.status_code == 201, made.text
    assert made.json()["passwordLinkSent"] is True and made.json()["message"] == "User created successfully"
    assert _mail_count(session, "invitee@example.com") == 1

    chosen = client.post(
        "/api/protected/create-client",
        json={"username": "chooser", "email": "chooser@example.com", "password_hash": "Chosen-pass-77"},
    )
    assert chosen.status_code == 201 and chosen.json()["passwordLinkSent"] is False
    assert _mail_count(session, "chooser@example.com") == 0
    weak = client.post(
        "/api/protected/create-client", json={"username": "weakling", "email": "weak@example.com", "password": "x"}
    )
    assert weak.status_code == 422 and "password" in weak.json()["errors"]
    assert _mail_count(session, "weak@example.com") == 0


def test_send_link_mails_the_user_and_answers_with_the_address(client: TestClient, session: Session) -> None:
    support = f.user(session, "api_support", role=Role.employee, employee_type=EmployeeType.customer_support)
    customer = f.user(session, "api_customer")
    _as(client, session, support)
    sent = client.post(f"/api/protected/reset-password/{customer.id}/send-link")
    assert sent.status_code == 200
    assert sent.json() == {"message": f"Password reset link sent to {customer.email}"}
    assert _mail_count(session, customer.email) == 1


def test_send_link_refusals_change_nothing(client: TestClient, session: Session) -> None:
    support = f.user(session, "api_support2", role=Role.employee, employee_type=EmployeeType.customer_support)
    developer = f.user(session, "api_dev", role=Role.employee, employee_type=EmployeeType.developer)
    _as(client, session, support)
    refused = client.post(f"/api/protected/reset-password/{developer.id}/send-link")
    assert refused.status_code == 403
    assert refused.json()["message"] == "You don't have permission to reset this user's password"
    missing = client.post("/api/protected/reset-password/not-a-uuid/send-link")
    assert missing.status_code == 404 and missing.json()["message"] == "User not found"
    assert _mail_count(session, developer.email) == 0
    client.cookies.clear()
    assert client.post(f"/api/protected/reset-password/{developer.id}/send-link").status_code == 401
