"""What the card lists of Content Management share: one page of cards at a time, a create/edit dialog, a delete
confirmation, and the spec's loading, empty and error states.

`CardList` is mixed into each entity's state (organizations and projects; Products & Services' catalogue too, with
its own listing and permissions). The entity state declares what it lists (`card_listing`: its noun, its service's
list function and its typed row, see app.ui.admin.paged), names its write permission and deletes through its service
(`_delete`); every handler here re-checks the session and the permission first, because any browser can call any
handler with any payload.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import reflex as rx
from sqlmodel import Session

from app.core.permissions import Perm
from app.models.user import User, UserPublic
from app.ui.admin.common import empty_panel
from app.ui.admin.dialog_views import form_dialog
from app.ui.admin.dialogs import DeleteConfirm, FormDialog
from app.ui.admin.paged import PagedTab, SectionListing
from app.ui.admin.section import section_page
from app.ui.admin.state import AdminState
from app.ui.admin.widgets import CARD, allowed_button, icon_button, pagination
from app.ui.rows import Row

FEATURE = "Content Management"
PAGE_SIZE = 12  # cards per page: whole rows of the 1-, 2- and 3-column grids
GRID = "grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
CARD_BOX = f"{CARD} flex min-w-0 flex-col items-start gap-2 p-5 [&>*]:max-w-full"

R = TypeVar("R", bound=Row)


def card_listing(noun: str, lister: Callable[..., Any], row: Callable[[Any], R]) -> SectionListing[R]:
    """An entity's card list, read with content:read: its noun ("organization") words the toasts and titles."""
    return SectionListing(Perm.content_read, FEATURE, lister, row, f"{noun}s", noun)


class CardList(FormDialog, DeleteConfirm, PagedTab[R], AdminState, mixin=True):
    """The paging, dialog and delete state of one entity's card list; the entity state fills in the hooks."""

    page_size: int = PAGE_SIZE

    # --- what the entity state defines ---------------------------------------------------------------------------

    def _write_perm(self) -> str:
        return Perm.content_write

    def _write_guard(self) -> tuple[str, str]:
        return self._write_perm(), FEATURE

    def _delete(self, s: Session, actor: User, row_id: int) -> None:
        raise NotImplementedError

    def _new_row(self) -> R:
        """A new entity's row: the create form's starting values."""
        raise NotImplementedError

    async def _open(self, actor: UserPublic, row: R) -> None:
        """Fill the form from `row` (its `edit` values and whatever its pickers need)."""
        raise NotImplementedError

    def _form_data(self, form: dict[str, Any]) -> dict[str, Any]:
        """The submitted form as the service's data (the service validates it)."""
        raise NotImplementedError

    def _write(self, s: Session, actor: User, edit_id: int, data: dict[str, Any]) -> Any:
        """Create the entity (`edit_id` 0) or update that one with `data`."""
        raise NotImplementedError

    @rx.event
    async def open_create(self) -> None:
        actor = await self._writer()
        if actor is not None:
            await self._open(actor, self._new_row())
            self._open_form(0)

    @rx.event
    async def open_edit(self, value: int) -> None:
        """Edit the row `value` of the page shown (only a row on it: the form starts from what the card shows)."""
        row = self._shown_row(value)
        if row is None:
            return
        actor = await self._writer()
        if actor is not None:
            await self._open(actor, row)
            self._open_form(row.id)

    @rx.event
    async def submit_form(self, form: dict[str, Any]) -> None:
        """Create or update, then close the dialog, say so and show the list again (the form's error otherwise)."""
        actor = await self._writer()
        if actor is None:
            return
        data, edit_id, verb = self._form_data(form), self._dialog_row(), "update" if self._dialog_key else "create"
        await self._submit(
            actor,
            lambda s, a: self._write(s, a, edit_id, data),
            f"Failed to {verb} {self.listing.noun}",
            f"{self.listing.noun.title()} {verb}d successfully",
            toast=True,
        )

    @rx.var
    def form_title(self) -> str:
        return f"{'Edit' if self._dialog_key else 'Create'} {self.listing.noun.title()}"

    # --- delete --------------------------------------------------------------------------------------------------

    @rx.event
    async def confirm_delete(self) -> None:
        actor = await self._writer()
        if actor is None:
            return
        noun, target = self.listing.noun, self._dialog_row()
        await self._confirmed(
            actor,
            lambda s, a: self._delete(s, a, target),
            f"Failed to delete {noun}",
            f"{noun.title()} deleted successfully",
        )


# --- views ------------------------------------------------------------------------------------------------------


def card_actions(
    allowed: rx.Var, name: rx.Var, on_edit: Any, on_delete: Any, deletable: rx.Var | bool = True
) -> rx.Component:
    """A card's edit and delete buttons, for those who may write; the delete one only where `deletable` (a row's flag
    from its service, when some rows cannot be deleted)."""
    delete = icon_button(
        "trash-2", "Delete", f"Delete {name}", on_delete, extra="hover:!text-red-600", data_testid="delete-button"
    )
    return rx.cond(
        allowed,
        rx.el.div(
            icon_button("pencil", "Edit", f"Edit {name}", on_edit, data_testid="edit-button"),
            delete if deletable is True else rx.cond(deletable, delete, rx.fragment()),
            class_name="flex shrink-0 gap-1",
        ),
        rx.fragment(),
    )


def card_title(name: rx.Var, actions: rx.Component) -> rx.Component:
    return rx.el.div(
        rx.el.h3(name, class_name="min-w-0 break-words font-semibold text-slate-900"),
        actions,
        class_name="flex items-start justify-between gap-2",
    )


def pager(state: Any) -> rx.Component:
    """The shared pagination in a card of its own, for lists of cards (a table has it as its footer)."""
    s = state
    return rx.el.div(
        pagination(s.page, s.pages, s.total, s.first_shown, s.last_shown, s.prev_page, s.next_page),
        class_name=f"{CARD} overflow-hidden [&>div]:border-t-0",
    )


def card_page(state: Any, render: Any, dialogs: list[rx.Component]) -> rx.Component:
    """An entity's tab: the section page (search, Create for writers) around the current page as a grid of cards with
    the pager under it, or the spec's empty text; its texts and test ids name the entity as its `listing` does."""
    s, plural, noun = state, state.listing.plural, state.listing.noun
    grid = rx.el.div(rx.el.div(rx.foreach(s.rows, render), class_name=GRID), pager(s), class_name="flex flex-col gap-4")
    empty = empty_panel(
        rx.cond(s.search != "", f"No {plural} found matching your search.", f"No {plural} found."),
    )
    create = allowed_button(s.can_write, "plus", f"Create {noun.title()}", s.open_create, test_id=f"create-{plural}")
    return section_page(
        s,
        rx.cond(s.rows.length() > 0, grid, empty),
        search=f"Search {plural}…",
        search_id=f"search-{plural}",
        create=[create],
        dialogs=dialogs,
    )


def card_form(state: Any, fields: rx.Component) -> rx.Component:
    """The create/edit dialog around an entity's fields."""
    return form_dialog(
        state,
        "form",
        state.form_title,
        "Fields marked * are required.",
        fields,
        on_submit=state.submit_form,
        test_id="save-form",
        max_width="44rem",
    )
