"""Every API operation, called by anyone with anything: the security headers, no caching of personal answers, and
nothing in a response or a log that helps an attacker (stack traces, versions, paths, secrets, codes, passwords).

The served pages' headers are checked in tests/e2e/test_site_shell.py; here every operation of the OpenAPI schema
is called as a visitor, a client and an administrator, with an empty body and again with a malformed one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.api import create_api
from app.api.middleware import BodySizeLimit, SecurityHeaders
from app.core.config import Settings, settings
from app.core.db import get_session
from app.models.enums import Role
from app.services.accounts import sessions
from app.services.platform import mail
from tests import factories as f
from tests.smtp_sink import SmtpSink

SECURITY_HEADERS = {
    "content-security-policy": "frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "permissions-policy": "camera=()",
}
# What must never reach a client: a stack trace, the code's location, the database, library names with versions.
LEAKS = re.compile(
    r"Traceback|File \"|site-packages|/work/|sqlalchemy|psycopg|postgresql|sqlite|IntegrityError|"
    r"OperationalError|uvicorn|granian|Python/\d|pydantic\.dev|starlette",
    re.IGNORECASE,
)
CALLERS = ["anonymous", "client", "admin"]


def _operations() -> list[tuple[str, str]]:
    schema = create_api().openapi()
    return sorted(
        (method.upper(), path)
        for path, item in schema["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    )


def _concrete(path: str) -> str:
    """A path with every parameter filled: ids with 1, names and tokens with a plain word."""
    return re.sub(r"\{[^}]*(id|Id)\}", "1", re.sub(r"\{(kind)\}", "services", path)).replace("{", "").replace("}", "")


@pytest.fixture
def callers(session: Session) -> Iterator[dict[str, TestClient]]:
    clients: dict[str, TestClient] = {}
    users = {"client": f.user(session, "hygiene_client"), "admin": f.user(session, "hygiene_admin", role=Role.admin)}
    for name in CALLERS:
        api = create_api()
        api.dependency_overrides[get_session] = lambda: session
        c = TestClient(SecurityHeaders(BodySizeLimit(api)), raise_server_exceptions=False)
        if name in users:
            c.cookies.set("access_token", sessions.start(session, users[name]).access_token)
        clients[name] = c
    yield clients
    for c in clients.values():
        c.close()


def _check(method: str, path: str, r: Any) -> list[str]:
    problems = []
    for header, expected in SECURITY_HEADERS.items():
        if expected not in r.headers.get(header, ""):
            problems.append(f"{method} {path} -> {r.status_code}: {header} is {r.headers.get(header)!r}")
    if path.startswith("/api/") and "no-store" not in r.headers.get("cache-control", ""):
        problems.append(f"{method} {path} -> {r.status_code}: cacheable ({r.headers.get('cache-control')!r})")
    if r.status_code >= 500 and r.status_code != 503:
        problems.append(f"{method} {path} -> {r.status_code}")
    if "server" in r.headers and re.search(r"\d", r.headers["server"]):
        problems.append(f"{method} {path}: the server header names a version ({r.headers['server']})")
    body = r.text if "pdf" not in r.headers.get("content-type", "") else ""
    if path == "/api/admin/dashboard" and r.status_code == 200:
        # The system status for staff names the database engine on purpose (docs/adr/0060-faults-and-health.md).
        body = ""
    if (match := LEAKS.search(body)) or settings.secret_key.get_secret_value() in body:
        problems.append(f"{method} {path} -> {r.status_code}: leaks {match.group(0) if match else 'the secret key'}")
    return problems


@pytest.mark.parametrize("caller", CALLERS)
def test_every_operation_answers_with_the_headers_and_leaks_nothing(
    callers: dict[str, TestClient], caller: str
) -> None:
    http = callers[caller]
    problems: list[str] = []
    operations = _operations()
    assert len(operations) > 60  # the whole interface, not a part of it
    for method, path in operations:
        url = _concrete(path)
        for kwargs in ({}, {"content": b'{"broken": ', "headers": {"content-type": "application/json"}}):
            problems += _check(method, url, http.request(method, url, **kwargs))
    for extra in ("/api/nothing-here", "/robots.txt"):
        problems += [p for p in _check("GET", extra, http.get(extra)) if "cacheable" not in p or extra != "/robots.txt"]
    assert problems == []


def test_an_unexpected_error_says_nothing_about_its_cause(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from app.services.careers import careers

    secret = settings.secret_key.get_secret_value()

    def explode(*_: object, **__: object) -> None:
        raise RuntimeError(f"psycopg failed at /work/app/x.py with key {secret}")

    monkeypatch.setattr(careers, "list_open_jobs", explode)
    with caplog.at_level(logging.ERROR):
        r = client.get("/api/jobs")
    assert r.status_code == 500 and r.json() == {"message": "Internal server error", "errors": {}}
    assert "RuntimeError" in caplog.text  # the operator gets the cause in the log


def test_session_cookies_are_http_only_same_site_and_secure_in_production(
    client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    f.user(session, "cookie_owner")
    for https in (False, True):
        monkeypatch.setattr(settings, "app_env", "prod" if https else "dev")
        r = client.post("/api/auth/login", json={"identifier": "cookie_owner", "password": f.PASSWORD})
        assert r.status_code == 200, r.text
        cookies = {c.split("=", 1)[0]: c for c in r.headers.get_list("set-cookie")}
        assert set(cookies) == {"access_token", "refresh_token", "signed_in"}
        for name, cookie in cookies.items():
            flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
            assert {"samesite", "path", "max-age"} <= flags, cookie
            # Only the hint is readable by scripts, and it holds nothing but "1".
            assert ("httponly" in flags) is (name != "signed_in"), cookie
            assert "samesite=lax" in cookie.lower()
            assert ("secure" in flags) is https, cookie
        assert cookies["signed_in"].startswith("signed_in=1;") and "Path=/;" in cookies["signed_in"]
        client.cookies.clear()


def test_signing_out_clears_the_signed_in_hint_with_the_session(client: TestClient, session: Session) -> None:
    f.user(session, "hint_owner")
    assert client.post("/api/auth/login", json={"identifier": "hint_owner", "password": f.PASSWORD}).status_code == 200
    assert client.cookies.get("signed_in") == "1"
    assert client.post("/api/auth/refresh", json={}).status_code == 200
    assert client.cookies.get("signed_in") == "1"  # a refreshed session keeps it
    assert client.post("/api/auth/logout", json={}).status_code == 200
    assert client.cookies.get("signed_in") is None
    assert (
        client.post(
            "/api/auth/form/login",
            data={"identifier": "hint_owner", "password": f.PASSWORD, "page": "portal"},
            follow_redirects=False,
        ).status_code
        == 303
    )
    assert client.cookies.get("signed_in") == "1"  # the sign-in form's post sets it as well
    assert client.post("/api/auth/form/logout", follow_redirects=False).status_code == 303
    assert client.cookies.get("signed_in") is None


def test_a_whole_account_journey_logs_no_password_code_or_token(
    client: TestClient, session: Session, caplog: pytest.LogCaptureFixture
) -> None:
    """Registration, a wrong and a right code, wrong and right passwords, a password change, a reset link and its
    use: every secret a person types or is sent stays out of the logs (the SMTP server is configured, as in
    production; without one the mail itself is logged on purpose, so a developer can read a code)."""
    from tests.api.test_auth_api import code_for
    from tests.services.test_password_reset import mailed_token

    first, second, third = "First-secret-pass-1", "Second-secret-pass-2", "Third-secret-pass-3"
    secrets: list[str] = [first, second, third]
    with caplog.at_level(logging.DEBUG):
        r = client.post(
            "/api/auth/register",
            json={"username": "quiet_user", "email": "quiet@example.com", "password": first, "first_name": "Q"},
        )
        assert r.status_code == 201, r.text
        user_id = r.json()["userId"]
        code = code_for(session, "quiet@example.com")
        wrong_code = "000000" if code != "000000" else "111111"
        secrets += [code, wrong_code]
        assert client.post("/api/auth/verify", json={"userId": user_id, "code": wrong_code}).status_code == 422
        assert client.post("/api/auth/verify", json={"userId": user_id, "code": code}).status_code == 200
        assert client.post("/api/auth/login", json={"identifier": "quiet_user", "password": "Wrong-pass-9"}).status_code
        secrets.append("Wrong-pass-9")
        r = client.post("/api/auth/login", json={"identifier": "quiet_user", "password": first})
        assert r.status_code == 200
        secrets += [client.cookies["access_token"], client.cookies["refresh_token"]]
        passwords = {"currentPassword": first, "newPassword": second, "confirmPassword": second}
        r = client.put("/api/protected/change-password", json=passwords)
        assert r.status_code == 200, r.text
        client.cookies.clear()
        assert client.post("/api/auth/forgot-password", json={"email": "quiet@example.com"}).status_code == 200
        token = mailed_token(session, "quiet@example.com")
        secrets.append(token)
        r = client.post("/api/auth/reset-password", json={"token": token, "newPassword": third})
        assert r.status_code == 200, r.text
        sink = SmtpSink().start()  # the outbox delivers what the journey queued (its logs are part of it)
        try:
            cfg = Settings(_env_file=None, smtp_host="127.0.0.1", smtp_port=sink.port, smtp_tls="none")  # type: ignore[call-arg]
            assert mail.deliver_pending(session, cfg=cfg) >= 2 and len(sink.messages) >= 2
        finally:
            sink.stop()
    # Everything the product and its libraries logged; not the test's SMTP sink ("mail.log"), which shows messages.
    ours = [rec for rec in caplog.records if rec.name != "mail.log"]
    logged = "\n".join(f"{rec.getMessage()} {rec.exc_text or ''} {rec.args!r}" for rec in ours)
    assert ours, "the journey logs something (else this test proves nothing)"
    assert [s for s in secrets if s in logged] == []
