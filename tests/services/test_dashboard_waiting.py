"""The dashboard says what needs doing (issue 26, point 6): each figure as its filtered list counts it, only for
staff who read that list, and the meetings of today and tomorrow by the business's clock, not UTC's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import Session

from app.models.careers import JobApplication
from app.models.enums import EmployeeType, InquiryStatus, MeetingStatus, Role
from app.models.inquiry import ContactInquiry
from app.models.meeting import Meeting
from app.services.crm import admin_inquiries
from app.services.platform import company
from app.services.reporting import dashboard
from tests import factories as f

NEW_YORK = ZoneInfo("America/New_York")


@pytest.fixture(autouse=True)
def in_new_york(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(company, "zone", lambda: NEW_YORK)


def _inquiry(s: Session, status: InquiryStatus = InquiryStatus.new, spam: bool = False) -> None:
    s.add(ContactInquiry(name="Pat", email="pat@example.com", message="Need a site", status=status, is_spam=spam))
    s.commit()


def _application(s: Session, status: str = "new") -> None:
    s.add(
        JobApplication(
            first_name="Ada", last_name="Lovelace", email="ada@example.com", phone="+1 305 555 0100",
            resume_path="x.pdf", resume_filename="cv.pdf", resume_content_type="application/pdf", status=status,
        )
    )  # fmt: skip
    s.commit()


def _at(s: Session, client_id: object, start: datetime, status: MeetingStatus, title: str) -> None:
    s.add(
        Meeting(
            title=title, start_time=start, end_time=start + timedelta(minutes=30), client_id=client_id, status=status
        )
    )
    s.commit()


def test_each_figure_is_what_its_filtered_list_counts(session: Session) -> None:
    admin = f.user(session, "dash_admin", role=Role.admin)
    before = dashboard.waiting(session, actor=admin)
    _inquiry(session)
    _inquiry(session)
    _inquiry(session, InquiryStatus.in_progress)  # answered already
    _inquiry(session, spam=True)  # caught as spam: not waiting for anyone
    _application(session)
    _application(session, "reviewing")
    client = f.user(session, "dash_booker")
    f.meeting(session, client, status=MeetingStatus.unconfirmed)
    f.meeting(session, client, in_hours=-72, status=MeetingStatus.unconfirmed)  # long past: not waiting
    after = dashboard.waiting(session, actor=admin)
    assert after.new_inquiries == (before.new_inquiries or 0) + 2
    assert after.new_applications == (before.new_applications or 0) + 1
    assert after.unconfirmed_bookings == (before.unconfirmed_bookings or 0) + 1
    listed = admin_inquiries.list_inquiries(session, actor=admin, status="new", page=1, page_size=1).total
    assert after.new_inquiries == listed


def test_staff_see_only_the_figures_of_the_lists_they_read(session: Session) -> None:
    developer = f.user(session, "dash_dev2", role=Role.employee, employee_type=EmployeeType.developer)
    w = dashboard.waiting(session, actor=developer)
    assert (w.unpaid, w.overdue, w.new_applications) == (None, None, None)  # billing and careers are not theirs
    assert w.new_inquiries is not None  # every staff type reads inquiries (the spec's role table)
    hr = f.user(session, "dash_hr", role=Role.employee, employee_type=EmployeeType.hr)
    w = dashboard.waiting(session, actor=hr)
    assert w.new_applications is not None and w.unpaid is None


def test_today_and_tomorrow_are_the_business_days_across_the_clock_change(session: Session) -> None:
    """New York falls back on Sunday 1 November 2026 at 2:00 (a 25-hour day). At 11 PM on Saturday 31 October in New
    York (03:00 UTC on the 1st), "today" is still Saturday there, and "tomorrow" is the long Sunday."""
    admin = f.user(session, "dash_admin2", role=Role.admin)
    client = f.user(session, "dash_agenda", first_name="Cora", last_name="Client")
    now = datetime(2026, 11, 1, 3, 0, tzinfo=UTC)  # 11:00 PM EDT, Saturday 31 October
    saturday_late = datetime(2026, 11, 1, 3, 30, tzinfo=UTC)  # 11:30 PM EDT Saturday
    sunday_early = datetime(2026, 11, 1, 5, 30, tzinfo=UTC)  # 1:30 AM EDT Sunday (the first of the two)
    sunday_late = datetime(2026, 11, 2, 4, 30, tzinfo=UTC)  # 11:30 PM EST Sunday: 25 hours after midnight
    monday = datetime(2026, 11, 2, 5, 30, tzinfo=UTC)  # 12:30 AM EST Monday: the day after tomorrow
    for start, title in [
        (saturday_late, "Sat"),
        (sunday_early, "Sun early"),
        (sunday_late, "Sun late"),
        (monday, "Mon"),
    ]:
        _at(session, client.id, start, MeetingStatus.scheduled, f"agenda {title}")
    _at(session, client.id, sunday_early, MeetingStatus.cancelled, "agenda cancelled")
    w = dashboard.waiting(session, actor=admin, now=now)
    assert [m.title for m in w.today or [] if m.title.startswith("agenda")] == ["agenda Sat"]
    assert [m.title for m in w.tomorrow or [] if m.title.startswith("agenda")] == [
        "agenda Sun early",
        "agenda Sun late",
    ]
    assert w.today and w.today[-1].client_name == "Cora Client"
