"""create_user: the spec's validation messages, case-insensitive duplicates, and look-up by username or e-mail."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from app.core.errors import Conflict, Invalid
from app.core.permissions import EmployeeType, Role
from app.core.security import verify_password
from app.models import User
from app.services.accounts.users import create_user, get_user_by_identifier

VALID: dict[str, Any] = {"username": "jane_doe", "email": "jane@example.com", "password": "Correct-horse-1"}


def _user_count(s: Session) -> int:
    return s.exec(select(func.count()).select_from(User)).one()


def test_creates_a_verified_client_with_a_hashed_password(session: Session) -> None:
    user = create_user(
        session,
        username="  Jane_Doe ",
        email="  Jane.Doe@Example.COM ",
        password="Correct-horse-1",
        first_name=" Jane ",
        last_name="Doe",
        phone="(772) 555-0100",
        company="",
    )
    stored = session.get(User, user.id)
    assert stored is not None
    assert stored.username == "Jane_Doe"  # case kept for display; uniqueness ignores it
    assert stored.email == "jane.doe@example.com"
    assert stored.role == Role.client
    assert stored.employee_type is None
    assert (stored.first_name, stored.last_name, stored.phone) == ("Jane", "Doe", "(772) 555-0100")
    assert stored.company is None  # blank means "not given"
    assert stored.is_verified and stored.profile_complete
    assert stored.password_hash != "Correct-horse-1"
    assert verify_password("Correct-horse-1", stored.password_hash)


def test_creates_an_employee_with_a_type_and_an_unverified_account(session: Session) -> None:
    user = create_user(session, **VALID, role="employee", employee_type="hr", is_verified=False, profile_complete=False)
    assert user.role == Role.employee
    assert user.employee_type == EmployeeType.hr
    assert not user.is_verified
    assert not user.profile_complete


def test_password_none_makes_an_account_without_password(session: Session) -> None:
    user = create_user(session, username="google_only", email="g@example.com", password=None)
    assert user.password_hash is None


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"username": "ab"}, "username", "Username must be at least 3 characters"),
        ({"username": "a" * 31}, "username", "Username must not exceed 30 characters"),
        ({"username": "jane-doe"}, "username", "Username can only contain letters, numbers, and underscores"),
        ({"username": "jane doe"}, "username", "Username can only contain letters, numbers, and underscores"),
        ({"username": "jüne"}, "username", "Username can only contain letters, numbers, and underscores"),
        ({"email": "not-an-email"}, "email", "Invalid email address"),
        ({"email": "jane@localhost"}, "email", "Invalid email address"),
        ({"password": "short"}, "password", "Password must be at least 8 characters"),
        ({"password": "x" * 73}, "password", "Password must be at most 72 bytes"),
        ({"role": "superuser"}, "role", "Role must be one of: admin, client, employee"),
        ({"role": "employee"}, "employee_type", "Employee type is required for employees"),
        ({"role": "employee", "employee_type": "janitor"}, "employee_type", "Invalid employee type"),
        ({"role": "client", "employee_type": "hr"}, "employee_type", "Only employees have an employee type"),
        ({"role": "admin", "employee_type": "cto"}, "employee_type", "Only employees have an employee type"),
        ({"first_name": "x" * 101}, "first_name", "First name must not exceed 100 characters"),
        ({"company": "x" * 201}, "company", "Company must not exceed 200 characters"),
    ],
)
def test_each_invalid_field_is_reported(session: Session, changes: dict[str, Any], field: str, message: str) -> None:
    with pytest.raises(Invalid) as caught:
        create_user(session, **(VALID | changes))
    assert caught.value.errors == {field: message}
    assert caught.value.message == message  # a single problem is the message itself
    assert _user_count(session) == 0


def test_all_field_problems_are_collected(session: Session) -> None:
    with pytest.raises(Invalid) as caught:
        create_user(session, username="x", email="nope", password="short", role="client", employee_type="hr")
    assert caught.value.errors == {
        "username": "Username must be at least 3 characters",
        "email": "Invalid email address",
        "password": "Password must be at least 8 characters",
        "employee_type": "Only employees have an employee type",
    }
    assert caught.value.message == "Please check the information and try again"


def test_duplicate_username_ignores_case(session: Session) -> None:
    create_user(session, **VALID)
    with pytest.raises(Conflict) as caught:
        create_user(session, username="JANE_DOE", email="other@example.com", password="Correct-horse-1")
    assert caught.value.message == "This username is already taken"
    assert caught.value.errors == {"username": "username already taken"}
    assert _user_count(session) == 1


def test_duplicate_email_ignores_case_and_spaces(session: Session) -> None:
    create_user(session, **VALID)
    with pytest.raises(Conflict) as caught:
        create_user(session, username="someone_else", email=" JANE@EXAMPLE.com ", password="Correct-horse-1")
    assert caught.value.message == "This email is already in use"
    assert caught.value.errors == {"email": "email already registered"}


def test_both_duplicates_are_reported(session: Session) -> None:
    create_user(session, **VALID)
    with pytest.raises(Conflict) as caught:
        create_user(session, **VALID)
    assert caught.value.errors == {"email": "email already registered", "username": "username already taken"}
    assert caught.value.message == "This email is already in use"


def test_validation_comes_before_duplicate_checks(session: Session) -> None:
    create_user(session, **VALID)
    with pytest.raises(Invalid):
        create_user(session, **(VALID | {"password": "short"}))


def test_get_user_by_identifier_matches_username_or_email_in_any_case(session: Session) -> None:
    user = create_user(session, **VALID)
    for identifier in ("jane_doe", "JANE_DOE", " Jane_Doe ", "jane@example.com", "JANE@Example.com"):
        found = get_user_by_identifier(session, identifier)
        assert found is not None and found.id == user.id, identifier
    for identifier in ("", "   ", "nobody", "nobody@example.com", "jane"):
        assert get_user_by_identifier(session, identifier) is None, identifier
