"""What User Management and Clients share: the paginated list, and the create, edit, reset-password and delete dialogs.

`AccountsMixin` is mixed into UsersState and ClientsState (each a substate of AdminState); the UI helpers in
views.py take the concrete state class. Every handler re-checks the session (`_actor`) and leaves the decision to the
services in accounts/admin_users.py, which apply the rules of docs/permissions.md; the UI shows their message, or
the spec's fallback when something unexpected failed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any, ClassVar

import reflex as rx

from app.core.permissions import EMPLOYEE_TYPE_LABELS, Perm
from app.models.user import UserPublic
from app.services.accounts import admin_users, second_factor
from app.services.accounts.admin_users import UserRow
from app.ui.admin.business_time import day_text
from app.ui.admin.common import holds
from app.ui.admin.dialogs import Dialogs
from app.ui.admin.paged import PagedList, SectionListing, export_url
from app.ui.admin.state import AdminState, as_actor
from app.ui.rows import Choice

PAGE_SIZE = 10
ROLE_LABELS = {"admin": "Admin", "employee": "Employee", "client": "Client"}
# Keyed by the plain value a UserPublic dump holds (the labels are keyed by the enum).
EMPLOYEE_TYPE_NAMES = {str(k): v for k, v in EMPLOYEE_TYPE_LABELS.items()}
# No password: the new user is e-mailed a link to set one (staff never choose or pass on a password).
CREATE_KEYS = ("username", "email", "role", "employee_type", "first_name", "last_name", "phone", "company")
CLIENT_KEYS = ("username", "email", "first_name", "last_name", "phone", "company")


@dataclasses.dataclass
class AccountRow:
    """One account of the Users or Clients table, its values formatted for display. Not a `Row`: an account's id is
    its UUID, which the row's actions send as text (the services look the account up by it)."""

    id: str = ""
    username: str = ""
    email: str = ""
    full_name: str = ""
    first_name: str = ""
    last_name: str = ""
    phone: str = ""
    company: str = ""
    role: Choice = dataclasses.field(default_factory=Choice)
    employee_type: Choice = dataclasses.field(default_factory=Choice)
    verified: bool = False
    created: str = ""
    # What the signed-in staff member may do with the account: the service's flags (admin_users.UserRow).
    can_edit: bool = False
    can_delete: bool = False
    can_reset_password: bool = False
    can_reset_second_factor: bool = False


def account_row(u: UserRow) -> AccountRow:
    """An account as the tables show it."""
    return AccountRow(
        id=str(u.id),
        username=u.username,
        email=u.email,
        full_name=u.fullName or u.username,
        first_name=u.first_name or "",
        last_name=u.last_name or "",
        phone=u.phone or "",
        company=u.company or "",
        role=Choice.of(u.role, ROLE_LABELS),
        employee_type=Choice.of(u.employee_type, EMPLOYEE_TYPE_NAMES),
        verified=u.is_verified,
        created=day_text(u.created_at),
        can_edit=u.can_edit,
        can_delete=u.can_delete,
        can_reset_password=u.can_reset_password,
        can_reset_second_factor=u.can_reset_second_factor,
    )


def clean_form(form: dict[str, Any], keys: tuple[str, ...]) -> dict[str, str]:
    """Only the known fields; values trimmed (passwords kept as typed); empty fields dropped, as the spec says; an
    employee type only for an employee."""
    data: dict[str, str] = {}
    for key in keys:
        value = form.get(key)
        if not isinstance(value, str):
            continue
        value = value if key == "password" else value.strip()
        if value:
            data[key] = value
    if data.get("role") != "employee":
        data.pop("employee_type", None)
    return data


