"""A project's conversation in a page (issue 28): the portal's (the client) and the staff panel's (the team) states mix
this in and say who is asking (`_conversation_user`: None once they have been told why not).

The open conversation is re-read while its dialog is shown (a Ticker in the dialog, app/ui/components/conversation.py),
so a message posted in another browser shows without a reload; the service decides what each reader may read (no
internal note ever reaches a client's state) and who may post.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.core.errors import DomainError
from app.models.user import UserPublic
from app.services.projects import conversations
from app.services.projects.conversations import Thread
from app.ui.rows import Row
from app.ui.state.calls import as_actor

REFRESH_SECONDS = 5
LOAD_FAILED = "The conversation could not be loaded."


@dataclasses.dataclass
class MessageView(Row):
    author: str = ""
    body: str = ""
    at: str = ""  # ISO time: the page shows it in the reader's zone
    mine: bool = False
    from_staff: bool = False
    internal: bool = False


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

    async def _conversation_user(self) -> UserPublic | None:
        raise NotImplementedError

    def _take_thread(self, t: Thread) -> None:
        self.conversation_name = t.project_name
        self.conversation_can_post, self.conversation_can_note = t.can_post, t.can_note
        fresh = [
            MessageView(
                id=m.id,
                author=m.author,
                body=m.body,
                at=m.created_at.isoformat(),
                mine=m.mine,
                from_staff=m.from_staff,
                internal=m.internal,
            )
            for m in t.messages
        ]
        if fresh != self.conversation:  # an unchanged conversation sends nothing
            self.conversation = fresh

    async def _read_thread(self) -> None:
        user = await self._conversation_user()
        if user is None or not self.conversation_id:
            return
        project_id = self.conversation_id
        try:
            found = await as_actor(user, lambda s, a: conversations.thread(s, actor=a, project_id=project_id))
            self._take_thread(found)
            self.conversation_error = ""
        except DomainError as exc:
            self.conversation_error = exc.message or LOAD_FAILED

    @rx.event
    async def open_conversation(self, project_id: Any) -> None:
        self.conversation_id = project_id if isinstance(project_id, int) and project_id > 0 else 0
        self.conversation, self.conversation_name, self.message_error = [], "", ""
        self.conversation_can_post = self.conversation_can_note = False
        await self._read_thread()

    @rx.event
    def conversation_open_change(self, is_open: bool) -> None:
        if not is_open:
            self.conversation_id, self.conversation = 0, []

    @rx.event
    async def refresh_conversation(self) -> None:
        """The dialog's ticker: new messages from the others."""
        await self._read_thread()

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
