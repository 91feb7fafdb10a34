"""A signed-in user's own account over HTTP: profile, settings, password change, completing a profile."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.services.users import create_user

PASSWORD = "Correct-horse-1"


def signed_in(client: TestClient, session: Session, name: str = "acct", **kw: object) -> None:
    create_user(session, username=name, email=f"{name}@example.com", password=PASSWORD, **kw)  # type: ignore[arg-type]
    assert client.post("/api/auth/login", json={"identifier": name, "password": PASSWORD}).status_code == 200


def test_profile_update_trims_and_validates(client: TestClient, session: Session) -> None:
    signed_in(client, session)
    ok = client.put(
        "/api/protected/profile",
        json={"first_name": "  Dana ", "last_name": "Reyes", "phone": "(772) 555-0142", "company": "Acme"},
    )
    assert ok.status_code == 200, ok.text
    user = ok.json()["user"]
    assert (user["first_name"], user["phone"], user["email"]) == ("Dana", "(772) 555-0142", "acct@example.com")

    bad = client.put("/api/protected/profile", json={"first_name": " ", "phone": "555-01"})
    assert bad.status_code == 422
    assert bad.json()["errors"] == {
        "first_name": "First name is required",
        "phone": "Phone number must be at least 10 digits",
    }
    letters = client.put("/api/protected/profile", json={"phone": "call me maybe"})
    assert letters.json()["errors"]["phone"] == "Please enter a valid phone number"
    assert client.get("/api/auth/me").json()["user"]["first_name"] == "Dana"  # a refused edit changed nothing


def test_settings_username_change_and_conflict(client: TestClient, session: Session) -> None:
    create_user(session, username="taken_name", email="t@example.com", password=PASSWORD)
    signed_in(client, session)
    assert client.put("/api/protected/profile", json={"username": ""}).json()["errors"] == {
        "username": "Username is required"
    }
    clash = client.put("/api/protected/profile", json={"username": "Taken_Name"})
    assert clash.status_code == 409 and clash.json()["message"] == "This username is already taken"
    assert client.put("/api/protected/profile", json={"username": "fresh_name", "phone": ""}).status_code == 200
    assert client.get("/api/auth/me").json()["user"]["username"] == "fresh_name"


def test_change_password_checks_current_and_ends_other_sessions(client: TestClient, session: Session) -> None:
    signed_in(client, session)
    other = TestClient(client.app)
    assert other.post("/api/auth/login", json={"identifier": "acct", "password": PASSWORD}).status_code == 200

    mismatch = client.put(
        "/api/protected/change-password",
        json={"currentPassword": PASSWORD, "newPassword": "New-password-9", "confirmPassword": "different"},
    )
    assert mismatch.json()["errors"] == {"confirmPassword": "New password and confirmation do not match"}
    wrong = client.put(
        "/api/protected/change-password",
        json={"currentPassword": "not-it-at-all", "newPassword": "New-password-9", "confirmPassword": "New-password-9"},
    )
    assert wrong.status_code == 422 and wrong.json()["message"] == "Current password is incorrect"
    ok = client.put(
        "/api/protected/change-password",
        json={"currentPassword": PASSWORD, "newPassword": "New-password-9", "confirmPassword": "New-password-9"},
    )
    assert ok.status_code == 200 and ok.json()["message"] == "Password changed successfully!"
    assert client.get("/api/auth/me").status_code == 200  # this session stays
    assert other.get("/api/auth/me").status_code == 401  # the other one ended
    assert client.post("/api/auth/login", json={"identifier": "acct", "password": PASSWORD}).status_code == 401


def test_complete_profile(client: TestClient, session: Session) -> None:
    signed_in(client, session, profile_complete=False)
    bad = client.post("/api/auth/complete-profile", json={"username": "ab", "company": "", "phone": ""})
    assert bad.json()["errors"] == {
        "username": "Username must be at least 3 characters",
        "company": "Company name is required",
        "phone": "Phone number is required",
    }
    ok = client.post(
        "/api/auth/complete-profile",
        json={"username": "acct_done", "company": "Reef Labs", "phone": "+1 772 555 0199", "password": None},
    )
    assert ok.status_code == 200 and ok.json()["user"]["profile_complete"] is True


def test_protected_calls_need_a_session(client: TestClient) -> None:
    assert client.put("/api/protected/profile", json={"first_name": "X"}).status_code == 401
    assert client.put("/api/protected/change-password", json={}).status_code == 401
