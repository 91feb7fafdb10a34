"""The "E-mail me about new messages" choice (ADR 0102), shown in the portal's Settings tab and on the staff panel's
Settings page: their states mix this in and say who is asking (`_mail_user`: None once they have been told why not).
The service checks and stores the choice; the page says so with a notice."""

from __future__ import annotations

import reflex as rx

from app.core.errors import DomainError
from app.models.user import UserPublic
from app.services.projects import conversation_reads
from app.ui.state.calls import as_actor
from app.ui.state.notice import notify

SAVED_ON = "We will e-mail you when messages wait unread for you."
SAVED_OFF = "We will not e-mail you about new messages."
SAVE_FAILED = "Your choice could not be saved. Please try again."


class MessageMailMixin(rx.State, mixin=True):
    mail_new_messages: bool = True
    mail_loaded: bool = False
    mail_saving: bool = False
    mail_key: int = 0  # changes when the stored choice is loaded, so the checkbox shows it

    async def _mail_user(self) -> UserPublic | None:
        raise NotImplementedError

    async def _load_mail_choice(self) -> None:
        user = await self._mail_user()
        if user is None:
            return
        try:
            wanted = await as_actor(user, lambda s, a: conversation_reads.mails_new_messages(s, actor=a))
        except DomainError:
            return
        self.mail_new_messages, self.mail_loaded = wanted, True
        self.mail_key += 1

    @rx.event
    async def save_mail_choice(self, form: dict):
        """Save the checkbox as submitted (a ticked box sends "on"; an unticked one sends nothing)."""
        if self.mail_saving:
            return
        fields = form if isinstance(form, dict) else {}
        data = {"mail_new_messages": fields.get("mail_new_messages") == "on"}
        self.mail_saving = True
        yield
        try:
            user = await self._mail_user()
            if user is None:
                return
            stored = await as_actor(user, lambda s, a: conversation_reads.set_mail_preference(s, actor=a, data=data))
        except DomainError as exc:
            await notify(self, "error", "Not saved", exc.message or SAVE_FAILED)
            return
        finally:
            self.mail_saving = False
        self.mail_new_messages = stored
        await notify(self, "success", "Settings saved", SAVED_ON if stored else SAVED_OFF)
