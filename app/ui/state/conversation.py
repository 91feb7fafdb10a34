"""A project's conversation in a page (issue 28): the portal's (the client) and the staff panel's (the team) states mix
this in and say who is asking (`_conversation_user`: None once they have been told why not).

The open conversation is re-read while its dialog is shown (a Ticker in the dialog, app/ui/components/conversation.py),
so a message posted in another browser shows without a reload; the service decides what each reader may read (no
internal note ever reaches a client's state) and who may post. Each read marks the conversation read up to its newest
message shown, and tells the page (`_conversation_read`), whose unread counts then drop at once (ADR 0102).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import reflex as rx
from sqlmodel import Session

from app.core.config import settings
from app.core.errors import DomainError
from app.models.user import User, UserPublic
from app.services.platform import files, links
from app.services.projects import conversation_reads, conversations
from app.services.projects.conversations import MAX_FILES, TOO_MANY_FILES, Thread
from app.ui.rows import Row
from app.ui.state.calls import as_actor

REFRESH_SECONDS = 5
LOAD_FAILED = "The conversation could not be loaded."
SEND_FAILED = "The message could not be sent. Please check your connection and try again."
TOO_LARGE_TOGETHER = (
    f"These files are too large to send: at most {MAX_FILES} files of {settings.max_upload_mb} MB each."
)


def size_label(size: int) -> str:
    """A file's size as people read it: 840 bytes, 12 KB, 2.4 MB."""
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{round(size / 1024)} KB"
    return f"{size / 1024 / 1024:.1f} MB"


@dataclasses.dataclass
class FileView(Row):
    name: str = ""
    size: str = ""  # as people read it
    url: str = ""  # the download, checked by the server like the thread


@dataclasses.dataclass
class ChosenFile:
    """A file chosen in the dialog and not sent yet (the browser keeps the file itself; conversation_files.js)."""

    name: str = ""
    size: str = ""
    problem: str = ""  # what the server will refuse it for, said before sending


@dataclasses.dataclass
class TextPiece:
    """A run of a message's text: a web address is a link, everything else text (never markup)."""

    text: str = ""
    link: bool = False


@dataclasses.dataclass
class MessageView(Row):
    author: str = ""
    pieces: list[TextPiece] = dataclasses.field(default_factory=list)  # the text, its addresses marked
    at: str = ""  # ISO time: the page shows it in the reader's zone
    mine: bool = False
    from_staff: bool = False
    internal: bool = False
    files: list[FileView] = dataclasses.field(default_factory=list)


def _read_and_mark(s: Session, actor: User, project_id: int) -> Thread:
    """The thread as the actor may read it, marked read up to its newest message shown (ADR 0102)."""
    found = conversations.thread(s, actor=actor, project_id=project_id)
    if found.messages:
        conversation_reads.mark_read(s, actor=actor, project_id=project_id, through=found.messages[-1].id)
    return found


