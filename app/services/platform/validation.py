"""What a typed input cannot say alone: the parsing of money, days and whole numbers behind the field types of
`platform.schema` (Money, Day, Whole), the calendar and amount limits, and the look-ups of a chosen client or staff
member. The site content's field table uses the parsers directly, with the same sentences."""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlmodel import Session

from app.core.permissions import STAFF_ROLES, Role
from app.models.user import User

# The calendar a form may use: the spec's earliest date, and a latest far past any plan but well inside the types'
# range, so date arithmetic (a period's next day, an end time) never overflows.
EARLIEST_DATE = date(1900, 1, 1)
LATEST_DATE = date(2200, 12, 31)
MAX_MONEY = Decimal("99999999.99")  # Numeric(10, 2)
# Far past any real page; it keeps OFFSET (page - 1) * size a small number whatever page is asked for.
MAX_PAGE = 1_000_000


def page_window(page: int, page_size: int, *, max_size: int) -> tuple[int, int, int]:
    """(page, page_size, offset) of a paginated list: page and size clamped into range, as lists always did."""
    page_size = max(1, min(page_size, max_size))
    page = max(1, min(page, MAX_PAGE))
    return page, page_size, (page - 1) * page_size


def money(value: Any, field: str, errors: dict[str, str], label: str = "Amount") -> Decimal | None:
    if value is None:
        return None
    try:
        amount = Decimal(str(value).replace(",", "").replace("$", "").strip())
    except InvalidOperation:
        errors[field] = f"{label} must be a number"
        return None
    if not amount.is_finite() or amount < 0:
        errors[field] = f"{label} cannot be negative"
    elif amount.as_tuple().exponent < -2:  # type: ignore[operator]
        errors[field] = f"{label} must be in whole cents"
    elif amount > MAX_MONEY:
        errors[field] = f"{label} is too large"
    else:
        return amount.quantize(Decimal("0.01"))
    return None


def day(value: Any, field: str, errors: dict[str, str], label: str = "Date") -> date | None:
    if value in (None, ""):
        return None
    try:
        parsed = value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
    except ValueError:
        errors[field] = f"{label} must be a date (YYYY-MM-DD)"
        return None
    if problem := date_problem(parsed, label):
        errors[field] = problem
        return None
    return parsed


def date_problem(value: date, label: str) -> str | None:
    """Why a date is outside the calendar forms may use, or None."""
    if value < EARLIEST_DATE:
        return f"{label} cannot be before January 1, 1900"
    if value > LATEST_DATE:
        return f"{label} cannot be after December 31, 2200"
    return None


def whole(value: Any, field: str, errors: dict[str, str], label: str, *, low: int = 0, high: int = 10**6) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(str(value))
    except ValueError:
        errors[field] = f"{label} must be a whole number"
        return None
    if not low <= number <= high:
        errors[field] = f"{label} must be between {low} and {high}"
        return None
    return number


def text(
    value: Any, field: str, errors: dict[str, str], label: str, *, limit: int, required: bool = False
) -> str | None:
    cleaned = str(value).strip() if value is not None else ""
    if required and not cleaned:
        errors[field] = f"{label} is required"
        return None
    if len(cleaned) > limit:
        errors[field] = f"{label} must not exceed {limit} characters"
        return None
    return cleaned or None


def staff_member(s: Session, value: Any, errors: dict[str, str], field: str) -> User | None:
    """The staff account a form chose (an organizer, a project manager), or None with "Please choose a staff member"
    recorded; an empty value is no choice (None, no error)."""
    raw = str(value or "").strip()
    if not raw:
        return None
    try:
        user = s.get(User, uuid.UUID(raw))
    except ValueError:
        user = None
    if user is None or user.role not in STAFF_ROLES:
        errors[field] = "Please choose a staff member"
        return None
    return user


def client(s: Session, value: Any, errors: dict[str, str], field: str = "client_id") -> User | None:
    """The client account a staff form chose, or None with "Please choose a client" recorded."""
    try:
        user = s.get(User, uuid.UUID(str(value)))
    except ValueError:
        user = None
    if user is None or user.role != Role.client:
        errors[field] = "Please choose a client"
        return None
    return user
