"""The product's rules for the kinds of text every domain takes from people: e-mail addresses, phone numbers and
one-line text. One rule per kind, so a phone number accepted by the contact form is accepted by the profile, the
application form, registration and company settings too (docs/adr: one rule per thing)."""

from __future__ import annotations

import re

from email_validator import EmailNotValidError, validate_email

INVALID_EMAIL = "Invalid email address"
INVALID_PHONE = "Please enter a valid phone number"
PHONE_REQUIRED = "Phone number is required"
PHONE_MAX = 30
PHONE_MIN_DIGITS = 10  # the spec's "phone min 10" (its general validation rules)
_PHONE_CHARS = re.compile(r"[0-9\s()+\-.]+")
# The spec's international pattern: optional +, up to three digit groups with optional parentheses, then the number.
_INTERNATIONAL_PHONE = re.compile(r"^\+?(\(?\d{1,4}\)?[\s.\-]?){1,3}\d{3,4}[\s.\-]?\d{3,4}$")


def normalize_email(email: str) -> str:
    """The stored form of an e-mail address (trimmed, lower-case); raises ValueError when it is not valid."""
    try:
        info = validate_email(email.strip(), check_deliverability=False)
    except EmailNotValidError as exc:
        raise ValueError(INVALID_EMAIL) from exc
    return info.normalized.lower()


def one_line(value: str | None) -> str:
    """Trim and collapse whitespace: single-line fields end up in mail subjects, where a newline is an injection."""
    return " ".join((value or "").split())


def phone_problem(phone: str, *, required: bool = False) -> str | None:
    """Why a (trimmed) phone number is unacceptable, or None; empty is fine unless required."""
    if not phone:
        return PHONE_REQUIRED if required else None
    if len(phone) > PHONE_MAX:
        return f"Phone must not exceed {PHONE_MAX} characters"
    if not _PHONE_CHARS.fullmatch(phone):
        return INVALID_PHONE
    if sum(c.isdigit() for c in phone) < PHONE_MIN_DIGITS:
        return f"Phone number must be at least {PHONE_MIN_DIGITS} digits"
    if not _INTERNATIONAL_PHONE.match(phone):
        return INVALID_PHONE
    return None
