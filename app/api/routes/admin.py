"""/api/admin and the staff calls under /api/protected: users, clients, passwords, inquiries, dashboard, audit log.

Every route needs a staff session (router dependency); the services then apply the per-action rules.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from app.api.deps import (
    ClientIP,
    DownloadUser,
    Paged,
    RowId,
    Search,
    SessionDep,
    StaffUser,
    permitted,
    require,
    require_staff,
)
from app.api.downloads import csv_file
from app.api.schemas import Created, Done, Listed, One, Saved
from app.core.permissions import Perm
from app.models.user import User, UserPublic
from app.services.accounts import admin_users
from app.services.accounts import user_permissions as perm_service
from app.services.accounts.admin_users import ClientCreate, UserCreate, UserUpdate
from app.services.accounts.user_permissions import PermissionChange, UserPermissions
from app.services.crm import admin_inquiries
from app.services.crm.admin_inquiries import InquiryPublic, InquiryUpdate
from app.services.operations import health
from app.services.platform import audit, company
from app.services.platform.audit import AuditEntry
from app.services.platform.company import Company, CompanyUpdate
from app.services.reporting import dashboard
from app.services.reporting.dashboard import DashboardSummary

router = APIRouter(tags=["admin"], dependencies=[Depends(require_staff)])


class ResetPasswordIn(BaseModel):
    newPassword: str = ""  # noqa: N815 (the spec's payload name)


def _public(user: Any) -> dict[str, Any]:
    return UserPublic.of(user).model_dump(mode="json")


def _invited(user: User) -> dict[str, bool]:
    """Created without a password: the new user was e-mailed a link to set one."""
    return {"passwordLinkSent": user.password_hash is None}


@router.get("/admin/users/export", response_class=StreamingResponse)
def export_users(
    user: DownloadUser,
    s: SessionDep,
    search: Search = "",
    role: str = "",
    verified: bool | None = None,
    sort: str = "",
) -> StreamingResponse:
    """Every user the list shows with these filters (`role=client`: the clients), as a CSV file (users:read)."""
    pieces = admin_users.export_users(s, actor=user, search=search, role=role, verified=verified, sort=sort)
    return csv_file("clients" if role == "client" else "users", pieces)


@router.get("/admin/users", response_model=Listed[UserPublic])
def list_users(
    user: StaffUser, s: SessionDep, paged: Paged, role: str = "", verified: bool | None = None, sort: str = "newest"
) -> dict[str, Any]:
    """Users, filtered and paginated in SQL (needs users:read); one page, with the paging fields."""
    return admin_users.list_users(s, actor=user, role=role, verified=verified, sort=sort, **paged).as_json()


@router.post(
    "/admin/users",
    status_code=201,
    response_model=Created[UserPublic],
    dependencies=[permitted(Perm.users_manage, doing="create this type of user")],
)
def create_user(user: StaffUser, s: SessionDep, ip: ClientIP, body: UserCreate) -> dict[str, Any]:
    """Create an employee or client (admins: any role)."""
    created = admin_users.create_staff_or_client(s, actor=user, data=body, ip=ip)
    return {"data": _public(created), "message": "User created successfully", **_invited(created)}


@router.put(
    "/admin/users/{user_id}",
    response_model=Saved[UserPublic],
    dependencies=[permitted(Perm.users_manage, doing="update this user")],
)
def update_user(user_id: str, user: StaffUser, s: SessionDep, ip: ClientIP, body: UserUpdate) -> dict[str, Any]:
    """Change a user's fields, role or permissions (partial)."""
    updated = admin_users.update_user(s, actor=user, user_id=user_id, data=body, ip=ip)
    return {"data": _public(updated), "message": "User updated successfully"}


@router.get("/admin/users/{user_id}/permissions", response_model=One[UserPermissions])
def user_permissions(user_id: str, user: StaffUser, s: SessionDep) -> dict[str, Any]:
    """A user's effective permissions, each with its source and whether the caller may change it (users:read)."""
    return {"data": perm_service.user_permissions(s, actor=user, user_id=user_id)}


@router.put(
    "/admin/users/{user_id}/permissions",
    response_model=Saved[UserPermissions],
    dependencies=[permitted(Perm.users_manage, doing="update this user")],
)
def set_user_permission(
    user_id: str, user: StaffUser, s: SessionDep, ip: ClientIP, body: PermissionChange
) -> dict[str, Any]:
    """Grant or revoke one permission of an employee (users:manage; never one's own; only what the caller holds)."""
    data = perm_service.set_permission(s, actor=user, user_id=user_id, change=body, ip=ip)
    return {"data": data, "message": "Permissions updated"}


