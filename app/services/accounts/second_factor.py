"""A second factor for sign-in (issue 28, ADR 0103): an authenticator app's 6-digit codes (TOTP, RFC 6238), ten
single-use recovery codes, and browsers trusted for 30 days.

Who must have one: admins, and staff holding any billing, users or settings permission (`required`); they enrol at
their next sign-in. Everyone else may turn it on in their settings. How a sign-in asks for it is `sign_in`'s.

A code is accepted for the current 30-second step or the one either side (clocks drift), and never for a step at or
before the last one accepted (RFC 6238 section 5.2: no code is good twice). Wrong codes count against the same
per-account limits as wrong passwords (`auth.failure_limits`), so a second factor adds no guesses to the budget.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pyotp
import segno
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import delete, update
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import Conflict, Forbidden, Invalid, NotFound
from app.core.permissions import Perm, Role
from app.core.security import new_token, token_digest
from app.models.base import utcnow
from app.models.second_factor import RecoveryCode, TotpFactor, TrustedBrowser
from app.models.user import User
from app.services.accounts import auth, sessions
from app.services.platform import access, audit, company, letters, mail, ratelimit

STEP_S = 30
DRIFT_STEPS = 1  # a code from the step before or after the current one is accepted too
RECOVERY_CODES = 10
TRUST_FOR = timedelta(days=30)
ENROL_FOR = timedelta(hours=1)  # a set-up not confirmed within this starts again
# Any of these makes a second factor a must (issue 28: "billing, users or settings permissions").
REQUIRED_BY: frozenset[str] = frozenset(
    {Perm.billing_read, Perm.billing_write, Perm.users_read, Perm.users_manage, Perm.users_reset_password,
     Perm.settings_manage}
)  # fmt: skip

CODE_FORMAT = "Enter the 6-digit code from your authenticator app, or one of your recovery codes."
WRONG_CODE = "That code is not right. Check your authenticator app and try again."
USED_CODE = "That code has already been used. Wait for the next one in your authenticator app."
USED_RECOVERY = "That recovery code has already been used. Each recovery code works once."
NOT_ON = "Two-step sign-in is not turned on for this account."
ALREADY_ON = "Two-step sign-in is already on. Turn it off first to set up a new authenticator."
SET_UP_AGAIN = "The set-up has expired. Please start again."
BROWSERS_FORGOTTEN = "Every browser will ask for a code at the next sign-in."
MUST_KEEP = "Your role requires two-step sign-in, so it cannot be turned off. Ask an administrator to reset it."

_RECOVERY = re.compile(r"[a-z0-9]{10}")
_DIGITS = re.compile(r"\d{6}")


def required(user: User) -> bool:
    """Whether this account must sign in with a second factor."""
    if user.role == Role.admin:
        return True
    return user.role == Role.employee and bool(access.perms(user) & REQUIRED_BY)


def factor(s: Session, user: User) -> TotpFactor | None:
    """The account's confirmed authenticator, if any."""
    row = s.get(TotpFactor, user.id)
    return row if row is not None and row.confirmed_at is not None else None


# --- The secret, sealed ---------------------------------------------------------------------------------------------
# The secret must be read back to check a code, so it cannot be hashed; it is kept encrypted (AES-GCM) with a key
# derived from SECRET_KEY, so a copy of the database alone yields no codes. Rotating SECRET_KEY means re-enrolling.


def _key() -> bytes:
    return hmac.new(settings.secret_key.get_secret_value().encode(), b"totp-secret-seal", hashlib.sha256).digest()


def _seal(secret: str, user_id: uuid.UUID) -> str:
    nonce = secrets.token_bytes(12)
    sealed = AESGCM(_key()).encrypt(nonce, secret.encode(), user_id.bytes)  # bound to its account
    return base64.urlsafe_b64encode(nonce + sealed).decode()


def _unseal(row: TotpFactor) -> str:
    raw = base64.urlsafe_b64decode(row.secret.encode())
    try:
        return AESGCM(_key()).decrypt(raw[:12], raw[12:], row.user_id.bytes).decode()
    except InvalidTag as exc:  # SECRET_KEY changed since enrolment: the person must enrol again
        raise Invalid(SET_UP_AGAIN) from exc


# --- Checking a code ------------------------------------------------------------------------------------------------


