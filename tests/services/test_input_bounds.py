"""Pages and dates stay inside what the database and Python's date arithmetic can handle: a huge page number is
clamped like a huge page size always was, and dates outside 1900-01-01..2200-12-31 are field errors."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from sqlmodel import Session

from app.core.errors import Invalid
from app.models.enums import Role
from app.models.user import User
from app.services.accounts import admin_users
from app.services.crm import admin_inquiries
from app.services.platform import validation as v
from app.services.platform.paging import Page
from app.services.reporting import analytics
from app.services.scheduling import meetings_admin
from tests import factories as f


@pytest.fixture
def admin(session: Session) -> User:
    return f.user(session, "bounds_admin", role=Role.admin)


@pytest.mark.parametrize("lister", [admin_users.list_users, admin_inquiries.list_inquiries])
def test_a_page_past_any_real_one_is_an_empty_page_not_an_overflow(
    session: Session, admin: User, lister: Callable[..., Page[Any]]
) -> None:
    result = lister(session, actor=admin, page=2**63, page_size=2**63)
    assert result.data == []
    assert (result.page, result.page_size) == (v.MAX_PAGE, 100)
    assert lister(session, actor=admin, page=-(2**63), page_size=0).page == 1


def test_page_window() -> None:
    assert v.page_window(3, 25, max_size=100) == (3, 25, 50)
    assert v.page_window(2**63, 2**63, max_size=100) == (v.MAX_PAGE, 100, (v.MAX_PAGE - 1) * 100)


def test_an_unknown_role_filter_is_a_field_error(session: Session, admin: User) -> None:
    with pytest.raises(Invalid) as err:
        admin_users.list_users(session, actor=admin, role="\ufffd")
    assert err.value.errors == {"role": "Unknown role"}


def test_form_dates_stay_inside_the_calendar() -> None:
    errors: dict[str, str] = {}
    assert v.day("2200-12-31", "due", errors) == date(2200, 12, 31)
    assert v.day("1900-01-01", "due", errors) == date(1900, 1, 1)
    assert v.day("9999-12-31", "due", errors, "Due date") is None
    assert errors == {"due": "Due date cannot be after December 31, 2200"}
    assert v.day("0001-01-01", "start", errors, "Start date") is None
    assert errors["start"] == "Start date cannot be before January 1, 1900"


@pytest.mark.parametrize(
    ("start", "end", "field"),
    [(None, date(9999, 12, 31), "end"), (None, date(1, 1, 1), "end"), (date(1, 1, 1), date(1900, 6, 1), "start")],
)
def test_analytics_periods_at_the_calendars_ends_are_field_errors(
    session: Session, admin: User, start: date | None, end: date, field: str
) -> None:
    with pytest.raises(Invalid) as err:
        analytics.report(session, actor=admin, start=start, end=end)
    assert field in err.value.errors


def test_analytics_default_period_never_starts_before_the_calendar(session: Session, admin: User) -> None:
    report = analytics.report(session, actor=admin, end=date(1900, 1, 5))
    assert (report.period.start, report.period.end) == ("1900-01-01", "1900-01-05")
    # The business zone's today (between midnight UTC and midnight in New York the two dates differ).
    assert analytics.report(session, actor=admin).period.end == analytics.business_today().isoformat()


@pytest.mark.parametrize("start_time", ["9999-12-31T23:59:00+00:00", "0001-01-01T00:00:00+05:00"])
def test_meeting_times_at_the_calendars_ends_are_field_errors(session: Session, admin: User, start_time: str) -> None:
    client = f.user(session, "bounds_client")
    data = {"client_id": str(client.id), "title": "Call", "start_time": start_time, "duration_minutes": 30}
    with pytest.raises(Invalid) as err:
        meetings_admin.create_meeting(session, actor=admin, data=data)
    assert list(err.value.errors) == ["start_time"]