@router.delete("/admin/users/{user_id}", response_model=Done)
def delete_user(user_id: str, user: StaffUser, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Delete a user (never yourself, the last admin, or a client whose records must be kept)."""
    admin_users.delete_user(s, actor=user, user_id=user_id, ip=ip)
    return {"message": "User deleted successfully"}


@router.post(
    "/protected/create-client",
    status_code=201,
    response_model=Created[UserPublic],
    dependencies=[permitted(Perm.clients_create, Perm.users_manage, doing="create this type of user")],
)
def create_client(user: StaffUser, s: SessionDep, ip: ClientIP, body: ClientCreate) -> dict[str, Any]:
    """Create a client account (sales, support, HR, admins); the role is always client."""
    created = admin_users.create_client(s, actor=user, data=body, ip=ip)
    return {"data": _public(created), "message": "Client created successfully", **_invited(created)}


@router.put(
    "/protected/reset-password/{user_id}",
    response_model=Done,
    dependencies=[
        permitted(Perm.users_reset_password, Perm.clients_reset_password, doing="reset this user's password")
    ],
)
def reset_password(user_id: str, body: ResetPasswordIn, user: StaffUser, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Set a new password for a user the actor may manage; their sessions end."""
    admin_users.reset_password(s, actor=user, user_id=user_id, new_password=body.newPassword, ip=ip)
    return {"message": "Password reset successfully"}


@router.post("/protected/reset-password/{user_id}/send-link", response_model=Done)
def send_reset_link(user_id: str, user: StaffUser, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """E-mail the user a link to choose a new password (same rules as setting one; nobody chooses it for them)."""
    target = admin_users.send_reset_link(s, actor=user, user_id=user_id, ip=ip)
    return {"message": f"Password reset link sent to {target.email}"}


@router.get("/admin/inquiries/export", response_class=StreamingResponse)
def export_inquiries(
    user: DownloadUser, s: SessionDep, search: Search = "", status: str = "", spam: bool = False, sort: str = "newest"
) -> StreamingResponse:
    """Every inquiry the list shows with these filters, as a CSV file streamed row by row (inquiries:read)."""
    pieces = admin_inquiries.export_inquiries(s, actor=user, search=search, status=status, spam=spam, sort=sort)
    return csv_file("inquiries", pieces)


@router.get("/admin/inquiries", response_model=Listed[InquiryPublic])
def list_inquiries(
    user: StaffUser, s: SessionDep, paged: Paged, status: str = "", spam: bool = False, sort: str = "newest"
) -> dict[str, Any]:
    """Contact inquiries, newest first (spam-flagged ones only with spam=true); one page, with the paging fields."""
    return admin_inquiries.list_inquiries(s, actor=user, status=status, spam=spam, sort=sort, **paged).as_json()


@router.put(
    "/admin/inquiries/{inquiry_id}",
    response_model=Saved[InquiryPublic],
    dependencies=[permitted(Perm.inquiries_write, doing="update inquiries")],
)
def update_inquiry(
    inquiry_id: RowId, user: StaffUser, s: SessionDep, ip: ClientIP, body: InquiryUpdate
) -> dict[str, Any]:
    """Change an inquiry's status, priority, assignee or notes."""
    return {
        "data": admin_inquiries.update_inquiry(s, actor=user, inquiry_id=inquiry_id, data=body, ip=ip),
        "message": "Inquiry updated successfully",
    }


# Figures the caller may not see are left out, not null.
@router.get("/admin/dashboard", response_model=DashboardSummary, response_model_exclude_none=True)
async def dashboard_summary(user: StaffUser, s: SessionDep) -> dict[str, Any]:
    """The dashboard cards: users, live sessions and system status from real checks."""
    figures = await run_in_threadpool(dashboard.summary, s, actor=user)
    return {**figures.model_dump(), "system": (await health.check()).as_json()}


AuditLimit = Annotated[int, Query(description="How many entries, newest first: 1 to 500 (clamped into range).")]


@router.get("/admin/audit", response_model=One[list[AuditEntry]])
def audit_log(
    user: Annotated[User, Depends(require("audit:read", "the audit log"))], s: SessionDep, limit: AuditLimit = 100
) -> dict[str, Any]:
    """The most recent staff actions, newest first, with the acting user's name (needs audit:read)."""
    return {"data": audit.recent(s, actor=user, limit=limit)}


@router.get("/admin/settings/company", response_model=One[Company])
def company_settings(user: StaffUser, s: SessionDep) -> dict[str, Any]:
    """The company's details: name, e-mails, phone, address, social links, client badges, time zone
    (settings:manage)."""
    return {"data": company.read(s, actor=user).as_json()}


@router.put(
    "/admin/settings/company",
    response_model=Saved[Company],
    dependencies=[permitted(Perm.settings_manage, doing="manage company settings")],
)
def update_company_settings(user: StaffUser, s: SessionDep, ip: ClientIP, body: CompanyUpdate) -> dict[str, Any]:
    """Change the details sent (settings:manage); audited. Public pages, e-mails and invoices use them from now on."""
    data = company.update(s, actor=user, data=body, ip=ip)
    return {"data": data.as_json(), "message": "Company settings saved"}
