"""The fields of an account as forms send them: registration, the staff's user and client forms, a profile.

One refused field answers with its own words; several with "Please check the information and try again" (the
spec's wording), so every form that creates or changes an account words its refusals alike."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field

from app.core.permissions import unknown_permissions
from app.core.security import PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, password_problem
from app.services.accounts.users import GENERIC_INVALID, USERNAME_MAX, USERNAME_MIN, username_problem
from app.services.platform.rules import PHONE_MAX, phone_problem
from app.services.platform.schema import Email, Text, problem, verbatim


def _username(value: Any) -> str:
    if value is not None and not isinstance(value, str):
        raise ValueError("Must be text")
    username = (value or "").strip()
    if why := username_problem(username):
        raise problem(why, several=GENERIC_INVALID)
    return username


def _password(value: Any) -> str:
    password = verbatim(value)
    if why := password_problem(password):
        raise problem(why, several=GENERIC_INVALID)
    return password


def _phone(value: str | None) -> str | None:
    if value and (why := phone_problem(value)):
        raise problem(why, several=GENERIC_INVALID)
    return value


def _chosen_password(value: Any) -> str | None:
    # Staff may leave it out: the new account's owner is then e-mailed a link to choose one.
    return _password(value) if verbatim(value) else None


def _permission_names(value: Any) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("Must be a list of text")
    if unknown := unknown_permissions(value):
        raise problem(f"Unknown permissions: {', '.join(sorted(unknown))}", several=GENERIC_INVALID)
    return sorted(set(value))  # as stored: sorted, no duplicates


Username = Annotated[
    str,
    BeforeValidator(_username),
    Field(
        description=f"{USERNAME_MIN} to {USERNAME_MAX} letters, digits or underscores.",
        json_schema_extra={"minLength": USERNAME_MIN, "maxLength": USERNAME_MAX, "pattern": "^[A-Za-z0-9_]+$"},
    ),
]
_PASSWORD_RULE = f"At least {PASSWORD_MIN_LENGTH} characters, at most {PASSWORD_MAX_BYTES} bytes."
Password = Annotated[
    str,
    BeforeValidator(_password),
    Field(description=_PASSWORD_RULE, json_schema_extra={"minLength": PASSWORD_MIN_LENGTH}),
]
# A new password as the reset and change forms send it (`newPassword`): judged by the service with the rest of its
# form, so the one answer names every field to fix.
NewPassword = Annotated[str, BeforeValidator(verbatim), Field(alias="newPassword", description=_PASSWORD_RULE)]
ChosenPassword = Annotated[
    str | None,
    BeforeValidator(_chosen_password),
    Field(description=f"{_PASSWORD_RULE} Empty: the account's owner is e-mailed a link to choose one."),
]
AccountEmail = Annotated[str | None, Email("Invalid email address", several=GENERIC_INVALID)]
FirstName = Annotated[str | None, Text("First name", 100, several=GENERIC_INVALID)]
LastName = Annotated[str | None, Text("Last name", 100, several=GENERIC_INVALID)]
Company = Annotated[str | None, Text("Company", 200, several=GENERIC_INVALID)]
Phone = Annotated[str | None, Text("Phone", PHONE_MAX, several=GENERIC_INVALID), AfterValidator(_phone)]
PermissionNames = Annotated[
    list[str] | None,
    BeforeValidator(_permission_names),
    Field(description="Permission names (see docs/permissions.md)."),
]
