"""The Website tab: the markup: kind switcher, item cards and the form generated from site_admin.KINDS."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.services.site.site_admin import KINDS, Field, Kind
from app.ui.admin.common import (
    confirm_dialog,
    empty_panel,
    error_panel,
    loading_text,
    search_input,
    text_area,
)
from app.ui.admin.dialog_views import check_field, form_dialog
from app.ui.admin.dialogs import shown
from app.ui.admin.site_editor.state import LABELS, SiteEditorState
from app.ui.admin.widgets import (
    CARD,
    allowed_button,
    badge,
    field,
    icon_button,
    select,
    text_input,
)

HINTS = {
    "lines": "One per line.",
    "slug": "Lowercase words joined by hyphens, e.g. cloud-hosting.",
    "code": "The public id in /apply?jobId=…, e.g. JOB-005.",
    "sort_order": "Lower numbers come first.",
}

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
            check_field(f.name, f.label, S.edit[f.name] != "", id=f"site-{f.name}"),
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


def _item(r: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.p(r["name"], class_name="break-words font-medium text-slate-900"),
            rx.el.p(r["detail"], class_name="break-words text-sm text-slate-500"),
            class_name="min-w-0 flex-1",
        ),
        rx.el.div(
            rx.cond(r["shown"] != "", badge("Shown", "green"), badge("Hidden", "grey")),
            rx.el.span("Position ", r["position"], class_name="hidden text-xs text-slate-500 sm:inline"),
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
