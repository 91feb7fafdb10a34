"""The spec's user-facing texts for sign-in, registration, verification and profile errors (section 8).

Services speak in plain messages; the pages map them to the spec's wording by keywords, as the spec describes. Pure
functions (no Reflex), so they are unit-tested on their own.
"""

from __future__ import annotations

import re
import uuid

from app.services.accounts import second_factor

LOGIN_FAILED = "Login Failed"
# The codes /api/auth/form/login puts in `?error=`; anything else in the URL is ignored, never echoed.
LOGIN_ERRORS = {
    "invalid": "Incorrect username/email or password. Please try again.",
    "required": "Please enter both username/email and password.",
    "throttled": "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
    "not_staff": "Admin privileges required to access this panel.",
    "server": "Server error. Please try again later.",  # a fault of ours (e.g. the database down) during the post
    # The second step (/api/auth/form/second-step) sends a sign-in that cannot go on back here.
    "step_expired": "Your sign-in waited too long for its code. Please sign in again.",
    "step_attempts": "Too many wrong codes. Please sign in again.",
}
# The codes /api/auth/form/second-step puts in `?error=` on the second-step page.
SECOND_STEP_ERRORS = {
    "wrong": second_factor.WRONG_CODE,
    "used": second_factor.USED_CODE,
    "used_recovery": second_factor.USED_RECOVERY,
    "format": second_factor.CODE_FORMAT,
    "throttled": LOGIN_ERRORS["throttled"],
    "server": LOGIN_ERRORS["server"],
}

VERIFY_DEFAULT = "Verification failed. Please check your code and try again."
VERIFY_EXPIRED = "This verification code has expired. Please request a new one."
VERIFY_INVALID = "Invalid verification code. Please check and try again."
VERIFY_ALREADY = "This account is already verified. Please sign in."
RESEND_OK = "A new verification code has been sent to your email."
RESEND_DEFAULT = "Could not send a new code. Please try again."

REGISTER_DEFAULT = "Unable to complete registration. Please try again."
REGISTER_CHECK_FIELDS = "Please check your information and make sure all required fields are filled correctly."
USERNAME_RULE = "Username must be 3-30 characters with only letters, numbers, and underscores."
USERNAME_TAKEN = "This username is already taken. Please choose another one."

COMPLETE_PROFILE_TITLE = "Unable to Complete Profile"
COMPLETE_PROFILE_DEFAULT = "Failed to complete profile. Please try again."
PASSWORD_CHANGE_DEFAULT = "Failed to change password. Please try again."
PROFILE_UPDATE_DEFAULT = "Failed to update profile. Please try again."

_ATTEMPTS_LEFT = re.compile(r"\b(\d+ attempts? left|no attempts left[^.]*)\.?", re.IGNORECASE)


def login_error(code: str) -> str | None:
    """The 'Login Failed' text for an error code of the form post, or None for an unknown code."""
    return LOGIN_ERRORS.get(code)


def valid_user_id(value: str) -> str | None:
    """`value` if it is a user id (a UUID), else None: ids from the URL go into paths only when well-formed."""
    try:
        return str(uuid.UUID(value))
    except (ValueError, TypeError, AttributeError):
        return None


def verification_message(server: str) -> str:
    """The spec's text for a failed verification, chosen by the words of the server's message."""
    text = (server or "").lower()
    if "already verified" in text:
        return VERIFY_ALREADY
    if "expired" in text:
        return VERIFY_EXPIRED
    if "too many" in text:
        return server  # the code is dead: the server says to request a new one
    if "invalid" in text or "incorrect" in text:
        left = _ATTEMPTS_LEFT.search(server)
        return f"{VERIFY_INVALID} {left.group(1).capitalize()}." if left else VERIFY_INVALID
    return server or VERIFY_DEFAULT


def registration_message(server: str) -> str:
    """The spec's text for a registration failure (a field error or the overall message)."""
    text = (server or "").lower()
    if "email" in text and any(w in text for w in ("already", "exists", "registered", "in use")):
        return "This email is already registered. Try logging in instead."
    if "email" in text and ("invalid" in text or "valid email" in text):
        return "Please enter a valid email address."
    if "username" in text and any(w in text for w in ("taken", "exists")):
        return USERNAME_TAKEN
    if "username" in text and any(w in text for w in ("characters", "contain", "invalid")):
        return USERNAME_RULE
    if "password" in text and "8" in text:
        return "Password must be at least 8 characters long."
    if "validation" in text:
        return REGISTER_CHECK_FIELDS
    return server or REGISTER_DEFAULT


def complete_profile_message(server: str) -> str:
    """The spec's text for a failed profile completion, by keyword."""
    text = (server or "").lower()
    if "username" in text and ("taken" in text or "exists" in text):
        return USERNAME_TAKEN
    if "username" in text and "required" in text:
        return "Username is required."
    if "username" in text and any(w in text for w in ("characters", "contain", "exceed")):
        return USERNAME_RULE
    if "company" in text and "required" in text:
        return "Company name is required."
    if "phone" in text and "required" in text:
        return "Phone number is required."
    if "password" in text and "8" in text:
        return "Password must be at least 8 characters."
    if "unauthorized" in text or "401" in text or "session expired" in text:
        return "Session expired. Please log in again."
    if "user not found" in text or "account not found" in text or "404" in text:
        return "User account not found. Please log in again."
    return server or COMPLETE_PROFILE_DEFAULT


def account_field_message(field: str, server: str) -> str:
    """A field error of the profile and settings forms: a taken username gets the spec's wording."""
    if field == "username":
        return registration_message(server)
    return server
