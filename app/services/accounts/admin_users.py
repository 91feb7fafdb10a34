"""Staff management of accounts: list, create, edit, reset passwords, delete, under the rules of docs/permissions.md.

- Admins do everything. `users:manage` (HR) creates and manages employees and clients, never admins.
- `clients:create` (sales lead, customer support) creates clients only, through create_client, role forced to client;
  `clients:reset_password` resets clients' passwords only.
- Staff never need to choose a password for someone: an account created without one gets an e-mailed invitation to
  set it, and "reset password" e-mails a reset link (both password_reset links). Setting a password
  directly stays available to API clients.
- Nobody deletes their own account, demotes or deletes the last admin, or changes their own role, employee type or
  permission lists (another manager does that).
- Nobody gives anyone access they do not hold themselves: whatever a change of role, type, extra or revoked
  permissions adds to the target's effective permissions must be the actor's own, and so must any newly listed extra;
  only admins make admins. Choosing the e-mail address or password of an account that holds more than the actor is
  the same as taking its permissions, so it is refused too.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Unpack

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.core.errors import Conflict, Forbidden, Invalid, NotFound
from app.core.permissions import EmployeeType, Perm, Role, effective_permissions, ungrantable
from app.core.security import hash_password, password_problem
from app.models.billing import Invoice
from app.models.enums import InvoiceStatus, ProjectStatus
from app.models.project import Project
from app.models.user import User, UserPublic
from app.services.accounts import password_reset, second_factor, sessions
from app.services.accounts.account_fields import (
    AccountEmail,
    ChosenPassword,
    Company,
    FirstName,
    LastName,
    PermissionNames,
    Phone,
    Username,
)
from app.services.accounts.users import GENERIC_INVALID, clean_text, create_user, role_problems
from app.services.platform import audit, ratelimit
from app.services.platform.access import perms
from app.services.platform.csv_export import table
from app.services.platform.paging import Listing, Ordering, Page, View, contains, one_of
from app.services.platform.schema import Flag, Form, Input, RawText, parse, problem, required

NO_CREATE = "You don't have permission to create this type of user"
NO_RESET = "You don't have permission to reset this user's password"
LINKS_PER_ACCOUNT = 5  # reset links staff may send one account an hour (a mailbox is not a target)
TOO_MANY_LINKS = "Too many reset links were sent to this account. Please try again in an hour."
NO_SELF = "You cannot change your own role or permissions"
PERM_LISTS = ("extra_permissions", "revoked_permissions")
PROFILE_FIELDS = ("first_name", "last_name", "phone", "company")


class Grantable(BaseModel):
    """What the actor may give an account they create or change: the forms offer only these (issue 26)."""

    roles: list[str]  # in the order the forms list them: client, employee, admin
    employee_types: list[str]


def grantable(actor: User) -> Grantable:
    """The roles and employee types whose permissions the actor holds, as `create_staff_or_client` and `update_user`
    judge them (`_check_grants`): admin only for admins, a type only when its defaults are all the actor's."""
    if not _can(actor, Perm.users_manage):
        return Grantable(roles=[], employee_types=[])  # they create and change no accounts here at all
    held = perms(actor)

    def gives(role: str, employee_type: str | None = None) -> bool:
        return not ungrantable(held, effective_permissions(role, employee_type, []))

    types = [t.value for t in EmployeeType if gives(Role.employee, t)]
    roles = [Role.client.value] if gives(Role.client) else []
    roles += [Role.employee.value] if types else []
    roles += [Role.admin.value] if actor.role == Role.admin else []
    return Grantable(roles=roles, employee_types=types)


def _can(actor: User, perm: str) -> bool:
    return actor.role == Role.admin or perm in perms(actor)


def _get(s: Session, user_id: uuid.UUID | str) -> User:
    try:
        uid = user_id if isinstance(user_id, uuid.UUID) else uuid.UUID(str(user_id))
    except ValueError:
        raise NotFound("User not found") from None
    user = s.get(User, uid)
    if user is None:
        raise NotFound("User not found")
    return user


