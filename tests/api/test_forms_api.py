"""Sign-in and sign-out by native form post: 303 redirects, cookies, and error codes for the page."""

from __future__ import annotations

import logging
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from app.services.accounts import auth, sessions
from app.services.accounts.users import create_user

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


def _database_down(*_args: object, **_kwargs: object) -> None:
    raise OperationalError("SELECT 1", {}, Exception("connection refused"))


@pytest.mark.parametrize("fault", [_database_down, lambda *a, **k: 1 / 0])
def test_a_server_fault_during_sign_in_returns_to_the_form_with_the_server_code(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, fault: object
) -> None:
    monkeypatch.setattr(auth, "check_password", fault)
    with caplog.at_level(logging.ERROR, logger="app.api.routes.forms"):
        assert post_login(client, "someone", PASSWORD) == (
            "/client-portal",
            {"error": "server", "identifier": "someone"},
        )
        assert post_login(client, "staffer", PASSWORD, page="admin") == (
            "/admin/login",
            {"error": "server", "identifier": "staffer"},
        )
    assert [r.exc_info is not None for r in caplog.records] == [True, True]  # logged with the traceback
    assert "access_token" not in client.cookies


def test_a_server_fault_during_sign_out_returns_to_the_form_with_the_server_code(
    client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    create_user(session, username="faultout", email="fo@example.com", password=PASSWORD)
    post_login(client, "faultout", PASSWORD)
    monkeypatch.setattr(sessions, "end", _database_down)
    with caplog.at_level(logging.ERROR, logger="app.api.routes.forms"):
        r = client.post("/api/auth/form/logout", data={"page": "admin"}, follow_redirects=False)
        portal = client.post("/api/auth/form/logout", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/admin/login?error=server"
    assert portal.status_code == 303 and portal.headers["location"] == "/client-portal?error=server"
    assert "access_token" not in client.cookies  # the browser is signed out all the same
    assert len([r for r in caplog.records if r.exc_info]) == 2


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
    assert r.status_code == 303 and r.headers["location"] == "/client-portal?logged_out=1"  # a client's sign-in
    client.cookies.set("access_token", access)
    assert client.get("/api/auth/me").status_code == 401


def test_signing_out_lands_on_the_sign_in_page_of_the_accounts_kind(client: TestClient, session: Session) -> None:
    create_user(
        session,
        username="stafflvr",
        email="sl@example.com",
        password=PASSWORD,
        role="employee",
        employee_type="developer",
    )
    post_login(client, "stafflvr", PASSWORD)
    r = client.post("/api/auth/form/logout", follow_redirects=False)
    assert r.headers["location"] == "/admin/login?logged_out=1"
    # No session left to tell: the page the form came from decides.
    client.cookies.clear()
    gone = client.post("/api/auth/form/logout", data={"page": "admin"}, follow_redirects=False)
    assert gone.headers["location"] == "/admin/login?logged_out=1"
    assert client.post("/api/auth/form/logout", follow_redirects=False).headers["location"] == (
        "/client-portal?logged_out=1"
    )
