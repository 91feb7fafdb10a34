"""Project conversations (issue 28): the client and the staff on the project post; staff add internal notes the
client never reads; everyone else is refused, and a project another client owns is "not found"."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from app.core.errors import Forbidden, Invalid, NotFound, TooManyRequests
from app.models.enums import EmployeeType, Role
from app.models.project import MESSAGE_MAX, ProjectMember
from app.models.user import User
from app.services.projects import conversations
from tests import factories as f


@pytest.fixture
def people(session: Session) -> dict[str, User]:
    return {
        "client": f.user(session, "conv_client", first_name="Dana", last_name="Reyes"),
        "other": f.user(session, "conv_other_client"),
        "dev": f.user(session, "conv_dev", role=Role.employee, employee_type=EmployeeType.developer, first_name="Lee"),
        "outsider": f.user(session, "conv_outsider", role=Role.employee, employee_type=EmployeeType.developer),
        "hr": f.user(session, "conv_hr", role=Role.employee, employee_type=EmployeeType.hr),
    }


def test_client_and_team_talk_and_internal_notes_stay_with_staff(session: Session, people: dict[str, User]) -> None:
    project = f.project(session, people["client"], "Clinic site")
    session.add(ProjectMember(project_id=project.id or 0, user_id=people["dev"].id))
    session.commit()

    client = people["client"]
    asked = conversations.post(session, actor=client, project_id=project.id, data={"body": " When is launch? "})
    assert asked.body == "When is launch?" and asked.mine and not asked.from_staff and asked.author == "Dana Reyes"
    conversations.post(session, actor=people["dev"], project_id=project.id, data={"body": "Friday.", "internal": False})
    conversations.post(
        session, actor=people["dev"], project_id=project.id, data={"body": "Tight: QA first.", "internal": True}
    )

    seen_by_client = conversations.thread(session, actor=people["client"], project_id=project.id)
    assert [m.body for m in seen_by_client.messages] == ["When is launch?", "Friday."]
    assert seen_by_client.can_post and not seen_by_client.can_note
    seen_by_dev = conversations.thread(session, actor=people["dev"], project_id=project.id)
    assert [(m.body, m.internal) for m in seen_by_dev.messages] == [
        ("When is launch?", False),
        ("Friday.", False),
        ("Tight: QA first.", True),
    ]
    assert seen_by_dev.can_post and seen_by_dev.can_note and seen_by_dev.messages[1].from_staff


def test_everyone_else_is_refused_and_nothing_is_stored(session: Session, people: dict[str, User]) -> None:
    project = f.project(session, people["client"], "Clinic app")
    with pytest.raises(NotFound, match="Project not found"):
        conversations.thread(session, actor=people["other"], project_id=project.id)
    with pytest.raises(NotFound, match="Project not found"):
        conversations.post(session, actor=people["other"], project_id=project.id, data={"body": "Hi"})
    with pytest.raises(Forbidden, match="Only staff can add internal notes"):
        conversations.post(session, actor=people["client"], project_id=project.id, data={"body": "x", "internal": True})
    # Staff who read projects but are not on this one read it and may not post; HR does not read projects at all.
    assert not conversations.thread(session, actor=people["outsider"], project_id=project.id).can_post
    with pytest.raises(Forbidden, match="Only the project's team"):
        conversations.post(session, actor=people["outsider"], project_id=project.id, data={"body": "Hello"})
    with pytest.raises(Forbidden):
        conversations.thread(session, actor=people["hr"], project_id=project.id)
    for body in ("", "   ", "x" * (MESSAGE_MAX + 1)):
        with pytest.raises(Invalid):
            conversations.post(session, actor=people["client"], project_id=project.id, data={"body": body})
    assert conversations.thread(session, actor=people["client"], project_id=project.id).messages == []
    with pytest.raises(NotFound):
        conversations.thread(session, actor=people["client"], project_id="1 OR 1=1")


def test_posting_is_bounded_per_author_and_a_refusal_stores_nothing(session: Session, people: dict[str, User]) -> None:
    project = f.project(session, people["client"], "Clinic burst")
    for i in range(conversations.PER_AUTHOR):
        conversations.post(session, actor=people["client"], project_id=project.id, data={"body": f"Message {i}"})
    with pytest.raises(TooManyRequests, match="too quickly"):
        conversations.post(session, actor=people["client"], project_id=project.id, data={"body": "One more"})
    session.rollback()
    thread = conversations.thread(session, actor=people["client"], project_id=project.id)
    assert len(thread.messages) == conversations.PER_AUTHOR and thread.messages[-1].body != "One more"