class AccountsMixin(Dialogs, PagedList[AccountRow], AdminState, mixin=True):
    """List, filters and dialogs over admin_users; the section states fill in their `listing` and `_filters`."""

    listing: ClassVar[SectionListing[AccountRow]] = SectionListing(
        Perm.users_read,
        "User Management",
        admin_users.list_users,
        account_row,
        "users",
        "user",
        "Failed to load users. Please try again.",
    )
    rows: list[AccountRow] = []
    page_size: int = PAGE_SIZE

    # The dialogs (`Dialogs`): "create", "edit", "reset", "factor" (two-step sign-in) and "delete"; the account is
    # `_dialog_key` (its UUID).
    # Create (mode "user": any role through create_staff_or_client; "client": create_client, role forced to client).
    create_mode: str = "user"
    form_role: str = "client"
    # What the signed-in staff member may give (admin_users.grantable): the role and type selects offer only these.
    role_choices: list[Choice] = []
    type_choices: list[Choice] = []

    # Edit: the row the form starts from.
    edit: AccountRow = AccountRow()
    edit_role: str = ""

    reset_email: str = ""  # shown in the confirmation only; the service mails the stored address

    # --- what the concrete sections define ---------------------------------------------------------------------

    @rx.var
    def export_url(self) -> str:
        return export_url("/api/admin/users/export", {**self._filters(), "search": self.search, "sort": self.sort})

    def _edit_keys(self) -> tuple[str, ...]:
        return CREATE_KEYS

    async def _reader(self) -> UserPublic | None:
        """The signed-in user when they may read the section's accounts (the services decide each write)."""
        return await self._actor(Perm.users_read, self.listing.feature)

    # --- who may do what (display only: the services decide) ---------------------------------------------------

    @rx.var
    def can_create_clients(self) -> bool:
        return holds(self.user, Perm.clients_create) or holds(self.user, Perm.users_manage)

    @rx.var
    def can_manage(self) -> bool:
        return holds(self.user, Perm.users_manage)

    # --- create ------------------------------------------------------------------------------------------------

    async def _offer(self, *keep: tuple[str, str]) -> None:
        """Load the roles and employee types the caller may give, plus `keep` (an edited account's current role and
        type, which its form must still show): the service refuses anything else all the same."""
        actor = await self._reader()
        offered = await as_actor(actor, lambda s, a: admin_users.grantable(a)) if actor else None
        roles = offered.roles if offered else []
        types = offered.employee_types if offered else []
        for role, employee_type in keep:
            roles = roles if not role or role in roles else [*roles, role]
            types = types if not employee_type or employee_type in types else [*types, employee_type]
        self.role_choices = [Choice(r, ROLE_LABELS.get(r, r)) for r in roles]
        self.type_choices = [Choice(t, EMPLOYEE_TYPE_NAMES.get(t, t)) for t in types]

    @rx.event
    async def open_create(self, mode: str) -> None:
        self.create_mode = "client" if mode == "client" else "user"
        await self._offer()
        self.form_role = (
            "client"
            if "client" in [c.value for c in self.role_choices] or not self.role_choices
            else (self.role_choices[0].value)
        )
        self._open_dialog("create")

    @rx.event
    def set_form_role(self, value: str) -> None:
        self.form_role = str(value)[:20]

    @rx.event
    async def submit_create(self, form: dict[str, Any]) -> AsyncIterator[None]:
        actor = await self._reader()
        if actor is None:
            return
        client_only = self.create_mode == "client"
        data = clean_form(form, CLIENT_KEYS if client_only else CREATE_KEYS)
        if self._untyped_employee(data):
            return
        ip = self.router.session.client_ip
        create = admin_users.create_client if client_only else admin_users.create_staff_or_client
        async for _ in self._submitting(
            actor,
            lambda s, a: create(s, actor=a, data=data, ip=ip),
            "Unable to create user. Please try again.",
            "Client created successfully" if client_only else "User created successfully",
            f"We e-mailed {data['username']} a link to set their password.",
        ):
            yield

    def _untyped_employee(self, data: dict[str, str]) -> bool:
        """An employee without an employee type: say so on the form (True) rather than send it."""
        if data.get("role") != "employee" or data.get("employee_type"):
            return False
        self.form_error = "Please check the information and try again"
        self.form_errors = {"employee_type": "Employee type is required for employees"}
        return True

    # --- edit --------------------------------------------------------------------------------------------------

    @rx.event
    async def open_edit(self, user_id: str) -> None:
        """Edit the account `user_id` of the page shown (only a row on it: the form starts from what the row shows)."""
        rows: list[AccountRow] = self.get_value("rows")
        row = next((r for r in rows if r.id == str(user_id)), None)
        if row is None:
            return
        await self._offer((row.role.value, row.employee_type.value))
        self.edit = dataclasses.replace(row)
        self.edit_role = row.role.value
        self._open_dialog("edit", row.id)

    @rx.event
    def set_edit_role(self, value: str) -> None:
        self.edit_role = str(value)[:20]

    def _edit_payload(self, form: dict[str, Any]) -> dict[str, str]:
        return clean_form(form, self._edit_keys())

    @rx.event
    async def submit_edit(self, form: dict[str, Any]) -> AsyncIterator[None]:
        actor = await self._reader()
        if actor is None:
            return
        data = self._edit_payload(form)
        if self._untyped_employee(data):
            return
        noun, target, ip = self.listing.noun, self._dialog_key, self.router.session.client_ip
        async for _ in self._submitting(
            actor,
            lambda s, a: admin_users.update_user(s, actor=a, user_id=target, data=data, ip=ip),
            f"Unable to update {noun}. Please try again.",
            f"{noun.title()} updated successfully",
        ):
            yield

    # --- reset password ----------------------------------------------------------------------------------------

    @rx.event
    def open_reset(self, user_id: str, name: str, email: str = "") -> None:
        self.reset_email = str(email)
        self._open_dialog("reset", user_id, name)

    @rx.event
    async def send_reset(self) -> AsyncIterator[None]:
        """E-mail the user a reset link (nobody on staff chooses or learns the new password)."""
        actor = await self._reader()
        if actor is None:
            return
        target, ip = self._dialog_key, self.router.session.client_ip
        self.saving = True
        yield
        _, user = await self._save(
            actor,
            lambda s, a: admin_users.send_reset_link(s, actor=a, user_id=target, ip=ip),
            "Failed to send the reset link. Please try again.",
            toast=False,
        )
        if user is None:
            return
        self.close_dialogs()
        await self._notify(
            "success", "Reset link sent", f"We e-mailed {user.username} a link to choose a new password."
        )

    # --- reset two-step sign-in ---------------------------------------------------------------------------------

    @rx.event
    def open_reset_factor(self, user_id: str, name: str) -> None:
        self._open_dialog("factor", user_id, name)

    @rx.event
    async def confirm_reset_factor(self) -> AsyncIterator[None]:
        """Remove their authenticator, recovery codes and trusted browsers (they are told by mail)."""
        actor = await self._reader()
        if actor is None:
            return
        target, ip = self._dialog_key, self.router.session.client_ip
        async for _ in self._submitting(
            actor,
            lambda s, a: second_factor.reset_for(s, actor=a, user_id=target, ip=ip),
            "Unable to reset two-step sign-in. Please try again.",
            "Two-step sign-in reset. They have been told by e-mail.",
        ):
            yield

    # --- delete ------------------------------------------------------------------------------------------------

    @rx.event
    def open_delete(self, user_id: str, name: str) -> None:
        self._open_dialog("delete", user_id, name)

    @rx.event
    async def confirm_delete(self) -> AsyncIterator[None]:
        actor = await self._reader()
        if actor is None:
            return
        noun, target, ip = self.listing.noun, self._dialog_key, self.router.session.client_ip
        async for _ in self._submitting(
            actor,
            lambda s, a: admin_users.delete_user(s, actor=a, user_id=target, ip=ip),
            f"Unable to delete {noun}. Please try again.",
            f"{noun.title()} deleted successfully",
        ):
            yield
