"""A second factor for sign-in (issue 28): an authenticator app's codes (TOTP), single-use recovery codes, browsers
trusted for 30 days, and the sign-in waiting for its second step."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from app.models.base import created_at, string_list, timestamp


class TotpFactor(SQLModel, table=True):
    """An account's authenticator app. The shared secret is kept encrypted (it must be read back to check a code);
    `confirmed_at` is None while the person is enrolling, and only a confirmed factor is asked for at sign-in."""

    __tablename__ = "totp_factors"

    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    secret: str = Field(max_length=200)  # the base32 secret, encrypted with a key derived from SECRET_KEY
    confirmed_at: datetime | None = timestamp()
    # The newest 30-second step a code was accepted for: a code (or an older one) is never accepted twice.
    last_step: int = Field(default=0, sa_type=sa.BigInteger, nullable=False)
    created_at: datetime = created_at()


class RecoveryCode(SQLModel, table=True):
    """One of ten single-use codes for when the authenticator is lost; only a keyed hash is stored."""

    __tablename__ = "recovery_codes"

    id: int | None = Field(default=None, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    digest: str = Field(max_length=64)
    used_at: datetime | None = timestamp()
    created_at: datetime = created_at()


class TrustedBrowser(SQLModel, table=True):
    """A browser whose owner ticked "trust this browser for 30 days": it skips the second step until then. The
    browser holds a random token in an HttpOnly cookie; only its keyed hash is stored."""

    __tablename__ = "trusted_browsers"

    id: int | None = Field(default=None, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    token: str = Field(max_length=64, unique=True)
    label: str = Field(default="", max_length=120)  # the browser as its user agent names it, for the settings list
    expires_at: datetime = timestamp(nullable=False)
    last_used_at: datetime | None = timestamp()
    created_at: datetime = created_at()


class SignInChallenge(SQLModel, table=True):
    """A sign-in that passed its first step (password or Google) and waits for the second. The browser holds a random
    token in an HttpOnly cookie; only its keyed hash is stored. Wrong codes are counted here and per account."""

    __tablename__ = "sign_in_challenges"

    id: int | None = Field(default=None, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    token: str = Field(max_length=64, unique=True)
    method: str = Field(max_length=20)  # how the first step was passed: "password" or "google"
    landing: str = Field(default="", max_length=200)  # where the sign-in continues once complete
    attempts: int = 0
    expires_at: datetime = timestamp(nullable=False)
    # Set when a person who had to enrol confirmed their new authenticator: the sign-in may then finish (once).
    passed_at: datetime | None = timestamp()
    used_at: datetime | None = timestamp()  # the sign-in finished (or was given up): the token is dead
    created_at: datetime = created_at()


class Passkey(SQLModel, table=True):
    """A passkey (a WebAuthn credential): the second step in place of a code, or a sign-in without a password. The
    public key and the counter the authenticator reports are all the server keeps; the private key never leaves the
    person's device."""

    __tablename__ = "passkeys"

    id: int | None = Field(default=None, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    credential_id: str = Field(max_length=1400, unique=True)  # base64url, as the browser names it
    public_key: str = Field(sa_type=sa.Text, nullable=False)  # base64url of the COSE public key
    sign_count: int = Field(default=0, sa_type=sa.BigInteger, nullable=False)
    transports: list[str] = string_list()
    name: str = Field(default="", max_length=120)  # "Chrome on macOS", as the person's browser named itself
    last_used_at: datetime | None = timestamp()
    created_at: datetime = created_at()


class WebAuthnCeremony(SQLModel, table=True):
    """One passkey ceremony under way: the challenge the browser's authenticator must sign, for 5 minutes and once.
    The browser holds a random token in an HttpOnly cookie; only its keyed hash is stored."""

    __tablename__ = "webauthn_ceremonies"

    id: int | None = Field(default=None, primary_key=True)
    token: str = Field(max_length=64, unique=True)
    purpose: str = Field(max_length=20)  # "register", "second_step" or "sign_in"
    user_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="CASCADE", index=True)
    challenge: str = Field(max_length=200)  # base64url
    expires_at: datetime = timestamp(nullable=False)
    used_at: datetime | None = timestamp()
    created_at: datetime = created_at()
