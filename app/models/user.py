"""Accounts and their sessions: users, refresh tokens (the session store), e-mailed verification codes and
password-reset links."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from app.core.permissions import effective_permissions
from app.models.base import Stamped, created_at, enum_field, string_list, timestamp
from app.models.enums import EmployeeType, Role


class User(Stamped, table=True):
    __tablename__ = "users"
    # Usernames are unique regardless of case, as login accepts any case.
    __table_args__ = (sa.Index("uq_users_username_lower", sa.text("lower(username)"), unique=True),)

    id: uuid.UUID = Field(default_factory=uuid.uuid4, primary_key=True)
    username: str = Field(max_length=30, unique=True)
    email: str = Field(max_length=254, unique=True)  # stored lower-case
    password_hash: str | None = Field(default=None, max_length=100)  # None for Google-only accounts
    oauth_provider: str | None = Field(default=None, max_length=20)
    oauth_id: str | None = Field(default=None, max_length=255, index=True)
    role: Role = enum_field(Role, Role.client, index=True)
    employee_type: EmployeeType | None = enum_field(EmployeeType, None, nullable=True)
    first_name: str | None = Field(default=None, max_length=100)
    last_name: str | None = Field(default=None, max_length=100)
    phone: str | None = Field(default=None, max_length=30)
    company: str | None = Field(default=None, max_length=200)
    is_verified: bool = False
    profile_complete: bool = False
    extra_permissions: list[str] = string_list()
    revoked_permissions: list[str] = string_list()


class RefreshToken(SQLModel, table=True):
    """One row per issued refresh token; a login starts a family, each refresh rotates within it."""

    __tablename__ = "refresh_tokens"

    id: int | None = Field(default=None, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    token: str = Field(max_length=64, unique=True)  # SHA-256 of the token; the token itself is never stored
    family_id: uuid.UUID = Field(index=True)
    is_revoked: bool = False
    expires_at: datetime = timestamp(nullable=False)
    last_used_at: datetime | None = timestamp()  # drives the server-side idle timeout
    created_at: datetime = created_at()


class VerificationCode(SQLModel, table=True):
    __tablename__ = "verification_codes"

    id: int | None = Field(default=None, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    code: str = Field(max_length=64)  # keyed hash of the 6 digits
    expires_at: datetime = timestamp(nullable=False)
    is_used: bool = False
    attempts: int = 0  # wrong guesses; the code dies after five
    created_at: datetime = created_at()


class PasswordResetToken(SQLModel, table=True):
    """A single-use link to set a new password, e-mailed on request; only its keyed hash is stored."""

    __tablename__ = "password_reset_tokens"

    id: int | None = Field(default=None, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    token: str = Field(max_length=64, unique=True)  # keyed SHA-256 of the token in the link
    expires_at: datetime = timestamp(nullable=False)
    used_at: datetime | None = timestamp()  # set when used, or when a newer link replaced it
    created_at: datetime = created_at()


class KnownSignInAddress(SQLModel, table=True):
    """An address an account has signed in from with its password: the account-wide failure limit does not lock
    the owner out from there (see auth.login). Only a keyed hash of the address is stored."""

    __tablename__ = "known_sign_in_addresses"
    __table_args__ = (sa.UniqueConstraint("user_id", "address", name="uq_known_sign_in_addresses_user_id_address"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    address: str = Field(max_length=64)  # keyed SHA-256 of the client address
    last_seen_at: datetime = created_at()


class UserPublic(SQLModel):
    """What the browser may know about a user (never the hash or the OAuth id)."""

    id: uuid.UUID
    username: str
    email: str
    role: str
    employee_type: str | None
    first_name: str | None
    last_name: str | None
    phone: str | None
    company: str | None
    is_verified: bool
    profile_complete: bool
    created_at: datetime
    effective_permissions: list[str]
    fullName: str  # noqa: N815 (the spec's session field names)
    employeeType: str | None  # noqa: N815

    @classmethod
    def of(cls, user: User) -> UserPublic:
        full_name = " ".join(p for p in (user.first_name, user.last_name) if p) or user.username
        perms = effective_permissions(user.role, user.employee_type, user.extra_permissions, user.revoked_permissions)
        return cls(
            **user.model_dump(include=_PUBLIC_FIELDS),
            effective_permissions=sorted(perms),
            fullName=full_name,
            employeeType=user.employee_type,
        )


_PUBLIC_FIELDS = {
    "id", "username", "email", "role", "employee_type", "first_name", "last_name", "phone", "company",
    "is_verified", "profile_complete", "created_at",
}  # fmt: skip
