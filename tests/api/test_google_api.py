"""Google sign-in against a local fake OpenID Connect provider."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlmodel import Session, select

from app.core.config import settings
from app.models.user import User
from app.services.accounts import google
from app.services.accounts.users import create_user
from tests.fake_oidc import FakeOIDC


@pytest.fixture
def provider(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOIDC]:
    fake = FakeOIDC("client-123", "secret-456").start()
    monkeypatch.setattr(settings, "google_client_id", "client-123")
    monkeypatch.setattr(settings, "google_client_secret", SecretStr("secret-456"))
    monkeypatch.setattr(settings, "google_discovery_url", fake.discovery_url)
    google._discovery_cache.clear()
    google._jwks_clients.clear()
    yield fake
    fake.stop()


def begin(client: TestClient) -> dict[str, str]:
    r = client.get("/api/auth/google", follow_redirects=False)
    assert r.status_code == 302
    location = urlsplit(r.headers["location"])
    params = {k: v[0] for k, v in parse_qs(location.query).items()}
    assert params["client_id"] == "client-123" and params["response_type"] == "code"
    assert params["redirect_uri"].endswith("/api/auth/google/callback")
    assert "oidc_flow" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
    return params


def test_first_google_sign_in_creates_a_verified_client_who_completes_the_profile(
    client: TestClient, provider: FakeOIDC, session: Session
) -> None:
    params = begin(client)
    code = provider.issue_code(
        sub="g-1", email="Gina@Example.com", email_verified=True, given_name="Gina", nonce=params["nonce"]
    )
    r = client.get(f"/api/auth/google/callback?code={code}&state={params['state']}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/complete-profile"
    user = session.exec(select(User).where(User.oauth_id == "g-1")).one()
    assert user.email == "gina@example.com" and user.is_verified and not user.profile_complete
    assert user.role == "client" and user.password_hash is None
    assert client.get("/api/auth/me").json()["user"]["username"] == user.username


def test_existing_account_is_linked_by_verified_email(client: TestClient, provider: FakeOIDC, session: Session) -> None:
    create_user(session, username="hank", email="hank@example.com", password="Password-123")
    params = begin(client)
    code = provider.issue_code(sub="g-2", email="hank@example.com", email_verified=True, nonce=params["nonce"])
    r = client.get(f"/api/auth/google/callback?code={code}&state={params['state']}", follow_redirects=False)
    assert r.headers["location"] == "/client-portal"
    assert session.exec(select(User).where(User.username == "hank")).one().oauth_id == "g-2"


def test_state_nonce_and_signature_are_checked(client: TestClient, provider: FakeOIDC, session: Session) -> None:
    params = begin(client)
    code = provider.issue_code(sub="g-3", email="x@example.com", email_verified=True, nonce=params["nonce"])
    bad_state = client.get(f"/api/auth/google/callback?code={code}&state=forged", follow_redirects=False)
    assert bad_state.status_code == 400 and "state mismatch" in bad_state.text

    code = provider.issue_code(sub="g-3", email="x@example.com", email_verified=True, nonce="replayed-nonce")
    bad_nonce = client.get(f"/api/auth/google/callback?code={code}&state={params['state']}", follow_redirects=False)
    assert bad_nonce.status_code == 400 and "nonce mismatch" in bad_nonce.text

    code = provider.issue_code(sub="g-3", email="x@example.com", email_verified=False, nonce=params["nonce"])
    unverified = client.get(f"/api/auth/google/callback?code={code}&state={params['state']}", follow_redirects=False)
    assert unverified.status_code == 400
    assert session.exec(select(User).where(User.oauth_id == "g-3")).first() is None


def test_forged_id_token_is_refused(monkeypatch: pytest.MonkeyPatch, provider: FakeOIDC, session: Session) -> None:
    from cryptography.hazmat.primitives.asymmetric import rsa

    flow = google.start()
    other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    forged = provider.id_token({"sub": "evil", "email": "e@example.com", "email_verified": True}, key=other_key)

    class Answer:
        status_code = 200

        def json(self) -> dict[str, str]:
            return {"id_token": forged}

    monkeypatch.setattr(google.httpx, "post", lambda *a, **k: Answer())
    state = parse_qs(urlsplit(flow.authorize_url).query)["state"][0]
    with pytest.raises(google.Invalid, match="could not be verified"):
        google.finish(session, code="x", state=state, flow_cookie=flow.flow_cookie)


def test_not_configured_answers_a_clear_page(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "google_client_id", None)
    r = client.get("/api/auth/google", follow_redirects=False)
    assert r.status_code == 503
    assert "Google sign-in has not been configured" in r.text


def google_sign_in(client: TestClient, provider: FakeOIDC, *, sub: str, email: str) -> str:
    params = begin(client)
    code = provider.issue_code(sub=sub, email=email, email_verified=True, given_name="Vera", nonce=params["nonce"])
    r = client.get(f"/api/auth/google/callback?code={code}&state={params['state']}", follow_redirects=False)
    assert r.status_code == 303
    return r.headers["location"]


def test_google_sign_in_takes_back_an_address_someone_else_registered(
    client: TestClient, provider: FakeOIDC, session: Session
) -> None:
    """An attacker registers the victim's address (unverified, attacker's password); the victim then uses Google."""
    attacker_password = "Attacker-pass-1"
    r = client.post(
        "/api/auth/register",
        json={"username": "squatter", "email": "vera@example.com", "password": attacker_password, "company": "Evil"},
    )
    assert r.status_code == 201
    client.cookies.clear()
    assert google_sign_in(client, provider, sub="g-vera", email="vera@example.com") == "/complete-profile"
    user = session.exec(select(User).where(User.email == "vera@example.com")).one()
    session.refresh(user)
    assert user.is_verified and user.oauth_id == "g-vera"
    assert user.password_hash is None and not user.profile_complete  # nothing the attacker chose survives
    assert user.company is None and user.first_name == "Vera"
    client.cookies.clear()
    stolen = client.post("/api/auth/login", json={"identifier": "squatter", "password": attacker_password})
    assert stolen.status_code == 401
    stolen = client.post("/api/auth/login", json={"identifier": "vera@example.com", "password": attacker_password})
    assert stolen.status_code == 401


def test_linking_keeps_the_password_of_a_verified_account(
    client: TestClient, provider: FakeOIDC, session: Session
) -> None:
    """A verified account's password was set by the address's owner (they proved it with the code): it stays."""
    create_user(session, username="ivy", email="ivy@example.com", password="Password-123", company="Ivy Co")
    assert google_sign_in(client, provider, sub="g-ivy", email="ivy@example.com") == "/client-portal"
    client.cookies.clear()
    assert client.post("/api/auth/login", json={"identifier": "ivy", "password": "Password-123"}).status_code == 200


@pytest.mark.parametrize("email", ["x@example.com, y@example.com", "x@example.com\r\nBcc: y@example.com"])
def test_an_address_that_is_not_one_valid_address_is_refused(
    client: TestClient, provider: FakeOIDC, session: Session, email: str
) -> None:
    # Every later mail to the account (codes, invoices, meetings) would be refused at enqueue: refuse it here.
    params = begin(client)
    code = provider.issue_code(sub="g-4", email=email, email_verified=True, nonce=params["nonce"])
    r = client.get(f"/api/auth/google/callback?code={code}&state={params['state']}", follow_redirects=False)
    assert r.status_code == 400
    assert session.exec(select(User).where(User.oauth_id == "g-4")).first() is None
