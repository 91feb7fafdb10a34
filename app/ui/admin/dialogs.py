"""The dialog state every staff section repeats, declared once: `Dialogs` (which dialog is open, the row it is
about, the form's errors and the saving flag), with `FormDialog` (the create/edit form) and `DeleteConfirm` (the delete
confirmation) on top of it.

A section's dialogs are modal and opened from its rows or header, so at most one is open at a time: one `dialog` var
names it ("form", "delete", "pay", ...) instead of an `X_open` flag, an `_X_id` and a `set_X_open` per dialog. A
section that writes names its permission with `_write_guard()` (permission, feature); the open events re-check it,
because any browser can call any handler with any payload, and the submit and confirm handlers, which stay in the
section, check it again before writing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import reflex as rx
from sqlmodel import Session

from app.models.user import User, UserPublic
from app.ui.admin.common import holds, row_id
from app.ui.admin.state import AdminState

T = TypeVar("T")


class FormState(AdminState, mixin=True):
    """What `AdminState._save` writes: a form's error, its fields' errors and the saving flag (a dialog's form, or a
    page's own, as Settings > Company)."""

    form_error: rx.Field[str] = rx.field("")
    form_errors: dict[str, str] = {}  # plain: to mypy a dict (as a Field it reads as a list Var)
    saving: rx.Field[bool] = rx.field(False)

    async def _attempt_saving(
        self, actor: UserPublic, call: Callable[[Session, User], T], title: str, failed: str
    ) -> tuple[bool, T | None]:
        """`_attempt` (a refusal is a toast) with `saving` up meanwhile, so the dialog's buttons wait for it."""
        self.saving = True
        try:
            return await self._attempt(actor, call, title, failed)
        finally:
            self.saving = False


class Dialogs(FormState, mixin=True):
    """The section's open dialog (if any), the row it is about and the state of its form."""

    dialog: rx.Field[str] = rx.field("")  # "" when none is open, else the dialog's name
    dialog_name: rx.Field[str] = rx.field("")  # the row's name as the dialog shows it
    _dialog_key: str = ""  # the row, as its service names it (a number or an account's UUID); "" for a new one

    def _open_dialog(self, dialog: str, key: Any = "", name: Any = "") -> None:
        """Open `dialog` about the row `key` called `name`, with a clean form."""
        self._dialog_key, self.dialog_name = str(key or ""), str(name)
        self.form_error, self.form_errors = "", {}
        self.dialog = dialog

    def _dialog_row(self) -> int:
        """The open dialog's row as a numeric id (0: a new one, or not a number)."""
        return row_id(self._dialog_key)

    @rx.event
    def close_dialog(self, value: bool = False) -> None:
        """The dialog's own close (Escape, the overlay, Cancel): the browser can close a dialog, never open one."""
        if not value:
            self.dialog = ""

    def close_dialogs(self) -> None:
        """Close whatever is open (a page load or a tab switch)."""
        self.dialog = ""

    async def _submit(
        self,
        actor: UserPublic,
        call: Callable[[Session, User], Any],
        failed: str,
        done: str,
        detail: str = "",
        *,
        toast: bool = False,
    ) -> bool:
        """A dialog's write (`_save`): done, the dialog closes, a toast says `done` and the section's list
        (`_reload`, PagedList's) shows it; refused, the dialog stays open with the form's error."""
        ok, _ = await self._save(actor, call, failed, toast=toast)
        if ok:
            self.close_dialogs()
            await self._notify("success", done, detail)
            section: Any = self  # the section's list: its PagedList, which this mixin does not know
            await section._reload()
        return ok

    async def _submitting(
        self, actor: UserPublic, call: Callable[[Session, User], Any], failed: str, done: str, detail: str = ""
    ) -> AsyncIterator[None]:
        """`_submit` with the spinner shown first: the first yield sends `saving` to the browser before the write."""
        self.saving = True
        yield
        await self._submit(actor, call, failed, done, detail)


def shown(state: Any, dialog: str) -> dict[str, Any]:
    """The `open` and `on_open_change` props of the dialog called `dialog` in `state`'s section."""
    return {"open": state.dialog == dialog, "on_open_change": state.close_dialog}


class SectionWriter(Dialogs, mixin=True):
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

    async def _ask(self, dialog: str, value: Any, name: Any) -> None:
        """Open `dialog` about the row `value` called `name` (as the browser sent them) for staff who may write here."""
        if await self._writer() is not None:
            self._open_dialog(dialog, row_id(value) or "", name)


class FormDialog(SectionWriter, mixin=True):
    """One create/edit form, the dialog called "form"; the row it edits is `_dialog_row()` (0: a new one)."""

    def _open_form(self, edit_id: int) -> None:
        self._open_dialog("form", edit_id or "")


class DeleteConfirm(SectionWriter, mixin=True):
    """A delete confirmation, the dialog called "delete": the row is `_dialog_row()`, its name `dialog_name`."""

    def _delete_label(self, name: Any) -> str:
        """The name as the confirmation shows it."""
        return str(name)[:200]

    @rx.event
    async def ask_delete(self, value: int, name: str) -> None:
        """Ask to confirm deleting the row `value` called `name` (for staff who may write here)."""
        await self._ask("delete", value, self._delete_label(name))

    async def _confirmed(self, actor: UserPublic, call: Callable[[Session, User], Any], failed: str, done: str) -> None:
        """The confirmed delete (`_save`, whose refusal is a toast): the dialog closes either way; done, a toast says
        `done` and the section's list (`_reload`) shows it."""
        ok, _ = await self._save(actor, call, failed)
        self.close_dialogs()
        if ok:
            await self._notify("success", done)
            section: Any = self  # as in Dialogs._submit
            await section._reload()
