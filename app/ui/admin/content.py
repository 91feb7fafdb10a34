"""Content Management (/admin/content, content:read): tabs Organizations, Projects (with progress and milestones) and
Products, each with search, create/edit dialogs, delete confirmation, and the spec's loading, empty and error states;
and Website (app/ui/admin/site_editor.py), the public site's own content.

Writes need content:write (organizations, projects) or products:write (products); the buttons are hidden without them
and the services refuse anyway.
"""

from __future__ import annotations

import uuid
from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.models.enums import MilestoneStatus, OrganizationSize, ProductCategory, ProjectStatus, ProjectType
from app.services import organizations, products, projects
from app.ui.admin.common import (
    INPUT_INLINE,
    TEXTAREA,
    confirm_dialog,
    day_text,
    dollars,
    empty_panel,
    error_panel,
    form_alert,
    form_text,
    holds,
    label_of,
    load_clients,
    loading_text,
    search_input,
)
from app.ui.admin.site_editor import SiteEditorState, site_editor_panel
from app.ui.admin.state import AdminState, as_actor, error_text
from app.ui.admin.widgets import (
    BTN_PRIMARY,
    BTN_SECONDARY,
    CARD,
    ICON_BTN,
    INPUT,
    badge,
    badge_by,
    dialog,
    field,
    page_header,
    select,
    submit_actions,
    text_input,
)

FEATURE = "Content Management"
TABS = [("organizations", "Organizations"), ("projects", "Projects"), ("products", "Products"), ("site", "Website")]
PROJECT_STATUS_COLORS = {
    "planning": "blue",
    "in_progress": "yellow",
    "review": "purple",
    "completed": "green",
    "cancelled": "red",
}
MILESTONE_COLORS = {"pending": "grey", "in_progress": "yellow", "completed": "green"}
SIZE_LABELS = {"small": "Small", "medium": "Medium", "large": "Large", "enterprise": "Enterprise"}
NOUNS = {"organizations": "organization", "projects": "project", "products": "product"}
EARLIEST = "1900-01-01"
TAB = "shrink-0 cursor-pointer rounded-md px-2.5 py-1.5 text-sm font-medium sm:px-3"


def org_row(o: dict[str, Any]) -> dict[str, str]:
    return {
        "id": str(o["id"]),
        "name": o["name"],
        "description": o.get("description") or "",
        "website": o.get("website") or "",
        "industry": o.get("industry") or "",
        "size": o.get("size") or "",
        "size_label": SIZE_LABELS.get(o.get("size") or "", ""),
        "primary_contact_id": o.get("primary_contact_id") or "",
    }


def project_row(p: dict[str, Any], clients: dict[str, str], orgs: dict[str, str]) -> dict[str, Any]:
    return {
        "id": str(p["id"]),
        "name": p["name"],
        "description": p.get("description") or "",
        "status": p["status"],
        "status_label": label_of(p["status"]),
        "project_type": p["project_type"],
        "type_label": label_of(p["project_type"]),
        "client_id": p["client_id"],
        "client": clients.get(p["client_id"], ""),
        "organization_id": str(p.get("organization_id") or ""),
        "organization": orgs.get(str(p.get("organization_id") or ""), ""),
        "budget": p.get("budget") or "",
        "budget_text": dollars(p.get("budget")),
        "progress": str(p.get("progress_percentage") or 0),
        "progress_width": f"{p.get('progress_percentage') or 0}%",
        "start_date": p.get("start_date") or "",
        "start_text": day_text(p.get("start_date")),
        "end_date": p.get("end_date") or "",
        "deadline": p.get("deadline") or "",
        "estimated_hours": str(p["estimated_hours"]) if p.get("estimated_hours") is not None else "",
        "actual_hours": str(p.get("actual_hours") or 0),
        "milestone_count": str(len(p.get("milestones") or [])),
        "milestones": [
            {
                "key": uuid.uuid4().hex,
                "title": m["title"],
                "due_date": m.get("due_date") or "",
                "status": m["status"],
            }
            for m in p.get("milestones") or []
        ],
    }


def product_row(p: dict[str, Any]) -> dict[str, str]:
    return {
        "id": str(p["id"]),
        "name": p["name"],
        "description": p.get("description") or "",
        "category": p.get("category") or "",
        "category_label": label_of(p.get("category") or ""),
        "active": "yes" if p.get("is_active") else "",
        "price_count": str(len(p.get("prices") or [])),
    }


