"""Tests for the single permission table in app.core.permissions."""

import re
from pathlib import Path

import pytest

from app.core.permissions import (
    EMPLOYEE_TYPE_LABELS,
    PERM_DESCRIPTIONS,
    PERMISSION_FEATURES,
    STAFF_ROLES,
    EmployeeType,
    Perm,
    Role,
    effective_permissions,
    has_perm,
    role_label,
    ungrantable,
    unknown_permissions,
)

ALL = {
    "users:read", "users:manage", "users:reset_password", "clients:create",
    "clients:reset_password", "inquiries:read", "inquiries:write", "content:read",
    "content:write", "analytics:read", "products:read", "products:write",
    "meetings:read", "meetings:write", "billing:read", "billing:write",
    "applications:read", "applications:write", "settings:manage", "audit:read",
}  # fmt: skip
BASE = {"inquiries:read", "inquiries:write"}

# Written out literally from the spec (not derived from the module under test).
EXPECTED_TYPE_PERMS: dict[str, set[str]] = {
    "founder": ALL,
    "coo": {
        "users:read", "content:read", "content:write", "analytics:read",
        "products:read", "products:write", "meetings:read", "meetings:write",
        "billing:read", "applications:read", "audit:read",
    },
    "cfo": {
        "users:read", "analytics:read", "billing:read", "billing:write",
        "products:read", "products:write", "content:read", "audit:read",
    },
    "cto": {
        "users:read", "content:read", "content:write", "products:read",
        "meetings:read", "meetings:write", "analytics:read",
    },
    "developer": {"content:read", "meetings:read"},
    "marketing_lead": {
        "content:read", "content:write", "analytics:read", "products:read",
    },
    "sales_lead": {
        "users:read", "clients:create", "clients:reset_password", "content:read",
        "products:read", "meetings:read", "meetings:write", "analytics:read",
        "billing:read",
    },
    "product_manager": {
        "users:read", "content:read", "content:write", "products:read",
        "products:write", "meetings:read", "meetings:write", "analytics:read",
    },
    "customer_support": {
        "users:read", "clients:create", "clients:reset_password", "content:read",
        "meetings:read", "meetings:write", "billing:read",
    },
    "hr": {
        "users:read", "users:manage", "clients:create", "clients:reset_password",
        "applications:read", "applications:write", "meetings:read",
    },
    "legal": {"users:read", "content:read", "billing:read", "audit:read"},
}  # fmt: skip

EXPECTED_LABELS = {
    "founder": "Founder / CEO",
    "coo": "COO (Operations Lead)",
    "cfo": "CFO (Finance Lead)",
    "cto": "CTO (Tech Lead)",
    "developer": "Developers (Devs)",
    "marketing_lead": "Marketing Lead",
    "sales_lead": "Sales Lead / Business Development",
    "product_manager": "Product Manager",
    "customer_support": "Customer Support / Success",
    "hr": "HR / People Ops",
    "legal": "Legal / Compliance",
}

EXPECTED_ROLE_LABELS = {
    "founder": "Founder",
    "coo": "COO",
    "cfo": "CFO",
    "cto": "CTO",
    "developer": "Developer",
    "marketing_lead": "Marketing Lead",
    "sales_lead": "Sales Lead",
    "product_manager": "Product Manager",
    "customer_support": "Customer Support",
    "hr": "HR",
    "legal": "Legal",
}


def test_enums_match_spec():
    assert {r.value for r in Role} == {"admin", "employee", "client"}
    assert frozenset({"admin", "employee"}) == STAFF_ROLES
    assert {p.value for p in Perm} == ALL
    assert {t.value for t in EmployeeType} == set(EXPECTED_TYPE_PERMS)


@pytest.mark.parametrize("etype", list(EmployeeType))
def test_employee_type_defaults(etype):
    expected = BASE | EXPECTED_TYPE_PERMS[etype.value]
    assert effective_permissions("employee", etype.value) == expected
    # Enums are accepted as well as plain strings.
    assert effective_permissions(Role.employee, etype) == expected


@pytest.mark.parametrize("etype", [None, "", "astronaut"])
def test_employee_without_known_type_gets_base_only(etype):
    assert effective_permissions("employee", etype) == BASE


@pytest.mark.parametrize("etype", list(EmployeeType))
def test_employee_type_labels(etype):
    assert EMPLOYEE_TYPE_LABELS[etype] == EXPECTED_LABELS[etype.value]


