"""What a caller may do with a meeting or a project is decided by the service and shipped with the row (ADR 0065):
a row the caller may act on has the flag, one they may not has it off, and the flags follow the same rules as the
actions themselves (each action is tried where its flag says so)."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from app.core.errors import Invalid
from app.models.enums import EmployeeType, MeetingStatus, ProjectStatus, Role
from app.models.user import User
from app.services.projects import projects
from app.services.scheduling import meetings, meetings_admin
from tests import factories as f

CALENDLY = "https://api.calendly.com/scheduled_events/FLAGS1"


def _staff(session: Session, name: str, kind: EmployeeType) -> User:
    return f.user(session, name, role=Role.employee, employee_type=kind)


def test_a_clients_meetings_say_what_they_may_do(session: Session) -> None:
    client = f.user(session, "flag_client")
    ahead = f.meeting(session, client, title="Ahead", calendly_event_id=CALENDLY)
    started = f.meeting(session, client, title="Started", in_hours=-0.25)
    cancelled = f.meeting(session, client, title="Gone", status=MeetingStatus.cancelled)
    lists = meetings.list_meetings(session, actor=client)
    shown = {m.title: (m.can_cancel, m.can_reschedule, m.can_join) for m in lists.upcoming + lists.past}
    assert shown == {
        "Ahead": (True, True, True),
        "Started": (False, False, True),  # under way: it can be joined, no longer cancelled or moved
        "Gone": (False, False, False),
    }
    for meeting in (started, cancelled):
        with pytest.raises(Invalid):
            meetings.cancel_meeting(session, actor=client, meeting_id=meeting.id)  # type: ignore[arg-type]
    meetings.cancel_meeting(session, actor=client, meeting_id=ahead.id)  # type: ignore[arg-type]


def test_the_staff_list_says_what_the_caller_may_do_with_each_meeting(session: Session) -> None:
    client = f.user(session, "flag_client2")
    f.meeting(session, client, title="Ahead")
    f.meeting(session, client, title="Started", in_hours=-0.25)
    f.meeting(session, client, title="Hold", status=MeetingStatus.unconfirmed)
    f.meeting(session, client, title="Done", in_hours=-0.5, status=MeetingStatus.completed)
    admin = f.user(session, "flag_admin", role=Role.admin)
    reader = _staff(session, "flag_dev", EmployeeType.developer)  # meetings:read, not write

    def flags(actor: User) -> dict[str, tuple[bool, bool, bool]]:
        page = meetings_admin.list_all(session, actor=actor, when="all", client_id=str(client.id))
        return {m.title: (m.can_edit, m.can_cancel, m.can_complete) for m in page.data}

    assert flags(admin) == {
        "Ahead": (True, True, False),
        "Started": (True, False, True),
        "Hold": (False, True, False),  # an unconfirmed hold can only be cancelled
        "Done": (False, False, False),
    }
    assert set(flags(reader).values()) == {(False, False, False)}


def test_a_client_may_cancel_only_open_projects(session: Session) -> None:
    client = f.user(session, "flag_projects")
    for status in ProjectStatus:
        f.project(session, client, name=f"P {status.value}", status=status)
    shown = {p.name: p.can_cancel for p in projects.list_projects(session, actor=client)}
    assert shown == {f"P {s.value}": s not in (ProjectStatus.completed, ProjectStatus.cancelled) for s in ProjectStatus}
    done = next(p for p in projects.list_projects(session, actor=client) if p.name == "P completed")
    with pytest.raises(Invalid):
        projects.cancel_project(session, actor=client, project_id=done.id)
    open_one = next(p for p in projects.list_projects(session, actor=client) if p.can_cancel)
    assert not projects.cancel_project(session, actor=client, project_id=open_one.id).can_cancel
    assert "can_cancel" not in open_one.model_dump()  # the REST answer and the data export never carry it