def normalise(code: Any) -> str:
    """A code as typed, without spaces and dashes, lower-case; '' when it cannot be a code."""
    if not isinstance(code, str):
        return ""
    return re.sub(r"[\s-]", "", code).lower()[:40]


def _recovery_digest(user_id: uuid.UUID, code: str) -> str:
    return token_digest(f"recovery:{user_id}:{code}")


def _totp_step(s: Session, row: TotpFactor, code: str, now: float) -> bool:
    """Accept `code` for a step near now that is newer than the last one accepted; one conditional UPDATE claims it,
    so two requests with the same code cannot both pass."""
    totp = pyotp.TOTP(_unseal(row), interval=STEP_S)
    current = int(now // STEP_S)
    for step in range(current - DRIFT_STEPS, current + DRIFT_STEPS + 1):
        if not hmac.compare_digest(totp.at(step * STEP_S), code):
            continue
        claimed = s.exec(
            update(TotpFactor)
            .where(col(TotpFactor.user_id) == row.user_id, col(TotpFactor.last_step) < step)
            .values(last_step=step)
        )
        if claimed.rowcount == 1:
            return True
        raise Invalid(USED_CODE, {"code": USED_CODE})
    return False


def _recovery_used(s: Session, user: User, code: str) -> bool:
    used = s.exec(
        update(RecoveryCode)
        .where(
            col(RecoveryCode.user_id) == user.id,
            col(RecoveryCode.digest) == _recovery_digest(user.id, code),
            col(RecoveryCode.used_at).is_(None),
        )
        .values(used_at=utcnow())
    )
    if used.rowcount == 1:
        return True
    spent = s.exec(
        select(RecoveryCode.id).where(
            RecoveryCode.user_id == user.id, RecoveryCode.digest == _recovery_digest(user.id, code)
        )
    ).first()
    if spent is not None:
        raise Invalid(USED_RECOVERY, {"code": USED_RECOVERY})
    return False


def check(s: Session, user: User, row: TotpFactor, code: Any, *, ip: str | None, recovery: bool = True) -> str:
    """Check a code typed by `user` against their authenticator (`row`) or, if `recovery`, their recovery codes.
    Returns "totp" or "recovery"; raises Invalid (the words for the form) or TooManyRequests. Commits.

    Each check is counted as a failure first (committed before comparing, like a password check), and given back
    when it succeeds, so parallel guesses share the account's failure budget with wrong passwords."""
    typed = normalise(code)
    is_totp = bool(_DIGITS.fullmatch(typed))
    if not is_totp and not (recovery and _RECOVERY.fullmatch(typed)):
        raise Invalid(CODE_FORMAT, {"code": CODE_FORMAT})
    limits = auth.failure_limits(s, user, f"user:{user.id}", ip)
    attempt = ratelimit.acquire(s, *limits)
    try:
        ok = _totp_step(s, row, typed, time.time()) if is_totp else _recovery_used(s, user, typed)
    except Invalid:
        s.commit()
        raise
    if not ok:
        audit.record(s, actor=user, action="auth.second_factor_failed", entity=user, ip=ip)
        s.commit()
        raise Invalid(WRONG_CODE, {"code": WRONG_CODE})
    ratelimit.release(s, attempt)
    ratelimit.clear(s, limits[0].key)
    if not is_totp:
        audit.record(s, actor=user, action="auth.recovery_code_used", entity=user, ip=ip)
        tell(s, user, "recovery_used", left=recovery_left(s, user))
    s.commit()
    return "totp" if is_totp else "recovery"


# --- Enrolling ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Enrolment:
    secret: str  # base32, grouped by four for typing into an app by hand
    uri: str  # otpauth://, what the QR code holds
    qr_svg: str  # a data: URI of the QR code as SVG


def begin_enrolment(s: Session, user: User) -> Enrolment:
    """The secret for the account's new authenticator, waiting for its first code (`confirm_enrolment`): the one
    begun in the last hour if there is one (a reload must not orphan a QR code already scanned), else a new one."""
    row = s.get(TotpFactor, user.id)
    if row is not None and row.confirmed_at is not None:
        raise Conflict(ALREADY_ON)
    if row is not None and utcnow() - row.created_at < ENROL_FOR:
        secret = _unseal(row)
    else:
        secret = pyotp.random_base32()
        row = row or TotpFactor(user_id=user.id, secret="")
        row.secret, row.created_at, row.last_step = _seal(secret, user.id), utcnow(), 0
        s.add(row)
        s.commit()
    issuer = company.profile(s).name or "Client portal"
    uri = pyotp.TOTP(secret, interval=STEP_S).provisioning_uri(name=user.email, issuer_name=issuer)
    qr = segno.make(uri, error="m").svg_data_uri(scale=5, border=2, dark="#0f172a")
    return Enrolment(secret=" ".join(secret[i : i + 4] for i in range(0, len(secret), 4)), uri=uri, qr_svg=qr)


def confirm_enrolment(s: Session, user: User, code: Any, *, ip: str | None) -> list[str]:
    """Turn the factor on with its first code; returns the ten recovery codes (shown once, stored hashed). Commits."""
    row = s.get(TotpFactor, user.id)
    if row is None:
        raise Invalid(SET_UP_AGAIN)
    if row.confirmed_at is not None:
        raise Conflict(ALREADY_ON)
    if utcnow() - row.created_at > ENROL_FOR:
        raise Invalid(SET_UP_AGAIN)
    check(s, user, row, code, ip=ip, recovery=False)
    row.confirmed_at = utcnow()
    s.add(row)
    codes = _new_recovery_codes(s, user)
    audit.record(s, actor=user, action="auth.second_factor_enrolled", entity=user, ip=ip)
    tell(s, user, "on")
    s.commit()
    return codes


def _new_recovery_codes(s: Session, user: User) -> list[str]:
    s.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user.id))
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off paper without doubt
    codes = ["".join(secrets.choice(alphabet) for _ in range(10)) for _ in range(RECOVERY_CODES)]
    for code in codes:
        s.add(RecoveryCode(user_id=user.id, digest=_recovery_digest(user.id, code)))
    return [f"{c[:5]}-{c[5:]}" for c in codes]


