"""A tab's "are you sure?" before a client cancels one of their records (a meeting, a project): which record awaits
confirmation, the service's refusal shown in the dialog, the busy state while the call runs, and the notice after."""

from __future__ import annotations

from typing import Any, ClassVar

import reflex as rx

from app.core.errors import DomainError, Unauthorized
from app.models.user import UserPublic
from app.ui.portal import components as ui
from app.ui.portal.state import PortalState, error_message


class CancelConfirm(PortalState, mixin=True):
    """The tab names what it cancels (`cancel_noun`: the dialog's words and the failure's), `_cancel` (the service
    call, and the tab's own list brought up to date), and an `ask_cancel` event that calls `_ask`."""

    cancel_noun: ClassVar[str] = "record"

    cancel_id: int = 0  # the record awaiting confirmation (0: the dialog is closed)
    cancel_name: str = ""
    cancelling: bool = False
    cancel_error: str = ""
    notice: str = ""  # inline confirmation (a toast sent from a handler would need eval in the browser)

    async def _cancel(self, user: UserPublic, record_id: int) -> str:
        """Cancel the record as `user` and refresh the tab's rows; the notice to show. Raises DomainError."""
        raise NotImplementedError

    def _ask(self, record_id: int, name: str = "") -> None:
        """Open the confirmation dialog (nothing changes until it is confirmed); each tab's `ask_cancel` event names
        what its buttons pass."""
        self.cancel_id = int(record_id)
        self.cancel_name = str(name)[:200]
        self.cancel_error = self.notice = ""

    @rx.event
    def set_cancel_open(self, is_open: bool) -> None:
        if not is_open and not self.cancelling:
            self.cancel_id = 0
            self.cancel_error = ""

    @rx.event
    async def confirm_cancel(self):
        record_id = self.cancel_id
        if not record_id or self.cancelling:
            return
        self.cancelling = True
        self.cancel_error = ""
        yield
        try:
            notice = await self._cancel(await self._require_user(), record_id)
        except Unauthorized:
            await self._signed_out()
            return
        except DomainError as exc:
            self.cancel_error = error_message(exc, f"Failed to cancel the {self.cancel_noun}. Please try again.")
            return
        finally:
            self.cancelling = False
        self.cancel_id = 0
        self.notice = notice


def cancel_dialog(tab: Any, description: Any) -> rx.Component:
    """The "are you sure?" dialog of a CancelConfirm tab (`tab`: its class), worded for its `cancel_noun`."""
    noun = tab.cancel_noun.title()
    return ui.confirm_dialog(
        title=f"Cancel {noun}",
        description=description,
        error=tab.cancel_error,
        busy=tab.cancelling,
        keep=f"No, Keep {noun}",
        confirm=f"Yes, Cancel {noun}",
        on_confirm=tab.confirm_cancel,
        is_open=tab.cancel_id != 0,
        on_open_change=tab.set_cancel_open,
    )