def may_read_users(actor: User) -> bool:
    """Whether the actor sees accounts (users:read; admins always)."""
    return _can(actor, Perm.users_read)


def get_user(s: Session, user_id: uuid.UUID | str) -> User:
    """The account with this id, or NotFound ("User not found")."""
    return _get(s, user_id)


def _admin_count(s: Session) -> int:
    return int(s.exec(select(func.count()).where(User.role == Role.admin)).one())


USER_SORTS = {
    "newest": (col(User.created_at).desc(), col(User.username)),
    "oldest": (col(User.created_at), col(User.username)),
    "username": (func.lower(User.username),),
}


USER_SEARCH = (User.username, User.email, User.first_name, User.last_name, User.company)
USER_COLUMNS = (
    "id", "username", "email", "first_name", "last_name", "company", "phone", "role", "employee_type",
    "is_verified", "profile_complete", "created_at",
)  # fmt: skip


class UserRow(UserPublic):
    """An account as one staff member sees it in the lists: what that actor may do with it, by the rules of this
    module (not in the REST answer, whose model is `UserPublic`)."""

    can_edit: bool = False  # update_user would not refuse the account itself (its fields are judged on saving)
    can_delete: bool = False  # delete_user would not refuse it
    can_reset_password: bool = False  # send_reset_link would not refuse it (the hourly cap aside)
    can_reset_second_factor: bool = False  # second_factor.reset_for would not refuse it


USERS = Listing(lambda u: u, USER_SORTS, USER_SEARCH)


def _users(actor: User, *, role: str, verified: bool | None) -> Any:
    if not _can(actor, Perm.users_read):
        raise Forbidden("You don't have permission to view users")
    query = one_of(select(User), User.role, role, Role, "role")
    if verified is not None:
        query = query.where(User.is_verified == verified)
    return query


def export_users(
    s: Session, *, actor: User, role: str = "", verified: bool | None = None, **order: Unpack[Ordering]
) -> Iterator[str]:
    """Every user (or client, with role="client") the list shows with these filters, as CSV text in pieces."""
    query = _users(actor, role=role, verified=verified)
    rows = (UserPublic.of(u).model_dump(mode="json") for u in USERS.stream(s, query, **order))
    return table(USER_COLUMNS, rows)


def list_users(
    s: Session, *, actor: User, role: str = "", verified: bool | None = None, **view: Unpack[View]
) -> Page[UserRow]:
    """A page of users filtered in SQL by text (username, e-mail, names, company), role and verification; each says
    what the actor may do with it."""
    query = _users(actor, role=role, verified=verified)
    page = USERS.page(s, query, **view)
    last_admin = _admin_count(s) <= 1
    kept = _with_records(s, [u.id for u in page.data if u.role == Role.client])
    factors = second_factor.with_factor(s, [u.id for u in page.data])
    return page.with_data(
        [
            UserRow(
                **UserPublic.of(u).model_dump(),
                can_edit=_may_manage(actor, u),
                can_delete=_delete_refusal(actor, u, last_admin=last_admin) is None and u.id not in kept,
                can_reset_password=_reset_refusal(actor, u) is None,
                can_reset_second_factor=second_factor.reset_refusal(actor, u, has_factor=u.id in factors) is None,
            )
            for u in page.data
        ]
    )


def _raise_invalid(errors: dict[str, str]) -> None:
    if errors:
        message = next(iter(errors.values())) if len(errors) == 1 else "Please check the information and try again"
        raise Invalid(message, errors=errors)


def _check_grants(actor: User, *, role: str, before: frozenset[str], after: frozenset[str], listed: set[str]) -> None:
    """Refuse unless the actor holds everything the target gains and every extra newly listed for it.

    Comparing effective permissions rather than the fields sent catches every way to more access at once: a type, a
    role, an extra, or a revocation taken back. A newly listed extra counts even when the target already holds it by
    default: stored, it would outlive a later change of type.
    """
    if role == Role.admin and actor.role != Role.admin:
        raise Forbidden(NO_CREATE)
    if missing := ungrantable(perms(actor), (after - before) | listed):
        raise Forbidden(f"You cannot grant permissions you do not hold: {', '.join(sorted(missing))}")


