"""What User Management and Clients share: the paginated list, and the create, edit, reset-password and delete dialogs.

`AccountsMixin` is mixed into UsersState and ClientsState (each a substate of AdminState); the UI helpers below take
the concrete state class. Every handler re-checks the session (`_actor`) and leaves the decision to the services in
app/services/admin_users.py, which apply the rules of docs/permissions.md; the UI shows their message, or the spec's
fallback when something unexpected failed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import reflex as rx

from app.core.permissions import EMPLOYEE_TYPE_LABELS, Perm, has_perm
from app.services import admin_users
from app.ui.admin.state import AdminState, as_actor, error_text, field_errors
from app.ui.admin.widgets import (
    BTN_DANGER,
    BTN_SECONDARY,
    ICON_BTN,
    alert,
    dialog,
    dialog_actions,
    field,
    select,
    submit_actions,
    text_input,
)

PAGE_SIZE = 10
ROLE_LABELS = {"admin": "Admin", "employee": "Employee", "client": "Client"}
ROLE_OPTIONS = [("client", "Client"), ("employee", "Employee"), ("admin", "Admin")]
EMPLOYEE_TYPE_OPTIONS = [("", "Select employee type…")] + [(str(k), v) for k, v in EMPLOYEE_TYPE_LABELS.items()]
CREATE_KEYS = ("username", "email", "password", "role", "employee_type", "first_name", "last_name", "phone", "company")
CLIENT_KEYS = ("username", "email", "password", "first_name", "last_name", "phone", "company")
MIN_PASSWORD = 8


def long_date(value: Any) -> str:
    """en-US long form, e.g. 'November 22, 2026'."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return value
    if not isinstance(value, datetime):
        return ""
    return f"{value:%B} {value.day}, {value.year}"


def account_row(u: dict[str, Any]) -> dict[str, str]:
    """A UserPublic dump as the tables show it (all strings, for simple Vars)."""
    etype = u.get("employee_type") or ""
    return {
        "id": str(u["id"]),
        "username": u["username"],
        "email": u["email"],
        "full_name": u.get("fullName") or u["username"],
        "first_name": u.get("first_name") or "",
        "last_name": u.get("last_name") or "",
        "phone": u.get("phone") or "",
        "company": u.get("company") or "",
        "role": u["role"],
        "role_label": ROLE_LABELS.get(u["role"], u["role"].title()),
        "employee_type": etype,
        "employee_type_label": EMPLOYEE_TYPE_LABELS.get(etype, etype) if etype else "",  # type: ignore[call-overload]
        "verified": "yes" if u.get("is_verified") else "",
        "created": long_date(u.get("created_at")),
    }


def clean_form(form: dict[str, Any], keys: tuple[str, ...]) -> dict[str, str]:
    """Only the known fields; values trimmed (passwords kept as typed); empty fields dropped, as the spec says."""
    data: dict[str, str] = {}
    for key in keys:
        value = form.get(key)
        if not isinstance(value, str):
            continue
        value = value if key == "password" else value.strip()
        if value:
            data[key] = value
    return data


