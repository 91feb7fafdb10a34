"""The dialog state every staff section repeats: one create/edit form (`FormDialog`) and a delete confirmation
(`DeleteConfirm`).

A section mixes them in and names its write permission with `_write_guard()` (permission, feature). The open events
re-check that permission first, because any browser can call any handler with any payload; the submit and confirm
handlers stay in the section, which re-checks it again before writing.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.core.db import MAX_ID
from app.models.user import UserPublic
from app.ui.admin.common import holds
from app.ui.admin.state import AdminState


def dialog_id(value: Any) -> int:
    """An id sent by the browser, or 0 when it is not one."""
    try:
        number = int(str(value))
    except ValueError:
        return 0
    return number if 0 < number <= MAX_ID else 0


class SectionWriter(AdminState, mixin=True):
    """The hook the dialogs share: the section's write permission."""

    def _write_guard(self) -> tuple[str, str]:
        """The permission that opens the section's dialogs, and the section's name for the refusal toast."""
        raise NotImplementedError

    @rx.var
    def can_write(self) -> bool:
        """Whether to show the section's write controls: the permission its handlers check, from the one place."""
        return holds(self.user, self._write_guard()[0])

    async def _writer(self) -> UserPublic | None:
        """The signed-in user when they may write in this section, else None (after telling them why)."""
        perm, feature = self._write_guard()
        return await self._actor(perm, feature)


class FormDialog(SectionWriter, mixin=True):
    """One create/edit form: whether it is open, its errors, the saving flag and which row it edits (0: a new one)."""

    form_open: bool = False
    form_error: str = ""
    form_errors: dict[str, str] = {}
    saving: bool = False
    _edit_id: int = 0

    def _open_form(self, edit_id: int) -> None:
        self._edit_id = edit_id
        self.form_error, self.form_errors = "", {}
        self.form_open = True

    @rx.event
    def set_form_open(self, value: bool) -> None:
        """The dialog's own close (Escape, the overlay, Cancel); the browser can close it, never open it."""
        self.form_open = bool(value) and self.form_open


class DeleteConfirm(SectionWriter, mixin=True):
    """A delete confirmation: the row's id (backend-only) and the name the dialog shows."""

    delete_open: bool = False
    delete_name: str = ""
    _delete_id: int = 0

    def _delete_label(self, name: Any) -> str:
        """The name as the confirmation shows it."""
        return str(name)[:200]

    @rx.event
    async def ask_delete(self, value: int, name: str) -> None:
        """Ask to confirm deleting the row `value` called `name` (for staff who may write here)."""
        if await self._writer() is None:
            return
        self._delete_id, self.delete_name = dialog_id(value), self._delete_label(name)
        self.delete_open = True

    @rx.event
    def set_delete_open(self, value: bool) -> None:
        self.delete_open = bool(value) and self.delete_open