def renew_recovery_codes(s: Session, user: User, code: Any, *, ip: str | None) -> list[str]:
    """Ten new recovery codes for a current authenticator code; the old ones stop working. Commits."""
    row = factor(s, user)
    if row is None:
        raise Invalid(NOT_ON)
    check(s, user, row, code, ip=ip, recovery=False)
    codes = _new_recovery_codes(s, user)
    audit.record(s, actor=user, action="auth.recovery_codes_renewed", entity=user, ip=ip)
    tell(s, user, "recovery_new")
    s.commit()
    return codes


def recovery_left(s: Session, user: User) -> int:
    return len(
        s.exec(
            select(RecoveryCode.id).where(RecoveryCode.user_id == user.id, col(RecoveryCode.used_at).is_(None))
        ).all()
    )


def _remove(s: Session, user_id: uuid.UUID) -> None:
    s.exec(delete(TotpFactor).where(col(TotpFactor.user_id) == user_id))
    s.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user_id))
    s.exec(delete(TrustedBrowser).where(col(TrustedBrowser.user_id) == user_id))


def turn_off(s: Session, user: User, code: Any, *, ip: str | None) -> None:
    """Turn the second factor off with a current code (or a recovery code); not for those who must have one."""
    row = factor(s, user)
    if row is None:
        raise Invalid(NOT_ON)
    if required(user):
        raise Forbidden(MUST_KEEP)
    check(s, user, row, code, ip=ip)
    _remove(s, user.id)
    audit.record(s, actor=user, action="auth.second_factor_disabled", entity=user, ip=ip)
    tell(s, user, "off")
    s.commit()


def reset_refusal(actor: User, target: User, *, has_factor: bool) -> Forbidden | Invalid | None:
    """Why `actor` may not reset `target`'s second factor, or None (the staff lists show the action by this)."""
    if not access.staff_can(actor, Perm.users_manage):
        return Forbidden("You don't have permission to reset second factors")
    if target.id == actor.id:
        return Forbidden("You can't reset your own second factor. Ask another administrator.")
    if target.role == Role.admin and actor.role != Role.admin:
        return Forbidden("Only an administrator can reset an administrator's second factor.")
    if not has_factor:
        return Invalid("This person has not set up two-step sign-in.")
    return None


