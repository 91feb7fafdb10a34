"""User accounts: creation with the spec's validation rules, and look-up by username or e-mail."""

from __future__ import annotations

import re
from typing import NoReturn

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.core.errors import Conflict, Invalid
from app.core.permissions import EmployeeType, Role
from app.core.security import hash_password, password_problem
from app.models.user import RefreshToken, User, VerificationCode
from app.services.platform import audit
from app.services.platform.rules import normalize_email

USERNAME_MIN = 3
USERNAME_MAX = 30
# ASCII only: `\w` would also accept accented and non-Latin letters, which the spec's rule excludes.
_USERNAME_CHARS = re.compile(r"[A-Za-z0-9_]+")
_ROLES = frozenset(r.value for r in Role)
_EMPLOYEE_TYPES = frozenset(t.value for t in EmployeeType)
# Column widths of the optional profile fields (see app.models.user.User), so overlong input is a field error.
_PROFILE_LIMITS = {
    "first_name": ("First name", 100),
    "last_name": ("Last name", 100),
    "phone": ("Phone", 30),
    "company": ("Company", 200),
}
GENERIC_INVALID = "Please check the information and try again"


def username_problem(username: str) -> str | None:
    """The reason a username is unacceptable, or None."""
    if len(username) < USERNAME_MIN:
        return f"Username must be at least {USERNAME_MIN} characters"
    if len(username) > USERNAME_MAX:
        return f"Username must not exceed {USERNAME_MAX} characters"
    if not _USERNAME_CHARS.fullmatch(username):
        return "Username can only contain letters, numbers, and underscores"
    return None


def clean_text(value: str | None) -> str | None:
    """Trim optional text; blank means "not given"."""
    if value is None:
        return None
    value = value.strip()
    return value or None


def role_problems(role: str, employee_type: str | None) -> dict[str, str]:
    errors: dict[str, str] = {}
    if role not in _ROLES:
        errors["role"] = f"Role must be one of: {', '.join(sorted(_ROLES))}"
    if employee_type is not None and employee_type not in _EMPLOYEE_TYPES:
        errors["employee_type"] = "Invalid employee type"
    elif role == Role.employee and employee_type is None:
        errors["employee_type"] = "Employee type is required for employees"
    elif role in _ROLES and role != Role.employee and employee_type is not None:
        errors["employee_type"] = "Only employees have an employee type"
    return errors


def _profile_problems(profile: dict[str, str | None]) -> dict[str, str]:
    errors: dict[str, str] = {}
    for field, value in profile.items():
        label, limit = _PROFILE_LIMITS[field]
        if value is not None and len(value) > limit:
            errors[field] = f"{label} must not exceed {limit} characters"
    return errors


def _conflicts(s: Session, username: str, email: str) -> dict[str, str]:
    errors: dict[str, str] = {}
    if s.exec(select(User.id).where(User.email == email)).first() is not None:
        errors["email"] = "email already registered"
    if s.exec(select(User.id).where(func.lower(User.username) == username.lower())).first() is not None:
        errors["username"] = "username already taken"
    return errors


def _raise_conflict(errors: dict[str, str]) -> NoReturn:
    message = "This email is already in use" if "email" in errors else "This username is already taken"
    raise Conflict(message, errors=errors)


def create_user(
    s: Session,
    *,
    username: str,
    email: str,
    password: str | None,
    role: str = Role.client,
    employee_type: str | None = None,
    first_name: str | None = None,
    last_name: str | None = None,
    phone: str | None = None,
    company: str | None = None,
    is_verified: bool = True,
    profile_complete: bool = True,
) -> User:
    """Validate and store a new account (password None: sign-in only through Google); commits."""
    username, employee_type = username.strip(), clean_text(employee_type)
    profile = {"first_name": first_name, "last_name": last_name, "phone": phone, "company": company}
    profile = {field: clean_text(value) for field, value in profile.items()}
    errors: dict[str, str] = {}
    if problem := username_problem(username):
        errors["username"] = problem
    try:
        email = normalize_email(email)
    except ValueError as exc:
        errors["email"] = str(exc)
    if password is not None and (problem := password_problem(password)):
        errors["password"] = problem
    errors |= role_problems(str(role), employee_type)
    errors |= _profile_problems(profile)
    if errors:
        raise Invalid(next(iter(errors.values())) if len(errors) == 1 else GENERIC_INVALID, errors=errors)
    if conflicts := _conflicts(s, username, email):
        _raise_conflict(conflicts)

    user = User(
        username=username,
        email=email,
        password_hash=hash_password(password) if password is not None else None,
        role=Role(role),
        employee_type=EmployeeType(employee_type) if employee_type else None,
        is_verified=is_verified,
        profile_complete=profile_complete,
        first_name=profile["first_name"],
        last_name=profile["last_name"],
        phone=profile["phone"],
        company=profile["company"],
    )
    s.add(user)
    try:
        s.commit()
    except IntegrityError:
        # Another request took the name or address between our check and the commit.
        s.rollback()
        if conflicts := _conflicts(s, username, email):
            _raise_conflict(conflicts)
        raise
    s.refresh(user)
    return user


def get_user_by_identifier(s: Session, identifier: str) -> User | None:
    """The account whose username or e-mail matches `identifier`, ignoring case."""
    identifier = identifier.strip().lower()
    if not identifier:
        return None
    # Usernames cannot contain "@", so the shape decides which (indexed) column to search.
    if "@" in identifier:
        return s.exec(select(User).where(User.email == identifier)).first()
    return s.exec(select(User).where(func.lower(User.username) == identifier)).first()


def take_back(
    s: Session,
    user: User,
    *,
    action: str,
    first_name: str | None = None,
    last_name: str | None = None,
    ip: str | None = None,
) -> None:
    """The address's owner claims an account someone registered with it but never verified (in the caller's
    transaction; the caller then proves the address: Google vouches for it, or an e-mailed reset link was opened).

    Whoever registered it chose its password and profile without proving they own the address (anyone can type any
    address into the form), so none of it may survive: the password is cleared, every session and pending code ends,
    the names become what the owner's proof says (Google's) or nothing, and the owner fills in the profile again on
    /complete-profile. Audited as `action`.
    """
    user.password_hash = None
    user.first_name, user.last_name = first_name, last_name
    user.company = user.phone = None
    user.profile_complete = False
    s.add(user)
    s.exec(update(VerificationCode).where(col(VerificationCode.user_id) == user.id).values(is_used=True))
    s.exec(update(RefreshToken).where(col(RefreshToken.user_id) == user.id).values(is_revoked=True))
    audit.record(s, actor=user, action=action, entity=user, ip=ip)
