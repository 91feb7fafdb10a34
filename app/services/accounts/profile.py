"""A signed-in user's own account: profile edits, settings, completing a Google profile, changing the password."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field, model_validator
from sqlalchemy import func
from sqlmodel import Session, select

from app.core.errors import Conflict, Invalid
from app.core.security import PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, hash_password, password_problem, verify_password
from app.models.user import User
from app.services.accounts import sessions
from app.services.accounts.account_fields import NewPassword
from app.services.accounts.users import USERNAME_MAX, USERNAME_MIN, username_problem
from app.services.platform.rules import phone_problem
from app.services.platform.schema import Body, Text, Verbatim, parse, problem, required

PROFILE_ALREADY_COMPLETE = "Your profile is already complete. Change your details in your profile or settings."
PASSWORD_ALREADY_SET = "This account already has a password. Change it in Settings, where the current one is asked."


def _username(value: Any) -> str:
    if value is not None and not isinstance(value, str):
        raise ValueError("Must be text")
    name = (value or "").strip()
    if not name:
        raise problem("Username is required")
    if why := username_problem(name):
        raise problem(why)
    return name


def _phone(required: bool) -> Any:
    def check(value: Any) -> str | None:
        if value is not None and not isinstance(value, str):
            raise ValueError("Must be text")
        phone = (value or "").strip()
        if why := phone_problem(phone, required=required):
            raise problem(why)
        return phone or None

    return check


def _new_password(value: str | None) -> str | None:
    if value and (why := password_problem(value)):
        raise problem(why)
    return value or None


_USERNAME_DOC = Field(
    description=f"{USERNAME_MIN} to {USERNAME_MAX} letters, digits or underscores; not another account's.",
    json_schema_extra={"minLength": USERNAME_MIN, "maxLength": USERNAME_MAX, "pattern": "^[A-Za-z0-9_]+$"},
)
_PHONE_DOC = Field(description="A phone number of at least 10 digits (+, spaces, dots, dashes, parentheses allowed).")
Username = Annotated[str, BeforeValidator(_username), _USERNAME_DOC]


class ProfileUpdate(Body):
    """The signed-in user's own details: the fields sent change (null or absent: unchanged; blank phone or company:
    cleared). The e-mail address never changes here."""

    @model_validator(mode="before")
    @classmethod
    def _null_is_unchanged(cls, value: Any) -> Any:
        return {k: v for k, v in value.items() if v is not None} if isinstance(value, dict) else value

    first_name: Annotated[str | None, Text("First name", 100, required=True)] = None
    last_name: Annotated[str | None, Text("Last name", 100, required=True)] = None
    company: Annotated[str | None, Text("Company", 200)] = None
    phone: Annotated[str | None, BeforeValidator(_phone(required=False)), _PHONE_DOC] = None
    username: Username | None = None


class CompleteProfile(Body):
    """Finishing a Google sign-up: username, company and phone; a password (optional) enables e-mail sign-in."""

    model_config = ConfigDict(json_schema_extra=required("username", "company", "phone"))

    username: Username = Field("", validate_default=True)
    company: Annotated[str | None, Text("Company", 200, required=True, missing="Company name is required")] = Field(
        None, validate_default=True
    )
    phone: Annotated[str | None, BeforeValidator(_phone(required=True)), _PHONE_DOC] = Field(
        None, validate_default=True
    )
    password: Annotated[
        Verbatim | None,
        AfterValidator(_new_password),
        Field(description=f"Optional: at least {PASSWORD_MIN_LENGTH} characters, at most {PASSWORD_MAX_BYTES} bytes."),
    ] = None


class PasswordChange(Body):
    """The current password (not needed by an account that has none yet), the new one and its confirmation. Their
    rules are the service's: whether the current one is needed depends on the account, and all three are judged
    together so one answer names every field to fix."""

    model_config = ConfigDict(populate_by_name=True)

    current_password: Verbatim = Field("", alias="currentPassword")
    new_password: NewPassword = ""
    confirm_password: Verbatim = Field("", alias="confirmPassword")


def _username_taken(s: Session, username: str, user_id: uuid.UUID) -> bool:
    query = select(User.id).where(func.lower(User.username) == username.lower(), User.id != user_id)
    return s.exec(query).first() is not None


def update_profile(s: Session, user: User, *, data: ProfileUpdate | Mapping[str, Any]) -> User:
    """Change the fields that were sent (trimmed); a username must not be another account's."""
    values = parse(ProfileUpdate, data).sent()
    if values.get("username") and _username_taken(s, values["username"], user.id):
        raise Conflict("This username is already taken", errors={"username": "username already taken"})
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


def complete_profile(s: Session, user: User, *, data: CompleteProfile | Mapping[str, Any]) -> User:
    """Finish a Google sign-up: username, company and phone required; a password enables e-mail login later.

    Only an incomplete profile can be completed, and only an account without a password may choose one here: anything
    else would let whoever holds a session replace the password without knowing the current one.
    """
    if user.profile_complete:
        raise Conflict(PROFILE_ALREADY_COMPLETE)
    form = parse(CompleteProfile, data)
    username, password = form.username, form.password
    if password and user.password_hash is not None:
        raise Invalid(PASSWORD_ALREADY_SET, errors={"password": PASSWORD_ALREADY_SET})
    if _username_taken(s, username, user.id):
        raise Conflict("This username is already taken", errors={"username": "username already taken"})
    user.username, user.company, user.phone = username, form.company, form.phone
    if password:
        user.password_hash = hash_password(password)
    user.profile_complete = True
    s.add(user)
    s.commit()
    s.refresh(user)
    return user


def change_password(
    s: Session, user: User, *, data: PasswordChange | Mapping[str, Any], keep_family: uuid.UUID | None = None
) -> None:
    """Check the current password, store the new one, and end every other session of the user."""
    form = parse(PasswordChange, data)
    current_password, new_password, confirm_password = form.current_password, form.new_password, form.confirm_password
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