def _check_access_change(
    s: Session, actor: User, target: User, *, role: str, employee_type: str | None, extra: list[str], revoked: list[str]
) -> None:
    """The rules for a change of role, type, extra or revoked permissions; resending the current values is no change."""
    unchanged = (
        role == target.role
        and employee_type == target.employee_type
        and set(extra) == set(target.extra_permissions)
        and set(revoked) == set(target.revoked_permissions)
    )
    if unchanged:
        return
    if role != target.role and target.role == Role.admin and _admin_count(s) <= 1:
        raise Forbidden("The last admin cannot be demoted")
    if target.id == actor.id:
        # Admins too: one who demotes themselves loses the panel mid-session; another admin decides that.
        raise Forbidden(NO_SELF)
    after = effective_permissions(role, employee_type, extra, revoked)
    _check_grants(
        actor, role=role, before=perms(target), after=after, listed=set(extra) - set(target.extra_permissions)
    )


def _check_sign_in_change(actor: User, target: User) -> None:
    """Whoever chooses an account's password or e-mail address can sign in as it (Google sign-in links an account by
    its address), so that is only for accounts holding nothing the actor lacks."""
    if target.id != actor.id and (missing := ungrantable(perms(actor), perms(target))):
        raise Forbidden(
            "You cannot change the e-mail or password of an account with permissions you do not hold: "
            + ", ".join(sorted(missing))
        )


def _a_role(value: str | None) -> str | None:
    if not value:
        raise problem("Role is required", summary=GENERIC_INVALID)
    if why := role_problems(value, None).get("role"):
        raise problem(why, several=GENERIC_INVALID)
    return value


def _type_for_role(value: str | None, info: ValidationInfo) -> str | None:
    # Judged beside the role (validated before it), so a form with other mistakes hears of this one too.
    employee_type = clean_text(value)
    role = info.data.get("role")
    if role and (why := role_problems(role, employee_type).get("employee_type")):
        raise problem(why, several=GENERIC_INVALID)
    return employee_type


class ClientCreate(Input):
    """A client account made by staff. Without a password the client is e-mailed a link to choose one."""

    model_config = ConfigDict(json_schema_extra=required("username", "email"))

    username: Username = Field("", validate_default=True)
    email: AccountEmail = Field(None, validate_default=True)
    password: ChosenPassword = None
    # The spec's staff form sends the new password under this name; it is a password, hashed here.
    password_hash: ChosenPassword = None
    first_name: FirstName = None
    last_name: LastName = None
    phone: Phone = None
    company: Company = None

    def chosen_password(self) -> str | None:
        return self.password or self.password_hash


class UserCreate(ClientCreate):
    """Any account made by staff: a role (and an employee's type), and extra permissions beyond the type's."""

    model_config = ConfigDict(json_schema_extra=required("username", "email", "role"))

    role: Annotated[RawText, AfterValidator(_a_role)] = Field(
        None, validate_default=True, description="admin, employee or client."
    )
    employee_type: Annotated[RawText, AfterValidator(_type_for_role)] = Field(
        None, validate_default=True, description="An employee's type (required for employees, refused for others)."
    )
    extra_permissions: PermissionNames = None


class UserUpdate(Form):
    """The fields sent change; empty strings and nulls are "not sent"."""

    username: Username = ""
    email: AccountEmail = None
    role: RawText = Field(None, description="admin, employee or client.")
    employee_type: RawText = Field(None, description="An employee's type (required for employees).")
    first_name: FirstName = None
    last_name: LastName = None
    phone: Phone = None
    company: Company = None
    extra_permissions: PermissionNames = None
    revoked_permissions: PermissionNames = None
    is_verified: Flag = False


