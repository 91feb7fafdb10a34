"""The account pages turn service messages and form-post codes into the spec's texts (section 8)."""

from __future__ import annotations

import pytest

from app.core.security import password_problem
from app.services.accounts.users import username_problem
from app.ui.auth import messages as m
from app.ui.format import long_date


@pytest.mark.parametrize(
    ("code", "text"),
    [
        ("invalid", "Incorrect username/email or password. Please try again."),
        ("required", "Please enter both username/email and password."),
        ("throttled", "Too many failed sign-in attempts. Please wait 15 minutes and try again."),
        ("not_staff", "Admin privileges required to access this panel."),
        ("server", "Server error. Please try again later."),
    ],
)
def test_login_error_codes_get_the_spec_texts(code: str, text: str) -> None:
    assert m.login_error(code) == text


@pytest.mark.parametrize("code", ["", "unverified", "<script>alert(1)</script>", "Invalid"])
def test_unknown_login_codes_show_nothing_from_the_url(code: str) -> None:
    assert m.login_error(code) is None


def test_user_ids_from_the_url_must_be_uuids() -> None:
    uid = "34a11cac-d45b-4bae-8b4d-571380dc1420"
    assert m.valid_user_id(uid) == uid
    assert m.valid_user_id(uid.upper()) == uid
    for bad in ("", "1", "../admin", f"{uid}/x", "javascript:alert(1)"):
        assert m.valid_user_id(bad) is None


@pytest.mark.parametrize(
    ("server", "shown"),
    [
        ("This account is already verified. Please sign in.", m.VERIFY_ALREADY),
        ("This verification code has expired. Please request a new one.", m.VERIFY_EXPIRED),
        ("Invalid verification code", m.VERIFY_INVALID),
        ("Invalid verification code. 3 attempts left.", f"{m.VERIFY_INVALID} 3 attempts left."),
        ("Invalid verification code. 1 attempt left.", f"{m.VERIFY_INVALID} 1 attempt left."),
        (
            "Invalid verification code. No attempts left: please request a new one.",
            f"{m.VERIFY_INVALID} No attempts left: please request a new one.",
        ),
        ("The code is incorrect", m.VERIFY_INVALID),
        (
            "Too many incorrect attempts: this code is no longer accepted. Please request a new one.",
            "Too many incorrect attempts: this code is no longer accepted. Please request a new one.",
        ),
        (
            "This verification code has already been used or replaced. Please use the latest code.",
            "This verification code has already been used or replaced. Please use the latest code.",
        ),
        ("", m.VERIFY_DEFAULT),
    ],
)
def test_verification_messages_are_chosen_by_their_words(server: str, shown: str) -> None:
    assert m.verification_message(server) == shown


@pytest.mark.parametrize(
    ("server", "shown"),
    [
        ("email already registered", "This email is already registered. Try logging in instead."),
        ("This email is already in use", "This email is already registered. Try logging in instead."),
        ("Invalid email address", "Please enter a valid email address."),
        ("username already taken", m.USERNAME_TAKEN),
        ("Username must not exceed 30 characters", m.USERNAME_RULE),
        ("Username can only contain letters, numbers, and underscores", m.USERNAME_RULE),
        ("Password must be at least 8 characters", "Password must be at least 8 characters long."),
        ("Validation failed", m.REGISTER_CHECK_FIELDS),
        (
            "Too many registrations from this address. Please try again later.",
            "Too many registrations from this address. Please try again later.",
        ),
        ("", m.REGISTER_DEFAULT),
    ],
)
def test_registration_messages_follow_the_spec(server: str, shown: str) -> None:
    assert m.registration_message(server) == shown


def test_every_username_and_password_rule_of_the_services_maps_to_the_spec_text() -> None:
    # The mapping keys on words; if a service rewords a rule, this fails instead of showing raw text.
    for bad in ("ab", "x" * 31, "no spaces"):
        assert m.registration_message(username_problem(bad) or "") == m.USERNAME_RULE
        assert m.complete_profile_message(username_problem(bad) or "") == m.USERNAME_RULE
    assert m.registration_message(password_problem("short") or "") == "Password must be at least 8 characters long."


@pytest.mark.parametrize(
    ("server", "shown"),
    [
        ("This username is already taken", m.USERNAME_TAKEN),
        ("Username is required", "Username is required."),
        ("Company name is required", "Company name is required."),
        ("Phone number is required", "Phone number is required."),
        ("Password must be at least 8 characters", "Password must be at least 8 characters."),
        ("Session expired. Please log in again.", "Session expired. Please log in again."),
        ("401: Unauthorized", "Session expired. Please log in again."),
        ("User account not found. Please log in again.", "User account not found. Please log in again."),
        ("Please enter a valid phone number", "Please enter a valid phone number"),
        ("", m.COMPLETE_PROFILE_DEFAULT),
    ],
)
def test_complete_profile_messages_follow_the_spec(server: str, shown: str) -> None:
    assert m.complete_profile_message(server) == shown


def test_account_field_messages_reword_only_the_username() -> None:
    assert m.account_field_message("username", "username already taken") == m.USERNAME_TAKEN
    assert m.account_field_message("phone", "Please enter a valid phone number") == "Please enter a valid phone number"


@pytest.mark.parametrize(
    ("iso", "shown"),
    [
        ("2026-03-05T14:00:00+00:00", "March 5, 2026"),
        ("2025-10-16T00:00:00Z", "October 16, 2025"),
        ("", ""),
        (None, ""),
        ("not a date", ""),
    ],
)
def test_member_since_is_the_en_us_long_date(iso: str | None, shown: str) -> None:
    assert long_date(iso) == shown


def test_staff_sign_in_greetings_follow_the_spec() -> None:
    from app.ui.admin.dashboard.state import login_greeting

    assert login_greeting("admin") == "Redirecting to Admin Dashboard..."
    assert login_greeting("employee") == "Redirecting to Employee Dashboard..."
