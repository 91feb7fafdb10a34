"""What each person has not read yet in the project conversations, and the conversations waiting for staff to answer
(issue 28, ADR 0102).

Counts are for those a conversation is *for*: a client, the messages in their own projects' conversations that others
wrote, never an internal note; staff, the messages others wrote on the projects they are on (as manager or member),
internal notes included. Staff who only read the projects (content:read) see the conversations but get no counts and
no digest mails: a count means "yours to answer", and an admin would otherwise carry every project's. A message is
unread while it is newer than the reader's `last_read_id` (ids only grow), which opening the conversation moves up to
the newest message shown. One indexed query counts them all: projects by client or team, messages by (project, id).

Also here: each person's choice of digest mails (on unless turned off) and the dashboard's list of conversations whose
newest message the client wrote after the team's last answer.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

import sqlalchemy as sa
from pydantic import BaseModel, Field
from sqlalchemy import ColumnElement, func, not_, or_
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.core.db import get_by_id
from app.core.errors import NotFound
from app.core.permissions import STAFF_ROLES, Perm, Role
from app.models.conversation import ConversationRead, MessageMailSetting
from app.models.project import Project, ProjectMember, ProjectMessage
from app.models.user import User
from app.services.platform import access
from app.services.platform.schema import Body, parse

WAITING_LIMIT = 10  # conversations the dashboard lists; its count says how many there are in all


def on_team(user_id: Any) -> ColumnElement[bool]:
    """The projects a staff member is on: they manage it or are a member of it."""
    members = select(ProjectMember.project_id).where(ProjectMember.user_id == user_id)
    return or_(col(Project.manager_id) == user_id, col(Project.id).in_(members))


def readers_filter(user: User) -> ColumnElement[bool] | None:
    """The messages `user` is counted and mailed about, beside the read marks (None: none, not being a reader)."""
    if user.role == Role.client:
        return sa.and_(col(Project.client_id) == user.id, not_(col(ProjectMessage.internal)))
    if user.role in STAFF_ROLES:
        return on_team(user.id)
    return None


def _unread_rows(user: User) -> Any:
    """Messages in the user's conversations, by someone else, newer than what they read (joined with the project)."""
    read = sa.and_(
        col(ConversationRead.project_id) == ProjectMessage.project_id, col(ConversationRead.user_id) == user.id
    )
    return (
        select(ProjectMessage.project_id, func.count())
        .join(Project, col(Project.id) == ProjectMessage.project_id)
        .join(ConversationRead, read, isouter=True)
        .where(
            col(ProjectMessage.id) > func.coalesce(ConversationRead.last_read_id, 0),
            col(ProjectMessage.author_id).is_distinct_from(user.id),
        )
    )


def unread_counts(s: Session, *, actor: User) -> dict[int, int]:
    """The actor's unread messages per project (projects with none are left out)."""
    scope = readers_filter(actor)
    if scope is None:
        return {}
    rows = s.exec(_unread_rows(actor).where(scope).group_by(ProjectMessage.project_id)).all()
    return {int(project_id): int(n) for project_id, n in rows}


def _readable(s: Session, actor: User, project_id: Any) -> Project:
    """The project whose conversation the actor reads (as `conversations.thread` decides), else NotFound/Forbidden."""
    project = get_by_id(s, Project, project_id)
    if actor.role == Role.client:
        if project is None or project.client_id != actor.id:
            raise NotFound("Project not found")
        return project
    access.require(actor, Perm.content_read, "read project conversations")
    if project is None:
        raise NotFound("Project not found")
    return project


def mark_read(s: Session, *, actor: User, project_id: Any, through: int) -> None:
    """The actor has seen the conversation up to message `through` (the newest shown); never moves backwards, and
    never past the newest message they may read. Writes only when it moves."""
    project = _readable(s, actor, project_id)
    newest = select(func.max(ProjectMessage.id)).where(ProjectMessage.project_id == project.id)
    if actor.role == Role.client:
        newest = newest.where(not_(col(ProjectMessage.internal)))
    upto = min(int(through), int(s.exec(newest).one() or 0))
    if upto <= 0:
        return
    mark = s.get(ConversationRead, (actor.id, project.id))
    if mark is None:
        mark = ConversationRead(user_id=actor.id, project_id=project.id or 0)
    elif mark.last_read_id >= upto:
        return
    mark.last_read_id = upto
    s.add(mark)
    s.commit()


# --- digest preference -------------------------------------------------------------------------------------------


class MailPreference(Body):
    mail_new_messages: Annotated[bool, Field(strict=True, description="E-mail me about new messages")]


def mails_new_messages(s: Session, *, actor: User) -> bool:
    """Whether the actor wants digest mails of new messages (yes unless they said no)."""
    row = s.get(MessageMailSetting, actor.id)
    return row is None or row.mail_new_messages


def set_mail_preference(s: Session, *, actor: User, data: MailPreference | dict[str, Any]) -> bool:
    """Save the actor's own choice of digest mails; returns it as stored."""
    wanted = parse(MailPreference, data).mail_new_messages
    row = s.get(MessageMailSetting, actor.id) or MessageMailSetting(user_id=actor.id)
    row.mail_new_messages = wanted
    s.add(row)
    s.commit()
    return wanted


# --- waiting for a reply -----------------------------------------------------------------------------------------


class WaitingConversation(BaseModel):
    project_id: int
    project_name: str
    client: str
    since: datetime  # the first of the client's messages after the team's last answer
    messages: int  # how many the client has written since


class WaitingList(BaseModel):
    total: int
    rows: list[WaitingConversation]


def waiting_for_reply(s: Session, *, actor: User, limit: int = WAITING_LIMIT) -> WaitingList:
    """Conversations whose newest message (internal notes aside) the client wrote with no answer after it, the one
    waiting longest first: for staff who read the projects (content:read)."""
    access.require(actor, Perm.content_read, "read project conversations")
    answered = (
        select(func.coalesce(func.max(ProjectMessage.id), 0))
        .where(
            ProjectMessage.project_id == Project.id,
            not_(col(ProjectMessage.internal)),
            col(ProjectMessage.author_id).is_distinct_from(Project.client_id),
        )
        .correlate(Project)
        .scalar_subquery()
    )
    since = func.min(ProjectMessage.created_at).label("since")
    grouped = (
        sa_select(col(Project.id), col(Project.name), col(Project.client_id), since, func.count().label("n"))
        .join(ProjectMessage, col(ProjectMessage.project_id) == Project.id)
        .where(
            col(ProjectMessage.author_id) == Project.client_id,
            not_(col(ProjectMessage.internal)),
            col(ProjectMessage.id) > answered,
        )
        .group_by(col(Project.id))
        .subquery()
    )
    total = int(s.execute(sa_select(func.count()).select_from(grouped)).scalar_one())
    rows = s.execute(sa_select(grouped).order_by(grouped.c.since, grouped.c.id).limit(limit)).all()
    clients = _names(s, {r.client_id for r in rows})
    return WaitingList(
        total=total,
        rows=[
            WaitingConversation(
                project_id=r.id, project_name=r.name, client=clients.get(r.client_id, ""), since=r.since, messages=r.n
            )
            for r in rows
        ],
    )


def display_name(u: User) -> str:
    return " ".join(p for p in (u.first_name, u.last_name) if p) or u.username


def _names(s: Session, ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
    if not ids:
        return {}
    return {u.id: display_name(u) for u in s.exec(select(User).where(col(User.id).in_(ids))).all()}
