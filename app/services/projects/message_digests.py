"""Digest mails of unread messages (issue 28, ADR 0102): a person with a message they have not read for
`MESSAGE_DIGEST_MINUTES` (10), which no earlier digest told them of, gets one mail listing each project with messages
new to them: how many are unread, the newest lines, and a link that opens the conversation.

Who reads what is `conversation_reads.readers_filter`: a client never hears of an internal note, and nobody of their
own messages. A message read in the browser before the minutes are up is never mailed (`last_read_id` passed it); a
mailed one is never mailed again (`notified_through_id`). A burst of messages gives one mail: the first message old
enough brings the whole burst into it, and one person gets at most one digest every `MESSAGE_DIGEST_MINUTES`, so a
steady stream cannot mail them every pass. Messages older than LOOKBACK are not mailed at all (a new team member is
not mailed a project's history). Those who turned the mails off get none.

Each pass locks the people it mails, one `message_mail_settings` row each (`FOR UPDATE SKIP LOCKED` on PostgreSQL;
SQLite has one writer), checks again under the lock, marks and queues the mail in one transaction: every server
process runs the pass, and each digest goes out once.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import func, not_, or_, union_all
from sqlalchemy import select as sa_select
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.permissions import STAFF_ROLES, Role
from app.models.base import utcnow
from app.models.conversation import ConversationRead, MessageMailSetting
from app.models.project import Project, ProjectMember, ProjectMessage
from app.models.user import User
from app.services.platform import letters, mail
from app.services.projects.conversation_reads import display_name, readers_filter

log = logging.getLogger(__name__)

BATCH = 50  # people per pass; a full batch leaves the rest to the next pass, seconds later
LOOKBACK = timedelta(days=7)
LINES = 3  # the newest lines shown per project
EXCERPT = 160  # characters of a line
PROJECTS_MAX = 10  # projects listed in one mail (the link opens the rest)
PORTAL = "/client-portal?tab=projects&conversation={id}"
STAFF = "/admin/content?tab=projects&conversation={id}"


@dataclasses.dataclass(frozen=True)
class Digest:
    """A digest queued: to whom, about which projects."""

    user_id: uuid.UUID
    to: str
    project_ids: tuple[int, ...]


def _recipients() -> Any:
    """(reader, project, message) for every message and each person it is for: the project's client (not internal
    notes), its manager and its members."""
    m, p = ProjectMessage, Project
    columns = (col(m.project_id), col(m.id), col(m.created_at), col(m.author_id))
    client: Any = (
        sa_select(col(p.client_id).label("user_id"), *columns)
        .join(p, col(p.id) == m.project_id)
        .where(not_(col(m.internal)))
    )
    manager: Any = (
        sa_select(col(p.manager_id).label("user_id"), *columns)
        .join(p, col(p.id) == m.project_id)
        .where(col(p.manager_id).is_not(None))
    )
    member: Any = sa_select(col(ProjectMember.user_id).label("user_id"), *columns).join(
        ProjectMember, col(ProjectMember.project_id) == m.project_id
    )
    return union_all(client, manager, member).subquery("r")


def _candidates(s: Session, now: datetime, cutoff: datetime) -> list[uuid.UUID]:
    """People with a message due for a digest (read nothing of it, mailed nothing of it, old enough, recent enough),
    who want the mails and had none within the minutes. Re-checked under the lock."""
    r, u = _recipients(), User
    read = sa.and_(ConversationRead.user_id == r.c.user_id, ConversationRead.project_id == r.c.project_id)
    marks = (func.coalesce(ConversationRead.last_read_id, 0), func.coalesce(ConversationRead.notified_through_id, 0))
    # The larger of the two: PostgreSQL's greatest(), SQLite's two-argument max().
    seen = func.max(*marks) if s.get_bind().dialect.name == "sqlite" else func.greatest(*marks)
    query = (
        select(r.c.user_id)
        .join(u, col(u.id) == r.c.user_id)
        .join(ConversationRead, read, isouter=True)
        .join(MessageMailSetting, col(MessageMailSetting.user_id) == r.c.user_id, isouter=True)
        .where(
            r.c.id > seen,
            r.c.author_id.is_distinct_from(r.c.user_id),
            r.c.created_at <= cutoff,
            r.c.created_at >= now - LOOKBACK,
            or_(col(u.role) == Role.client, col(u.role).in_(list(STAFF_ROLES))),
            func.coalesce(MessageMailSetting.mail_new_messages, True),
            or_(col(MessageMailSetting.digested_at).is_(None), col(MessageMailSetting.digested_at) <= cutoff),
        )
        .distinct()
        .limit(BATCH)
    )
    return list(s.exec(query).all())


def _ensure_settings(s: Session, people: list[uuid.UUID]) -> None:
    """A settings row for each (the lock's row), committed so other processes lock the same one."""
    dialect = s.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    stmt = insert(MessageMailSetting).values([{"user_id": p} for p in people]).on_conflict_do_nothing()
    s.execute(stmt)
    s.commit()


def _lock(s: Session, people: list[uuid.UUID], cutoff: datetime) -> list[MessageMailSetting]:
    return list(
        s.exec(
            select(MessageMailSetting)
            .where(
                col(MessageMailSetting.user_id).in_(people),
                col(MessageMailSetting.mail_new_messages),
                or_(col(MessageMailSetting.digested_at).is_(None), col(MessageMailSetting.digested_at) <= cutoff),
            )
            .with_for_update(skip_locked=True)
        ).all()
    )


@dataclasses.dataclass
class _Project:
    id: int
    name: str
    unread: int
    newest: int
    link: str
    lines: list[dict[str, str]] = dataclasses.field(default_factory=list)


def _news(s: Session, user: User, now: datetime, cutoff: datetime) -> list[_Project]:
    """The user's projects with unread messages no digest told them of, if any such message is due; else []."""
    scope = readers_filter(user)
    if scope is None:
        return []
    m, r = ProjectMessage, ConversationRead
    read = sa.and_(col(r.project_id) == m.project_id, col(r.user_id) == user.id)
    fresh = col(m.id) > func.coalesce(r.notified_through_id, 0)
    due = sa.and_(fresh, col(m.created_at) <= cutoff, col(m.created_at) >= now - LOOKBACK)
    rows = s.execute(
        sa_select(
            col(m.project_id),
            col(Project.name),
            func.count(),
            func.max(col(m.id)),
            func.count().filter(fresh),
            func.count().filter(due),
        )
        .join(Project, col(Project.id) == m.project_id)
        .join(r, read, isouter=True)
        .where(scope, col(m.id) > func.coalesce(r.last_read_id, 0), col(m.author_id).is_distinct_from(user.id))
        .group_by(col(m.project_id), col(Project.name))
        .order_by(func.max(m.id).desc())
    ).all()
    if not any(n_due for *_rest, n_due in rows):
        return []
    path = PORTAL if user.role == Role.client else STAFF
    return [
        _Project(pid, name, n, newest, settings.public_url + path.format(id=pid))
        for pid, name, n, newest, n_fresh, _n_due in rows
        if n_fresh
    ]


def _lines(s: Session, user: User, project: _Project, after: int) -> list[dict[str, str]]:
    """The newest unread lines of a project, oldest first: author and a one-line excerpt."""
    query = (
        select(ProjectMessage, User)
        .join(User, col(User.id) == ProjectMessage.author_id, isouter=True)
        .where(ProjectMessage.project_id == project.id, col(ProjectMessage.id) > after)
        .where(col(ProjectMessage.author_id).is_distinct_from(user.id))
    )
    if user.role == Role.client:
        query = query.where(not_(col(ProjectMessage.internal)))
    rows = s.exec(query.order_by(col(ProjectMessage.id).desc()).limit(LINES)).all()
    return [{"author": _author(m, a), "text": _excerpt(m.body)} for m, a in reversed(rows)]


def _author(m: ProjectMessage, a: User | None) -> str:
    name = display_name(a) if a is not None else "Former user"
    return f"{name} (internal note)" if m.internal else name


def _excerpt(body: str) -> str:
    flat = " ".join(body.split())
    return flat if len(flat) <= EXCERPT else flat[: EXCERPT - 1].rstrip() + "…"


def _mark(s: Session, user_id: uuid.UUID, projects: list[_Project]) -> None:
    for p in projects:
        row = s.get(ConversationRead, (user_id, p.id)) or ConversationRead(user_id=user_id, project_id=p.id)
        row.notified_through_id = max(row.notified_through_id, p.newest)
        s.add(row)


def _digest(s: Session, setting: MessageMailSetting, now: datetime, cutoff: datetime) -> Digest | None:
    user = s.get(User, setting.user_id)
    if user is None:
        return None
    found = _news(s, user, now, cutoff)
    if not found:
        return None  # read, or mailed by another pass, since the candidates were chosen
    shown = found[:PROJECTS_MAX]
    for p in shown:
        last = s.get(ConversationRead, (user.id, p.id))
        p.lines = _lines(s, user, p, last.last_read_id if last else 0)
    letter = letters.render(
        s,
        "message_digest",
        name=user.first_name or user.username,
        projects=[dataclasses.asdict(p) for p in shown],
        settings_link=settings.public_url
        + ("/client-portal?tab=settings" if user.role == Role.client else "/admin/settings"),
    )
    mail.enqueue(s, to=user.email, letter=letter, public=False)
    _mark(s, user.id, found)
    setting.digested_at = now
    s.add(setting)
    return Digest(user.id, user.email, tuple(p.id for p in shown))


def send_due(s: Session, *, now: datetime | None = None) -> list[Digest]:
    """Queue every digest due now, each once; returns them."""
    now = now or utcnow()
    cutoff = now - timedelta(minutes=settings.message_digest_minutes)
    people = _candidates(s, now, cutoff)
    if not people:
        return []
    _ensure_settings(s, people)
    queued = [d for row in _lock(s, people, cutoff) if (d := _digest(s, row, now, cutoff)) is not None]
    s.commit()
    for d in queued:
        log.info("Message digest to %s about project(s) %s", d.to, ", ".join(map(str, d.project_ids)))
    return queued