def create_staff_or_client(
    s: Session, *, actor: User, data: UserCreate | Mapping[str, Any], ip: str | None = None
) -> User:
    """POST /api/admin/users: admins create anyone; `users:manage` creates employees and clients."""
    if not _can(actor, Perm.users_manage):
        raise Forbidden(NO_CREATE)
    body = parse(UserCreate, data)
    role, employee_type, extra = body.role or "", body.employee_type, body.extra_permissions or []
    after = effective_permissions(role, employee_type, extra)
    _check_grants(actor, role=role, before=frozenset(), after=after, listed=set(extra))
    user = create_user(s, **_account(body), role=role, employee_type=employee_type)
    if extra:
        user.extra_permissions = extra
    invite = user.password_hash is None
    audit.record(s, actor=actor, action="user.create", entity=user, details={"role": role, "invited": invite}, ip=ip)
    s.add(user)
    s.commit()
    if invite:
        password_reset.send_link(s, user, reason="account_created")
    return user


def create_client(s: Session, *, actor: User, data: ClientCreate | Mapping[str, Any], ip: str | None = None) -> User:
    """POST /api/protected/create-client: anyone who may create clients; the role is always client."""
    if not (_can(actor, Perm.clients_create) or _can(actor, Perm.users_manage)):
        raise Forbidden(NO_CREATE)
    user = create_user(s, **_account(parse(ClientCreate, data)), role=Role.client)
    invite = user.password_hash is None
    audit.record(s, actor=actor, action="client.create", entity=user, details={"invited": invite}, ip=ip)
    s.commit()
    if invite:
        password_reset.send_link(s, user, reason="account_created")
    return user


def _account(body: ClientCreate) -> dict[str, Any]:
    """create_user's arguments for the account fields of a staff form."""
    return {
        "username": body.username,
        "email": body.email or "",
        "password": body.chosen_password(),
        "first_name": body.first_name,
        "last_name": body.last_name,
        "phone": body.phone,
        "company": body.company,
    }


def _may_manage(actor: User, target: User) -> bool:
    if actor.role == Role.admin:
        return True
    return _can(actor, Perm.users_manage) and target.role != Role.admin


def _delete_refusal(actor: User, target: User, *, last_admin: bool) -> str | None:
    """Why `actor` may not delete `target` (before its records are looked at), or None. `last_admin`: whether there
    is one admin only."""
    if target.id == actor.id:
        return "You cannot delete your own account"
    if not _may_manage(actor, target):
        return f"You don't have permission to delete this {'client' if target.role == Role.client else 'user'}"
    if target.role == Role.admin and last_admin:
        return "The last admin cannot be deleted"
    return None


def _with_records(s: Session, client_ids: list[uuid.UUID]) -> set[uuid.UUID]:
    """Which of these clients have a project or an invoice: those records are kept, so the account is too."""
    if not client_ids:
        return set()
    projects = s.exec(select(Project.client_id).where(col(Project.client_id).in_(client_ids))).all()
    invoices = s.exec(select(Invoice.client_id).where(col(Invoice.client_id).in_(client_ids))).all()
    return {*projects, *invoices}


def _may_manage_some(actor: User, doing: str) -> None:
    """Refuse, before any lookup, an actor who may manage nobody: ids are not probed by the 404s of a lookup."""
    if actor.role != Role.admin and not _can(actor, Perm.users_manage):
        raise Forbidden(f"You don't have permission to {doing}")


def _manage_refusal(actor: User, target: User) -> str | None:
    if _may_manage(actor, target):
        return None
    return f"You don't have permission to update this {'client' if target.role == Role.client else 'user'}"


def access_change_problem(s: Session, *, actor: User, target: User, extra: list[str], revoked: list[str]) -> str | None:
    """Why `actor` may not set `target`'s extra and revoked permissions to these lists, or None when they may: the
    rules update_user applies (users:manage, admins only on admins, never oneself, nothing the actor lacks)."""
    if refusal := _manage_refusal(actor, target):
        return refusal
    try:
        _check_access_change(
            s, actor, target, role=target.role, employee_type=target.employee_type, extra=extra, revoked=revoked
        )
    except Forbidden as exc:
        return exc.message
    return None


