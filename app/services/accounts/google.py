"""Google sign-in (OpenID Connect authorization-code flow): state and nonce checked, ID token verified with pyjwt.

The provider is configured by GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_DISCOVERY_URL, so tests (and other
OIDC providers) plug in by URL.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx
import jwt
from sqlalchemy import func
from sqlmodel import Session, select

from app.core.config import Settings, settings
from app.core.errors import Invalid
from app.core.permissions import Role
from app.core.security import JWT_ALGORITHM
from app.models.user import User
from app.services.accounts.users import take_back
from app.services.platform.rules import normalize_email

TIMEOUT = httpx.Timeout(10.0)
FLOW_TTL_S = 600
_discovery_cache: dict[str, tuple[float, dict[str, Any]]] = {}
_jwks_clients: dict[str, jwt.PyJWKClient] = {}


def is_configured(cfg: Settings = settings) -> bool:
    return bool(cfg.google_client_id and cfg.google_client_secret)


def redirect_uri(cfg: Settings = settings) -> str:
    return f"{cfg.public_url}/api/auth/google/callback"


def discovery(cfg: Settings = settings) -> dict[str, Any]:
    """The provider's OpenID configuration, cached for an hour."""
    cached = _discovery_cache.get(cfg.google_discovery_url)
    if cached and cached[0] > time.monotonic():
        return cached[1]
    doc = httpx.get(cfg.google_discovery_url, timeout=TIMEOUT).raise_for_status().json()
    _discovery_cache[cfg.google_discovery_url] = (time.monotonic() + 3600, doc)
    return doc


@dataclass(frozen=True)
class FlowStart:
    authorize_url: str
    flow_cookie: str  # signed state + nonce, bound to this browser by an HttpOnly cookie


def start(cfg: Settings = settings) -> FlowStart:
    """Where to send the browser, and the cookie that lets the callback check state and nonce."""
    state, nonce = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    params = {
        "client_id": cfg.google_client_id,
        "response_type": "code",
        "scope": "openid email profile",
        "redirect_uri": redirect_uri(cfg),
        "state": state,
        "nonce": nonce,
        "prompt": "select_account",
    }
    url = f"{discovery(cfg)['authorization_endpoint']}?{urlencode(params)}"
    cookie = jwt.encode(
        {"state": state, "nonce": nonce, "exp": int(time.time()) + FLOW_TTL_S, "typ": "oidc"},
        cfg.secret_key.get_secret_value(),
        algorithm=JWT_ALGORITHM,
    )
    return FlowStart(url, cookie)


def _identity(code: str, state: str, flow_cookie: str, cfg: Settings) -> dict[str, Any]:
    try:
        flow = jwt.decode(flow_cookie, cfg.secret_key.get_secret_value(), algorithms=[JWT_ALGORITHM])
    except jwt.PyJWTError as exc:
        raise Invalid("Google sign-in expired. Please try again.") from exc
    if flow.get("typ") != "oidc" or not state or not secrets.compare_digest(str(flow.get("state")), state):
        raise Invalid("Google sign-in could not be verified (state mismatch). Please try again.")
    doc = discovery(cfg)
    token_response = httpx.post(
        doc["token_endpoint"],
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri(cfg),
            "client_id": cfg.google_client_id,
            "client_secret": cfg.google_client_secret.get_secret_value() if cfg.google_client_secret else "",
        },
        timeout=TIMEOUT,
    )
    if token_response.status_code != 200 or "id_token" not in token_response.json():
        raise Invalid("Google sign-in failed. Please try again.")
    id_token = token_response.json()["id_token"]
    jwks = _jwks_clients.setdefault(doc["jwks_uri"], jwt.PyJWKClient(doc["jwks_uri"], timeout=10))
    try:
        key = jwks.get_signing_key_from_jwt(id_token)
        claims = jwt.decode(
            id_token,
            key.key,
            algorithms=["RS256", "ES256"],
            audience=cfg.google_client_id,
            issuer=doc["issuer"],
            options={"require": ["exp", "iat", "sub", "aud", "iss"]},
        )
    except jwt.PyJWTError as exc:
        raise Invalid("Google sign-in could not be verified. Please try again.") from exc
    if not secrets.compare_digest(str(claims.get("nonce", "")), str(flow["nonce"])):
        raise Invalid("Google sign-in could not be verified (nonce mismatch). Please try again.")
    if not claims.get("email") or claims.get("email_verified") is not True:
        raise Invalid("Your Google account has no verified e-mail address.")
    return claims


def _free_username(s: Session, email: str) -> str:
    base = re.sub(r"[^A-Za-z0-9_]", "_", email.split("@", 1)[0])[:24].strip("_") or "user"
    base = base if len(base) >= 3 else f"{base}_user"
    candidate = base
    while s.exec(select(User.id).where(func.lower(User.username) == candidate.lower())).first() is not None:
        candidate = f"{base}_{secrets.randbelow(10**5):05d}"
    return candidate


def finish(s: Session, *, code: str, state: str, flow_cookie: str, cfg: Settings = settings) -> User:
    """Verify the provider's answer and return the matching user, creating a verified client on first sign-in."""
    claims = _identity(code, state, flow_cookie, cfg)
    sub = str(claims["sub"])
    try:
        # The same check as a typed address: this one goes into the To header of every mail the account gets.
        email = normalize_email(str(claims["email"]))
    except ValueError:
        raise Invalid("Your Google account's e-mail address cannot be used here.") from None
    user = s.exec(select(User).where(User.oauth_provider == "google", User.oauth_id == sub)).first()
    if user is None:
        user = s.exec(select(User).where(User.email == email)).first()
        if user is not None:  # Google vouches for this address: link the existing account to it
            if not user.is_verified:
                take_back(
                    s,
                    user,
                    action="auth.google_claimed_unverified",
                    first_name=claims.get("given_name") or None,
                    last_name=claims.get("family_name") or None,
                )
            user.oauth_provider, user.oauth_id, user.is_verified = "google", sub, True
        else:
            user = User(
                username=_free_username(s, email),
                email=email,
                password_hash=None,
                oauth_provider="google",
                oauth_id=sub,
                role=Role.client,
                first_name=(claims.get("given_name") or None),
                last_name=(claims.get("family_name") or None),
                is_verified=True,
                profile_complete=False,  # username, company and phone are asked on /complete-profile
            )
        s.add(user)
        s.commit()
        s.refresh(user)
    return user
