"""The single permission table of the product.

This module is the one source of truth for who may do what. Services, API
routes and Reflex event handlers all ask it (via ``effective_permissions`` and
``has_perm``) instead of hard-coding role checks, so changing a default here
changes it everywhere at once.

It deliberately imports nothing from ``app`` (stdlib only) so that any layer
can depend on it without import cycles.

Model:
- ``admin`` holds every permission, always.
- ``client`` holds none: portal access is decided by ownership of records,
  not by permissions.
- ``employee`` holds a base set plus defaults for its ``EmployeeType``,
  adjusted per user by ``extra_permissions`` and ``revoked_permissions``.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Role(StrEnum):
    admin = "admin"
    employee = "employee"
    client = "client"


STAFF_ROLES: frozenset[Role] = frozenset({Role.admin, Role.employee})


class EmployeeType(StrEnum):
    founder = "founder"
    coo = "coo"
    cfo = "cfo"
    cto = "cto"
    developer = "developer"
    marketing_lead = "marketing_lead"
    sales_lead = "sales_lead"
    product_manager = "product_manager"
    customer_support = "customer_support"
    hr = "hr"
    legal = "legal"


EMPLOYEE_TYPE_LABELS: dict[EmployeeType, str] = {
    EmployeeType.founder: "Founder / CEO",
    EmployeeType.coo: "COO (Operations Lead)",
    EmployeeType.cfo: "CFO (Finance Lead)",
    EmployeeType.cto: "CTO (Tech Lead)",
    EmployeeType.developer: "Developers (Devs)",
    EmployeeType.marketing_lead: "Marketing Lead",
    EmployeeType.sales_lead: "Sales Lead / Business Development",
    EmployeeType.product_manager: "Product Manager",
    EmployeeType.customer_support: "Customer Support / Success",
    EmployeeType.hr: "HR / People Ops",
    EmployeeType.legal: "Legal / Compliance",
}


class Perm(StrEnum):
    users_read = "users:read"  # list/view employees and clients
    users_manage = "users:manage"  # create/edit/delete employees and clients
    users_reset_password = "users:reset_password"  # reset any non-admin password
    clients_create = "clients:create"  # create client accounts
    clients_reset_password = "clients:reset_password"  # reset client passwords
    inquiries_read = "inquiries:read"  # view contact-form inquiries
    inquiries_write = "inquiries:write"  # answer/update/close inquiries
    content_read = "content:read"  # view site content (pages, posts)
    content_write = "content:write"  # edit/publish site content
    analytics_read = "analytics:read"  # view analytics dashboards
    products_read = "products:read"  # view products/services catalogue
    products_write = "products:write"  # edit products/services and pricing
    meetings_read = "meetings:read"  # view scheduled meetings
    meetings_write = "meetings:write"  # schedule/edit/cancel meetings
    billing_read = "billing:read"  # view invoices and payments
    billing_write = "billing:write"  # create/edit invoices, record payments
    applications_read = "applications:read"  # view job applications
    applications_write = "applications:write"  # process job applications
    settings_manage = "settings:manage"  # change global site settings
    audit_read = "audit:read"  # view the audit log


# What each permission allows, in the words of docs/permissions.md (shown beside it in the staff panel).
PERM_DESCRIPTIONS: dict[Perm, str] = {
    Perm.users_read: "List/view employees and clients",
    Perm.users_manage: "Create/edit/delete employees and clients",
    Perm.users_reset_password: "Reset anyone's non-admin password",
    Perm.clients_create: "Create client accounts",
    Perm.clients_reset_password: "Reset client passwords",
    Perm.inquiries_read: "View contact-form inquiries",
    Perm.inquiries_write: "Answer/update/close inquiries",
    Perm.content_read: "View site content",
    Perm.content_write: "Edit/publish site content",
    Perm.analytics_read: "View analytics dashboards",
    Perm.products_read: "View the products/services catalogue",
    Perm.products_write: "Edit products/services and pricing",
    Perm.meetings_read: "View scheduled meetings",
    Perm.meetings_write: "Schedule/edit/cancel meetings",
    Perm.billing_read: "View invoices and payments",
    Perm.billing_write: "Create/edit invoices, record payments",
    Perm.applications_read: "View job applications",
    Perm.applications_write: "Process job applications",
    Perm.settings_manage: "Change global site settings",
    Perm.audit_read: "View the audit log",
}

ALL_PERMS: frozenset[Perm] = frozenset(Perm)
_VALID_PERM_VALUES: frozenset[str] = frozenset(p.value for p in Perm)
_EMPLOYEE_TYPES: frozenset[str] = frozenset(t.value for t in EmployeeType)

# Every employee gets these: the spec says Inquiries need no permission for staff.
EMPLOYEE_BASE_PERMS: frozenset[Perm] = frozenset({Perm.inquiries_read, Perm.inquiries_write})


def _perms(*values: str) -> frozenset[Perm]:
    # Perm(value) raises on a typo, so a bad table entry fails at import time.
    return frozenset(Perm(v) for v in values)


# Defaults per employee type, on top of EMPLOYEE_BASE_PERMS.
EMPLOYEE_TYPE_PERMS: dict[EmployeeType, frozenset[Perm]] = {
    EmployeeType.founder: ALL_PERMS,
    EmployeeType.coo: _perms(
        "users:read", "content:read", "content:write", "analytics:read",
        "products:read", "products:write", "meetings:read", "meetings:write",
        "billing:read", "applications:read", "audit:read",
    ),
    EmployeeType.cfo: _perms(
        "users:read", "analytics:read", "billing:read", "billing:write",
        "products:read", "products:write", "content:read", "audit:read",
    ),
    EmployeeType.cto: _perms(
        "users:read", "content:read", "content:write", "products:read",
        "meetings:read", "meetings:write", "analytics:read",
    ),
    EmployeeType.developer: _perms("content:read", "meetings:read"),
    EmployeeType.marketing_lead: _perms(
        "content:read", "content:write", "analytics:read", "products:read",
    ),
    EmployeeType.sales_lead: _perms(
        "users:read", "clients:create", "clients:reset_password", "content:read",
        "products:read", "meetings:read", "meetings:write", "analytics:read",
        "billing:read",
    ),
    EmployeeType.product_manager: _perms(
        "users:read", "content:read", "content:write", "products:read",
        "products:write", "meetings:read", "meetings:write", "analytics:read",
    ),
    EmployeeType.customer_support: _perms(
        "users:read", "clients:create", "clients:reset_password", "content:read",
        "meetings:read", "meetings:write", "billing:read",
    ),
    EmployeeType.hr: _perms(
        "users:read", "users:manage", "clients:create", "clients:reset_password",
        "applications:read", "applications:write", "meetings:read",
    ),
    EmployeeType.legal: _perms(
        "users:read", "content:read", "billing:read", "audit:read",
    ),
}  # fmt: skip

# Admin section -> permission required to see it (None: any staff member).
PERMISSION_FEATURES: dict[str, Perm | None] = {
    "dashboard": None,
    "users": Perm.users_read,
    "clients": Perm.users_read,
    "inquiries": Perm.inquiries_read,
    "content": Perm.content_read,
    "analytics": Perm.analytics_read,
    "products": Perm.products_read,
    "meetings": Perm.meetings_read,
    "billing": Perm.billing_read,
    "applications": Perm.applications_read,
    "settings": None,
}


def _valid(perms: Iterable[str] | None) -> set[str]:
    """Keep only known permission strings; unknown or stale ones are ignored."""
    return {str(p) for p in (perms or ()) if str(p) in _VALID_PERM_VALUES}


def default_permissions(role: str, employee_type: str | None) -> frozenset[str]:
    """Defaults for a role/type before per-user extra/revoked adjustments."""
    if role == Role.admin:
        return frozenset(_VALID_PERM_VALUES)
    if role == Role.employee:
        type_perms: frozenset[Perm] = frozenset()
        if employee_type is not None and str(employee_type) in _EMPLOYEE_TYPES:
            type_perms = EMPLOYEE_TYPE_PERMS[EmployeeType(str(employee_type))]
        return frozenset(str(p) for p in EMPLOYEE_BASE_PERMS | type_perms)
    # Clients (ownership-based access) and unknown roles get nothing.
    return frozenset()


def effective_permissions(
    role: str,
    employee_type: str | None,
    extra: Iterable[str] | None = (),
    revoked: Iterable[str] | None = (),
) -> frozenset[str]:
    """Permissions a user actually holds: defaults + extra - revoked."""
    role = str(role) if role is not None else ""
    if role == Role.admin:
        # Revocations never apply to admin: the last admin must never be able
        # to lock themselves (and everyone else) out of the product.
        return default_permissions(role, employee_type)
    if role != Role.employee:
        # A client can never gain staff permissions, whatever is stored.
        return frozenset()
    perms = set(default_permissions(role, employee_type)) | _valid(extra)
    return frozenset(perms - _valid(revoked))  # revoked wins over extra


def has_perm(perms: Iterable[str], perm: str) -> bool:
    return str(perm) in {str(p) for p in perms}


_ACRONYMS = {"hr": "HR", "cto": "CTO", "coo": "COO", "cfo": "CFO"}


def role_label(role: str, employee_type: str | None) -> str:
    """Short human label, e.g. "Administrator", "Marketing Lead", "CTO"."""
    if role == Role.admin:
        return "Administrator"
    if role == Role.client:
        return "Client"
    if role == Role.employee:
        if not employee_type:
            return "Employee"
        words = str(employee_type).split("_")
        return " ".join(_ACRONYMS.get(w.lower(), w.capitalize()) for w in words)
    return str(role).capitalize() if role else "Unknown"


def ungrantable(actor_perms: Iterable[str], requested: Iterable[str]) -> set[str]:
    """Requested permissions the actor lacks: nobody grants what they don't hold."""
    held = {str(p) for p in actor_perms}
    return {str(p) for p in requested} - held


def unknown_permissions(values: Iterable[str]) -> set[str]:
    """Values that name no permission of this table.

    ``effective_permissions`` ignores them, but a stored unknown string would come alive the day a permission of
    that name is added, so writes refuse them instead of keeping them.
    """
    return {str(v) for v in values} - _VALID_PERM_VALUES
