"""The second step over HTTP (issue 28, ADR 0103): the JSON login, the form posts and Google each stop at it, with
their cookies; setting up as the step; trusted browsers; a person's own settings; staff resets."""

from __future__ import annotations

import time

import pyotp
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.core.config import settings
from app.models.enums import EmployeeType, Role
from app.models.user import User
from app.services.accounts import passkeys, second_factor, sign_in
from tests import factories as f
from tests.api.test_google_api import google_sign_in, provider  # noqa: F401 (a fixture)
from tests.fake_oidc import FakeOIDC
from tests.soft_authenticator import SoftAuthenticator


def code(secret: str, steps_ahead: int = 0) -> str:
    return pyotp.TOTP(secret).at(time.time() + steps_ahead * second_factor.STEP_S)


def wrong_code(secret: str) -> str:
    """Six digits that no code of the accepted window is."""
    window = {code(secret, n) for n in (-1, 0, 1)}
    return next(c for c in ("000000", "111111", "222222", "333333") if c not in window)


CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"


def login(client: TestClient, username: str) -> dict[str, object]:
    r = client.post("/api/auth/login", json={"identifier": username, "password": f.PASSWORD})
    assert r.status_code == 200, r.text
    body: dict[str, object] = r.json()
    return body


def signed_in(client: TestClient) -> bool:
    return client.get("/api/auth/me").status_code == 200


@pytest.fixture
def admin(session: Session) -> User:
    return f.user(session, "api_sf_admin", role=Role.admin, first_name="Ada")


def test_an_admin_sets_it_up_at_sign_in_then_signs_in_with_codes_never_twice(
    untrusted_client: TestClient, admin: User
) -> None:
    c = untrusted_client
    assert login(c, "api_sf_admin")["secondFactor"] == "enrol"
    step = c.cookies.get(sign_in.CHALLENGE_COOKIE)
    assert step and "access_token" not in c.cookies and not signed_in(c)
    new = c.post("/api/auth/second-factor/enrol").json()
    secret = new["secret"].replace(" ", "")
    confirmed = c.post("/api/auth/second-factor/enrol/confirm", json={"code": code(secret, -1)})
    assert confirmed.status_code == 200 and len(confirmed.json()["recoveryCodes"]) == 10
    assert not signed_in(c)
    done = c.post("/api/auth/second-factor", json={})
    assert done.status_code == 200 and done.json()["user"]["username"] == "api_sf_admin"
    assert signed_in(c) and sign_in.CHALLENGE_COOKIE not in c.cookies
    c.post("/api/auth/logout")

    assert login(c, "api_sf_admin") == {
        "secondFactor": "code",
        "message": "Enter the code from your authenticator app.",
    }
    wrong = c.post("/api/auth/second-factor", json={"code": "12345"})
    assert wrong.status_code == 422 and wrong.json()["errors"]["code"] == second_factor.CODE_FORMAT
    now = code(secret)
    assert c.post("/api/auth/second-factor", json={"code": now}).status_code == 200
    c.post("/api/auth/logout")
    login(c, "api_sf_admin")
    replay = c.post("/api/auth/second-factor", json={"code": now})
    assert replay.status_code == 422 and replay.json()["message"] == second_factor.USED_CODE
    assert not signed_in(c)


def test_a_trusted_browser_signs_in_with_the_password_alone(untrusted_client: TestClient, admin: User) -> None:
    c = untrusted_client
    login(c, "api_sf_admin")
    secret = c.post("/api/auth/second-factor/enrol").json()["secret"].replace(" ", "")
    c.post("/api/auth/second-factor/enrol/confirm", json={"code": code(secret, -1)})
    r = c.post("/api/auth/second-factor", json={"trust": True}, headers={"user-agent": CHROME})
    trust = [h for h in r.headers.get_list("set-cookie") if h.startswith(second_factor.trust_cookie(admin.id))]
    assert trust and "HttpOnly" in trust[0] and "Path=/api/auth" in trust[0] and "Max-Age=2592000" in trust[0]
    c.post("/api/auth/logout")
    assert "user" in login(c, "api_sf_admin")  # no second step in this browser
    assert c.get("/api/protected/second-factor").json() == {
        "on": True, "required": True, "recoveryCodesLeft": 10, "trustedBrowsers": 1,
    }  # fmt: skip
    c.post("/api/protected/second-factor/forget-browsers")
    c.post("/api/auth/logout")
    assert login(c, "api_sf_admin")["secondFactor"] == "code"