def test_labels_cover_all_types():
    assert len(EMPLOYEE_TYPE_LABELS) == 11
    assert set(EMPLOYEE_TYPE_LABELS) == set(EmployeeType)


def test_admin_has_everything_and_ignores_revocations():
    assert effective_permissions("admin", None) == ALL
    assert effective_permissions(Role.admin, None, revoked=sorted(ALL)) == ALL
    assert effective_permissions("admin", "developer", revoked=["audit:read"]) == ALL


def test_client_has_nothing_even_with_extras():
    assert effective_permissions("client", None) == frozenset()
    assert effective_permissions("client", "founder", extra=sorted(ALL)) == frozenset()


def test_extras_add_only_valid_perms():
    perms = effective_permissions(
        "employee",
        "developer",
        extra=["billing:read", "bogus:perm", "", Perm.audit_read],
    )
    assert perms == BASE | {
        "content:read",
        "meetings:read",
        "billing:read",
        "audit:read",
    }


def test_revoked_removes_and_wins_over_extra():
    perms = effective_permissions(
        "employee",
        "developer",
        extra=["billing:read", "audit:read"],
        revoked=["billing:read", "meetings:read", "inquiries:write", "nope"],
    )
    assert perms == {"inquiries:read", "content:read", "audit:read"}


def test_none_extra_and_revoked_are_accepted():
    assert effective_permissions("employee", "developer", None, None) == BASE | {
        "content:read",
        "meetings:read",
    }


@pytest.mark.parametrize("role", ["", "superuser", None, "ADMIN"])
def test_unknown_role_is_empty(role):
    assert effective_permissions(role, "founder", extra=["users:read"]) == frozenset()


def test_has_perm():
    perms = effective_permissions("employee", "developer")
    assert has_perm(perms, "content:read")
    assert has_perm(perms, Perm.meetings_read)
    assert not has_perm(perms, "content:write")


def test_role_label_admin_client_and_missing_type():
    assert role_label("admin", None) == "Administrator"
    assert role_label(Role.admin, "founder") == "Administrator"
    assert role_label("client", None) == "Client"
    assert role_label("employee", None) == "Employee"
    assert role_label("employee", "") == "Employee"


@pytest.mark.parametrize("etype", list(EmployeeType))
def test_role_label_employee_types(etype):
    assert role_label("employee", etype.value) == EXPECTED_ROLE_LABELS[etype.value]
    assert role_label(Role.employee, etype) == EXPECTED_ROLE_LABELS[etype.value]


def test_ungrantable():
    actor = effective_permissions("employee", "hr")
    assert ungrantable(actor, ["users:read", "users:manage"]) == set()
    assert ungrantable(actor, ["users:read", "billing:write", Perm.audit_read]) == {
        "billing:write",
        "audit:read",
    }
    assert ungrantable(actor, []) == set()
    assert ungrantable(effective_permissions("admin", None), sorted(ALL)) == set()
    assert ungrantable(frozenset(), ["content:read"]) == {"content:read"}


def test_unknown_permissions():
    assert unknown_permissions(sorted(ALL)) == set()
    assert unknown_permissions([Perm.audit_read, "users:read"]) == set()
    assert unknown_permissions(["users:read", "root:all", "USERS:READ", " users:read"]) == {
        "root:all",
        "USERS:READ",
        " users:read",
    }
    assert unknown_permissions([]) == set()


def test_permission_features():
    assert PERMISSION_FEATURES == {
        "dashboard": None,
        "users": "users:read",
        "clients": "users:read",
        "inquiries": "inquiries:read",
        "content": "content:read",
        "analytics": "analytics:read",
        "products": "products:read",
        "meetings": "meetings:read",
        "billing": "billing:read",
        "applications": "applications:read",
        "settings": None,
    }


def test_every_permission_is_described_as_docs_permissions_md_describes_it() -> None:
    """The staff panel's Permissions dialog shows these; the documented table is their source."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "permissions.md").read_text()
    documented = dict(re.findall(r"^\| `([a-z_]+:[a-z_]+)` \| ([^|]+?) \|$", doc, re.M))
    assert {str(p): text for p, text in PERM_DESCRIPTIONS.items()} == documented
    assert set(documented) == ALL
