"""Security primitives: password hashing (bcrypt) and keyed hashes for tokens and codes stored at rest."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import bcrypt
import jwt

from app.core.config import settings

BCRYPT_ROUNDS = 12
PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_BYTES = 72  # bcrypt reads no further (and bcrypt 5 refuses longer input)

# Verified against when the account does not exist, so a wrong username costs the same time as a wrong password. A
# constant, not a secret (made once with bcrypt.hashpw at BCRYPT_ROUNDS): hashing it at import cost every process
# 0.3 s to start.
DUMMY_HASH = "$2b$12$RA0ou3dOI4ZcViLkODGHROarOdoY8aCuxxWK7O2ORgX.TnJY.HZR2"  # nosec B105


def password_problem(password: str) -> str | None:
    """The reason a password is unacceptable, or None."""
    if len(password) < PASSWORD_MIN_LENGTH:
        return f"Password must be at least {PASSWORD_MIN_LENGTH} characters"
    if len(password.encode()) > PASSWORD_MAX_BYTES:
        return f"Password must be at most {PASSWORD_MAX_BYTES} bytes"
    return None


# bcrypt runs on threads of its own, one per core, at a lower CPU priority (Linux gives each thread its own nice
# value): sign-ins still use every idle core, but the event loop and the other requests come first, so a burst of
# sign-ins does not slow the rest of the site (tools/bench/bench_server.py: the health check during 20 sign-ins).
HASH_NICENESS = 10
_hashing: tuple[int, ThreadPoolExecutor] | None = None


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):  # not on Linux: the same threads at normal priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICENESS)


def _hash_pool() -> ThreadPoolExecutor:
    global _hashing
    # One per process: a pool made before the server forked its workers would have no threads in the children.
    if _hashing is None or _hashing[0] != os.getpid():
        pool = ThreadPoolExecutor(os.cpu_count() or 1, thread_name_prefix="bcrypt", initializer=_lower_priority)
        _hashing = (os.getpid(), pool)
    return _hashing[1]


def hash_password(password: str) -> str:
    salt = bcrypt.gensalt(BCRYPT_ROUNDS)
    return _hash_pool().submit(bcrypt.hashpw, password.encode(), salt).result().decode()


def verify_password(password: str, password_hash: str | None) -> bool:
    encoded = password.encode()
    if password_hash is None or len(encoded) > PASSWORD_MAX_BYTES:
        _hash_pool().submit(bcrypt.checkpw, b"x", DUMMY_HASH.encode()).result()
        return False
    return _hash_pool().submit(bcrypt.checkpw, encoded, password_hash.encode()).result()


def new_token(nbytes: int = 32) -> str:
    return secrets.token_urlsafe(nbytes)


def token_digest(token: str) -> str:
    """Keyed SHA-256 of a token or code: what is stored, so a database leak reveals no usable secret."""
    key = settings.secret_key.get_secret_value().encode()
    return hmac.new(key, token.encode(), hashlib.sha256).hexdigest()


JWT_ALGORITHM = "HS256"


def encode_access_token(*, user_id: str, family_id: str, minutes: int) -> str:
    """A short-lived signed token naming the user and the session family it belongs to."""
    now = datetime.now(UTC)
    claims = {"sub": user_id, "fam": family_id, "iat": now, "exp": now + timedelta(minutes=minutes), "typ": "access"}
    return jwt.encode(claims, settings.secret_key.get_secret_value(), algorithm=JWT_ALGORITHM)


def decode_access_token(token: str, *, verify_exp: bool = True) -> dict[str, str] | None:
    """The claims of a genuine access token, or None. `verify_exp=False` is for callers that check the session row."""
    try:
        claims = jwt.decode(
            token,
            settings.secret_key.get_secret_value(),
            algorithms=[JWT_ALGORITHM],
            options={"verify_exp": verify_exp, "require": ["sub", "fam", "exp"]},
        )
    except jwt.PyJWTError:
        return None
    if claims.get("typ") != "access":
        return None
    return {"sub": str(claims["sub"]), "fam": str(claims["fam"])}
