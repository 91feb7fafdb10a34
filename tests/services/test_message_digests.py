"""Digest mails of unread messages (issue 28, ADR 0102): one mail per person for a burst, none to the author, none
when read in time or when turned off, never an internal note to a client, and once across processes.

The pass is given the clock (`now`): a test moves it past the digest minutes instead of waiting. The race test runs
real passes in threads on committed rows, as every server process runs one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.config import Settings, settings
from app.models.base import utcnow
from app.models.enums import EmployeeType, Role
from app.models.project import Project, ProjectMember
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.platform import mail
from app.services.projects import conversation_reads, conversations, message_digests
from tests import factories as f
from tests.services.conftest import Committed
from tests.services.test_throttle_races import in_parallel
from tests.smtp_sink import SmtpSink

N = 6  # server processes running the pass at once
LATER = timedelta(minutes=settings.message_digest_minutes, seconds=30)


@pytest.fixture
def client(session: Session) -> User:
    return f.user(session, "digest_client", first_name="Dana")


@pytest.fixture
def dev(session: Session) -> User:
    return f.user(session, "digest_dev", role=Role.employee, employee_type=EmployeeType.developer, first_name="Lee")


@pytest.fixture
def project(session: Session, client: User, dev: User) -> Project:
    row = f.project(session, client, "Digest site")
    session.add(ProjectMember(project_id=row.id or 0, user_id=dev.id))
    session.commit()
    return row


def say(s: Session, who: User, project: Project, body: str, *, internal: bool = False) -> int:
    return conversations.post(s, actor=who, project_id=project.id, data={"body": body, "internal": internal}).id


def mails_to(s: Session, user: User) -> list[EmailOutbox]:
    return list(s.exec(select(EmailOutbox).where(EmailOutbox.to_address == user.email)).all())


def test_a_burst_gives_one_mail_and_none_to_the_author_and_never_a_note_to_the_client(
    session: Session, client: User, dev: User, project: Project
) -> None:
    for i in range(20):
        say(session, dev, project, f"Update {i}: the pages are moving along.")
    say(session, dev, project, "Secret: the budget is tight.", internal=True)

    assert message_digests.send_due(session, now=utcnow()) == []  # not old enough yet
    [digest] = message_digests.send_due(session, now=utcnow() + LATER)
    assert (digest.to, digest.project_ids) == (client.email, (project.id,))
    assert message_digests.send_due(session, now=utcnow() + 2 * LATER) == []  # each message is mailed once
    assert mails_to(session, dev) == []  # the author: their own messages are not news to them

    [letter] = mails_to(session, client)
    assert letter.subject == "20 unread messages about Digest site"
    assert "Update 19: the pages are moving along." in letter.body_text and "Update 16" not in letter.body_text
    assert "Secret" not in letter.body_text and "budget" not in letter.body_text
    assert f"{settings.public_url}/client-portal?tab=projects&conversation={project.id}" in letter.body_text

    # The client answers: the developer is mailed once, with the staff panel's link.
    say(session, client, project, "Thanks, looks good!")
    [to_dev] = message_digests.send_due(session, now=utcnow() + 3 * LATER)
    assert to_dev.to == dev.email
    [staff_letter] = mails_to(session, dev)
    assert f"/admin/content?tab=projects&conversation={project.id}" in staff_letter.body_text
    assert "Dana: Thanks, looks good!" in staff_letter.body_text


def test_a_message_read_in_time_is_not_mailed(session: Session, client: User, dev: User, project: Project) -> None:
    newest = say(session, dev, project, "Quick question about fonts.")
    conversation_reads.mark_read(session, actor=client, project_id=project.id, through=newest)
    assert message_digests.send_due(session, now=utcnow() + LATER) == []
    assert mails_to(session, client) == []


def test_no_mail_when_the_preference_is_off(session: Session, client: User, dev: User, project: Project) -> None:
    conversation_reads.set_mail_preference(session, actor=client, data={"mail_new_messages": False})
    say(session, dev, project, "Anyone there?")
    assert message_digests.send_due(session, now=utcnow() + LATER) == []
    assert mails_to(session, client) == []


def test_the_digest_reaches_an_smtp_server(session: Session, client: User, dev: User, project: Project) -> None:
    sink = SmtpSink().start()
    try:
        cfg = Settings(_env_file=None, smtp_host="127.0.0.1", smtp_port=sink.port, smtp_tls="none")  # type: ignore[call-arg]
        say(session, dev, project, "The staging site is up: have a look.")
        message_digests.send_due(session, now=utcnow() + LATER)
        mail.deliver_pending(session, cfg=cfg)
        [got] = [m for m in sink.messages if m["To"] == client.email]
        assert got["Subject"] == "1 unread message about Digest site"
        body = got.get_body(("plain",)).get_content()  # type: ignore[union-attr]
        assert "Lee: The staging site is up: have a look." in body
    finally:
        sink.stop()


def test_passes_running_at_once_send_each_digest_once(committed: Committed, pool: Engine) -> None:
    """On committed rows, removed afterwards by `committed` (with the mail and the rate-limit events posting left)."""
    with Session(committed.engine, expire_on_commit=False) as s:
        mark = committed.marks[EmailOutbox]
        client = f.user(s, "race_digest_client")
        dev = f.user(s, "race_digest_dev", role=Role.employee, employee_type=EmployeeType.developer)
        committed.user_ids += [client.id, dev.id]
        projects = [f.project(s, client, f"Race digest {i}", manager_id=dev.id) for i in range(3)]
        for p in projects:
            for i in range(3):
                say(s, dev, p, f"Burst {i}")
    try:
        results = in_parallel(pool, lambda s, _: message_digests.send_due(s, now=utcnow() + LATER), N)
        assert not [r for r in results if isinstance(r, Exception)]
        [digest] = [d for batch in results for d in batch if d.to == client.email]
        assert sorted(digest.project_ids) == sorted(p.id or 0 for p in projects)
        with Session(committed.engine) as s:
            sent = s.exec(select(EmailOutbox.to_address).where(col(EmailOutbox.id) > mark)).all()
        assert sent == [client.email]
    finally:
        with Session(committed.engine) as s:  # the users' deletion (by `committed`) cannot take their projects
            s.exec(delete(Project).where(col(Project.id).in_([p.id for p in projects])))  # type: ignore[call-overload]
            s.commit()
