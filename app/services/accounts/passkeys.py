"""Passkeys (WebAuthn, the `webauthn` package; issue 28, ADR 0104): added by a signed-in person in their settings,
then used as the second step of a sign-in in place of a code, or to sign in without a password.

A ceremony is two requests: options (a random challenge, kept 5 minutes as a row named by an HttpOnly cookie), then
the browser's signed answer, checked against the challenge, this site's origin and the stored public key, once. A
password-free sign-in requires the authenticator to have verified the person (a PIN, a fingerprint): the device and
that check are two factors, so no second step follows. The authenticator's counter must go up, so a cloned key shows.

The relying party is the host of PUBLIC_URL. Browsers refuse an IP address as one, so a site served on a loopback
address (`make run`: http://127.0.0.1:3000) offers passkeys at http://localhost with the same port.
"""

from __future__ import annotations

import ipaddress
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.core.config import settings
from app.core.errors import Invalid, NotFound, Unauthorized
from app.core.security import new_token, token_digest
from app.models.base import utcnow
from app.models.second_factor import Passkey, WebAuthnCeremony
from app.models.user import User
from app.services.accounts.second_factor import tell
from app.services.platform import audit, company

CEREMONY_COOKIE = "webauthn"
CEREMONY_TTL = timedelta(minutes=5)
MAX_PASSKEYS = 10  # per account: a list a person can read, and a bound on what they can make us store
NAME_MAX = 120

FAILED = "The passkey could not be checked. Please try again."
UNKNOWN = "This passkey is not registered for an account here."
EXPIRED = "This passkey request has expired. Please try again."
TOO_MANY = f"An account can have at most {MAX_PASSKEYS} passkeys. Remove one first."
ALREADY = "This passkey is already registered."


@dataclass(frozen=True)
class Site:
    rp_id: str
    origin: str


def site() -> Site:
    """The relying party: PUBLIC_URL's host and origin (loopback addresses as localhost, which browsers accept)."""
    parts = urlsplit(settings.public_url)
    host = parts.hostname or "localhost"
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        host = "localhost"
    port = f":{parts.port}" if parts.port else ""
    return Site(rp_id=host, origin=f"{parts.scheme}://{host}{port}")


def _new_ceremony(s: Session, purpose: str, user: User | None, challenge: bytes) -> str:
    token = new_token()
    s.add(
        WebAuthnCeremony(
            token=token_digest(token),
            purpose=purpose,
            user_id=user.id if user else None,
            challenge=bytes_to_base64url(challenge),
            expires_at=utcnow() + CEREMONY_TTL,
        )
    )
    s.commit()
    return token


def _take_ceremony(s: Session, token: str | None, purpose: str) -> WebAuthnCeremony:
    """The live ceremony the cookie names, used up now (a signed answer is accepted once)."""
    if not token or len(token) > 100:
        raise Unauthorized(EXPIRED)
    row = s.exec(select(WebAuthnCeremony).where(WebAuthnCeremony.token == token_digest(token))).first()
    if row is None or row.purpose != purpose or row.used_at is not None or row.expires_at <= utcnow():
        raise Unauthorized(EXPIRED)
    taken = s.exec(
        update(WebAuthnCeremony)
        .where(col(WebAuthnCeremony.id) == row.id, col(WebAuthnCeremony.used_at).is_(None))
        .values(used_at=utcnow())
    )
    s.commit()
    if taken.rowcount != 1:
        raise Unauthorized(EXPIRED)
    return row


def _descriptors(s: Session, user: User) -> list[PublicKeyCredentialDescriptor]:
    rows = s.exec(select(Passkey).where(Passkey.user_id == user.id)).all()
    return [
        PublicKeyCredentialDescriptor(
            id=base64url_to_bytes(p.credential_id),
            transports=[
                AuthenticatorTransport(t) for t in p.transports if t in AuthenticatorTransport._value2member_map_
            ],
        )
        for p in rows
    ]


# --- Adding and removing ----------------------------------------------------------------------------------------


def registration_options(s: Session, user: User) -> tuple[str, str]:
    """The options for `navigator.credentials.create()` (JSON) and the ceremony's cookie token. Commits."""
    if len(_descriptors(s, user)) >= MAX_PASSKEYS:
        raise Invalid(TOO_MANY)
    where = site()
    options = generate_registration_options(
        rp_id=where.rp_id,
        rp_name=company.profile(s).name or where.rp_id,
        user_name=user.email,
        user_id=user.id.bytes,
        user_display_name=" ".join(p for p in (user.first_name, user.last_name) if p) or user.username,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.PREFERRED, user_verification=UserVerificationRequirement.PREFERRED
        ),
        exclude_credentials=_descriptors(s, user),  # the same authenticator is not added twice
    )
    return _new_ceremony(s, "register", user, options.challenge), options_to_json(options)


