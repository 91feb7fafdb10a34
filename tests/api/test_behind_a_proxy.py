"""Behind reverse proxies: with TRUSTED_PROXY_HOPS the limits key on each visitor's real address; without it the
forwarded header (which any client can write) is ignored, and one busy address cannot lock everyone out of signing
in: an account's own known address is exempt from the per-address count."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.core.config import settings
from app.core.net import client_address
from app.services.accounts import auth
from tests import factories as f


@pytest.mark.parametrize(
    ("forwarded", "hops", "expected"),
    [
        ("203.0.113.5", 0, "10.0.0.2"),  # no trusted proxy: the header is the client's own words
        ("203.0.113.5", 1, "203.0.113.5"),
        ("6.6.6.6, 203.0.113.5", 1, "203.0.113.5"),  # a client-written entry in front is skipped
        ("6.6.6.6, 203.0.113.5, 10.0.0.9", 2, "203.0.113.5"),
        ("203.0.113.5", 2, "10.0.0.2"),  # fewer entries than trusted hops: not through the proxies
        ("", 1, "10.0.0.2"),
        (None, 1, "10.0.0.2"),
    ],
)
def test_the_client_address_is_read_through_the_trusted_hops_only(
    forwarded: str | None, hops: int, expected: str
) -> None:
    assert client_address("10.0.0.2", forwarded, hops) == expected


def _fail(client: TestClient, username: str, forwarded: str) -> int:
    r = client.post(
        "/api/auth/login",
        json={"identifier": username, "password": "wrong"},
        headers={"X-Forwarded-For": forwarded},
    )
    return r.status_code


def test_with_trusted_hops_each_visitor_has_their_own_address_limit(
    client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "trusted_proxy_hops", 1)
    user = f.user(session, "proxied")
    for _ in range(auth.LOGIN_FAILURES_PER_ACCOUNT_AND_IP):
        assert _fail(client, user.username, "203.0.113.5") == 401
    assert _fail(client, user.username, "203.0.113.5") == 429  # this visitor waits...
    assert _fail(client, user.username, "198.51.100.7") == 401  # ...another behind the same proxy does not
    ok = client.post(
        "/api/auth/login",
        json={"identifier": user.username, "password": f.PASSWORD},
        headers={"X-Forwarded-For": "198.51.100.7"},
    )
    assert ok.status_code == 200


def test_without_trusted_hops_a_forged_header_changes_nothing_and_a_busy_address_locks_no_owner_out(
    client: TestClient, session: Session
) -> None:
    owner = f.user(session, "office_owner")
    assert (
        client.post("/api/auth/login", json={"identifier": owner.username, "password": f.PASSWORD}).status_code == 200
    )
    client.cookies.clear()
    # Someone at the same address (the proxy's, or one office's) fails on many accounts, changing the header each
    # time to look like many visitors: it is ignored, so the per-address limit is reached.
    victims = [f.user(session, f"other_{i}") for i in range(auth.LOGIN_FAILURES_PER_IP // 4 + 1)]
    statuses = [_fail(client, v.username, f"192.0.2.{n}") for v in victims for n in range(4)]
    assert statuses[-1] == 429 and statuses.count(401) == auth.LOGIN_FAILURES_PER_IP
    newcomer = f.user(session, "newcomer")
    r = client.post("/api/auth/login", json={"identifier": newcomer.username, "password": f.PASSWORD})
    assert r.status_code == 429  # a first sign-in from the busy address waits out the window
    r = client.post("/api/auth/login", json={"identifier": owner.username, "password": f.PASSWORD})
    assert r.status_code == 200  # the owner, known at this address, is not locked out
