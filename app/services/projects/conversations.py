"""A project's conversation (issue 28): the project's client and the staff on it post messages, and staff add internal
notes that the client never reads.

Who reads: the project's client, and staff who see the projects (content:read). Who posts: the client, and the staff on
the project (its manager and members, or content:write: those who also log its time, `time_entries.may_log`). An
internal note is staff only, and so is every line about one. A stranger's or another client's request for a project
is "Project not found", as for every other project call: the id tells nothing. Messages are plain text; the pages
show them as text, never as HTML.

A message may carry up to three files (ADR 0101), checked by content like CVs (`files.ATTACHMENT`) and kept in the
private store; whoever may read the message may download its files (an internal note's only staff), streamed by the
app. Storage is bounded per author per day and per project in total; a refusal stores nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import IO, Annotated, Any

from pydantic import BaseModel, Field
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.core.db import MAX_ID, get_by_id
from app.core.errors import DomainError, Forbidden, Invalid, NotFound, TooManyRequests
from app.core.permissions import STAFF_ROLES, Perm, Role
from app.models.base import utcnow
from app.models.project import MESSAGE_MAX, Project, ProjectMessage, ProjectMessageFile
from app.models.user import User
from app.services.platform import access, files, ratelimit
from app.services.platform.schema import Input, Text, parse
from app.services.projects.time_entries import may_log

THREAD_MAX = 200  # the newest messages a conversation shows
# Posting is bounded per author and per project (messages are kept): a burst from one account, or many at one
# project, is refused with nothing stored.
PER_AUTHOR, PER_PROJECT, WINDOW = 30, 120, timedelta(minutes=10)
TOO_FAST = "You are sending messages too quickly. Please wait a few minutes and try again."
MAX_FILES = 3  # per message, each at most MAX_UPLOAD_MB (files.max_bytes)
# What one author may store in a day, and one project in all: the store is ours to pay for.
AUTHOR_DAY_BYTES, PROJECT_BYTES = 100 * 1024 * 1024, 2 * 1024 * 1024 * 1024
EMPTY_MESSAGE = "Message is required"  # no text and no file
TOO_MANY_FILES = f"Attach at most {MAX_FILES} files to a message."
AUTHOR_FULL = (
    "You have sent 100 MB of files today, which is the daily limit, so this message was not sent. "
    "Please try again tomorrow, or send a link to the files instead."
)
PROJECT_FULL = (
    "This project's conversation already holds 2 GB of files, which is its limit, so this message was not sent. "
    "Please send a link to the files instead."
)
FILE_NOT_FOUND = "File not found"
Upload = tuple[str, bytes]  # a chosen file's name and content


class MessageCreate(Input):
    # Required unless the message carries files (post checks that).
    body: Annotated[str | None, Text("Message", MESSAGE_MAX)] = Field(None, validate_default=True)
    internal: bool = Field(False, description="An internal note, which the client never reads (staff only).")


class FilePublic(BaseModel):
    id: int
    name: str  # the uploader's file name: the download's
    content_type: str
    size: int  # bytes
    url: str  # the download (GET, with the session cookie)


class MessagePublic(BaseModel):
    id: int
    author: str
    from_staff: bool
    mine: bool
    internal: bool
    body: str
    created_at: datetime
    files: list[FilePublic] = []


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


def file_url(project_id: int, file_id: int) -> str:
    return f"/api/projects/{project_id}/messages/files/{file_id}"


def _file_dto(project_id: int, f: ProjectMessageFile) -> FilePublic:
    return FilePublic(
        id=f.id or 0, name=f.name, content_type=f.content_type, size=f.size, url=file_url(project_id, f.id or 0)
    )


def _dto(
    m: ProjectMessage, author: User | None, actor: User, attached: Sequence[ProjectMessageFile] = ()
) -> MessagePublic:
    return MessagePublic(
        id=m.id or 0,
        author=_name(author),
        from_staff=author is not None and author.role in STAFF_ROLES,
        mine=m.author_id == actor.id,
        internal=m.internal,
        body=m.body,
        created_at=m.created_at,
        files=[_file_dto(m.project_id, f) for f in attached],
    )


def _files_of(s: Session, message_ids: list[int]) -> dict[int, list[ProjectMessageFile]]:
    found: dict[int, list[ProjectMessageFile]] = {}
    if message_ids:
        query = select(ProjectMessageFile).where(col(ProjectMessageFile.message_id).in_(message_ids))
        for f in s.exec(query.order_by(col(ProjectMessageFile.id))).all():
            found.setdefault(f.message_id, []).append(f)
    return found


def thread(s: Session, *, actor: User, project_id: Any) -> Thread:
    """The conversation as the actor may read it: its newest messages, oldest first."""
    project, staff = _project(s, actor, project_id)
    query = select(ProjectMessage, User).join(User, col(User.id) == ProjectMessage.author_id, isouter=True)
    query = query.where(ProjectMessage.project_id == project.id)
    if not staff:
        query = query.where(col(ProjectMessage.internal).is_(False))
    rows = s.exec(query.order_by(col(ProjectMessage.id).desc()).limit(THREAD_MAX)).all()
    on_team = staff and may_log(s, actor, project)
    attached = _files_of(s, [m.id or 0 for m, _ in rows])
    return Thread(
        project_id=project.id or 0,
        project_name=project.name,
        messages=[_dto(m, u, actor, attached.get(m.id or 0, [])) for m, u in reversed(rows)],
        can_post=on_team or not staff,
        can_note=on_team,
    )


def _checked_files(uploads: Sequence[Upload]) -> list[tuple[str, bytes, files.FileType]]:
    """Every chosen file checked by content before any is stored; a refusal names the file."""
    if len(uploads) > MAX_FILES:
        raise Invalid(TOO_MANY_FILES, errors={"files": TOO_MANY_FILES})
    checked = []
    for name, data in uploads:
        try:
            kind = files.detect(name, data, field="files", policy=files.ATTACHMENT)
        except DomainError as exc:
            said = f"{files.display_name(name)}: {exc.message}"
            raise type(exc)(said, errors={"files": said}) from None
        checked.append((name, data, kind))
    return checked


def _stored_bytes(s: Session, *where: Any) -> int:
    query = select(func.coalesce(func.sum(ProjectMessageFile.size), 0)).join(
        ProjectMessage, col(ProjectMessage.id) == ProjectMessageFile.message_id
    )
    return int(s.exec(query.where(*where)).one())


def _claim_storage(s: Session, actor: User, project: Project, size: int) -> None:
    """Refuse files past the author's daily and the project's total allowance. The project's and the author's rows
    stay locked until the message is committed, so two posts at once cannot both pass on the same room."""
    s.exec(select(Project.id).where(Project.id == project.id).with_for_update()).all()
    s.exec(select(User.id).where(User.id == actor.id).with_for_update()).all()
    since = utcnow() - timedelta(days=1)
    today = _stored_bytes(s, ProjectMessage.author_id == actor.id, col(ProjectMessageFile.created_at) >= since)
    if today + size > AUTHOR_DAY_BYTES:
        raise Invalid(AUTHOR_FULL, errors={"files": AUTHOR_FULL})
    if _stored_bytes(s, ProjectMessage.project_id == project.id) + size > PROJECT_BYTES:
        raise Invalid(PROJECT_FULL, errors={"files": PROJECT_FULL})


def post(
    s: Session,
    *,
    actor: User,
    project_id: Any,
    data: MessageCreate | dict[str, Any],
    uploads: Sequence[Upload] = (),
) -> MessagePublic:
    """Add a message (or, for the staff on the project, an internal note) to the conversation, with up to three
    files; a message is its text, its files, or both."""
    project, staff = _project(s, actor, project_id)
    values = parse(MessageCreate, data)
    if staff and not may_log(s, actor, project):
        raise Forbidden("Only the project's team can post in its conversation")
    if values.internal and not staff:
        raise Forbidden("Only staff can add internal notes")
    if not values.body and not uploads:
        raise Invalid(EMPTY_MESSAGE, errors={"body": EMPTY_MESSAGE})
    checked = _checked_files(uploads)
    limits = (
        ratelimit.Limit(f"message:author:{actor.id}", PER_AUTHOR, WINDOW, TOO_FAST),
        ratelimit.Limit(f"message:project:{project.id}", PER_PROJECT, WINDOW, TOO_FAST),
    )
    if checked:  # before the rate limit's claim, so a refusal leaves nothing to commit
        _claim_storage(s, actor, project, sum(len(data) for _, data, _ in checked))
    if not ratelimit.claim(s, *limits):
        raise TooManyRequests(TOO_FAST)
    body, internal = values.body or "", values.internal
    message = ProjectMessage(project_id=project.id or 0, author_id=actor.id, body=body, internal=internal)
    stored: list[files.StoredFile] = []
    try:
        for name, content, kind in checked:
            stored.append(files.put(name, content, kind, policy=files.ATTACHMENT))
        s.add(message)
        s.flush()
        rows = [
            ProjectMessageFile(
                message_id=message.id or 0, key=f.name, name=f.filename, content_type=f.content_type, size=f.size
            )
            for f in stored
        ]
        s.add_all(rows)
        s.commit()
    except BaseException:
        s.rollback()
        for f in stored:  # no row points at them: the message was not kept
            files.delete(f.name)
        raise
    s.refresh(message)
    return _dto(message, actor, actor, rows)


def open_file(s: Session, *, actor: User, project_id: Any, file_id: Any) -> tuple[str, str, IO[bytes]]:
    """A file of the conversation (download name, content type, open file) for whoever may read its message: the
    project's client (never an internal note's), or staff who read projects. Anything else is "File not found"."""
    try:
        project, staff = _project(s, actor, project_id)
    except NotFound:
        raise NotFound(FILE_NOT_FOUND) from None
    found = s.exec(
        select(ProjectMessageFile, ProjectMessage)
        .join(ProjectMessage, col(ProjectMessage.id) == ProjectMessageFile.message_id)
        .where(ProjectMessageFile.id == (file_id if isinstance(file_id, int) and 0 < file_id <= MAX_ID else -1))
        .where(ProjectMessage.project_id == project.id)
    ).first()
    if found is None or (found[1].internal and not staff):
        raise NotFound(FILE_NOT_FOUND)
    f = found[0]
    return f.name, f.content_type, files.open_private(f.key)