def _matches(row: dict[str, Any], search: str, keys: tuple[str, ...]) -> bool:
    needle = search.strip().lower()
    return not needle or any(needle in str(row.get(k, "")).lower() for k in keys)


class ContentState(AdminState):
    tab: str = "organizations"
    orgs: list[dict[str, str]] = []
    projects: list[dict[str, Any]] = []
    products: list[dict[str, str]] = []
    org_search: str = ""
    project_search: str = ""
    product_search: str = ""
    loading: bool = False
    org_error: str = ""
    project_error: str = ""
    product_error: str = ""
    clients: list[dict[str, str]] = []

    # create/edit dialog: kind is organizations|projects|products; edit holds the row being edited ({} to create)
    form_open: bool = False
    form_kind: str = ""
    edit: dict[str, str] = {}
    form_error: str = ""
    form_errors: dict[str, str] = {}
    milestones: list[dict[str, str]] = []
    saving: bool = False
    _edit_id: int = 0

    delete_open: bool = False
    delete_kind: str = ""
    delete_name: str = ""
    _delete_id: int = 0

    # --- loading ---------------------------------------------------------------------------------------------

    async def _load_all(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.content_read, FEATURE, quiet=quiet)
        if actor is None:
            self.orgs, self.projects, self.products = [], [], []
            return
        self.loading = True
        try:
            orgs = await as_actor(actor, lambda s, a: organizations.list_organizations(s, actor=a))
            self.org_error = ""
        except Exception as exc:
            orgs = []
            self.org_error = error_text(exc, "There was an error loading the organizations.")
        self.orgs = [org_row(o) for o in orgs]
        self.clients = await load_clients(actor)
        await self._load_projects(actor)
        await self._load_products(actor)
        self.loading = False

    async def _load_projects(self, actor: Any) -> None:
        names = {c["id"]: c["name"] for c in self.clients}
        org_names = {o["id"]: o["name"] for o in self.orgs}
        try:
            rows = await as_actor(actor, lambda s, a: projects.list_projects(s, actor=a))
            self.project_error = ""
        except Exception as exc:
            rows = []
            self.project_error = error_text(exc, "There was an error loading the projects.")
        self.projects = [project_row(p, names, org_names) for p in rows]

    async def _load_products(self, actor: Any) -> None:
        if not holds(actor.model_dump(mode="json"), Perm.products_read):
            # Products come from the staff catalogue (products:read); without it the tab lists the public ones.
            try:
                rows = await as_actor(actor, lambda s, a: products.list_public(s))
                self.product_error = ""
            except Exception as exc:
                rows = []
                self.product_error = error_text(exc, "There was an error loading the products.")
            self.products = [product_row(p) for p in rows]
            return
        try:
            rows = await as_actor(actor, lambda s, a: products.list_all(s, actor=a))
            self.product_error = ""
        except Exception as exc:
            rows = []
            self.product_error = error_text(exc, "There was an error loading the products.")
        self.products = [product_row(p) for p in rows]

    @rx.event
    async def load(self) -> Any:
        self.form_open = self.delete_open = False
        await self._load_all(quiet=True)
        return SiteEditorState.load if self.tab == "site" else None

    @rx.event
    async def retry(self) -> None:
        await self._load_all()

    @rx.event
    def set_tab(self, value: str) -> Any:
        self.tab = value if value in dict(TABS) else "organizations"
        return SiteEditorState.load if self.tab == "site" else None

    @rx.event
    def set_org_search(self, value: str) -> None:
        self.org_search = str(value)[:100]

    @rx.event
    def set_project_search(self, value: str) -> None:
        self.project_search = str(value)[:100]

    @rx.event
    def set_product_search(self, value: str) -> None:
        self.product_search = str(value)[:100]

    # --- what is shown ---------------------------------------------------------------------------------------

    @rx.var
    def shown_orgs(self) -> list[dict[str, str]]:
        return [o for o in self.orgs if _matches(o, self.org_search, ("name", "industry"))]

    @rx.var
    def shown_projects(self) -> list[dict[str, Any]]:
        keys = ("name", "status", "project_type", "status_label", "type_label")
        return [p for p in self.projects if _matches(p, self.project_search, keys)]

    @rx.var
    def shown_products(self) -> list[dict[str, str]]:
        return [p for p in self.products if _matches(p, self.product_search, ("name", "category", "category_label"))]

    @rx.var
    def can_write_content(self) -> bool:
        return holds(self.user, Perm.content_write)

    @rx.var
    def can_write_products(self) -> bool:
        return holds(self.user, Perm.products_write)

    @rx.var
    def org_options(self) -> list[dict[str, str]]:
        return [{"id": o["id"], "name": o["name"]} for o in self.orgs]

    @rx.var
    def form_title(self) -> str:
        noun = NOUNS.get(self.form_kind, "").title()
        return f"{'Edit' if self._edit_id else 'Create'} {noun}"

    # --- create / edit ---------------------------------------------------------------------------------------

    @rx.event
    def open_create(self, kind: str) -> None:
        if kind not in NOUNS:
            return
        self.form_kind, self._edit_id = kind, 0
        self.edit = {"active": "yes"} if kind == "products" else {}
        self.milestones = []
        self.form_error, self.form_errors = "", {}
        self.form_open = True

    @rx.event
    def open_edit(self, kind: str, row_id: str) -> None:
        rows: list[dict[str, Any]] = {
            "organizations": self.orgs,
            "projects": self.projects,
            "products": self.products,
        }.get(kind, [])
        row = next((r for r in rows if r["id"] == str(row_id)), None)
        if row is None:
            return
        self.form_kind, self._edit_id = kind, int(row["id"])
        self.edit = {k: v for k, v in row.items() if isinstance(v, str)}
        self.milestones = [dict(m) for m in row.get("milestones", [])] if kind == "projects" else []
        self.form_error, self.form_errors = "", {}
        self.form_open = True

    @rx.event
    def set_form_open(self, value: bool) -> None:
        self.form_open = bool(value) and self.form_open

    # milestones editor (browser-side list; saved with the project through set_milestones)
    @rx.event
    def add_milestone(self) -> None:
        if len(self.milestones) < 50:
            self.milestones = [
                *self.milestones,
                {"key": uuid.uuid4().hex, "title": "", "due_date": "", "status": "pending"},
            ]

    @rx.event
    def remove_milestone(self, index: int) -> None:
        self.milestones = [m for i, m in enumerate(self.milestones) if i != int(index)]

    @rx.event
    def move_milestone(self, index: int, delta: int) -> None:
        i, j = int(index), int(index) + int(delta)
        if 0 <= i < len(self.milestones) and 0 <= j < len(self.milestones):
            items = list(self.milestones)
            items[i], items[j] = items[j], items[i]
            self.milestones = items

    @rx.event
    def set_milestone(self, index: int, key: str, value: str) -> None:
        i = int(index)
        if key in ("title", "due_date", "status") and 0 <= i < len(self.milestones):
            items = [dict(m) for m in self.milestones]
            items[i][key] = str(value)[:200]
            self.milestones = items

    def _org_payload(self, form: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {k: form_text(form, k, 5000) for k in ("name", "description", "website", "industry")}
        data["size"] = form_text(form, "size") or None
        data["primary_contact_id"] = form_text(form, "primary_contact_id") or None
        return data

    def _project_payload(self, form: dict[str, Any]) -> dict[str, Any]:
        keys = ("name", "description", "client_id", "status", "project_type", "organization_id", "budget")
        data: dict[str, Any] = {k: form_text(form, k) for k in keys}
        for k in ("start_date", "end_date", "deadline", "estimated_hours", "progress_percentage"):
            data[k] = form_text(form, k)
        return data

    def _product_payload(self, form: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {k: form_text(form, k, 5000) for k in ("name", "description", "category")}
        data["is_active"] = str(form.get("is_active") or "") in ("on", "true", "1")
        return data

    @rx.event
    async def submit_form(self, form: dict[str, Any]) -> None:
        kind, noun = self.form_kind, NOUNS.get(self.form_kind, "")
        perm = Perm.products_write if kind == "products" else Perm.content_write
        actor = await self._actor(perm, FEATURE)
        if actor is None or not noun:
            return
        verb = "update" if self._edit_id else "create"
        edit_id = self._edit_id
        milestones = [
            {"title": m["title"], "due_date": m["due_date"] or None, "status": m["status"]} for m in self.milestones
        ]
        if kind == "organizations":
            data = self._org_payload(form)
            if edit_id:

                def call(s: Any, a: Any) -> Any:
                    return organizations.update_organization(s, actor=a, organization_id=edit_id, data=data)
            else:

                def call(s: Any, a: Any) -> Any:
                    return organizations.create_organization(s, actor=a, data=data)
        elif kind == "projects":
            data = self._project_payload(form)

            def call(s: Any, a: Any) -> Any:
                if edit_id:
                    dto = projects.update_project(s, actor=a, project_id=edit_id, data=data)
                else:
                    dto = projects.create_project(s, actor=a, data=data)
                if edit_id or milestones:
                    dto = projects.set_milestones(s, actor=a, project_id=int(dto["id"]), milestones=milestones)
                return dto
        else:
            data = self._product_payload(form)
            if edit_id:

                def call(s: Any, a: Any) -> Any:
                    return products.update_product(s, actor=a, product_id=edit_id, data=data)
            else:

                def call(s: Any, a: Any) -> Any:
                    return products.create_product(s, actor=a, data=data)

        ok, _ = await self._save(actor, call, f"Failed to {verb} {noun}")
        if not ok:
            return
        self.form_open = False
        self._notify("success", f"{noun.title()} {verb}d successfully")
        await self._load_all()

    # --- delete ----------------------------------------------------------------------------------------------

    @rx.event
    def ask_delete(self, kind: str, row_id: str, name: str) -> None:
        if kind not in NOUNS:
            return
        self.delete_kind, self._delete_id, self.delete_name = kind, int(row_id), str(name)
        self.delete_open = True

    @rx.event
    def set_delete_open(self, value: bool) -> None:
        self.delete_open = bool(value) and self.delete_open

    @rx.event
    async def confirm_delete(self) -> None:
        kind, noun, row_id = self.delete_kind, NOUNS.get(self.delete_kind, ""), self._delete_id
        actor = await self._actor(Perm.products_write if kind == "products" else Perm.content_write, FEATURE)
        if actor is None or not noun:
            return

        def call(s: Any, a: Any) -> None:
            if kind == "organizations":
                organizations.delete_organization(s, actor=a, organization_id=row_id)
            elif kind == "projects":
                projects.delete_project(s, actor=a, project_id=row_id)
            else:
                products.delete_product(s, actor=a, product_id=row_id)

        ok, _ = await self._save(actor, call, f"Failed to delete {noun}")
        self.delete_open = False
        if not ok:
            return
        self._notify("success", f"{noun.title()} deleted successfully")
        await self._load_all()


# --- UI ----------------------------------------------------------------------------------------------------------

S = ContentState


def _card_actions(kind: str, row: rx.Var, allowed: rx.Var) -> rx.Component:
    return rx.cond(
        allowed,
        rx.el.div(
            rx.el.button(
                rx.icon("pencil", size=16),
                on_click=S.open_edit(kind, row["id"]),
                title="Edit",
                aria_label=f"Edit {row['name']}",
                class_name=ICON_BTN,
                data_testid="edit-button",
            ),
            rx.el.button(
                rx.icon("trash-2", size=16),
                on_click=S.ask_delete(kind, row["id"], row["name"]),
                title="Delete",
                aria_label=f"Delete {row['name']}",
                class_name=f"{ICON_BTN} hover:!text-red-600",
                data_testid="delete-button",
            ),
            class_name="flex shrink-0 gap-1",
        ),
        rx.fragment(),
    )


def _org_card(o: rx.Var) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h3(o["name"], class_name="min-w-0 break-words font-semibold text-slate-900"),
            _card_actions("organizations", o, S.can_write_content),
            class_name="flex items-start justify-between gap-2",
        ),
        rx.cond(o["industry"] != "", badge(o["industry"], "blue"), rx.fragment()),
        rx.el.p(o["description"], class_name="line-clamp-2 text-sm text-slate-600"),
        rx.cond(
            o["website"] != "",
            rx.el.a(
                rx.icon("globe", size=14),
                o["website"],
                href=o["website"],
                target="_blank",
                rel="noopener noreferrer",
                class_name="flex items-center gap-1 truncate text-sm text-blue-600 hover:underline",
            ),
            rx.fragment(),
        ),
        rx.cond(
            o["size"] != "",
            rx.el.p(o["size_label"], " company", class_name="text-xs text-slate-500"),
            rx.fragment(),
        ),
        class_name=f"{CARD} flex min-w-0 flex-col items-start gap-2 p-5 [&>*]:max-w-full",
        data_testid="organization-card",
    )


