"""A project's conversation over REST (issue 28, ADR 0101): the thread as the caller may read it, a message with up to
three files (multipart), and a file's download. The project's client and staff call the same routes; the service
(`app.services.projects.conversations`) decides who reads, who posts and who downloads, as it does for the pages."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, UploadFile
from fastapi.responses import StreamingResponse

from app.api.deps import CurrentUser, DownloadUser, RowId, SessionDep
from app.api.downloads import private_file
from app.api.schemas import Saved
from app.core.permissions import STAFF_ROLES, Perm
from app.models.user import User
from app.services.platform import access, files
from app.services.projects import conversations
from app.services.projects.conversations import MessagePublic, Thread

router = APIRouter(tags=["projects"])


def _readers(user: CurrentUser) -> User:
    """Run before the body is read: staff who do not read projects are refused whatever they send (the service says
    the same with the project in hand); a client's project is checked by the service."""
    if user.role in STAFF_ROLES:
        access.require(user, Perm.content_read, "read project conversations")
    return user


Reader = Annotated[User, Depends(_readers)]


def _read(uploads: list[UploadFile]) -> list[conversations.Upload]:
    """Each chosen file's name and content, one byte past the cap at most (the service refuses it); no more files
    than one past the limit are read (the service refuses their number)."""
    return [(u.filename or "", u.file.read(files.max_bytes() + 1)) for u in uploads[: conversations.MAX_FILES + 1]]


@router.get("/projects/{project_id}/messages", response_model=Thread)
def read_messages(project_id: RowId, user: Reader, s: SessionDep) -> Thread:
    """The project's conversation as the caller may read it (its newest 200 messages, oldest first, with their files):
    the project's client (without internal notes) or staff with content:read."""
    return conversations.thread(s, actor=user, project_id=project_id)


@router.post("/projects/{project_id}/messages", status_code=201, response_model=Saved[MessagePublic])
def post_message(
    project_id: RowId,
    user: Reader,
    s: SessionDep,
    body: Annotated[str, Form(description="The message's text (up to 4000 characters; may be empty with files).")] = "",
    internal: Annotated[bool, Form(description="An internal note the client never reads (the team only).")] = False,
    files: Annotated[list[UploadFile] | None, File(description="Up to 3 files, each at most 10 MB.")] = None,
) -> dict[str, Any]:
    """Post a message (multipart): its text, its files (PDF, images, office documents, ZIP, text/CSV), or both. The
    project's client, or the staff on the project (who may also add internal notes)."""
    message = conversations.post(
        s,
        actor=user,
        project_id=project_id,
        data={"body": body, "internal": internal},
        uploads=_read(files or []),
    )
    return {"data": message, "message": "Message sent"}


@router.get("/projects/{project_id}/messages/files/{file_id}", response_class=StreamingResponse)
def download_file(project_id: RowId, file_id: RowId, user: DownloadUser, s: SessionDep) -> StreamingResponse:
    """A file of the conversation, as an attachment, for whoever may read its message; anyone else: 404."""
    name, kind, handle = conversations.open_file(s, actor=user, project_id=project_id, file_id=file_id)
    return private_file(name, kind, handle)