def test_the_form_sign_in_goes_through_the_second_step_page(untrusted_client: TestClient, admin: User) -> None:
    c = untrusted_client
    r = c.post(
        "/api/auth/form/login",
        data={"identifier": "api_sf_admin", "password": f.PASSWORD, "page": "admin"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/sign-in/second-step"
    assert "access_token" not in c.cookies and c.cookies.get(sign_in.CHALLENGE_COOKIE)
    secret = c.post("/api/auth/second-factor/enrol").json()["secret"].replace(" ", "")
    c.post("/api/auth/second-factor/enrol/confirm", json={"code": code(secret, -1)})
    r = c.post("/api/auth/form/second-step", data={}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/admin/dashboard?login=1"
    assert signed_in(c)
    c.post("/api/auth/logout")
    c.post("/api/auth/form/login", data={"identifier": "api_sf_admin", "password": f.PASSWORD, "page": "admin"})
    r = c.post("/api/auth/form/second-step", data={"code": wrong_code(secret)}, follow_redirects=False)
    assert r.headers["location"] == "/sign-in/second-step?error=wrong"
    r = c.post("/api/auth/form/second-step", data={"code": code(secret)}, follow_redirects=False)
    assert r.headers["location"] == "/admin/dashboard?login=1" and signed_in(c)


def test_an_expired_or_missing_sign_in_goes_back_to_the_sign_in_page(untrusted_client: TestClient) -> None:
    r = untrusted_client.post("/api/auth/form/second-step", data={"code": "123456"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/client-portal?error=step_expired"
    r = untrusted_client.post("/api/auth/second-factor", json={"code": "123456"})
    assert r.status_code == 401 and r.json()["message"] == sign_in.EXPIRED


def test_google_does_not_skip_the_second_step_for_staff(
    untrusted_client: TestClient,
    provider: FakeOIDC,  # noqa: F811
    session: Session,
) -> None:
    f.user(session, "api_sf_google", role=Role.employee, employee_type=EmployeeType.cfo, email="cfo@example.com")
    location = google_sign_in(untrusted_client, provider, sub="g-cfo", email="cfo@example.com")
    assert location == "/sign-in/second-step"
    assert "access_token" not in untrusted_client.cookies and not signed_in(untrusted_client)


def test_a_client_turns_it_on_and_off_in_settings(untrusted_client: TestClient, session: Session) -> None:
    c = untrusted_client
    f.user(session, "api_sf_client")
    assert "user" in login(c, "api_sf_client")
    assert c.get("/api/protected/second-factor").json()["on"] is False
    secret = c.post("/api/protected/second-factor/enrol").json()["secret"].replace(" ", "")
    bad = c.post("/api/protected/second-factor/enrol/confirm", json={"code": "abc"})
    assert bad.status_code == 422
    codes = c.post("/api/protected/second-factor/enrol/confirm", json={"code": code(secret)}).json()["recoveryCodes"]
    c.post("/api/auth/logout")
    assert login(c, "api_sf_client")["secondFactor"] == "code"
    assert c.post("/api/auth/second-factor", json={"code": codes[0]}).status_code == 200
    off = c.post("/api/protected/second-factor/disable", json={"code": code(secret, 1)})
    assert off.status_code == 200, off.text
    c.post("/api/auth/logout")
    assert "user" in login(c, "api_sf_client")


def test_staff_who_manage_users_reset_another_persons(client: TestClient, session: Session) -> None:
    f.user(session, "api_sf_hr", role=Role.employee, employee_type=EmployeeType.hr)
    cfo = f.user(session, "api_sf_cfo", role=Role.employee, employee_type=EmployeeType.cfo)
    login(client, "api_sf_cfo")  # the trusted browser of the suites gives the CFO a second factor
    client.post("/api/auth/logout")
    login(client, "api_sf_hr")
    me = client.get("/api/auth/me").json()["user"]["id"]
    own = client.post(f"/api/admin/users/{me}/second-factor/reset")
    assert own.status_code == 403
    r = client.post(f"/api/admin/users/{cfo.id}/second-factor/reset")
    assert r.status_code == 200 and "api_sf_cfo" in r.json()["message"]
    assert second_factor.factor(session, cfo) is None
    rows = client.get("/api/admin/users", params={"search": "api_sf_cfo"}).json()
    assert rows["data"][0]["username"] == "api_sf_cfo"


def test_a_passkey_added_over_the_api_signs_in_alone_and_stands_in_for_the_code(
    untrusted_client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "public_url", "http://testserver")  # the test client's origin
    c = untrusted_client
    user = f.user(session, "api_pk_admin", role=Role.admin)
    key = SoftAuthenticator(origin="http://testserver", rp_id="testserver")
    login(c, "api_pk_admin")
    secret = c.post("/api/auth/second-factor/enrol").json()["secret"].replace(" ", "")
    c.post("/api/auth/second-factor/enrol/confirm", json={"code": code(secret, -1)})
    c.post("/api/auth/second-factor", json={})

    options = c.post("/api/protected/passkeys/options")
    ceremony = [h for h in options.headers.get_list("set-cookie") if h.startswith(passkeys.CEREMONY_COOKIE)]
    assert ceremony and "HttpOnly" in ceremony[0] and "Path=/api" in ceremony[0] and "SameSite=strict" in ceremony[0]
    added = c.post("/api/protected/passkeys", json={"credential": key.create(options.json()), "name": "Phone"})
    assert added.status_code == 200 and added.json()["name"] == "Phone"
    assert [p["name"] for p in c.get("/api/protected/passkeys").json()] == ["Phone"]
    c.post("/api/auth/logout")

    # In place of the code at the second step.
    assert login(c, "api_pk_admin")["secondFactor"] == "code"
    options = c.post("/api/auth/second-factor/passkey/options").json()
    done = c.post("/api/auth/second-factor/passkey", json={"credential": key.get(options)})
    assert done.status_code == 200 and done.json()["next"] == "/admin/dashboard"
    assert signed_in(c)
    c.post("/api/auth/logout")

    # Alone: no password, no code.
    options = c.post("/api/auth/passkey/options").json()
    alone = c.post("/api/auth/passkey", json={"credential": key.get(options)})
    assert alone.status_code == 200 and alone.json()["next"] == "/admin/dashboard?login=1"
    assert alone.json()["user"]["id"] == str(user.id) and signed_in(c)
    passkey_id = c.get("/api/protected/passkeys").json()[0]["id"]
    assert c.delete(f"/api/protected/passkeys/{passkey_id}").status_code == 200
    c.post("/api/auth/logout")
    options = c.post("/api/auth/passkey/options").json()
    gone = c.post("/api/auth/passkey", json={"credential": key.get(options)})
    assert gone.status_code == 422 and gone.json()["message"] == passkeys.UNKNOWN
    assert not signed_in(c)
