"""/metrics: only for the operator's token, in Prometheus' text format, with route templates (never raw paths) as
labels, and figures that follow what happens (a refused sign-in, a waiting message). And the request id every answer
carries."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr
from sqlmodel import Session

from app.core.config import settings
from app.models.base import utcnow
from app.models.system import EmailOutbox
from tests import factories as f

TOKEN = "operator-token-0123456789abcdef"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def token(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(settings, "metrics_token", SecretStr(TOKEN))
    yield TOKEN


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = client.get("/metrics", headers=AUTH)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    assert r.headers["cache-control"] == "no-store"
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(r.text)
        for sample in family.samples
    }


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_without_a_configured_token_metrics_is_not_there(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "metrics_token", None)
    r = client.get("/metrics", headers=AUTH)
    assert r.status_code == 404
    assert "app_http" not in r.text


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong-token-0123456789abcdef"}, {"Authorization": f"Basic {TOKEN}"}],
    ids=["none", "wrong", "not-bearer"],
)
def test_a_scrape_without_the_token_is_refused(client: TestClient, token: str, headers: dict[str, str]) -> None:
    r = client.get("/metrics", headers=headers)
    assert r.status_code == 401
    assert r.headers["www-authenticate"] == "Bearer"
    assert "app_http" not in r.text


def test_the_token_opens_the_figures(client: TestClient, token: str) -> None:
    client.get("/api/health")
    samples = scrape(client)
    assert value(samples, "app_http_request_duration_seconds_count", route="/api/health", method="GET", status="2xx")
    assert ("process_resident_memory_bytes", ()) in samples


def test_requests_are_counted_by_route_template_not_path(client: TestClient, token: str) -> None:
    secret = "manage-token-that-must-not-leak"
    before = value(
        scrape(client), "app_http_request_duration_seconds_count",
        route="/api/booking/manage/{token}", method="GET", status="4xx",
    )  # fmt: skip
    assert client.get(f"/api/booking/manage/{secret}").status_code == 404
    r = client.get("/metrics", headers=AUTH)
    assert secret not in r.text
    samples = scrape(client)
    after = value(
        samples, "app_http_request_duration_seconds_count",
        route="/api/booking/manage/{token}", method="GET", status="4xx",
    )  # fmt: skip
    assert after == before + 1
    # An unknown API path is counted under the catch-all's template, not under its own path.
    # (A word, not digits: digits turn up in the samples' timestamps.)
    client.get("/api/no/such/thing/unlisted-path-segment")
    assert "unlisted-path-segment" not in client.get("/metrics", headers=AUTH).text


def test_a_refused_sign_in_counts_as_a_login_failure(client: TestClient, session: Session, token: str) -> None:
    f.user(session, "metricsuser")
    before = value(scrape(client), "app_login_failures_total")
    r = client.post("/api/auth/login", json={"identifier": "metricsuser", "password": "wrong-password"})
    assert r.status_code == 401
    assert value(scrape(client), "app_login_failures_total") == before + 1
    # A right password is no failure.
    assert client.post("/api/auth/login", json={"identifier": "metricsuser", "password": f.PASSWORD}).is_success
    assert value(scrape(client), "app_login_failures_total") == before + 1


def test_the_outbox_depth_and_its_oldest_message(client: TestClient, session: Session, token: str) -> None:
    before = scrape(client)
    session.add(
        EmailOutbox(
            to_address="waiting@example.com",
            subject="Waiting",
            body_text="A message no one sent yet",
            created_at=utcnow() - timedelta(minutes=12),
        )
    )
    session.commit()
    after = scrape(client)
    assert value(after, "app_mail_outbox_pending") == value(before, "app_mail_outbox_pending") + 1
    # Twelve minutes old: past the ten minutes the alert rule allows (deploy/prometheus/alerts.yml).
    assert value(after, "app_mail_outbox_oldest_pending_age_seconds") >= 12 * 60
    assert value(after, "app_database_up") == 1


def test_every_answer_carries_a_request_id(client: TestClient) -> None:
    a = client.get("/api/health")
    b = client.get("/api/health")
    assert len(a.headers["x-request-id"]) == 32
    assert a.headers["x-request-id"] != b.headers["x-request-id"]


def test_the_proxy_request_id_is_kept_only_behind_a_trusted_proxy(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = "0123456789abcdef0123456789abcdef"
    # No proxy configured: the header is the client's own text, and a fresh id is used.
    assert client.get("/api/health", headers={"X-Request-ID": given}).headers["x-request-id"] != given
    monkeypatch.setattr(settings, "trusted_proxy_hops", 1)
    assert client.get("/api/health", headers={"X-Request-ID": given}).headers["x-request-id"] == given
    # Not an id (too long, or text that would forge a log line): replaced.
    for insane in ["x" * 65, 'abc" level=error', "short"]:
        echoed = client.get("/api/health", headers={"X-Request-ID": insane}).headers["x-request-id"]
        assert echoed != insane
        assert len(echoed) == 32
