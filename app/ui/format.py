"""How the product writes dates and money everywhere (the spec: en-US long dates, US dollars)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal, InvalidOperation


def long_date(value: object) -> str:
    """'March 5, 2026' from a date, a datetime or an ISO string; '' when absent or unreadable.

    Only the calendar date is read: a date-only value has no time zone, so the browser (which would take it for UTC
    midnight and might show the day before) never formats it.
    """
    if isinstance(value, datetime):
        day = value.date()
    elif isinstance(value, date):
        day = value
    elif value:
        try:
            day = date.fromisoformat(str(value)[:10])
        except ValueError:
            return ""
    else:
        return ""
    return f"{day:%B} {day.day}, {day.year}"


def usd(value: object) -> str:
    """US dollars, e.g. '$12,500.00' or '-$40.00'; '' when there is no amount."""
    if value is None or value == "":
        return ""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return ""
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"