def _project_card(p: rx.Var) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h3(p["name"], class_name="min-w-0 break-words font-semibold text-slate-900"),
            _card_actions("projects", p, S.can_write_content),
            class_name="flex items-start justify-between gap-2",
        ),
        rx.el.div(
            badge_by(p["status"], PROJECT_STATUS_COLORS, p["status_label"], data_testid="project-status"),
            badge(p["type_label"], "grey"),
            class_name="flex flex-wrap gap-1.5",
        ),
        rx.cond(
            p["client"] != "", rx.el.p("Client: ", p["client"], class_name="text-xs text-slate-500"), rx.fragment()
        ),
        rx.el.p(p["description"], class_name="line-clamp-2 text-sm text-slate-600"),
        rx.el.div(
            rx.el.div(
                rx.el.div(class_name="h-full rounded-full bg-blue-600", style={"width": p["progress_width"]}),
                class_name="h-2 flex-1 overflow-hidden rounded-full bg-slate-100",
            ),
            rx.el.span(p["progress"], "%", class_name="text-xs font-medium text-slate-600"),
            class_name="flex w-full items-center gap-2",
            data_testid="project-progress",
        ),
        rx.el.dl(
            rx.el.div(
                rx.el.dt("Budget", class_name="text-slate-500"),
                rx.el.dd(rx.cond(p["budget_text"] != "", p["budget_text"], "—"), class_name="font-medium"),
            ),
            rx.el.div(
                rx.el.dt("Start", class_name="text-slate-500"),
                rx.el.dd(rx.cond(p["start_text"] != "", p["start_text"], "—"), class_name="font-medium"),
            ),
            rx.el.div(
                rx.el.dt("Estimated", class_name="text-slate-500"),
                rx.el.dd(
                    rx.cond(p["estimated_hours"] != "", rx.el.span(p["estimated_hours"], "h estimated"), "—"),
                    class_name="font-medium",
                ),
            ),
            rx.el.div(
                rx.el.dt("Actual", class_name="text-slate-500"),
                rx.el.dd(p["actual_hours"], "h actual", class_name="font-medium"),
            ),
            class_name="grid w-full grid-cols-2 gap-2 text-xs text-slate-700",
        ),
        rx.el.p(p["milestone_count"], " milestones", class_name="text-xs text-slate-500"),
        class_name=f"{CARD} flex min-w-0 flex-col items-start gap-2 p-5 [&>*]:max-w-full",
        data_testid="project-card",
    )