def register(s: Session, user: User, token: str | None, credential: Any, name: str, *, ip: str | None) -> Passkey:
    """Check the browser's new credential against the ceremony and keep its public key. Commits."""
    ceremony = _take_ceremony(s, token, "register")
    if ceremony.user_id != user.id:
        raise Unauthorized(EXPIRED)
    # Under the person's row lock: two registrations at once (two tabs) are counted one after the other.
    s.exec(select(User.id).where(User.id == user.id).with_for_update()).one()
    if len(_descriptors(s, user)) >= MAX_PASSKEYS:
        raise Invalid(TOO_MANY)
    where = site()
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(ceremony.challenge),
            expected_rp_id=where.rp_id,
            expected_origin=where.origin,
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
        raise Invalid(FAILED) from exc
    credential_id = bytes_to_base64url(verified.credential_id)
    if s.exec(select(Passkey.id).where(Passkey.credential_id == credential_id)).first() is not None:
        raise Invalid(ALREADY)
    transports = credential.get("response", {}).get("transports", []) if isinstance(credential, dict) else []
    passkey = Passkey(
        user_id=user.id,
        credential_id=credential_id,
        public_key=bytes_to_base64url(verified.credential_public_key),
        sign_count=verified.sign_count,
        transports=[t for t in transports if isinstance(t, str)][:8],
        name=(name.strip() or "Passkey")[:NAME_MAX],
    )
    s.add(passkey)
    try:
        s.flush()
    except IntegrityError as exc:  # the unique credential id: the same key added by another account at this moment
        s.rollback()
        raise Invalid(ALREADY) from exc
    audit.record(s, actor=user, action="auth.passkey_added", entity=user, details={"name": passkey.name}, ip=ip)
    tell(s, user, "passkey_added", passkey=passkey.name)
    s.commit()
    s.refresh(passkey)
    return passkey


def listed(s: Session, user: User) -> list[Passkey]:
    return list(s.exec(select(Passkey).where(Passkey.user_id == user.id).order_by(col(Passkey.id))).all())


def remove(s: Session, user: User, passkey_id: Any, *, ip: str | None) -> None:
    """Remove one of the person's own passkeys (another's is "not found"). Commits."""
    try:
        pk = int(passkey_id)
    except (TypeError, ValueError):
        raise NotFound("Passkey not found") from None
    row = s.get(Passkey, pk)
    if row is None or row.user_id != user.id:
        raise NotFound("Passkey not found")
    s.exec(delete(Passkey).where(col(Passkey.id) == row.id))
    audit.record(s, actor=user, action="auth.passkey_removed", entity=user, details={"name": row.name}, ip=ip)
    tell(s, user, "passkey_removed", passkey=row.name)
    s.commit()


def has_passkeys(s: Session, user_id: uuid.UUID) -> bool:
    return s.exec(select(Passkey.id).where(Passkey.user_id == user_id)).first() is not None


# --- Signing in -------------------------------------------------------------------------------------------------


def authentication_options(s: Session, user: User | None) -> tuple[str, str]:
    """The options for `navigator.credentials.get()` and the ceremony's cookie token: for `user`'s passkeys (the
    second step), or any passkey of this site the device holds (a sign-in without a password). Commits."""
    where = site()
    if user is not None and not has_passkeys(s, user.id):
        raise Invalid("No passkey is registered for this account.")
    options = generate_authentication_options(
        rp_id=where.rp_id,
        allow_credentials=_descriptors(s, user) if user is not None else [],
        user_verification=UserVerificationRequirement.PREFERRED if user else UserVerificationRequirement.REQUIRED,
    )
    purpose = "second_step" if user is not None else "sign_in"
    return _new_ceremony(s, purpose, user, options.challenge), options_to_json(options)


def authenticate(s: Session, token: str | None, credential: Any, *, user: User | None) -> User:
    """The account whose passkey signed this ceremony's challenge: `user`'s own for the second step; for a sign-in
    without a password, any account's, with the person verified by the authenticator. Commits."""
    ceremony = _take_ceremony(s, token, "second_step" if user is not None else "sign_in")
    if user is not None and ceremony.user_id != user.id:
        raise Unauthorized(EXPIRED)
    raw_id = credential.get("id") if isinstance(credential, dict) else None
    passkey = (
        s.exec(select(Passkey).where(Passkey.credential_id == raw_id)).first() if isinstance(raw_id, str) else None
    )
    if passkey is None or (user is not None and passkey.user_id != user.id):
        raise Invalid(UNKNOWN)
    where = site()
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(ceremony.challenge),
            expected_rp_id=where.rp_id,
            expected_origin=where.origin,
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
            require_user_verification=user is None,
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
        raise Invalid(FAILED) from exc
    owner = s.get(User, passkey.user_id)
    if owner is None:
        raise Invalid(UNKNOWN)
    passkey.sign_count, passkey.last_used_at = verified.new_sign_count, utcnow()
    s.add(passkey)
    s.commit()
    return owner
