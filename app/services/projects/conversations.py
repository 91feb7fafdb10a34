"""A project's conversation (issue 28): the project's client and the staff on it post messages, and staff add internal
notes that the client never reads.

Who reads: the project's client, and staff who see the projects (content:read). Who posts: the client, and the staff on
the project (its manager and members, or content:write: those who also log its time, `time_entries.may_log`). An
internal note is staff only, and so is every line about one. A stranger's or another client's request for a project
is "Project not found", as for every other project call: the id tells nothing. Messages are plain text; the pages
show them as text, never as HTML.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any

from pydantic import BaseModel, Field
from sqlmodel import Session, col, select

from app.core.db import get_by_id
from app.core.errors import Forbidden, NotFound, TooManyRequests
from app.core.permissions import STAFF_ROLES, Perm, Role
from app.models.project import MESSAGE_MAX, Project, ProjectMessage
from app.models.user import User
from app.services.platform import access, ratelimit
from app.services.platform.schema import Input, Text, parse
from app.services.projects.time_entries import may_log

THREAD_MAX = 200  # the newest messages a conversation shows
# Posting is bounded per author and per project (messages are kept): a burst from one account, or many at one
# project, is refused with nothing stored.
PER_AUTHOR, PER_PROJECT, WINDOW = 30, 120, timedelta(minutes=10)
TOO_FAST = "You are sending messages too quickly. Please wait a few minutes and try again."


class MessageCreate(Input):
    body: Annotated[str | None, Text("Message", MESSAGE_MAX, required=True)] = Field(None, validate_default=True)
    internal: bool = Field(False, description="An internal note, which the client never reads (staff only).")


class MessagePublic(BaseModel):
    id: int
    author: str
    from_staff: bool
    mine: bool
    internal: bool
    body: str
    created_at: datetime


class Thread(BaseModel):
    project_id: int
    project_name: str
    messages: list[MessagePublic]
    can_post: bool
    can_note: bool  # internal notes: the staff on the project


def _name(u: User | None) -> str:
    if u is None:
        return "Former user"
    return " ".join(p for p in (u.first_name, u.last_name) if p) or u.username


def _project(s: Session, actor: User, project_id: Any) -> tuple[Project, bool]:
    """The project the actor may read, and whether they read it as staff."""
    project = get_by_id(s, Project, project_id)
    if actor.role == Role.client:
        if project is None or project.client_id != actor.id:
            raise NotFound("Project not found")
        return project, False
    access.require(actor, Perm.content_read, "read project conversations")
    if project is None:
        raise NotFound("Project not found")
    return project, True


def _dto(m: ProjectMessage, author: User | None, actor: User) -> MessagePublic:
    return MessagePublic(
        id=m.id or 0,
        author=_name(author),
        from_staff=author is not None and author.role in STAFF_ROLES,
        mine=m.author_id == actor.id,
        internal=m.internal,
        body=m.body,
        created_at=m.created_at,
    )


def thread(s: Session, *, actor: User, project_id: Any) -> Thread:
    """The conversation as the actor may read it: its newest messages, oldest first."""
    project, staff = _project(s, actor, project_id)
    query = select(ProjectMessage, User).join(User, col(User.id) == ProjectMessage.author_id, isouter=True)
    query = query.where(ProjectMessage.project_id == project.id)
    if not staff:
        query = query.where(col(ProjectMessage.internal).is_(False))
    rows = s.exec(query.order_by(col(ProjectMessage.id).desc()).limit(THREAD_MAX)).all()
    on_team = staff and may_log(s, actor, project)
    return Thread(
        project_id=project.id or 0,
        project_name=project.name,
        messages=[_dto(m, u, actor) for m, u in reversed(rows)],
        can_post=on_team or not staff,
        can_note=on_team,
    )


def post(s: Session, *, actor: User, project_id: Any, data: MessageCreate | dict[str, Any]) -> MessagePublic:
    """Add a message (or, for the staff on the project, an internal note) to the conversation."""
    project, staff = _project(s, actor, project_id)
    values = parse(MessageCreate, data)
    if staff and not may_log(s, actor, project):
        raise Forbidden("Only the project's team can post in its conversation")
    if values.internal and not staff:
        raise Forbidden("Only staff can add internal notes")
    limits = (
        ratelimit.Limit(f"message:author:{actor.id}", PER_AUTHOR, WINDOW, TOO_FAST),
        ratelimit.Limit(f"message:project:{project.id}", PER_PROJECT, WINDOW, TOO_FAST),
    )
    if not ratelimit.claim(s, *limits):
        raise TooManyRequests(TOO_FAST)
    body, internal = values.body or "", values.internal
    message = ProjectMessage(project_id=project.id or 0, author_id=actor.id, body=body, internal=internal)
    s.add(message)
    s.commit()
    s.refresh(message)
    return _dto(message, actor, actor)