def _product_card(p: rx.Var) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h3(p["name"], class_name="min-w-0 break-words font-semibold text-slate-900"),
            _card_actions("products", p, S.can_write_products),
            class_name="flex items-start justify-between gap-2",
        ),
        rx.el.div(
            rx.cond(p["category"] != "", badge(p["category_label"], "blue"), rx.fragment()),
            rx.cond(p["active"] != "", badge("Active", "green"), badge("Inactive", "grey")),
            class_name="flex flex-wrap gap-1.5",
        ),
        rx.el.p(p["description"], class_name="line-clamp-3 text-sm text-slate-600"),
        class_name=f"{CARD} flex min-w-0 flex-col items-start gap-2 p-5 [&>*]:max-w-full",
        data_testid="product-card",
    )


def _list(
    rows: rx.Var, all_rows: rx.Var, search: rx.Var, render: Any, plural: str, error: rx.Var | None, error_title: str
) -> rx.Component:
    grid = rx.el.div(rx.foreach(rows, render), class_name="grid gap-4 sm:grid-cols-2 xl:grid-cols-3")
    empty = empty_panel(
        rx.cond(search != "", f"No {plural} found matching your search.", f"No {plural} found."),
    )
    content = rx.cond(rows.length() > 0, grid, empty)
    if error is not None:
        content = rx.cond(
            error != "",
            error_panel(error_title, f"There was an error loading the {plural}.", S.retry),
            content,
        )
    return rx.cond(S.loading & (all_rows.length() == 0), loading_text(f"Loading {plural}…"), content)


