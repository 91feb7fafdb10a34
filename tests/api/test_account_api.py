"""A signed-in user's own account over HTTP: profile, settings, password change, completing a profile."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.services.accounts.users import create_user
from tests.services.test_password_reset import mailed_token

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


def test_a_complete_profile_cannot_be_completed_again_nor_its_password_replaced(
    client: TestClient, session: Session
) -> None:
    """Defect: any signed-in user could set a new password here without knowing the current one."""
    signed_in(client, session, name="done_already")
    other = TestClient(client.app)
    assert other.post("/api/auth/login", json={"identifier": "done_already", "password": PASSWORD}).status_code == 200
    r = client.post(
        "/api/auth/complete-profile",
        json={"username": "done_already", "company": "X Co", "phone": "+1 772 555 0199", "password": "Hijack-pass-1"},
    )
    assert r.status_code == 409 and "already complete" in r.json()["message"]
    assert client.post("/api/auth/login", json={"identifier": "done_already", "password": PASSWORD}).status_code == 200
    assert other.get("/api/auth/me").status_code == 200


def test_completing_a_profile_never_replaces_an_existing_password(client: TestClient, session: Session) -> None:
    signed_in(client, session, name="halfway", profile_complete=False)
    r = client.post(
        "/api/auth/complete-profile",
        json={"username": "halfway", "company": "X Co", "phone": "+1 772 555 0199", "password": "Hijack-pass-1"},
    )
    assert r.status_code == 422 and "already has a password" in r.json()["errors"]["password"]
    assert client.post("/api/auth/login", json={"identifier": "halfway", "password": PASSWORD}).status_code == 200
    assert client.get("/api/auth/me").json()["user"]["profile_complete"] is False  # nothing changed


def test_forgot_and_reset_password_over_http(client: TestClient, session: Session) -> None:
    create_user(session, username="lostkey", email="lostkey@example.com", password=PASSWORD)
    message = "If an account exists for that e-mail, we've sent a link to reset your password."
    known = client.post("/api/auth/forgot-password", json={"email": "lostkey@example.com"})
    unknown = client.post("/api/auth/forgot-password", json={"email": "nobody-here@example.com"})
    assert (known.status_code, known.json()["message"]) == (200, message)
    assert (unknown.status_code, unknown.json()["message"]) == (200, message)
    token = mailed_token(session, "lostkey@example.com")

    weak = client.post("/api/auth/reset-password", json={"token": token, "newPassword": "short"})
    assert weak.status_code == 422 and weak.json()["errors"] == {
        "newPassword": "New password must be at least 8 characters"
    }
    ok = client.post("/api/auth/reset-password", json={"token": token, "newPassword": "Fresh-start-42"})
    assert ok.status_code == 200 and "sign in with your new password" in ok.json()["message"]
    again = client.post("/api/auth/reset-password", json={"token": token, "newPassword": "Fresh-start-43"})
    assert again.status_code == 400 and "already been used" in again.json()["message"]
    bogus = client.post("/api/auth/reset-password", json={"token": "nope", "newPassword": "Fresh-start-43"})
    assert bogus.status_code == 400 and "not valid" in bogus.json()["message"]
    assert client.post("/api/auth/login", json={"identifier": "lostkey", "password": PASSWORD}).status_code == 401
    assert (
        client.post("/api/auth/login", json={"identifier": "lostkey", "password": "Fresh-start-42"}).status_code == 200
    )


def test_a_reset_reclaims_a_squatted_address_without_the_squatters_profile(
    client: TestClient, session: Session
) -> None:
    """Defect: the owner who reset the password of an address someone registered first signed in as "Mallory
    Squatter, Squatter Inc", with the squatter's phone."""
    squatter = {"first_name": "Mallory", "last_name": "Squatter", "company": "Squatter Inc", "phone": "+1 772 555 0199"}
    r = client.post(
        "/api/auth/register",
        json={"username": "victim_addr", "email": "victim@example.com", "password": "Squatter-pass-1", **squatter},
    )
    assert r.status_code == 201
    assert client.post("/api/auth/forgot-password", json={"email": "victim@example.com"}).status_code == 200
    token = mailed_token(session, "victim@example.com")
    assert (
        client.post("/api/auth/reset-password", json={"token": token, "newPassword": "Owners-own-42"}).status_code
        == 200
    )

    assert (
        client.post(
            "/api/auth/login", json={"identifier": "victim@example.com", "password": "Squatter-pass-1"}
        ).status_code
        == 401
    )
    form = client.post(
        "/api/auth/form/login",
        data={"identifier": "victim@example.com", "password": "Owners-own-42"},
        follow_redirects=False,
    )
    assert form.status_code == 303 and form.headers["location"] == "/complete-profile"
    me = client.get("/api/auth/me").json()["user"]
    assert me["is_verified"] and not me["profile_complete"]
    assert [me[k] for k in squatter] == [None, None, None, None]
    assert "Mallory" not in me["fullName"]
