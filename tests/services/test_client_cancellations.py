"""Someone is told when a client cancels (issue 12, point 7): the staff owner by e-mail, the dashboard, and Calendly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import SecretStr
from sqlmodel import Session, select

from app.core.config import settings
from app.core.errors import Invalid
from app.models.enums import EmployeeType, MeetingStatus, Role
from app.models.system import EmailOutbox
from app.services.platform import client_cancellations
from app.services.projects import projects
from app.services.scheduling import calendly as calendly_service
from app.services.scheduling import meetings
from tests import factories as f
from tests.fake_calendly import FakeCalendly

STAFF_BOX = "office@coastline.example"
TOKEN = "calendly-test-token"


@pytest.fixture(autouse=True)
def staff_box(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "staff_notify_email", STAFF_BOX)
    monkeypatch.setattr(settings, "calendly_token", None)


@pytest.fixture
def calendly(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeCalendly]:
    fake = FakeCalendly(TOKEN).start()
    monkeypatch.setattr(settings, "calendly_token", SecretStr(TOKEN))
    monkeypatch.setattr(settings, "calendly_api_url", fake.url)
    yield fake
    fake.stop()


def _mails(s: Session, to: str) -> list[EmailOutbox]:
    return list(s.exec(select(EmailOutbox).where(EmailOutbox.to_address == to)))


def test_a_client_cancelling_a_meeting_tells_its_organizer(session: Session) -> None:
    organizer = f.user(session, "organizer1", role=Role.employee, employee_type=EmployeeType.sales_lead)
    client = f.user(session, "cancel_client", first_name="Zoë", last_name="Núñez")
    meeting = f.meeting(session, client, title="Discovery call", organizer_id=organizer.id)
    meetings.cancel_meeting(session, actor=client, meeting_id=meeting.id, reason="Budget moved to next year")
    [mail] = _mails(session, organizer.email)
    assert mail.subject == "Client cancelled meeting: Discovery call"
    assert "Zoë Núñez" in mail.body_text and "Budget moved to next year" in mail.body_text
    assert _mails(session, STAFF_BOX) == []  # the owner, not the shared box


def test_without_a_staff_organizer_the_shared_box_is_told(session: Session) -> None:
    client = f.user(session, "cancel_client2")
    meeting = f.meeting(session, client, title="Check-in")
    meetings.cancel_meeting(session, actor=client, meeting_id=meeting.id)
    [mail] = _mails(session, STAFF_BOX)
    assert "Cancelled by client" in mail.body_text


def test_a_client_cancelling_a_project_tells_the_shared_box_and_the_dashboard(session: Session) -> None:
    client = f.user(session, "cancel_client3")
    project = f.project(session, client, "Harbor website")
    projects.cancel_project(session, actor=client, project_id=project.id)
    [mail] = _mails(session, STAFF_BOX)
    assert mail.subject == "Client cancelled project: Harbor website"

    manager = f.user(session, "pm1", role=Role.employee, employee_type=EmployeeType.product_manager)
    rows = client_cancellations.recent(session, actor=manager)
    assert [(r.kind, r.name, r.client) for r in rows] == [("Project", "Harbor website", "cancel_client3")]
    hr = f.user(session, "hr_reader", role=Role.employee, employee_type=EmployeeType.hr)
    assert client_cancellations.recent(session, actor=hr) == []  # HR reads meetings, not projects


def test_a_client_cancelling_a_managed_project_tells_its_manager(session: Session) -> None:
    admin = f.user(session, "pm_admin", role=Role.admin)
    manager = f.user(session, "pm2", role=Role.employee, employee_type=EmployeeType.product_manager)
    client = f.user(session, "cancel_client5")
    created = projects.create_project(
        session,
        actor=admin,
        data={"name": "Dock app", "client_id": str(client.id), "status": "in_progress",
              "project_type": "mobile_app", "manager_id": str(manager.id)},
    )  # fmt: skip
    assert created.manager_id == str(manager.id)
    projects.cancel_project(session, actor=client, project_id=created.id)
    [mail] = _mails(session, manager.email)
    assert mail.subject == "Client cancelled project: Dock app"
    assert _mails(session, STAFF_BOX) == []  # the manager, not the shared box


def test_a_project_manager_must_be_staff_and_can_be_removed(session: Session) -> None:
    admin = f.user(session, "pm_admin2", role=Role.admin)
    manager = f.user(session, "pm3", role=Role.employee, employee_type=EmployeeType.product_manager)
    client = f.user(session, "cancel_client6")
    project = f.project(session, client, "Kiosk", manager_id=manager.id)
    for bad in (str(client.id), "not-an-id", "00000000-0000-0000-0000-000000000000"):
        with pytest.raises(Invalid) as refused:
            projects.update_project(session, actor=admin, project_id=project.id, data={"manager_id": bad})
        assert refused.value.errors == {"manager_id": "Please choose a staff member"}
    session.refresh(project)
    assert project.manager_id == manager.id  # a refused change changes nothing
    projects.update_project(session, actor=admin, project_id=project.id, data={"name": "Kiosk 2"})
    session.refresh(project)
    assert project.manager_id == manager.id  # not sent: kept
    page = projects.list_projects_page(session, actor=admin, search="Kiosk")
    assert page.data[0].manager_name == "pm3"
    projects.update_project(session, actor=admin, project_id=project.id, data={"manager_id": ""})
    session.refresh(project)
    assert project.manager_id is None  # sent empty: nobody
    projects.cancel_project(session, actor=client, project_id=project.id)
    assert [m.subject for m in _mails(session, STAFF_BOX)] == ["Client cancelled project: Kiosk 2"]


def test_refused_and_staff_cancellations_mail_nobody(session: Session) -> None:
    client = f.user(session, "cancel_client4")
    done = f.meeting(session, client, status=MeetingStatus.completed)
    with pytest.raises(Invalid):
        meetings.cancel_meeting(session, actor=client, meeting_id=done.id)
    admin = f.user(session, "cancel_admin", role=Role.admin)
    project = f.project(session, client, "Staff-cancelled")
    projects.cancel_project(session, actor=admin, project_id=project.id)
    assert _mails(session, STAFF_BOX) == []
    assert client_cancellations.recent(session, actor=admin) == []  # only clients' cancellations are listed


def test_a_calendly_booking_is_cancelled_there_too(session: Session, calendly: FakeCalendly) -> None:
    client = f.user(session, "cal_client")
    meeting = f.meeting(
        session, client, calendly_event_id="https://api.calendly.com/scheduled_events/EVT-123", title="Intro"
    )
    meetings.cancel_meeting(session, actor=client, meeting_id=meeting.id, reason="Found another vendor")
    assert calendly.cancellations == [("EVT-123", {"reason": "Found another vendor"})]
    assert "cancelled in Calendly too" in _mails(session, STAFF_BOX)[0].body_text


def test_calendly_failing_does_not_stop_the_cancellation(session: Session, calendly: FakeCalendly) -> None:
    calendly.fail_status = 500
    client = f.user(session, "cal_client2")
    meeting = f.meeting(session, client, calendly_event_id="https://api.calendly.com/scheduled_events/EVT-9")
    dto = meetings.cancel_meeting(session, actor=client, meeting_id=meeting.id)
    assert dto.status == "cancelled"
    assert "please cancel it there" in _mails(session, STAFF_BOX)[0].body_text


def test_no_calendly_call_without_a_token_or_a_calendly_booking(session: Session, calendly: FakeCalendly) -> None:
    client = f.user(session, "cal_client3")
    plain = f.meeting(session, client)  # booked here, not at Calendly
    meetings.cancel_meeting(session, actor=client, meeting_id=plain.id)
    assert calendly.requests == []
    assert calendly_service.cancel_event("https://api.calendly.com/scheduled_events/x?y=%2F", "r").startswith(
        "The Calendly event id is not valid"
    )
    assert calendly.requests == []


def test_the_dashboard_summary_carries_the_cancellations(session: Session) -> None:
    from app.services.reporting import dashboard

    client = f.user(session, "dash_client")
    meeting = f.meeting(session, client, title="Roadmap review")
    meetings.cancel_meeting(session, actor=client, meeting_id=meeting.id, reason="Sick")
    admin = f.user(session, "dash_admin", role=Role.admin)
    [row] = dashboard.summary(session, actor=admin).client_cancellations
    assert (row.kind, row.name, row.reason) == ("Meeting", "Roadmap review", "Sick")