def update_user(
    s: Session, *, actor: User, user_id: uuid.UUID | str, data: UserUpdate | Mapping[str, Any], ip: str | None = None
) -> User:
    """PUT /api/admin/users/{id}: change the fields sent; empty strings are "not sent"."""
    _may_manage_some(actor, "update this user")
    target = _get(s, user_id)
    if refusal := _manage_refusal(actor, target):
        raise Forbidden(refusal)
    data = parse(UserUpdate, data).sent()
    taken = select(User.id).where(User.id != target.id)
    if "username" in data and s.exec(taken.where(func.lower(User.username) == data["username"].lower())).first():
        raise Conflict("This username is already taken", errors={"username": "username already taken"})
    if "email" in data and s.exec(taken.where(User.email == data["email"])).first():
        raise Conflict("This email is already in use", errors={"email": "email already registered"})
    changes = {k: v for k, v in data.items() if k in ("username", "email", *PROFILE_FIELDS, "is_verified")}
    role = str(data.get("role", target.role))
    employee_type = data.get("employee_type", target.employee_type if role == Role.employee else None)
    if role != Role.employee:
        employee_type = None
    _raise_invalid(role_problems(role, employee_type))
    lists = {key: data[key] for key in PERM_LISTS if key in data}
    extra = lists.get("extra_permissions", list(target.extra_permissions))
    revoked = lists.get("revoked_permissions", list(target.revoked_permissions))
    _check_access_change(s, actor, target, role=role, employee_type=employee_type, extra=extra, revoked=revoked)
    if changes.get("email", target.email) != target.email:
        _check_sign_in_change(actor, target)
    changes |= lists
    changes["role"], changes["employee_type"] = Role(role), employee_type
    for key, value in changes.items():
        setattr(target, key, value)
    s.add(target)
    audit.record(s, actor=actor, action="user.update", entity=target, details={"fields": sorted(changes)}, ip=ip)
    s.commit()
    s.refresh(target)
    return target


def _reset_refusal(actor: User, target: User) -> str | None:
    """Why `actor` may not reset `target`'s password, or None: admins reset anyone's; users:reset_password
    non-admins'; clients:reset_password clients' only; and nobody an account holding permissions they lack."""
    allowed = (
        actor.role == Role.admin
        or (target.role != Role.admin and _can(actor, Perm.users_reset_password))
        or (target.role == Role.client and _can(actor, Perm.clients_reset_password))
    )
    if not allowed:
        return NO_RESET
    try:
        _check_sign_in_change(actor, target)
    except Forbidden as exc:
        return exc.message
    return None


def _reset_target(s: Session, actor: User, user_id: uuid.UUID | str) -> User:
    resetters = (Perm.users_reset_password, Perm.clients_reset_password)
    if actor.role != Role.admin and not any(_can(actor, perm) for perm in resetters):
        raise Forbidden(NO_RESET)  # before the lookup: no probing of ids
    target = _get(s, user_id)
    if refusal := _reset_refusal(actor, target):
        raise Forbidden(refusal)
    return target


def send_reset_link(s: Session, *, actor: User, user_id: uuid.UUID | str, ip: str | None = None) -> User:
    """E-mail the user a link to choose a new password (valid 24 hours; their current password and sessions stay
    until they use it). Returns the account, whose address the caller may name."""
    target = _reset_target(s, actor, user_id)
    ratelimit.hit(
        s,
        key=f"reset:staff:{target.id}",
        limit=LINKS_PER_ACCOUNT,
        window=password_reset.REQUEST_WINDOW,
        message=TOO_MANY_LINKS,
    )
    audit.record(s, actor=actor, action="user.reset_link_sent", entity=target, ip=ip)
    password_reset.send_link(s, target, reason="staff_reset")  # commits the audit entry with the link
    return target


def reset_password(
    s: Session, *, actor: User, user_id: uuid.UUID | str, new_password: str, ip: str | None = None
) -> None:
    """Set a password chosen by the actor (the spec's API, for API clients); the staff panel sends a link instead."""
    target = _reset_target(s, actor, user_id)
    if why := password_problem(new_password or ""):
        raise Invalid(why, errors={"newPassword": why})
    target.password_hash = hash_password(new_password)
    s.add(target)
    audit.record(s, actor=actor, action="user.reset_password", entity=target, ip=ip)
    s.commit()
    sessions.revoke_all(s, target.id)  # whoever held the old password is signed out


