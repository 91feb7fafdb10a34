"""Every way in ends here (issue 28, ADR 0103): after its first step (a password, the form posts, Google) a sign-in
either opens a session or, when the account has a second factor or must have one, waits for the second step.

The waiting sign-in is a row (`SignInChallenge`) named by a random token in an HttpOnly cookie: ten minutes, five
wrong codes, used once. Someone who must have a second factor and has none sets up an authenticator as that step
(`enrolment`, `confirm`) and then continues (`complete` with no code). A browser the account trusted in the last 30
days skips the step. A password reset ends every session and opens none, so it never goes round this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, update
from sqlmodel import Session, col, select

from app.core.errors import Conflict, Invalid, Unauthorized
from app.core.net import network
from app.core.permissions import STAFF_ROLES
from app.core.security import new_token, token_digest
from app.models.base import utcnow
from app.models.second_factor import SignInChallenge, WebAuthnCeremony
from app.models.user import User
from app.services.accounts import auth, passkeys, second_factor, sessions
from app.services.accounts.auth import SignIn
from app.services.accounts.second_factor import Enrolment
from app.services.platform import audit, ratelimit

CHALLENGE_COOKIE = "sign_in_step"
CHALLENGE_TTL = timedelta(minutes=10)
CHALLENGE_ATTEMPTS = 5
EXPIRED = "This sign-in has expired. Please sign in again."
TOO_MANY_CODES = "Too many wrong codes. Please sign in again."
# Ceremonies of sign-ins without a password, which anyone may start: per address, and for the whole site.
CEREMONY_WINDOW = timedelta(minutes=10)
CEREMONIES_PER_ADDRESS = 30
PUBLIC_CEREMONIES = 3000


@dataclass(frozen=True)
class SignInResult:
    user: User
    issued: sessions.IssuedSession | None = None  # the session, when no second step is due
    challenge: str | None = None  # the token for the challenge cookie, when one is
    enrol: bool = False  # the second step sets up an authenticator first (required, none yet)


@dataclass(frozen=True)
class Finished:
    user: User
    issued: sessions.IssuedSession
    landing: str  # where the sign-in continues, as its first step said
    trust_token: str | None = None  # for the trusted-browser cookie, when the person ticked it
    trust_expires: datetime | None = None


def _open(s: Session, user: User, *, method: str, ip: str | None, second: str) -> sessions.IssuedSession:
    if ip and method == "password":
        auth.remember_address(s, user, ip)
    if user.role in STAFF_ROLES:
        audit.record(
            s, actor=user, action="auth.login", entity=user, ip=ip, details={"method": method, "second_factor": second}
        )
    return sessions.start(s, user)  # commits


def begin(
    s: Session, user: User, *, method: str, landing: str = "", cookies: Mapping[str, str] | None = None,
    ip: str | None = None,
) -> SignInResult:  # fmt: skip
    """After the first step: a session, or a challenge for the second step. Commits."""
    factor = second_factor.factor(s, user)
    if factor is None and not second_factor.required(user):
        return SignInResult(user, issued=_open(s, user, method=method, ip=ip, second="none"))
    if factor is not None and second_factor.trusted(s, user, dict(cookies or {})):
        return SignInResult(user, issued=_open(s, user, method=method, ip=ip, second="trusted browser"))
    token = new_token()
    s.add(
        SignInChallenge(
            user_id=user.id,
            token=token_digest(token),
            method=method,
            landing=landing[:200],
            expires_at=utcnow() + CHALLENGE_TTL,
        )
    )
    s.commit()
    return SignInResult(user, challenge=token, enrol=factor is None)


def login(
    s: Session, *, data: SignIn | Mapping[str, Any], ip: str | None = None, cookies: Mapping[str, str] | None = None,
    landing: str = "",
) -> SignInResult:  # fmt: skip
    """A password sign-in, both steps' start: the account, and its session or challenge."""
    user = auth.check_password(s, data=data, ip=ip)
    return begin(s, user, method="password", landing=landing, cookies=cookies, ip=ip)


def pending(s: Session, token: str | None) -> tuple[SignInChallenge, User]:
    """The live sign-in this token names (Unauthorized "expired" for anything else)."""
    if not token or len(token) > 100:
        raise Unauthorized(EXPIRED)
    row = s.exec(select(SignInChallenge).where(SignInChallenge.token == token_digest(token))).first()
    if row is None or row.used_at is not None or row.expires_at <= utcnow():
        raise Unauthorized(EXPIRED)
    user = s.get(User, row.user_id)
    if user is None:
        raise Unauthorized(EXPIRED)
    return row, user


def needs_enrolment(s: Session, token: str | None) -> bool:
    """Whether the waiting sign-in's second step is setting up an authenticator (else: a code from it)."""
    _row, user = pending(s, token)
    return second_factor.factor(s, user) is None


def _take_attempt(s: Session, row: SignInChallenge) -> None:
    """Count a code against this sign-in before checking it (committed first, so parallel guesses share the five)."""
    taken = s.exec(
        update(SignInChallenge)
        .where(
            col(SignInChallenge.id) == row.id,
            col(SignInChallenge.attempts) < CHALLENGE_ATTEMPTS,
            col(SignInChallenge.used_at).is_(None),
        )
        .values(attempts=col(SignInChallenge.attempts) + 1)
    )
    s.commit()
    if taken.rowcount != 1:
        raise Unauthorized(TOO_MANY_CODES)