def with_factor(s: Session, user_ids: list[uuid.UUID]) -> set[uuid.UUID]:
    """Which of these accounts have an authenticator (confirmed or being set up): one query for a list's page."""
    if not user_ids:
        return set()
    return set(s.exec(select(TotpFactor.user_id).where(col(TotpFactor.user_id).in_(user_ids))).all())


def reset_for(s: Session, *, actor: User, user_id: Any, ip: str | None = None) -> User:
    """Staff with users:manage remove another person's second factor (a lost phone and lost codes): their recovery
    codes and trusted browsers go too and every session of theirs ends; they are told by mail. Never one's own: that
    would let a stolen staff session remove the factor that protects it. Commits."""
    access.require(actor, Perm.users_manage, "reset second factors")
    key = _uuid(user_id)
    target = s.get(User, key) if key is not None else None  # a malformed id is simply nobody
    if target is None:
        raise NotFound("User not found")
    refusal = reset_refusal(actor, target, has_factor=s.get(TotpFactor, target.id) is not None)
    if refusal is not None:
        raise refusal
    _remove(s, target.id)
    audit.record(s, actor=actor, action="auth.second_factor_reset", entity=target, ip=ip)
    by = " ".join(p for p in (actor.first_name, actor.last_name) if p) or actor.username
    tell(s, target, "reset", by=by, must=required(target))
    s.commit()
    sessions.revoke_all(s, target.id)
    return target


def _uuid(value: Any) -> uuid.UUID | None:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        return None


def tell(s: Session, user: User, change: str, **context: Any) -> None:
    """A mail to the person about a change to their sign-in, in the caller's transaction (never public: only the
    account's owner or staff cause it)."""
    letter = letters.render(s, "second_factor_changed", name=user.first_name or user.username, change=change, **context)
    mail.enqueue(s, to=user.email, letter=letter, public=False)


# --- Trusted browsers -----------------------------------------------------------------------------------------------


def trust_cookie(user_id: uuid.UUID) -> str:
    """The cookie a browser trusted for this account is known by: one per account, so people who share a browser do
    not undo each other's trust; a keyed hash of the id, so the name tells nobody whose it is."""
    return "tb_" + token_digest(f"trusted-browser:{user_id}")[:16]


def trusted(s: Session, user: User, cookies: dict[str, str]) -> bool:
    """Whether the browser sending `cookies` was trusted by this account in the last 30 days (its own token)."""
    token = cookies.get(trust_cookie(user.id), "")
    if not token or len(token) > 100:
        return False
    row = s.exec(select(TrustedBrowser).where(TrustedBrowser.token == token_digest(token))).first()
    if row is None or row.user_id != user.id or row.expires_at <= utcnow():
        return False
    row.last_used_at = utcnow()
    s.add(row)
    return True


def trust(s: Session, user: User, label: str) -> tuple[str, datetime]:
    """Trust this browser for 30 days: the token for its cookie and when it ends (the caller commits)."""
    token = new_token()
    expires = utcnow() + TRUST_FOR
    s.add(TrustedBrowser(user_id=user.id, token=token_digest(token), label=label[:120], expires_at=expires))
    return token, expires


@dataclass(frozen=True)
class Status:
    on: bool
    required: bool
    recovery_left: int
    trusted_browsers: int


def status(s: Session, user: User) -> Status:
    on = factor(s, user) is not None
    browsers = s.exec(
        select(TrustedBrowser.id).where(TrustedBrowser.user_id == user.id, col(TrustedBrowser.expires_at) > utcnow())
    ).all()
    return Status(on=on, required=required(user), recovery_left=recovery_left(s, user) if on else 0,
                  trusted_browsers=len(browsers))  # fmt: skip


def forget_browsers(s: Session, user: User, *, ip: str | None = None) -> int:
    """Every trusted browser of the account asks for a code again. Commits."""
    done = s.exec(delete(TrustedBrowser).where(col(TrustedBrowser.user_id) == user.id))
    audit.record(s, actor=user, action="auth.trusted_browsers_forgotten", entity=user, ip=ip)
    s.commit()
    return int(done.rowcount or 0)


_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
            ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))  # fmt: skip


def browser_label(user_agent: str | None) -> str:
    """A trusted browser's name in the settings list ("Firefox on Windows"), from its user agent."""
    ua = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in ua), "A browser")
    system = next((name for mark, name in _SYSTEMS if mark in ua), "")
    return f"{browser} on {system}" if system else browser
