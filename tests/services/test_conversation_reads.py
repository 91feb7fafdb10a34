"""Unread counts of the project conversations (issue 28, ADR 0102): a client's, of their own projects and never of an
internal note; a staff member's, of the projects they are on; opening the conversation marks it read. And the
dashboard's conversations waiting for a reply, and the choice of digest mails."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session

from app.core.errors import Forbidden, Invalid, NotFound
from app.models.enums import EmployeeType, Role
from app.models.project import ProjectMember, ProjectMessage
from app.models.user import User
from app.services.projects import conversation_reads as reads
from app.services.projects import conversations
from tests import factories as f


@pytest.fixture
def people(session: Session) -> dict[str, User]:
    return {
        "client": f.user(session, "unread_client", first_name="Dana"),
        "other": f.user(session, "unread_other_client"),
        "dev": f.user(session, "unread_dev", role=Role.employee, employee_type=EmployeeType.developer),
        "pm": f.user(session, "unread_pm", role=Role.employee, employee_type=EmployeeType.developer),
        "admin": f.user(session, "unread_admin", role=Role.admin),
    }


def say(s: Session, who: User, project_id: int | None, body: str, *, internal: bool = False) -> int:
    return conversations.post(s, actor=who, project_id=project_id, data={"body": body, "internal": internal}).id


def test_counts_are_for_the_client_and_the_team_and_never_show_a_client_a_note(
    session: Session, people: dict[str, User]
) -> None:
    client, dev, pm, admin = people["client"], people["dev"], people["pm"], people["admin"]
    site = f.project(session, client, "Unread site", manager_id=pm.id)
    app = f.project(session, client, "Unread app")
    session.add(ProjectMember(project_id=site.id or 0, user_id=dev.id))
    session.commit()

    say(session, client, site.id, "Is the menu done?")
    say(session, client, app.id, "And the app?")
    say(session, dev, site.id, "Nearly.")
    say(session, dev, site.id, "Waiting on the logo.", internal=True)

    assert reads.unread_counts(session, actor=client) == {site.id: 1}  # the answer; not the note, not their own
    assert reads.unread_counts(session, actor=dev) == {site.id: 1}  # the question on the project they are on
    assert reads.unread_counts(session, actor=pm) == {site.id: 3}  # the manager: question, answer, note
    assert reads.unread_counts(session, actor=admin) == {}  # reads every project, is on none: nothing to answer
    assert reads.unread_counts(session, actor=people["other"]) == {}


def test_opening_marks_read_up_to_what_was_shown_and_never_back(session: Session, people: dict[str, User]) -> None:
    client, dev = people["client"], people["dev"]
    site = f.project(session, client, "Read site", manager_id=dev.id)
    first = say(session, dev, site.id, "Draft ready.")
    second = say(session, dev, site.id, "Also the copy.")
    note = say(session, dev, site.id, "Client is slow.", internal=True)

    reads.mark_read(session, actor=client, project_id=site.id, through=first)
    assert reads.unread_counts(session, actor=client) == {site.id: 1}
    reads.mark_read(session, actor=client, project_id=site.id, through=note)  # past what they may see: capped
    assert reads.unread_counts(session, actor=client) == {}
    mark = session.get(reads.ConversationRead, (client.id, site.id))
    assert mark is not None and mark.last_read_id == second
    reads.mark_read(session, actor=client, project_id=site.id, through=first)  # never backwards
    assert mark.last_read_id == second

    with pytest.raises(NotFound):
        reads.mark_read(session, actor=people["other"], project_id=site.id, through=second)
    with pytest.raises(NotFound):
        reads.mark_read(session, actor=client, project_id=10**9, through=1)


def test_the_count_is_one_query_over_the_indexes(session: Session, people: dict[str, User]) -> None:
    """The count runs on every tick of every open portal: it reads the project's messages from their index by
    (project, id), never the whole table."""
    client = people["client"]
    site = f.project(session, client, "Plan site")
    say(session, people["admin"], site.id, "Hello")
    query = reads._unread_rows(client).where(reads.readers_filter(client)).group_by(ProjectMessage.project_id)
    compiled = query.compile(session.get_bind(), compile_kwargs={"literal_binds": True})
    session.exec(reads.sa.text("SET LOCAL enable_seqscan = off"))  # type: ignore[call-overload]
    plan = "\n".join(r[0] for r in session.exec(reads.sa.text(f"EXPLAIN {compiled}")))  # type: ignore[call-overload]
    assert "ix_project_messages_project_id_id" in plan and "Seq Scan on project_messages" not in plan


def test_waiting_for_a_reply_lists_unanswered_clients_oldest_first(session: Session, people: dict[str, User]) -> None:
    client, other, dev = people["client"], people["other"], people["dev"]
    answered = f.project(session, client, "Wait answered")
    newer = f.project(session, client, "Wait newer")
    older = f.project(session, other, "Wait older")
    noted = f.project(session, other, "Wait noted")
    say(session, client, answered.id, "Question?")
    say(session, people["admin"], answered.id, "Answer.")
    say(session, other, older.id, "First, long ago")
    say(session, other, older.id, "Still there?")
    say(session, client, newer.id, "A newer question")
    say(session, other, noted.id, "Help?")
    say(session, people["admin"], noted.id, "Looking into it (internal)", internal=True)  # not an answer
    rows = session.exec(reads.select(ProjectMessage).where(ProjectMessage.project_id == older.id)).all()
    for m in rows:  # the older conversation's messages, an hour back
        m.created_at -= timedelta(hours=1)
        session.add(m)
    session.commit()

    found = reads.waiting_for_reply(session, actor=people["admin"])
    mine = [r for r in found.rows if r.project_name.startswith("Wait ")]
    assert [(r.project_name, r.messages) for r in mine] == [("Wait older", 2), ("Wait newer", 1), ("Wait noted", 1)]
    assert mine[0].client == "unread_other_client" and found.total >= 3
    with pytest.raises(Forbidden):
        reads.waiting_for_reply(session, actor=client)
    assert dev  # a developer reads projects too
    assert any(r.project_name == "Wait newer" for r in reads.waiting_for_reply(session, actor=dev).rows)


def test_the_mail_preference_is_on_by_default_and_checked_when_saved(session: Session, people: dict[str, User]) -> None:
    client = people["client"]
    assert reads.mails_new_messages(session, actor=client)
    assert reads.set_mail_preference(session, actor=client, data={"mail_new_messages": False}) is False
    assert not reads.mails_new_messages(session, actor=client)
    with pytest.raises(Invalid):
        reads.set_mail_preference(session, actor=client, data={"mail_new_messages": "maybe"})
    with pytest.raises(Invalid):
        reads.set_mail_preference(session, actor=client, data={})
    assert not reads.mails_new_messages(session, actor=client)  # a refusal changes nothing
    assert reads.set_mail_preference(session, actor=client, data={"mail_new_messages": True})
