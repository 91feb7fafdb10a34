"""A signed-in user's own account: profile edits, settings, completing a Google profile, changing the password."""

from __future__ import annotations

import re
import uuid

from sqlalchemy import func
from sqlmodel import Session, select

from app.core.errors import Conflict, Invalid
from app.core.security import hash_password, password_problem, verify_password
from app.models.user import User
from app.services import sessions
from app.services.users import username_problem

PROFILE_ALREADY_COMPLETE = "Your profile is already complete. Change your details in your profile or settings."
PASSWORD_ALREADY_SET = "This account already has a password. Change it in Settings, where the current one is asked."
_PHONE_CHARS = re.compile(r"[0-9\s()+\-.]+")
# The spec's international pattern: optional +, up to three digit groups with optional parentheses, then the number.
_INTERNATIONAL_PHONE = re.compile(r"^\+?(\(?\d{1,4}\)?[\s.\-]?){1,3}\d{3,4}[\s.\-]?\d{3,4}$")


def phone_problem(phone: str, *, required: bool = False) -> str | None:
    """The reason a phone number is unacceptable, or None (empty is fine unless required)."""
    if not phone:
        return "Phone number is required" if required else None
    if not _PHONE_CHARS.fullmatch(phone):
        return "Please enter a valid phone number"
    if sum(c.isdigit() for c in phone) < 10:
        return "Phone number must be at least 10 digits"
    if not _INTERNATIONAL_PHONE.match(phone):
        return "Please enter a valid phone number"
    return None


def _text(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else None


def _username_taken(s: Session, username: str, user_id: uuid.UUID) -> bool:
    query = select(User.id).where(func.lower(User.username) == username.lower(), User.id != user_id)
    return s.exec(query).first() is not None


def update_profile(
    s: Session,
    user: User,
    *,
    first_name: str | None = None,
    last_name: str | None = None,
    phone: str | None = None,
    company: str | None = None,
    username: str | None = None,
) -> User:
    """Change the fields that were sent (None = not sent; trimmed); the e-mail address never changes here."""
    values = {
        k: _text(v)
        for k, v in {
            "first_name": first_name,
            "last_name": last_name,
            "phone": phone,
            "company": company,
            "username": username,
        }.items()
        if v is not None
    }
    errors: dict[str, str] = {}
    for field, label in (("first_name", "First name"), ("last_name", "Last name")):
        if field in values:
            if not values[field]:
                errors[field] = f"{label} is required"
            elif len(values[field] or "") > 100:
                errors[field] = f"{label} must not exceed 100 characters"
    if "company" in values and len(values["company"] or "") > 200:
        errors["company"] = "Company must not exceed 200 characters"
    if "phone" in values and (problem := phone_problem(values["phone"] or "")):
        errors["phone"] = problem
    if "username" in values:
        name = values["username"] or ""
        if not name:
            errors["username"] = "Username is required"
        elif problem := username_problem(name):
            errors["username"] = problem
        elif _username_taken(s, name, user.id):
            raise Conflict("This username is already taken", errors={"username": "username already taken"})
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    for field, value in values.items():
        setattr(user, field, value or None)
    s.add(user)
    s.commit()
    s.refresh(user)
    return user


def has_password(s: Session, *, user_id: uuid.UUID) -> bool:
    """Whether the account can sign in with a password (Google-only accounts cannot, until they choose one)."""
    user = s.get(User, user_id)
    return user is not None and user.password_hash is not None


def complete_profile(
    s: Session, user: User, *, username: str, company: str, phone: str, password: str | None = None
) -> User:
    """Finish a Google sign-up: username, company and phone required; a password enables e-mail login later.

    Only an incomplete profile can be completed, and only an account without a password may choose one here: anything
    else would let whoever holds a session replace the password without knowing the current one.
    """
    if user.profile_complete:
        raise Conflict(PROFILE_ALREADY_COMPLETE)
    username, company, phone = (username or "").strip(), (company or "").strip(), (phone or "").strip()
    errors: dict[str, str] = {}
    if not username:
        errors["username"] = "Username is required"
    elif problem := username_problem(username):
        errors["username"] = problem
    if not company:
        errors["company"] = "Company name is required"
    elif len(company) > 200:
        errors["company"] = "Company must not exceed 200 characters"
    if problem := phone_problem(phone, required=True):
        errors["phone"] = problem
    if password and user.password_hash is not None:
        errors["password"] = PASSWORD_ALREADY_SET
    elif password and (problem := password_problem(password)):
        errors["password"] = problem
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    if _username_taken(s, username, user.id):
        raise Conflict("This username is already taken", errors={"username": "username already taken"})
    user.username, user.company, user.phone = username, company, phone
    if password:
        user.password_hash = hash_password(password)
    user.profile_complete = True
    s.add(user)
    s.commit()
    s.refresh(user)
    return user


def change_password(
    s: Session,
    user: User,
    *,
    current_password: str,
    new_password: str,
    confirm_password: str,
    keep_family: uuid.UUID | None = None,
) -> None:
    """Check the current password, store the new one, and end every other session of the user."""
    errors: dict[str, str] = {}
    has_password = user.password_hash is not None  # Google-only accounts set their first password here
    if has_password and not current_password:
        errors["currentPassword"] = "Current password is required"
    if problem := password_problem(new_password or ""):
        errors["newPassword"] = problem.replace("Password", "New password", 1)
    if not confirm_password:
        errors["confirmPassword"] = "Password confirmation is required"
    elif new_password != confirm_password:
        errors["confirmPassword"] = "New password and confirmation do not match"
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    if has_password and not verify_password(current_password, user.password_hash):
        raise Invalid("Current password is incorrect", errors={"currentPassword": "Current password is incorrect"})
    user.password_hash = hash_password(new_password)
    s.add(user)
    s.commit()
    sessions.revoke_all(s, user.id, keep_family=keep_family)
