"""Sign-in and sign-out by native form post: 303 redirects, cookies, and error codes for the page."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.services.users import create_user

PASSWORD = "Correct-horse-1"


def post_login(client: TestClient, identifier: str, password: str, page: str = "portal") -> tuple[str, dict[str, str]]:
    r = client.post(
        "/api/auth/form/login",
        data={"identifier": identifier, "password": password, "page": page},
        follow_redirects=False,
    )
    assert r.status_code == 303
    url = urlsplit(r.headers["location"])
    return url.path, {k: v[0] for k, v in parse_qs(url.query).items()}


def test_client_lands_in_the_portal_and_staff_in_the_admin(client: TestClient, session: Session) -> None:
    create_user(session, username="formclient", email="fc@example.com", password=PASSWORD)
    create_user(
        session, username="formstaff", email="fs@example.com", password=PASSWORD, role="employee", employee_type="hr"
    )
    assert post_login(client, "formclient", PASSWORD)[0] == "/client-portal"
    assert client.get("/api/auth/me").json()["user"]["username"] == "formclient"
    client.cookies.clear()
    assert post_login(client, "formstaff", PASSWORD)[0] == "/admin/dashboard"


def test_failures_return_to_the_form_with_a_code(client: TestClient, session: Session) -> None:
    user = create_user(session, username="unver", email="u@example.com", password=PASSWORD, is_verified=False)
    assert post_login(client, "nobody", "whatever-1") == (
        "/client-portal",
        {"error": "invalid", "identifier": "nobody"},
    )
    assert post_login(client, "", "") == ("/client-portal", {"error": "required"})
    assert post_login(client, "unver", PASSWORD) == ("/client-portal", {"error": "unverified", "uid": str(user.id)})
    assert client.get("/api/auth/me").status_code == 401


def test_admin_login_refuses_clients(client: TestClient, session: Session) -> None:
    create_user(session, username="notstaff", email="ns@example.com", password=PASSWORD)
    path, params = post_login(client, "notstaff", PASSWORD, page="admin")
    assert (path, params["error"]) == ("/admin/login", "not_staff")
    assert client.get("/api/auth/me").status_code == 401  # no session was left behind


def test_logout_form_ends_the_session(client: TestClient, session: Session) -> None:
    create_user(session, username="leaver", email="l@example.com", password=PASSWORD)
    post_login(client, "leaver", PASSWORD)
    access = client.cookies.get("access_token")
    r = client.post("/api/auth/form/logout", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/admin/login")
    client.cookies.set("access_token", access)
    assert client.get("/api/auth/me").status_code == 401
