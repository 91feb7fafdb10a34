"""The Website tab of Content Management: the public site's services, portfolio, testimonials, team and job openings.

The forms are generated from app.services.site_admin.KINDS at compile time, so each field is validated by the same
description the server uses. Reading needs content:read; writing content:write (buttons hidden without it, and the
handlers and the service refuse anyway).
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.services import site_admin
from app.services.schema import parse
from app.services.site_admin import KINDS, Field, Kind
from app.ui.admin.common import (
    confirm_dialog,
    empty_panel,
    error_panel,
    loading_text,
    search_input,
    text_area,
)
from app.ui.admin.dialog_views import form_dialog
from app.ui.admin.dialogs import DeleteConfirm, FormDialog, shown
from app.ui.admin.state import AdminState, as_actor, error_text
from app.ui.admin.widgets import (
    CARD,
    allowed_button,
    badge,
    field,
    icon_button,
    select,
    text_input,
)

FEATURE = "Content Management"
LABELS = {
    "services": "Services",
    "portfolio": "Portfolio",
    "testimonials": "Testimonials",
    "team": "Team",
    "jobs": "Job Openings",
}
HINTS = {
    "lines": "One per line.",
    "slug": "Lowercase words joined by hyphens, e.g. cloud-hosting.",
    "code": "The public id in /apply?jobId=…, e.g. JOB-005.",
    "sort_order": "Lower numbers come first.",
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
    rows: list[dict[str, str]] = []
    search: str = ""
    loading: bool = False
    error: str = ""
    _items: list[dict[str, Any]] = []

    edit: dict[str, str] = {}

    async def _load(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.content_read, FEATURE, quiet=quiet)
        if actor is None:
            self.rows, self._items = [], []
            return
        kind = KINDS[self.kind]
        self.loading = True
        try:
            self._items = await as_actor(actor, lambda s, a: site_admin.list_items(s, actor=a, kind=kind.key))
            self.error = ""
        except Exception as exc:
            self._items = []
            self.error = error_text(exc, f"There was an error loading the {LABELS[kind.key].lower()}.")
        finally:
            self.loading = False
        self.rows = [_row(kind, i) for i in self._items]

    def _write_guard(self) -> tuple[str, str]:
        return Perm.content_write, FEATURE

    @rx.event
    async def load(self) -> None:
        await self._load(quiet=True)

    @rx.event
    async def retry(self) -> None:
        await self._load()

    @rx.event
    async def set_kind(self, value: str) -> None:
        if value in KINDS and value != self.kind:
            self.kind, self.search, self.rows = value, "", []
            await self._load()

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

        ok, _ = await self._save(actor, call, f"Failed to {verb} {kind.noun}")
        if not ok:
            return
        self.close_dialogs()
        await self._notify("success", f"{kind.noun.capitalize()} {verb}d successfully")
        await self._load()

    # --- delete ----------------------------------------------------------------------------------------------

    @rx.event
    async def confirm_delete(self) -> None:
        actor = await self._writer()
        if actor is None:
            return
        kind, row_id = KINDS[self.kind], self._dialog_row()
        ok, _ = await self._save(
            actor,
            lambda s, a: site_admin.delete_item(s, actor=a, kind=kind.key, item_id=row_id),
            f"Failed to delete {kind.noun}",
        )
        self.close_dialogs()
        if not ok:
            return
        await self._notify("success", f"{kind.noun.capitalize()} deleted successfully")
        await self._load()


# --- UI ----------------------------------------------------------------------------------------------------------

S = SiteEditorState


def _control(f: Field) -> rx.Component:
    value, control_id = S.edit[f.name], f"site-{f.name}"
    if f.type in ("long", "lines"):
        rows = 5 if f.type == "long" else 4
        return text_area(f.name, id=control_id, default_value=value, rows=rows)
    if f.type == "choice":
        options = [(c, c) for c in f.choices] if f.required else [("", "—"), *[(c, c) for c in f.choices]]
        return select(options, name=f.name, id=control_id, default_value=value)
    if f.type == "int":
        return text_input(f.name, id=control_id, type="number", min=f.low, max=f.high, step=1, default_value=value)
    kind = {"date": "date", "url": "url"}.get(f.type, "text")
    return text_input(f.name, id=control_id, type=kind, default_value=value, required=f.required)


def _field(f: Field) -> rx.Component:
    error = S.form_errors[f.name]
    if f.type == "bool":
        return rx.el.div(
            rx.el.label(
                rx.el.input(
                    type="checkbox",
                    name=f.name,
                    id=f"site-{f.name}",
                    default_checked=S.edit[f.name] != "",
                    class_name="h-4 w-4 rounded border-slate-300",
                ),
                rx.el.span(f.label, class_name="text-sm text-slate-700"),
                class_name="flex items-center gap-2",
            ),
            rx.cond(error, rx.el.span(error, class_name="block text-xs text-red-600", role="alert"), rx.fragment()),
        )
    wide = f.type in ("long", "lines")
    hint = HINTS.get(f.name) or HINTS.get(f.type)
    return rx.el.div(
        field(f.label, _control(f), error, hint=hint, required=f.required),
        class_name="sm:col-span-2" if wide else "",
    )


def _fields(kind: Kind) -> rx.Component:
    boxes = [f for f in kind.fields if f.type == "bool"]
    return rx.el.div(
        *[_field(f) for f in kind.fields if f.type != "bool"],
        rx.el.div(*[_field(f) for f in boxes], class_name="flex flex-col gap-2 sm:col-span-2"),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def _form_dialog() -> rx.Component:
    return form_dialog(
        S,
        "form",
        S.form_title,
        "Changes show on the public site at the next page visit. Fields marked * are required.",
        rx.match(S.kind, *[(key, _fields(kind)) for key, kind in KINDS.items()], rx.fragment()),
        on_submit=S.submit_form,
        test_id="site-save",
        max_width="44rem",
    )


def _item(r: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.p(r["name"], class_name="break-words font-medium text-slate-900"),
            rx.el.p(r["detail"], class_name="break-words text-sm text-slate-500"),
            class_name="min-w-0 flex-1",
        ),
        rx.el.div(
            rx.cond(r["shown"] != "", badge("Shown", "green"), badge("Hidden", "grey")),
            rx.el.span("#", r["order"], class_name="hidden text-xs text-slate-500 sm:inline", title="Display order"),
            rx.cond(
                S.can_write,
                rx.el.div(
                    icon_button("pencil", "Edit", f"Edit {r['name']}", S.open_edit(r["id"]), data_testid="site-edit"),
                    icon_button(
                        "trash-2",
                        "Delete",
                        f"Delete {r['name']}",
                        S.ask_delete(r["id"], r["name"]),
                        extra="hover:!text-red-600",
                        data_testid="site-delete",
                    ),
                    class_name="flex gap-1",
                ),
                rx.fragment(),
            ),
            class_name="flex shrink-0 items-center gap-2",
        ),
        class_name="flex items-center gap-3 px-4 py-3",
        data_testid="site-row",
    )


def _kind_button(key: str, label: str) -> rx.Component:
    return rx.el.button(
        label,
        on_click=S.set_kind(key),
        aria_pressed=S.kind == key,
        class_name=rx.cond(
            S.kind == key,
            "rounded-full border border-blue-600 bg-blue-50 px-3 py-1 text-sm font-medium text-blue-700 cursor-pointer",
            "rounded-full border border-slate-200 px-3 py-1 text-sm text-slate-600 hover:bg-slate-50 cursor-pointer",
        ),
        data_testid=f"site-kind-{key}",
    )


def site_editor_panel() -> rx.Component:
    rows = rx.el.ul(rx.foreach(S.shown_rows, _item), class_name=f"{CARD} divide-y divide-slate-100")
    empty = empty_panel(rx.cond(S.search != "", "Nothing found matching your search.", "Nothing here yet."))
    listing = rx.cond(
        S.error != "",
        error_panel("Failed to load site content", S.error, S.retry),
        rx.cond(
            S.loading & (S.rows.length() == 0),
            loading_text("Loading…"),
            rx.cond(S.shown_rows.length() > 0, rows, empty),
        ),
    )
    return rx.el.div(
        rx.el.div(*[_kind_button(k, label) for k, label in LABELS.items()], class_name="mb-4 flex flex-wrap gap-2"),
        rx.el.div(
            search_input(S.search, S.set_search, "Search…", "search-site"),
            allowed_button(
                S.can_write, "plus", rx.fragment("Add ", S.noun_title), S.open_create, test_id="site-create"
            ),
            class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between",
        ),
        listing,
        _form_dialog(),
        confirm_dialog(
            "Delete Item",
            rx.el.span(
                'Are you sure you want to delete "',
                S.dialog_name,
                '"? It disappears from the public site. This action cannot be undone.',
            ),
            **shown(S, "delete"),
            on_confirm=S.confirm_delete,
            busy=S.saving,
        ),
    )
