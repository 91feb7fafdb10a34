"""The Website tab: state: one kind's items, the form dialog and the delete confirmation."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.services.platform.schema import parse
from app.services.site import site_admin
from app.services.site.site_admin import KINDS, Field, Kind
from app.ui.admin.dialogs import DeleteConfirm, FormDialog
from app.ui.admin.state import AdminState

FEATURE = "Content Management"
LABELS = {
    "services": "Services",
    "portfolio": "Portfolio",
    "testimonials": "Testimonials",
    "team": "Team",
    "jobs": "Job Openings",
}


def _detail(kind: str, item: dict[str, Any]) -> str:
    """The second line of a row: what tells two rows of a kind apart."""
    if kind == "services":
        return f"/{item['slug']}" + (" · Most Popular" if item["popular"] else "")
    if kind == "portfolio":
        return item["category"] + (" · Live site" if item["is_live"] else "")
    if kind == "testimonials":
        who = ", ".join(x for x in (item["role"], item["company"]) if x)
        return (
            f"{'★' * int(item['rating'] or 0)}"
            + (f" · {who}" if who else "")
            + (" · Featured" if item["featured"] else "")
        )
    if kind == "team":
        return item["role"]
    return f"{item['code']} · {item['department']} · {item['location']} · {item['employment_type']}"


def _row(kind: Kind, item: dict[str, Any]) -> dict[str, str]:
    return {
        "id": str(item["id"]),
        "name": str(item[kind.title]),
        "detail": _detail(kind.key, item),
        "shown": "yes" if item[kind.shown] else "",
        "order": str(item["sort_order"]),
        "position": str(int(item["sort_order"]) + 1),  # people count places from 1 (issue 26: it read "#0")
    }


def _form_value(f: Field, value: Any) -> str:
    """A stored value as the form shows it."""
    if f.type == "bool":
        return "yes" if value else ""
    if f.type == "lines":
        return "\n".join(value or [])
    return "" if value is None else str(value)


class SiteEditorState(FormDialog, DeleteConfirm, AdminState):
    kind: str = "services"
    rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    search: rx.Field[str] = rx.field("")
    loading: bool = False
    error: str = ""
    _items: list[dict[str, Any]] = []

    edit: dict[str, str] = {}

    async def _reload(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.content_read, FEATURE, quiet=quiet)
        if actor is None:
            self.rows, self._items = [], []
            return
        kind = KINDS[self.kind]
        self.loading = True
        self.error, items = await self._read(
            actor,
            lambda s, a: site_admin.list_items(s, actor=a, kind=kind.key),
            f"There was an error loading the {LABELS[kind.key].lower()}.",
        )
        self.loading = False
        # Plain values in the tab's state: the kinds' models are built at import time and are not picklable.
        self._items = [i.model_dump() for i in items or []]
        self.rows = [_row(kind, i) for i in self._items]

    def _write_guard(self) -> tuple[str, str]:
        return Perm.content_write, FEATURE

    @rx.event
    async def load(self) -> None:
        await self._reload(quiet=True)

    @rx.event
    async def retry(self) -> None:
        await self._reload()

    @rx.event
    async def set_kind(self, value: str) -> None:
        if value in KINDS and value != self.kind:
            self.kind, self.search, self.rows = value, "", []
            await self._reload()

    @rx.event
    def set_search(self, value: str) -> None:
        self.search = str(value)[:100]

    @rx.var
    def shown_rows(self) -> list[dict[str, str]]:
        needle = self.search.strip().lower()
        return [r for r in self.rows if not needle or needle in f"{r['name']} {r['detail']}".lower()]

    @rx.var
    def noun(self) -> str:
        return KINDS[self.kind].noun if self.kind in KINDS else ""

    @rx.var
    def noun_title(self) -> str:
        return self.noun.title()

    @rx.var
    def form_title(self) -> str:
        return f"{'Edit' if self._dialog_key else 'Add'} {self.noun_title}"

    # --- create / edit ---------------------------------------------------------------------------------------

    @rx.event
    async def open_create(self) -> None:
        if await self._writer() is None:
            return
        kind = KINDS[self.kind]
        defaults = {f.name: _form_value(f, f.default) for f in kind.fields}
        defaults["sort_order"] = str(max((int(r["order"]) for r in self.rows), default=0) + 1)
        if kind.key == "testimonials":
            defaults["rating"] = "5"  # a suggestion in the form only: the API still requires a rating
        self.edit = defaults
        self._open_form(0)

    @rx.event
    async def open_edit(self, row_id: str) -> None:
        kind = KINDS[self.kind]
        item = next((i for i in self._items if str(i["id"]) == str(row_id)), None)
        if item is None or await self._writer() is None:
            return
        self.edit = {f.name: _form_value(f, item[f.name]) for f in kind.fields}
        self._open_form(int(item["id"]))

    @rx.event
    async def submit_form(self, form: dict[str, Any]) -> None:
        actor = await self._writer()
        if actor is None:
            return
        kind, edit_id = KINDS[self.kind], self._dialog_row()
        # Every field is sent, so clearing an optional one clears it; an unticked checkbox is absent from the form.
        data = {f.name: (f.name in form) if f.type == "bool" else str(form.get(f.name) or "") for f in kind.fields}
        verb = "update" if edit_id else "create"

        def call(s: Any, a: Any) -> Any:
            if edit_id:
                body = parse(site_admin.UPDATE[kind.key], data)
                return site_admin.update_item(s, actor=a, kind=kind.key, item_id=edit_id, data=body)
            return site_admin.create_item(s, actor=a, kind=kind.key, data=parse(site_admin.CREATE[kind.key], data))

        done = f"{kind.noun.capitalize()} {verb}d successfully"
        await self._submit(actor, call, f"Failed to {verb} {kind.noun}", done, toast=True)

    # --- delete ----------------------------------------------------------------------------------------------

    @rx.event
    async def confirm_delete(self) -> None:
        actor = await self._writer()
        if actor is None:
            return
        kind, row_id = KINDS[self.kind], self._dialog_row()
        await self._confirmed(
            actor,
            lambda s, a: site_admin.delete_item(s, actor=a, kind=kind.key, item_id=row_id),
            f"Failed to delete {kind.noun}",
            f"{kind.noun.capitalize()} deleted successfully",
        )


# --- UI ----------------------------------------------------------------------------------------------------------