def delete_user(s: Session, *, actor: User, user_id: uuid.UUID | str, ip: str | None = None) -> None:
    """Delete an account; never one's own, never the last admin, never a client whose records must be kept."""
    _may_manage_some(actor, "delete this user")
    target = _get(s, user_id)
    if refusal := _delete_refusal(actor, target, last_admin=target.role == Role.admin and _admin_count(s) <= 1):
        raise Forbidden(refusal)
    active = s.exec(
        select(Project.id).where(
            Project.client_id == target.id,
            col(Project.status).not_in([ProjectStatus.completed, ProjectStatus.cancelled]),
        )
    ).first()
    unpaid = s.exec(
        select(Invoice.id).where(Invoice.client_id == target.id, Invoice.status != InvoiceStatus.paid)
    ).first()
    if active is not None or unpaid is not None:
        raise Conflict("Cannot delete client with active projects or invoices")
    history = (
        s.exec(select(Project.id).where(Project.client_id == target.id)).first()
        or s.exec(select(Invoice.id).where(Invoice.client_id == target.id)).first()
    )
    if history is not None:
        # Finished projects and paid invoices are business records: they outlive a login, never vanish with one.
        raise Conflict("Cannot delete a client with project or invoice history; those records must be kept")
    audit.record(
        s, actor=actor, action="user.delete", details={"username": target.username, "id": str(target.id)}, ip=ip
    )
    s.delete(target)
    s.commit()


CLIENT_PICKER_PERMS = (Perm.users_read, Perm.content_write, Perm.billing_write, Perm.meetings_read)
CLIENT_CHOICES_MAX = 100
# What a search for a client looks in: "jane doe" finds Jane Doe as well as "jane" or "doe" does.
CLIENT_SEARCH = (
    User.username,
    User.email,
    User.first_name,
    User.last_name,
    User.company,
    func.coalesce(User.first_name, "") + " " + func.coalesce(User.last_name, ""),
)


class ClientChoice(BaseModel):
    """A client as the staff forms' pickers offer it: its id (text), the option's label and the client's name."""

    id: str
    label: str
    name: str


def _client_choice(u: User) -> ClientChoice:
    name = " ".join(p for p in (u.first_name, u.last_name) if p)
    label = f"{name} (@{u.username})" if name else u.username
    if u.company:
        label = f"{label} · {u.company}"
    return ClientChoice(id=str(u.id), label=label, name=name or u.username)


def _may_pick_clients(actor: User) -> None:
    if not any(_can(actor, perm) for perm in CLIENT_PICKER_PERMS):
        raise Forbidden("You don't have permission to view clients")


def client_choices(s: Session, *, actor: User, search: str = "", limit: int) -> list[ClientChoice]:
    """Client accounts for the pickers of the staff forms (projects, invoices, meetings), by
    username; `search` matches username, e-mail, names or company, `limit` caps the count (at most 100).

    The limit is mandatory: a picker offers the first matches and a search box narrows them, so no state ever holds
    every client. Anyone who may assign a record to a client, or list users, may see the names; nobody else.
    """
    _may_pick_clients(actor)
    query = select(User).where(User.role == Role.client).order_by(func.lower(User.username), col(User.id))
    if (where := contains(search, *CLIENT_SEARCH)) is not None:
        query = query.where(where)
    query = query.limit(max(1, min(int(limit), CLIENT_CHOICES_MAX)))
    return [_client_choice(u) for u in s.exec(query).all()]


def client_choice(s: Session, *, actor: User, client_id: str) -> ClientChoice | None:
    """One client as the pickers show it, or None when `client_id` is not a client: the choice an
    existing record keeps whatever the picker's search offers."""
    _may_pick_clients(actor)
    try:
        uid = uuid.UUID(str(client_id))
    except ValueError:
        return None
    u = s.get(User, uid)
    return _client_choice(u) if u is not None and u.role == Role.client else None
