"""The API skeleton: health, one JSON error shape, JSON 404s under /api, security headers, body cap."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.enums import Role
from app.services.accounts import sessions
from app.services.operations import health
from tests import factories as f


def test_public_health_answers_only_the_status(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok"}  # no environment, database engine or mail-queue figures for anyone


def test_public_health_is_503_when_the_database_is_down(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "_database", lambda: health.DatabaseHealth(status="down", error="OperationalError"))
    r = client.get("/api/health")
    assert r.status_code == 503
    assert r.json() == {"status": "unavailable"}


def test_staff_read_the_health_details_on_the_dashboard(client: TestClient, session: Session) -> None:
    admin = f.user(session, "health_admin", role=Role.admin)
    client.cookies.set("access_token", sessions.start(session, admin).access_token)
    system = client.get("/api/admin/dashboard").json()["system"]
    assert system["status"] == "ok" and system["app"]["env"] == "test"
    assert system["database"]["engine"] == "postgresql" and "pending" in system["mail"]


def test_unknown_api_path_is_json_404(client: TestClient) -> None:
    for method in ("get", "post", "delete"):
        r = getattr(client, method)("/api/does/not/exist")
        assert r.status_code == 404
        assert r.headers["content-type"].startswith("application/json")
        assert r.json() == {"message": "Not found", "errors": {}}


def test_security_headers_on_every_response(client: TestClient) -> None:
    for path in ("/api/health", "/api/nope"):
        h = client.get(path).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"]
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "strict-origin-when-cross-origin"
        assert h["x-frame-options"] == "DENY"
        assert "strict-transport-security" not in h  # only in prod, behind TLS


def test_oversized_body_is_refused_before_the_app_reads_it(client: TestClient) -> None:
    r = client.post("/api/health", content=b"x" * (40 * 1024 * 1024))
    assert r.status_code == 413
    assert r.json()["message"] == "Request body too large"


def test_unexpected_errors_never_leak_a_stack_trace(client: TestClient) -> None:
    from app.api import create_api

    api = create_api()

    @api.get("/api/boom-test")
    async def boom() -> None:
        raise RuntimeError("secret internals at /srv/app.py line 42")

    # The catch-all 404 route was registered first; move the test route ahead of it.
    api.router.routes.insert(0, api.router.routes.pop())
    with TestClient(api, raise_server_exceptions=False) as c:
        r = c.get("/api/boom-test")
    assert r.status_code == 500
    assert r.json() == {"message": "Internal server error", "errors": {}}
    assert "secret" not in r.text
