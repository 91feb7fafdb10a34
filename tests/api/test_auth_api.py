"""/api/auth over HTTP: shapes, status codes, cookies and the CSRF guard."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlmodel import Session, col, select

from app.models.base import utcnow
from app.models.system import EmailOutbox
from app.models.user import RefreshToken
from tests import factories as f

PASSWORD = "Correct-horse-1"


def register(client: TestClient, name: str = "apiuser") -> str:
    r = client.post(
        "/api/auth/register",
        json={"username": name, "email": f"{name}@example.com", "password": PASSWORD, "first_name": "Api"},
    )
    assert r.status_code == 201, r.text
    assert r.json()["email"] == f"{name}@example.com"
    return str(r.json()["userId"])


def code_for(session: Session, email: str) -> str:
    msg = session.exec(
        select(EmailOutbox).where(EmailOutbox.to_address == email).order_by(col(EmailOutbox.id).desc())
    ).first()
    assert msg is not None
    return re.search(r"code is (\d{6})", msg.body_text).group(1)  # type: ignore[union-attr]


def registered_and_verified(client: TestClient, session: Session, name: str = "apiuser") -> str:
    user_id = register(client, name)
    r = client.post("/api/auth/verify", json={"userId": user_id, "code": code_for(session, f"{name}@example.com")})
    assert r.status_code == 200, r.text
    return user_id


def test_full_account_journey(client: TestClient, session: Session) -> None:
    user_id = registered_and_verified(client, session)
    r = client.post("/api/auth/login", json={"identifier": "APIUSER", "password": PASSWORD})
    assert r.status_code == 200
    user = r.json()["user"]
    assert user["id"] == user_id and user["role"] == "client" and user["effective_permissions"] == []
    assert user["fullName"] == "Api" and "password_hash" not in user
    cookies = r.headers.get_list("set-cookie")
    access = next(c for c in cookies if c.startswith("access_token="))
    refresh = next(c for c in cookies if c.startswith("refresh_token="))
    for cookie in (access, refresh):
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Path=/api/auth" in refresh

    me = client.get("/api/auth/me")
    assert me.status_code == 200 and me.json()["user"]["username"] == "apiuser"

    old_refresh = client.cookies.get("refresh_token")
    assert client.post("/api/auth/refresh", json={}).status_code == 200
    assert client.cookies.get("refresh_token") != old_refresh

    assert client.post("/api/auth/logout", json={}).status_code == 200
    assert client.get("/api/auth/me").status_code == 401


def test_reused_refresh_token_revokes_the_session(client: TestClient, session: Session) -> None:
    registered_and_verified(client, session)
    client.post("/api/auth/login", json={"identifier": "apiuser", "password": PASSWORD})
    stolen = client.cookies.get("refresh_token", path="/api/auth")
    assert client.post("/api/auth/refresh", json={}).status_code == 200
    owner_access = client.cookies.get("access_token")
    client.cookies.clear()
    client.cookies.set("refresh_token", stolen, path="/api/auth")
    assert client.post("/api/auth/refresh", json={}).status_code == 401  # the thief's replay...
    client.cookies.clear()
    client.cookies.set("access_token", owner_access)
    assert client.get("/api/auth/me").status_code == 401  # ...ended the owner's session too


def test_unverified_login_answers_403_with_user_id(client: TestClient) -> None:
    user_id = register(client)
    r = client.post("/api/auth/login", json={"identifier": "apiuser", "password": PASSWORD})
    assert r.status_code == 403
    assert r.json()["userId"] == user_id and r.json()["requiresVerification"] is True


def test_wrong_credentials_answer_one_message(client: TestClient, session: Session) -> None:
    registered_and_verified(client, session)
    a = client.post("/api/auth/login", json={"identifier": "apiuser", "password": "wrong-password"})
    b = client.post("/api/auth/login", json={"identifier": "ghost", "password": "wrong-password"})
    assert a.status_code == b.status_code == 401
    assert a.json()["message"] == b.json()["message"] == "Invalid credentials"


def test_registering_a_taken_address_answers_as_a_new_one_and_mails_the_owner(
    client: TestClient, session: Session
) -> None:
    """Defect: a 409 "email already registered" told anyone whether an address has an account."""
    registered_and_verified(client, session, "owner")
    new = client.post(
        "/api/auth/register", json={"username": "x_new", "email": "Fresh@Example.com", "password": PASSWORD}
    )
    dup = client.post(
        "/api/auth/register", json={"username": "x_dup", "email": "OWNER@example.com", "password": PASSWORD}
    )
    assert new.status_code == dup.status_code == 201, dup.text
    assert new.json().keys() == dup.json().keys() and new.json()["message"] == dup.json()["message"]
    assert (new.json()["email"], dup.json()["email"]) == ("fresh@example.com", "owner@example.com")
    for answer in (new, dup):  # a wrong code, then a resend: the same answers
        wrong = client.post("/api/auth/verify", json={"userId": answer.json()["userId"], "code": "000000"})
        assert (wrong.status_code, wrong.json()["message"]) == (422, "Invalid verification code. 4 attempts left.")
        assert client.post("/api/auth/resend-code", json={"userId": answer.json()["userId"]}).status_code == 200
    subjects = session.exec(select(EmailOutbox.subject).where(EmailOutbox.to_address == "owner@example.com")).all()
    assert any("tried to register" in s for s in subjects)


def test_registration_errors(client: TestClient) -> None:
    register(client)
    bad = client.post("/api/auth/register", json={"username": "a!", "email": "nope", "password": "short"})
    assert bad.status_code == 422
    errors = bad.json()["errors"]
    assert errors["username"] == "Username must be at least 3 characters"
    assert errors["email"] == "Invalid email address"
    assert errors["password"] == "Password must be at least 8 characters"


def test_verification_messages(client: TestClient, session: Session) -> None:
    user_id = register(client)
    wrong = client.post("/api/auth/verify", json={"userId": user_id, "code": "12345x"})
    assert wrong.status_code == 422 and "Invalid verification code" in wrong.json()["message"]
    client.post("/api/auth/verify", json={"userId": user_id, "code": code_for(session, "apiuser@example.com")})
    again = client.post("/api/auth/verify", json={"userId": user_id, "code": "123456"})
    assert again.status_code == 409 and "already verified" in again.json()["message"]
    resend = client.post("/api/auth/resend-code", json={"userId": user_id})
    assert resend.status_code == 409


def test_resend_is_rate_limited(client: TestClient) -> None:
    user_id = register(client)
    assert client.post("/api/auth/resend-code", json={"userId": user_id}).status_code == 200
    limited = client.post("/api/auth/resend-code", json={"userId": user_id})
    assert limited.status_code == 429 and "wait a minute" in limited.json()["message"]


def test_overlong_identifiers_are_refused_and_throttled_never_500(client: TestClient, session: Session) -> None:
    long_email = "a" * 64 + "@" + "b" * 185 + ".com"
    assert len(long_email) == 254
    owner = f.user(session, "longmail", email=long_email)
    for identifier in ("x" * 400, long_email, "z" * 64 + "@" + "y" * 185 + ".com"):
        for _ in range(5):
            r = client.post("/api/auth/login", json={"identifier": identifier, "password": "wrong-password"})
            assert r.status_code == 401 and r.json()["message"] == "Invalid credentials"
        r = client.post("/api/auth/login", json={"identifier": identifier, "password": "wrong-password"})
        assert r.status_code == 429, r.text
    # The owner of the long address is locked out from this address only for the window, like anyone else.
    r = client.post("/api/auth/login", json={"identifier": long_email, "password": f.PASSWORD})
    assert r.status_code == 429
    assert owner.email == long_email


def test_me_without_a_session_is_401(client: TestClient) -> None:
    r = client.get("/api/auth/me")
    assert r.status_code == 401 and r.json()["message"]


def test_cross_site_writes_are_refused(client: TestClient) -> None:
    r = client.post(
        "/api/auth/login",
        json={"identifier": "x", "password": "y"},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403 and r.json()["message"] == "Cross-site request refused"


def test_activity_keeps_the_session_alive_and_needs_one(client: TestClient, session: Session) -> None:
    assert client.post("/api/auth/activity").status_code == 401
    registered_and_verified(client, session)
    client.post("/api/auth/login", json={"identifier": "apiuser", "password": PASSWORD})
    row = session.exec(select(RefreshToken)).one()
    row.last_used_at = utcnow() - timedelta(hours=3)  # idle, but within the client's 4 hours
    session.add(row)
    session.commit()
    assert client.post("/api/auth/activity").status_code == 200
    session.refresh(row)
    assert utcnow() - row.last_used_at < timedelta(minutes=1)
