"""Session attacks, each refused: a stolen access token after logout, sessions after a password change or reset, an
idle session, a replayed rotated refresh token, and forged JWTs (alg=none, a wrong key, a refresh-typed token, edited
claims, a token for a session that never existed). Every case goes through the HTTP API with the token in the cookie
(the API reads sessions from cookies only).

A foreign Origin on the websocket is refused by the served app (tests/e2e/test_site_shell.py); on REST posts by
test_auth_api's and the form tests' CSRF cases.
"""

from __future__ import annotations

import base64
import json
import uuid
from datetime import UTC, datetime, timedelta

import jwt
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.core.config import settings
from app.core.security import encode_access_token
from app.models.base import utcnow
from app.models.enums import Role
from app.models.user import RefreshToken, User
from app.services.accounts import password_reset
from tests import factories as f
from tests.services.test_password_reset import mailed_token

ADMIN_ONLY = "/api/admin/users"  # any staff route: a forged admin token must not open it


def _sign_in(client: TestClient, user: User) -> str:
    r = client.post("/api/auth/login", json={"identifier": user.username, "password": f.PASSWORD})
    assert r.status_code == 200, r.text
    token = client.cookies.get("access_token")
    assert token
    return token


def _me(client: TestClient, token: str) -> int:
    """/api/auth/me with only this access token (no other cookie)."""
    client.cookies.clear()
    client.cookies.set("access_token", token)
    return client.get("/api/auth/me").status_code


def _claims(token: str) -> dict[str, object]:
    return jwt.decode(token, options={"verify_signature": False})


def _b64(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def test_an_access_token_copied_before_logout_is_dead_after_it(client: TestClient, session: Session) -> None:
    user = f.user(session, "victim")
    stolen = _sign_in(client, user)
    assert client.post("/api/auth/logout", json={}).status_code == 200
    assert _me(client, stolen) == 401


def test_a_password_change_ends_every_other_session(client: TestClient, session: Session) -> None:
    user = f.user(session, "changer")
    elsewhere = _sign_in(client, user)  # e.g. a laptop the user forgot signed in, or a thief's copy
    client.cookies.clear()
    here = _sign_in(client, user)
    r = client.put(
        "/api/protected/change-password",
        json={"currentPassword": f.PASSWORD, "newPassword": "Brand-new-pass-9", "confirmPassword": "Brand-new-pass-9"},
    )
    assert r.status_code == 200, r.text
    assert _me(client, elsewhere) == 401
    assert _me(client, here) == 200  # the session that changed it goes on


def test_a_password_reset_ends_every_session(client: TestClient, session: Session) -> None:
    user = f.user(session, "resetter")
    before = _sign_in(client, user)
    password_reset.send_link(session, user)
    token = mailed_token(session, user.email)
    r = client.post("/api/auth/reset-password", json={"token": token, "newPassword": "Another-pass-77"})
    assert r.status_code == 200, r.text
    assert _me(client, before) == 401


def test_an_idle_session_is_over_for_access_and_refresh(client: TestClient, session: Session) -> None:
    user = f.user(session, "sleeper")
    token = _sign_in(client, user)
    refresh = client.cookies.get("refresh_token")
    row = session.exec(select(RefreshToken).where(RefreshToken.user_id == user.id)).one()
    row.last_used_at = utcnow() - timedelta(minutes=settings.client_idle_minutes + 1)
    session.add(row)
    session.commit()
    assert _me(client, token) == 401
    client.cookies.clear()
    client.cookies.set("refresh_token", refresh or "", path="/api/auth")
    assert client.post("/api/auth/refresh", json={}).status_code == 401


def test_a_replayed_rotated_refresh_token_ends_the_thief_and_the_owner(client: TestClient, session: Session) -> None:
    user = f.user(session, "rotator")
    _sign_in(client, user)
    copied = client.cookies.get("refresh_token")
    assert client.post("/api/auth/refresh", json={}).status_code == 200  # the owner rotates
    owner_access = client.cookies.get("access_token") or ""
    client.cookies.clear()
    client.cookies.set("refresh_token", copied or "", path="/api/auth")
    assert client.post("/api/auth/refresh", json={}).status_code == 401  # the thief replays the old one
    assert _me(client, owner_access) == 401  # and the whole family is gone


@pytest.fixture
def admin_session(client: TestClient, session: Session) -> str:
    """A live admin session's access token: the forgeries below borrow its claims."""
    admin = f.user(session, "forge_target", role=Role.admin)
    token = _sign_in(client, admin)
    assert _me(client, token) == 200
    return token


def test_an_unsigned_alg_none_token_is_refused(client: TestClient, admin_session: str) -> None:
    claims = _claims(admin_session)
    forged = f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(claims)}."
    assert _me(client, forged) == 401
    assert client.get(ADMIN_ONLY).status_code == 401


@pytest.mark.parametrize("key", ["0" * 32, "change-me-" * 4, "a-guessed-secret-key-of-32-bytes!"])
def test_a_token_signed_with_another_key_is_refused(client: TestClient, admin_session: str, key: str) -> None:
    forged = jwt.encode(_claims(admin_session), key, algorithm="HS256")
    assert _me(client, forged) == 401
    assert client.get(ADMIN_ONLY).status_code == 401


def test_a_token_with_edited_claims_keeps_no_signature(
    client: TestClient, session: Session, admin_session: str
) -> None:
    victim = f.user(session, "someone_else")
    header, _, signature = admin_session.split(".")
    claims = _claims(admin_session) | {"sub": str(victim.id)}
    assert _me(client, f"{header}.{_b64(claims)}.{signature}") == 401


def test_a_well_signed_token_is_refused_unless_it_names_a_live_session(client: TestClient, admin_session: str) -> None:
    claims = _claims(admin_session)
    key = settings.secret_key.get_secret_value()
    # Signed with the real key, yet: not an access token, an unknown session, another user in this session, expired.
    not_access = jwt.encode(claims | {"typ": "refresh"}, key, algorithm="HS256")
    unknown_family = encode_access_token(user_id=str(claims["sub"]), family_id=str(uuid.uuid4()), minutes=5)
    other_user = encode_access_token(user_id=str(uuid.uuid4()), family_id=str(claims["fam"]), minutes=5)
    expired = jwt.encode(claims | {"exp": datetime.now(UTC) - timedelta(minutes=1)}, key, algorithm="HS256")
    without_exp = jwt.encode({k: v for k, v in claims.items() if k != "exp"}, key, algorithm="HS256")
    for token in (not_access, unknown_family, other_user, expired, without_exp):
        assert _me(client, token) == 401, _claims(token)
    assert _me(client, admin_session) == 200  # the genuine one still works: the refusals above are specific
