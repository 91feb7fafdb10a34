"""API test client: the FastAPI app wrapped in the same middleware as the served site, on the test session."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import parse_qs

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.api import create_api
from app.api.middleware import BodySizeLimit, RequestObservability, SecurityHeaders
from app.core.db import get_session
from app.core.errors import DomainError
from app.models.base import utcnow
from app.models.second_factor import TotpFactor
from app.services.accounts import second_factor
from app.services.accounts.users import get_user_by_identifier

SIGN_IN_PATHS = ("/api/auth/login", "/api/auth/form/login")


def _test_client(session: Session) -> TestClient:
    api = create_api()
    api.dependency_overrides[get_session] = lambda: session
    return TestClient(RequestObservability(SecurityHeaders(BodySizeLimit(api))), raise_server_exceptions=False)


def _identifier(request: httpx.Request) -> str:
    body = request.read().decode(errors="replace")
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            data = json.loads(body)
        except ValueError:
            return ""
        value = data.get("identifier") if isinstance(data, dict) else None
        return value if isinstance(value, str) else ""
    return (parse_qs(body).get("identifier") or [""])[0]


def trusted_browser(session: Session):  # type: ignore[no-untyped-def]
    """A request hook: each password sign-in comes from a browser the account's person trusted earlier (issue 28),
    so the suites about everything else sign in with one request, as they always did. The account gets a second
    factor and a trusted-browser row when its role requires one (what setting it up and ticking "trust this browser"
    leave behind) and the request carries that browser's cookie; the server checks both for real. The second step
    itself is tested through `untrusted_client` (tests/api/test_second_factor_api.py)."""

    def hook(request: httpx.Request) -> None:
        if request.method != "POST" or request.url.path not in SIGN_IN_PATHS:
            return
        try:
            user = get_user_by_identifier(session, _identifier(request).strip())
        except DomainError:  # an identifier no account can have (the server refuses it in its own words)
            return
        if user is None or not (second_factor.required(user) or second_factor.factor(session, user)):
            return
        if session.get(TotpFactor, user.id) is None:
            session.add(TotpFactor(user_id=user.id, secret="", confirmed_at=utcnow()))
        token, _ = second_factor.trust(session, user, "Test browser")
        session.commit()
        cookie = f"{second_factor.trust_cookie(user.id)}={token}"
        request.headers["cookie"] = f"{request.headers['cookie']}; {cookie}" if "cookie" in request.headers else cookie

    return hook


@pytest.fixture
def client(session: Session) -> Iterator[TestClient]:
    with _test_client(session) as c:
        c.event_hooks = {"request": [trusted_browser(session)], "response": []}
        yield c


@pytest.fixture
def untrusted_client(session: Session) -> Iterator[TestClient]:
    """A client whose sign-ins meet the second step as a new browser does."""
    with _test_client(session) as c:
        yield c