def _toolbar(search: rx.Var, on_search: Any, placeholder: str, kind: str, allowed: rx.Var, label: str):
    return rx.el.div(
        search_input(search, on_search, placeholder, f"search-{kind}"),
        rx.cond(
            allowed,
            rx.el.button(
                rx.icon("plus", size=16),
                label,
                on_click=S.open_create(kind),
                class_name=BTN_PRIMARY,
                data_testid=f"create-{kind}",
            ),
            rx.fragment(),
        ),
        class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between",
    )


def _tab_button(key: str, label: str) -> rx.Component:
    return rx.el.button(
        label,
        on_click=S.set_tab(key),
        role="tab",
        aria_selected=S.tab == key,
        class_name=rx.cond(
            S.tab == key,
            f"{TAB} bg-white text-slate-900 shadow-sm",
            f"{TAB} text-slate-600 hover:text-slate-900",
        ),
        data_testid=f"tab-{key}",
    )


def _err(key: str) -> rx.Var:
    return S.form_errors[key]


def _org_fields() -> rx.Component:
    e = S.edit
    return rx.el.div(
        field(
            "Name",
            text_input("name", id="org-name", default_value=e["name"], required=True),
            _err("name"),
            required=True,
        ),
        field("Industry", text_input("industry", id="org-industry", default_value=e["industry"]), _err("industry")),
        field(
            "Website",
            text_input("website", id="org-website", type="url", default_value=e["website"], placeholder="https://"),
            _err("website"),
        ),
        field(
            "Size",
            select(
                [("", "Not specified"), *[(s.value, f"{SIZE_LABELS[s.value]}") for s in OrganizationSize]],
                name="size",
                id="org-size",
                default_value=e["size"],
            ),
            _err("size"),
        ),
        field(
            "Primary contact",
            rx.el.select(
                rx.el.option("None", value=""),
                rx.foreach(S.clients, lambda c: rx.el.option(c["label"], value=c["id"])),
                name="primary_contact_id",
                id="org-contact",
                default_value=e["primary_contact_id"],
                class_name=f"{INPUT} pr-8",
            ),
            _err("primary_contact_id"),
        ),
        rx.el.div(
            field(
                "Description",
                rx.el.textarea(
                    name="description",
                    id="org-description",
                    default_value=e["description"],
                    rows=3,
                    class_name=TEXTAREA,
                ),
                _err("description"),
            ),
            class_name="sm:col-span-2",
        ),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def _milestone_row(m: rx.Var, i: rx.Var) -> rx.Component:
    return rx.el.div(
        rx.el.input(
            default_value=m["title"],
            placeholder="Milestone title",
            aria_label="Milestone title",
            on_change=lambda v: S.set_milestone(i, "title", v),
            class_name=f"{INPUT_INLINE} w-full sm:w-auto sm:flex-1",
            data_testid="milestone-title",
        ),
        rx.el.div(
            rx.el.input(
                type="date",
                min=EARLIEST,
                default_value=m["due_date"],
                aria_label="Due date",
                on_change=lambda v: S.set_milestone(i, "due_date", v),
                class_name=f"{INPUT_INLINE} min-w-0 flex-1 sm:w-40 sm:flex-none",
            ),
            rx.el.select(
                *[rx.el.option(label_of(x.value), value=x.value) for x in MilestoneStatus],
                default_value=m["status"],
                aria_label="Milestone status",
                on_change=lambda v: S.set_milestone(i, "status", v),
                class_name=f"{INPUT_INLINE} w-32 shrink-0",
            ),
            rx.el.button(
                rx.icon("arrow-up", size=14),
                type="button",
                on_click=S.move_milestone(i, -1),
                aria_label="Move up",
                class_name=ICON_BTN,
            ),
            rx.el.button(
                rx.icon("arrow-down", size=14),
                type="button",
                on_click=S.move_milestone(i, 1),
                aria_label="Move down",
                class_name=ICON_BTN,
            ),
            rx.el.button(
                rx.icon("x", size=14),
                type="button",
                on_click=S.remove_milestone(i),
                aria_label="Remove milestone",
                class_name=ICON_BTN,
            ),
            class_name="flex items-center gap-1",
        ),
        key=m["key"],
        class_name="flex flex-col gap-2 rounded-lg border border-slate-200 p-2 sm:flex-row sm:items-center",
        data_testid="milestone-row",
    )


def _project_fields() -> rx.Component:
    e = S.edit
    status_opts = [(x.value, label_of(x.value)) for x in ProjectStatus]
    type_opts = [(x.value, label_of(x.value)) for x in ProjectType]
    return rx.el.div(
        rx.el.div(
            field(
                "Project name",
                text_input("name", id="project-name", default_value=e["name"], required=True),
                _err("name"),
                required=True,
            ),
            class_name="sm:col-span-2",
        ),
        field(
            "Client",
            rx.el.select(
                rx.el.option("Choose a client", value="", disabled=True),
                rx.foreach(S.clients, lambda c: rx.el.option(c["label"], value=c["id"])),
                name="client_id",
                id="project-client",
                default_value=e["client_id"],
                required=True,
                class_name=f"{INPUT} pr-8",
            ),
            _err("client_id"),
            required=True,
        ),
        field(
            "Organization",
            rx.el.select(
                rx.el.option("None", value=""),
                rx.foreach(S.org_options, lambda o: rx.el.option(o["name"], value=o["id"])),
                name="organization_id",
                id="project-organization",
                default_value=e["organization_id"],
                class_name=f"{INPUT} pr-8",
            ),
            _err("organization_id"),
        ),
        field(
            "Status",
            select(
                status_opts,
                name="status",
                id="project-status",
                default_value=rx.cond(e["status"], e["status"], "planning"),
                required=True,
            ),
            _err("status"),
            required=True,
        ),
        field(
            "Type",
            select(
                type_opts,
                name="project_type",
                id="project-type",
                default_value=rx.cond(e["project_type"], e["project_type"], "web_development"),
                required=True,
            ),
            _err("project_type"),
            required=True,
        ),
        field(
            "Budget (USD)",
            text_input("budget", id="project-budget", type="number", step="0.01", min="0", default_value=e["budget"]),
            _err("budget"),
        ),
        field(
            "Progress (%)",
            text_input(
                "progress_percentage",
                id="project-progress",
                type="number",
                min="0",
                max="100",
                step="1",
                default_value=rx.cond(e["progress"], e["progress"], "0"),
            ),
            _err("progress_percentage"),
        ),
        field(
            "Start date",
            text_input("start_date", id="project-start", type="date", min=EARLIEST, default_value=e["start_date"]),
            _err("start_date"),
        ),
        field(
            "End date",
            text_input("end_date", id="project-end", type="date", min=EARLIEST, default_value=e["end_date"]),
            _err("end_date"),
        ),
        field(
            "Deadline",
            text_input("deadline", id="project-deadline", type="date", min=EARLIEST, default_value=e["deadline"]),
            _err("deadline"),
        ),
        field(
            "Estimated hours",
            text_input(
                "estimated_hours",
                id="project-estimated",
                type="number",
                min="0",
                step="1",
                default_value=e["estimated_hours"],
            ),
            _err("estimated_hours"),
        ),
        field(
            "Actual hours",
            rx.el.input(
                value=rx.cond(e["actual_hours"], e["actual_hours"], "0"),
                read_only=True,
                aria_label="Actual hours",
                class_name=f"{INPUT} bg-slate-50 text-slate-500",
            ),
            hint="From time tracking; read-only.",
        ),
        rx.el.div(
            field(
                "Description",
                rx.el.textarea(
                    name="description",
                    id="project-description",
                    default_value=e["description"],
                    rows=3,
                    class_name=TEXTAREA,
                ),
                _err("description"),
            ),
            class_name="sm:col-span-2",
        ),
        rx.el.fieldset(
            rx.el.legend("Milestones", class_name="mb-2 text-sm font-medium text-slate-700"),
            rx.el.div(
                rx.foreach(S.milestones, _milestone_row),
                rx.cond(
                    S.milestones.length() == 0,
                    rx.el.p("No milestones yet.", class_name="text-sm text-slate-500"),
                    rx.fragment(),
                ),
                class_name="flex flex-col gap-2",
            ),
            rx.el.button(
                rx.icon("plus", size=14),
                "Add milestone",
                type="button",
                on_click=S.add_milestone,
                class_name=f"{BTN_SECONDARY} mt-2",
                data_testid="add-milestone",
            ),
            class_name="sm:col-span-2",
        ),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def _product_fields() -> rx.Component:
    e = S.edit
    return rx.el.div(
        field(
            "Name",
            text_input("name", id="product-name", default_value=e["name"], required=True),
            _err("name"),
            required=True,
        ),
        field(
            "Category",
            select(
                [("", "No category"), *[(x.value, label_of(x.value)) for x in ProductCategory]],
                name="category",
                id="product-category",
                default_value=e["category"],
            ),
            _err("category"),
        ),
        rx.el.div(
            field(
                "Description",
                rx.el.textarea(
                    name="description",
                    id="product-description",
                    default_value=e["description"],
                    rows=3,
                    class_name=TEXTAREA,
                ),
                _err("description"),
            ),
            class_name="sm:col-span-2",
        ),
        rx.el.label(
            rx.el.input(
                type="checkbox",
                name="is_active",
                id="product-active",
                default_checked=e["active"] != "",
                class_name="h-4 w-4 rounded border-slate-300",
            ),
            rx.el.span("Active (shown on the public site)", class_name="text-sm text-slate-700"),
            class_name="flex items-center gap-2",
        ),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def _form_dialog() -> rx.Component:
    form = rx.el.form(
        form_alert("Please check the form", S.form_error),
        rx.match(
            S.form_kind,
            ("organizations", _org_fields()),
            ("projects", _project_fields()),
            ("products", _product_fields()),
            rx.fragment(),
        ),
        submit_actions(S.set_form_open(False), S.saving, test_id="save-form"),
        on_submit=S.submit_form,
        reset_on_submit=False,
    )
    return dialog(
        S.form_title,
        "Fields marked * are required.",
        form,
        open=S.form_open,
        on_open_change=S.set_form_open,
        max_width="44rem",
    )


def content_content() -> rx.Component:
    return rx.el.div(
        page_header(
            "Content Management",
            "Organizations, client projects, the product catalogue and the public website's content.",
        ),
        rx.el.div(
            *[_tab_button(k, label) for k, label in TABS],
            role="tablist",
            class_name="mb-4 inline-flex max-w-full gap-1 overflow-x-auto rounded-lg bg-slate-100 p-1",
        ),
        rx.match(
            S.tab,
            ("site", site_editor_panel()),
            (
                "projects",
                rx.el.div(
                    _toolbar(
                        S.project_search,
                        S.set_project_search,
                        "Search projects…",
                        "projects",
                        S.can_write_content,
                        "Create Project",
                    ),
                    _list(
                        S.shown_projects,
                        S.projects,
                        S.project_search,
                        _project_card,
                        "projects",
                        S.project_error,
                        "Failed to load projects",
                    ),
                ),
            ),
            (
                "products",
                rx.el.div(
                    _toolbar(
                        S.product_search,
                        S.set_product_search,
                        "Search products…",
                        "products",
                        S.can_write_products,
                        "Create Product",
                    ),
                    _list(
                        S.shown_products,
                        S.products,
                        S.product_search,
                        _product_card,
                        "products",
                        S.product_error,
                        "Failed to load products",
                    ),
                ),
            ),
            rx.el.div(
                _toolbar(
                    S.org_search,
                    S.set_org_search,
                    "Search organizations…",
                    "organizations",
                    S.can_write_content,
                    "Create Organization",
                ),
                _list(S.shown_orgs, S.orgs, S.org_search, _org_card, "organizations", None, ""),
            ),
        ),
        _form_dialog(),
        confirm_dialog(
            rx.match(
                S.delete_kind, ("projects", "Delete Project"), ("products", "Delete Product"), "Delete Organization"
            ),
            rx.el.span('Are you sure you want to delete "', S.delete_name, '"? This action cannot be undone.'),
            open=S.delete_open,
            on_open_change=S.set_delete_open,
            on_confirm=S.confirm_delete,
            busy=S.saving,
        ),
    )