class ConversationMixin(rx.State, mixin=True):
    conversation_id: int = 0  # the project whose conversation is open (0: none)
    conversation_name: str = ""
    conversation: list[MessageView] = []
    conversation_error: str = ""
    conversation_can_post: bool = False
    conversation_can_note: bool = False
    message_error: str = ""
    message_sending: bool = False
    message_key: int = 0  # changes after a message is sent, so the form starts empty
    attachments: list[ChosenFile] = []  # mirrored by conversation_files.js, which keeps and sends the files

    async def _conversation_user(self, *, touch: bool = True) -> UserPublic | None:
        """Who is asking (None once told why not); `touch=False` from the ticker (see SessionState._user)."""
        raise NotImplementedError

    def _take_thread(self, t: Thread) -> None:
        self.conversation_name = t.project_name
        self.conversation_can_post, self.conversation_can_note = t.can_post, t.can_note
        fresh = [
            MessageView(
                id=m.id,
                author=m.author,
                pieces=[TextPiece(text, link) for text, link in links.pieces(m.body)],
                at=m.created_at.isoformat(),
                mine=m.mine,
                from_staff=m.from_staff,
                internal=m.internal,
                files=[FileView(id=x.id, name=x.name, size=size_label(x.size), url=x.url) for x in m.files],
            )
            for m in t.messages
        ]
        if fresh != self.conversation:  # an unchanged conversation sends nothing
            self.conversation = fresh

    async def _read_thread(self, *, touch: bool = True) -> None:
        user = await self._conversation_user(touch=touch)
        if user is None or not self.conversation_id:
            return
        project_id = self.conversation_id
        try:
            found = await as_actor(user, lambda s, a: _read_and_mark(s, a, project_id))
            self._take_thread(found)
            self.conversation_error = ""
        except DomainError as exc:
            self.conversation_error = exc.message or LOAD_FAILED
            return
        await self._conversation_read(touch=touch)

    async def _conversation_read(self, *, touch: bool = True) -> None:
        """The open conversation was read (and marked read): a page showing unread counts refreshes them."""

    @rx.event
    async def open_conversation(self, project_id: Any) -> None:
        self.conversation_id = project_id if isinstance(project_id, int) and project_id > 0 else 0
        self.conversation, self.conversation_name, self.message_error = [], "", ""
        self.conversation_can_post = self.conversation_can_note = False
        self.attachments = []
        await self._read_thread()

    @rx.event
    def conversation_open_change(self, is_open: bool) -> None:
        if not is_open:
            self.conversation_id, self.conversation = 0, []

    @rx.event
    async def refresh_conversation(self) -> None:
        """The dialog's ticker: new messages from the others. A timer, not the person: the idle clock runs on."""
        await self._read_thread(touch=False)

    @rx.event
    async def send_message(self, form: dict):
        if self.message_sending or not self.conversation_id:
            return
        fields = form if isinstance(form, dict) else {}
        body = fields.get("body")
        data = {"body": body if isinstance(body, str) else "", "internal": bool(fields.get("internal"))}
        self.message_sending, self.message_error = True, ""
        yield
        user = await self._conversation_user()
        if user is None:
            self.message_sending = False
            return
        project_id = self.conversation_id
        try:
            await as_actor(user, lambda s, a: conversations.post(s, actor=a, project_id=project_id, data=data))
        except DomainError as exc:
            self.message_error = next(iter(exc.errors.values()), "") or exc.message
            return
        finally:
            self.message_sending = False
        self.message_key += 1
        await self._read_thread()

    @rx.event
    def files_chosen(self, form: dict) -> None:
        """The files chosen in the dialog (names and sizes, from conversation_files.js), each with what the server
        would refuse it for: said now, before anything is sent."""
        try:
            chosen = json.loads(str((form if isinstance(form, dict) else {}).get("files") or "[]"))
        except ValueError:
            chosen = []
        views = []
        for item in chosen[:20] if isinstance(chosen, list) else []:
            name = str(item.get("name", ""))[:255] if isinstance(item, dict) else ""
            size = item.get("size") if isinstance(item, dict) else 0
            size = size if isinstance(size, int) and size >= 0 else 0
            extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
            problem = (
                files.too_large_message()
                if size > files.max_bytes()
                else ("" if extension in files.ATTACHMENT.extensions else "This kind of file can't be attached.")
            )
            views.append(ChosenFile(name=name, size=size_label(size), problem=problem))
        self.attachments = views
        self.message_error = TOO_MANY_FILES if len(views) > MAX_FILES else ""

    @rx.event
    async def files_sent(self, result: dict) -> None:
        """A message with files, posted by conversation_files.js to POST /api/projects/{id}/messages (the route API
        clients use): "sending" when it starts, then the answer's status and body."""
        fields = result if isinstance(result, dict) else {}
        status = str(fields.get("status") or "0")
        if status == "sending":
            self.message_sending, self.message_error = True, ""
            return
        self.message_sending = False
        if status == "201":
            self.message_key += 1
            self.attachments, self.message_error = [], ""
            await self._read_thread()
            return
        try:
            answer = json.loads(str(fields.get("body") or "{}"))
        except ValueError:
            answer = {}
        answer = answer if isinstance(answer, dict) else {}
        errors = answer.get("errors")
        errors = errors if isinstance(errors, dict) else {}
        said = next((str(v) for v in errors.values() if v), "") or str(answer.get("message") or "")
        if status == "413" and not errors:
            said = TOO_LARGE_TOGETHER  # refused by the body cap before the app read it
        self.message_error = said if said and status not in ("0", "500") else SEND_FAILED