def enrolment(s: Session, token: str | None) -> Enrolment:
    """For someone who must set up an authenticator to sign in: a new secret and its QR code. Commits."""
    _row, user = pending(s, token)
    if second_factor.factor(s, user) is not None:
        raise Conflict(second_factor.ALREADY_ON)
    return second_factor.begin_enrolment(s, user)


def confirm(s: Session, token: str | None, code: Any, *, ip: str | None) -> list[str]:
    """The new authenticator's first code: it is on, and this sign-in may finish. The recovery codes, shown once."""
    row, user = pending(s, token)
    _take_attempt(s, row)
    codes = second_factor.confirm_enrolment(s, user, code, ip=ip)
    s.exec(update(SignInChallenge).where(col(SignInChallenge.id) == row.id).values(passed_at=utcnow()))
    s.commit()
    return codes


def complete(
    s: Session, token: str | None, code: Any, *, trust_label: str | None = None, ip: str | None = None
) -> Finished:
    """The second step: a code (or, after `confirm`, none) turns the waiting sign-in into a session, once; with
    `trust_label` the browser is trusted for 30 days. Commits."""
    row, user = pending(s, token)
    if row.passed_at is None:
        factor = second_factor.factor(s, user)
        if factor is None:
            raise Invalid("Set up your authenticator app first.")
        if not second_factor.normalise(code):
            raise Invalid(second_factor.CODE_FORMAT, {"code": second_factor.CODE_FORMAT})
        _take_attempt(s, row)
        kind = second_factor.check(s, user, factor, code, ip=ip)
        second = "recovery code" if kind == "recovery" else "code"
    else:
        second = "new authenticator"
    return _finish(s, row, user, second=second, trust_label=trust_label, ip=ip)


def _finish(
    s: Session, row: SignInChallenge, user: User, *, second: str, trust_label: str | None, ip: str | None
) -> Finished:
    finished = s.exec(
        update(SignInChallenge)
        .where(col(SignInChallenge.id) == row.id, col(SignInChallenge.used_at).is_(None))
        .values(used_at=utcnow())
    )
    if finished.rowcount != 1:  # a parallel request with the same sign-in finished it
        s.rollback()
        raise Unauthorized(EXPIRED)
    trust_token, trust_expires = second_factor.trust(s, user, trust_label) if trust_label is not None else (None, None)
    issued = _open(s, user, method=row.method, ip=ip, second=second)
    return Finished(user, issued, row.landing, trust_token, trust_expires)


def has_passkeys(s: Session, token: str | None) -> bool:
    """Whether the waiting sign-in's account can pass the second step with a passkey."""
    _row, user = pending(s, token)
    return passkeys.has_passkeys(s, user.id)


def passkey_options(s: Session, token: str | None) -> tuple[str, str]:
    """The passkey ceremony for the waiting sign-in's second step: (its cookie token, the options' JSON)."""
    _row, user = pending(s, token)
    return passkeys.authentication_options(s, user)


def complete_with_passkey(
    s: Session, token: str | None, ceremony: str | None, credential: Any, *, trust_label: str | None = None,
    ip: str | None = None,
) -> Finished:  # fmt: skip
    """The second step with one of the account's passkeys instead of a code; counted like a code. Commits."""
    row, user = pending(s, token)
    _take_attempt(s, row)
    limits = auth.failure_limits(s, user, f"user:{user.id}", ip)
    attempt = ratelimit.acquire(s, *limits)
    try:
        passkeys.authenticate(s, ceremony, credential, user=user)
    except (Invalid, Unauthorized):
        audit.record(s, actor=user, action="auth.second_factor_failed", entity=user, ip=ip)
        s.commit()
        raise
    ratelimit.release(s, attempt)
    ratelimit.clear(s, limits[0].key)
    return _finish(s, row, user, second="passkey", trust_label=trust_label, ip=ip)


def passkey_sign_in_options(s: Session, *, ip: str | None) -> tuple[str, str]:
    """The ceremony of a sign-in without a password; anyone can ask, so it is bounded per address and in total (each
    is a row until pruned). Commits."""
    limits = [ratelimit.Limit("passkey:options", PUBLIC_CEREMONIES, CEREMONY_WINDOW)]
    if ip:
        limits.append(ratelimit.Limit(f"passkey:options:{network(ip)}", CEREMONIES_PER_ADDRESS, CEREMONY_WINDOW))
    ratelimit.acquire(s, *limits)
    return passkeys.authentication_options(s, None)


def with_passkey(s: Session, ceremony: str | None, credential: Any, *, ip: str | None = None) -> SignInResult:
    """A sign-in without a password: a passkey whose authenticator verified the person is both factors. Commits."""
    user = passkeys.authenticate(s, ceremony, credential, user=None)
    if not user.is_verified:
        raise Unauthorized(passkeys.UNKNOWN)
    return SignInResult(user, issued=_open(s, user, method="passkey", ip=ip, second="passkey"))


KEPT = timedelta(days=1)


def prune(s: Session, older_than: timedelta = KEPT) -> int:
    """Forget sign-ins and passkey ceremonies long past their minutes. Commits."""
    cutoff = utcnow() - older_than
    done = s.exec(delete(SignInChallenge).where(col(SignInChallenge.expires_at) < cutoff)).rowcount or 0
    done += s.exec(delete(WebAuthnCeremony).where(col(WebAuthnCeremony.expires_at) < cutoff)).rowcount or 0
    s.commit()
    return int(done)