class AccountsMixin(AdminState, mixin=True):
    """List, filters and dialogs over admin_users; the section states fill in `_query` and the texts."""

    rows: list[dict[str, str]] = []
    total: int = 0
    page: int = 1
    search: str = ""
    loading: bool = False
    load_error: str = ""

    # Create (mode "user": any role through create_staff_or_client; "client": create_client, role forced to client).
    create_open: bool = False
    create_mode: str = "user"
    form_role: str = "client"
    form_error: str = ""
    form_errors: dict[str, str] = {}
    saving: bool = False

    # Edit: the values the form starts from.
    edit_open: bool = False
    edit: dict[str, str] = {}
    edit_role: str = ""
    _edit_id: str = ""

    reset_open: bool = False
    reset_name: str = ""
    _reset_id: str = ""

    delete_open: bool = False
    delete_name: str = ""
    delete_error: str = ""
    _delete_id: str = ""

    # --- what the concrete sections define ---------------------------------------------------------------------

    def _feature(self) -> str:
        return "User Management"

    def _query(self) -> dict[str, Any]:
        return {}

    def _edit_keys(self) -> tuple[str, ...]:
        return CREATE_KEYS[:2] + CREATE_KEYS[3:]

    def _texts(self) -> dict[str, str]:
        return {
            "update_title": "Update Failed",
            "update_fallback": "Unable to update user. Please try again.",
            "update_ok": "User updated successfully",
            "delete_title": "Deletion Failed",
            "delete_fallback": "Unable to delete user. Please try again.",
            "delete_ok": "User deleted successfully",
        }

    # --- list --------------------------------------------------------------------------------------------------

    async def _reload(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.users_read, self._feature(), quiet=quiet)
        if actor is None:
            self.rows, self.total = [], 0
            return
        query = {**self._query(), "search": self.search, "page": self.page, "page_size": PAGE_SIZE}
        self.loading = True
        try:
            result = await as_actor(actor, lambda s, a: admin_users.list_users(s, actor=a, **query))
        except Exception as exc:
            self.load_error = error_text(exc, "Failed to load users. Please try again.")
            self.rows, self.total = [], 0
        else:
            self.load_error = ""
            self.rows = [account_row(u) for u in result["data"]]
            self.total = int(result["total"])
            pages = max(1, -(-self.total // PAGE_SIZE))
            if self.page > pages:  # e.g. the last row of the last page was deleted
                self.page = pages
                await self._reload()
        finally:
            self.loading = False

    @rx.event
    async def load(self) -> None:
        self.page = 1
        await self._reload(quiet=True)

    @rx.event
    async def set_search(self, value: str) -> None:
        self.search = str(value)[:100]
        self.page = 1
        await self._reload()

    @rx.event
    async def prev_page(self) -> None:
        self.page = max(1, self.page - 1)
        await self._reload()

    @rx.event
    async def next_page(self) -> None:
        self.page = min(self.page_count, self.page + 1)
        await self._reload()

    @rx.var
    def page_count(self) -> int:
        return max(1, -(-self.total // PAGE_SIZE))

    @rx.var
    def first_shown(self) -> int:
        return 0 if self.total == 0 else (self.page - 1) * PAGE_SIZE + 1

    @rx.var
    def last_shown(self) -> int:
        return min(self.total, self.page * PAGE_SIZE)

    # --- who may do what (display only: the services decide) ---------------------------------------------------

    @rx.var
    def can_create_clients(self) -> bool:
        perms = self.user.get("effective_permissions", [])
        return has_perm(perms, Perm.clients_create) or has_perm(perms, Perm.users_manage)

    @rx.var
    def can_manage(self) -> bool:
        return has_perm(self.user.get("effective_permissions", []), Perm.users_manage)

    @rx.var
    def can_reset_any(self) -> bool:
        return has_perm(self.user.get("effective_permissions", []), Perm.users_reset_password)

    @rx.var
    def can_reset_clients(self) -> bool:
        perms = self.user.get("effective_permissions", [])
        return has_perm(perms, Perm.clients_reset_password) or has_perm(perms, Perm.users_reset_password)

    # --- create ------------------------------------------------------------------------------------------------

    @rx.event
    def open_create(self, mode: str) -> None:
        self.create_mode = "client" if mode == "client" else "user"
        self.form_role = "client"
        self.form_error, self.form_errors = "", {}
        self.create_open = True

    @rx.event
    def set_create_open(self, value: bool) -> None:
        self.create_open = bool(value) and self.create_open
        if not value:
            self.form_error, self.form_errors = "", {}

    @rx.event
    def set_form_role(self, value: str) -> None:
        self.form_role = str(value)

    @rx.event
    async def submit_create(self, form: dict[str, Any]) -> None:
        actor = await self._actor(Perm.users_read, self._feature())
        if actor is None:
            return
        client_only = self.create_mode == "client"
        data = clean_form(form, CLIENT_KEYS if client_only else CREATE_KEYS)
        errors: dict[str, str] = {}
        if not client_only:
            if data.get("role") != "employee":
                data.pop("employee_type", None)
            elif not data.get("employee_type"):
                errors["employee_type"] = "Employee type is required for employees"
        if len(data.get("password", "")) < MIN_PASSWORD:
            errors["password"] = "Password must be at least 8 characters"
        if errors:
            self.form_error, self.form_errors = "Please check the information and try again", errors
            return
        ip = self.router.session.client_ip
        self.saving = True
        yield
        try:
            if client_only:
                await as_actor(actor, lambda s, a: admin_users.create_client(s, actor=a, data=data, ip=ip))
            else:
                await as_actor(actor, lambda s, a: admin_users.create_staff_or_client(s, actor=a, data=data, ip=ip))
        except Exception as exc:
            self.form_error = error_text(exc, "Unable to create user. Please try again.")
            self.form_errors = field_errors(exc)
            return
        finally:
            self.saving = False
        self.create_open = False
        self._notify("success", "Client created successfully" if client_only else "User created successfully")
        await self._reload()

    # --- edit --------------------------------------------------------------------------------------------------

    @rx.event
    def open_edit(self, row: dict[str, Any]) -> None:
        self._edit_id = str(row.get("id", ""))
        self.edit = {k: str(row.get(k) or "") for k in (*CREATE_KEYS, "role_label")}
        self.edit_role = self.edit["role"]
        self.form_error, self.form_errors = "", {}
        self.edit_open = True

    @rx.event
    def set_edit_open(self, value: bool) -> None:
        self.edit_open = bool(value) and self.edit_open
        if not value:
            self.form_error, self.form_errors = "", {}

    @rx.event
    def set_edit_role(self, value: str) -> None:
        self.edit_role = str(value)

    def _edit_payload(self, form: dict[str, Any]) -> dict[str, str]:
        data = clean_form(form, self._edit_keys())
        if data.get("role") != "employee":
            data.pop("employee_type", None)
        return data

    @rx.event
    async def submit_edit(self, form: dict[str, Any]) -> None:
        actor = await self._actor(Perm.users_read, self._feature())
        if actor is None:
            return
        data = self._edit_payload(form)
        if data.get("role") == "employee" and not data.get("employee_type"):
            self.form_error = "Please check the information and try again"
            self.form_errors = {"employee_type": "Employee type is required for employees"}
            return
        texts, target, ip = self._texts(), self._edit_id, self.router.session.client_ip
        self.saving = True
        yield
        try:
            await as_actor(actor, lambda s, a: admin_users.update_user(s, actor=a, user_id=target, data=data, ip=ip))
        except Exception as exc:
            self.form_error = error_text(exc, texts["update_fallback"])
            self.form_errors = field_errors(exc)
            return
        finally:
            self.saving = False
        self.edit_open = False
        self._notify("success", texts["update_ok"])
        await self._reload()

    # --- reset password ----------------------------------------------------------------------------------------

    @rx.event
    def open_reset(self, user_id: str, name: str) -> None:
        self._reset_id, self.reset_name = str(user_id), str(name)
        self.form_error, self.form_errors = "", {}
        self.reset_open = True

    @rx.event
    def set_reset_open(self, value: bool) -> None:
        self.reset_open = bool(value) and self.reset_open

    @rx.event
    async def submit_reset(self, form: dict[str, Any]) -> None:
        actor = await self._actor(Perm.users_read, self._feature())
        if actor is None:
            return
        password = str(form.get("new_password") or "")
        if len(password) < MIN_PASSWORD:
            self.form_error = ""
            self.form_errors = {"new_password": "Password must be at least 8 characters"}
            return
        target, ip = self._reset_id, self.router.session.client_ip
        self.saving = True
        yield
        try:
            await as_actor(
                actor,
                lambda s, a: admin_users.reset_password(s, actor=a, user_id=target, new_password=password, ip=ip),
            )
        except Exception as exc:
            self.form_error = error_text(exc, "Failed to reset password. Please try again.")
            self.form_errors = {"new_password": e} if (e := field_errors(exc).get("newPassword")) else {}
            return
        finally:
            self.saving = False
        self.reset_open = False
        self._notify("success", "Password reset successfully", f"{self.reset_name} has to sign in again.")

    # --- delete ------------------------------------------------------------------------------------------------

    @rx.event
    def open_delete(self, user_id: str, name: str) -> None:
        self._delete_id, self.delete_name = str(user_id), str(name)
        self.delete_error = ""
        self.delete_open = True

    @rx.event
    def set_delete_open(self, value: bool) -> None:
        self.delete_open = bool(value) and self.delete_open

    @rx.event
    async def confirm_delete(self) -> None:
        actor = await self._actor(Perm.users_read, self._feature())
        if actor is None:
            return
        texts, target, ip = self._texts(), self._delete_id, self.router.session.client_ip
        self.saving = True
        yield
        try:
            await as_actor(actor, lambda s, a: admin_users.delete_user(s, actor=a, user_id=target, ip=ip))
        except Exception as exc:
            self.delete_error = error_text(exc, texts["delete_fallback"])
            return
        finally:
            self.saving = False
        self.delete_open = False
        self._notify("success", texts["delete_ok"])
        await self._reload()


# --- UI shared by both sections ----------------------------------------------------------------------------------


def search_box(state: type[AccountsMixin], placeholder: str) -> rx.Component:
    return rx.el.div(
        rx.icon(
            "search", size=16, class_name="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-slate-400"
        ),
        rx.el.input(
            type="search",
            placeholder=placeholder,
            default_value=state.search,
            on_change=state.set_search,
            aria_label=placeholder,
            class_name="block w-full rounded-lg border border-slate-300 bg-white py-2 pl-9 pr-3 text-sm "
            "placeholder:text-slate-400 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/30",
        ),
        class_name="relative w-full sm:max-w-xs",
    )


def _form_alert(state: type[AccountsMixin], title: str) -> rx.Component:
    return rx.cond(state.form_error != "", alert(title, state.form_error), rx.fragment())


def _submit_row(state: type[AccountsMixin], label: str, on_cancel: Any, *, danger: bool = False) -> rx.Component:
    return submit_actions(on_cancel, state.saving, label, danger=danger)


def _err(state: type[AccountsMixin], key: str) -> rx.Var:
    return state.form_errors.get(key, "")


def create_dialog(state: type[AccountsMixin]) -> rx.Component:
    client_only = state.create_mode == "client"
    role_fields = rx.cond(
        client_only,
        rx.fragment(),
        rx.el.div(
            field(
                "Role",
                select(
                    ROLE_OPTIONS, name="role", id="create-role", value=state.form_role, on_change=state.set_form_role
                ),
                _err(state, "role"),
                required=True,
            ),
            rx.cond(
                state.form_role == "employee",
                field(
                    "Employee type",
                    select(EMPLOYEE_TYPE_OPTIONS, name="employee_type", id="create-employee-type", required=True),
                    _err(state, "employee_type"),
                    required=True,
                ),
                rx.fragment(),
            ),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
    )
    form = rx.el.form(
        rx.el.div(
            _form_alert(state, "Creation Failed"),
            rx.el.div(
                field(
                    "Username",
                    text_input("username", id="create-username", required=True, auto_complete="off"),
                    _err(state, "username"),
                    required=True,
                ),
                field(
                    "Email",
                    text_input("email", id="create-email", type="email", required=True),
                    _err(state, "email"),
                    required=True,
                ),
                class_name="grid gap-4 sm:grid-cols-2",
            ),
            field(
                "Password",
                text_input(
                    "password",
                    id="create-password",
                    type="password",
                    required=True,
                    min_length=MIN_PASSWORD,
                    auto_complete="new-password",
                ),
                _err(state, "password"),
                hint="At least 8 characters.",
                required=True,
            ),
            role_fields,
            rx.el.div(
                field("First name", text_input("first_name", id="create-first-name"), _err(state, "first_name")),
                field("Last name", text_input("last_name", id="create-last-name"), _err(state, "last_name")),
                field("Phone", text_input("phone", id="create-phone", type="tel"), _err(state, "phone")),
                field("Company", text_input("company", id="create-company"), _err(state, "company")),
                class_name="grid gap-4 sm:grid-cols-2",
            ),
            class_name="flex flex-col gap-4",
        ),
        _submit_row(state, rx.cond(client_only, "Create Client", "Create User"), state.set_create_open(False)),
        on_submit=state.submit_create,
        reset_on_submit=False,
    )
    return dialog(
        rx.cond(client_only, "Create Client", "Create User"),
        rx.cond(
            client_only,
            "Add a client account. They can sign in to the client portal with this password.",
            "Add a staff member or client account. Empty optional fields are left out.",
        ),
        form,
        open=state.create_open,
        on_open_change=state.set_create_open,
        max_width="40rem",
    )


def reset_dialog(state: type[AccountsMixin]) -> rx.Component:
    form = rx.el.form(
        rx.el.div(
            _form_alert(state, "Password Reset Failed"),
            field(
                "New password",
                text_input(
                    "new_password",
                    id="reset-password",
                    type="password",
                    required=True,
                    min_length=MIN_PASSWORD,
                    auto_complete="new-password",
                ),
                _err(state, "new_password"),
                hint="At least 8 characters. The user is signed out everywhere.",
                required=True,
            ),
            class_name="flex flex-col gap-4",
        ),
        _submit_row(state, "Reset Password", state.set_reset_open(False)),
        on_submit=state.submit_reset,
        reset_on_submit=False,
    )
    return dialog(
        "Reset Password",
        rx.el.span("Set a new password for ", rx.el.strong(state.reset_name), "."),
        form,
        open=state.reset_open,
        on_open_change=state.set_reset_open,
    )


def delete_dialog(state: type[AccountsMixin], noun: str, error_title: str) -> rx.Component:
    body = rx.el.div(
        rx.cond(state.delete_error != "", alert(error_title, state.delete_error), rx.fragment()),
        dialog_actions(
            rx.el.button("Cancel", type="button", on_click=state.set_delete_open(False), class_name=BTN_SECONDARY),
            rx.el.button(
                rx.cond(state.saving, rx.icon("loader-circle", size=16, class_name="animate-spin"), rx.fragment()),
                "Delete",
                type="button",
                on_click=state.confirm_delete,
                disabled=state.saving,
                class_name=BTN_DANGER,
            ),
        ),
    )
    return dialog(
        f"Delete {noun.title()}",
        rx.el.span(
            f"Are you sure you want to delete {noun} ",
            state.delete_name,
            "? This action cannot be undone.",
        ),
        body,
        open=state.delete_open,
        on_open_change=state.set_delete_open,
    )


def row_actions(state: type[AccountsMixin], row: rx.Var, *, reset_allowed: rx.Var) -> rx.Component:
    """Edit and delete for everyone who sees the list (the server decides); reset for those who may reset."""
    return rx.el.div(
        rx.el.button(
            rx.icon("pencil", size=16),
            on_click=state.open_edit(row),
            title="Edit",
            aria_label=f"Edit {row['username']}",
            class_name=ICON_BTN,
        ),
        rx.cond(
            reset_allowed,
            rx.el.button(
                rx.icon("key-round", size=16),
                on_click=state.open_reset(row["id"], row["username"]),
                title="Reset password",
                aria_label=f"Reset password of {row['username']}",
                class_name=ICON_BTN,
            ),
            rx.fragment(),
        ),
        rx.el.button(
            rx.icon("trash-2", size=16),
            on_click=state.open_delete(row["id"], row["username"]),
            title="Delete",
            aria_label=f"Delete {row['username']}",
            class_name=f"{ICON_BTN} hover:!bg-red-50 hover:!text-red-600",
        ),
        class_name="flex items-center justify-end gap-1",
    )
