"""Who may give whom which access through admin_users: nobody raises themselves, nobody grants what they lack.

HR (`users:manage`) is the interesting actor: it manages accounts but holds far fewer permissions than a founder,
so every way it could hand itself (or an account it controls) more must be refused, and nothing may change.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import Session, select

from app.core.errors import Forbidden, Invalid
from app.core.security import verify_password
from app.models.enums import EmployeeType, Role
from app.models.user import User
from app.services.accounts import admin_users
from tests import factories as f

NO_SELF = "You cannot change your own role or permissions"


def _hr(s: Session, name: str = "hr_actor", **kw: Any) -> User:
    return f.user(s, name, role=Role.employee, employee_type=EmployeeType.hr, **kw)


def _reloaded(s: Session, user: User) -> User:
    s.expire_all()
    fresh = s.get(User, user.id)
    assert fresh is not None
    return fresh


def _access(user: User) -> tuple[Any, ...]:
    return (user.role, user.employee_type, sorted(user.extra_permissions), sorted(user.revoked_permissions))


def _new(name: str, **kw: Any) -> dict[str, Any]:
    return {"username": name, "email": f"{name}@example.com", "password": "Long-enough-1", **kw}


# --- nobody changes their own access --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"employee_type": "founder"},
        {"role": "employee", "employee_type": "cto"},
        {"role": "admin"},
        {"role": "client"},  # giving access away is a change too: another manager decides it
        {"extra_permissions": ["settings:manage"]},
        {"extra_permissions": ["users:read"]},  # already held: still not one's own call
        {"revoked_permissions": []},  # un-revoking gives applications:write back
        {"revoked_permissions": ["applications:write", "meetings:read"]},
    ],
)
def test_hr_cannot_change_its_own_access(session: Session, change: dict[str, Any]) -> None:
    hr = _hr(session, revoked_permissions=["applications:write"])
    before = _access(hr)
    with pytest.raises(Forbidden) as caught:
        admin_users.update_user(session, actor=hr, user_id=hr.id, data=change)
    assert caught.value.message == NO_SELF
    assert _access(_reloaded(session, hr)) == before


def test_resending_ones_own_unchanged_access_is_fine(session: Session) -> None:
    """Forms send the whole record: the same role, type and lists (in any order) are not a change."""
    hr = _hr(session, extra_permissions=["content:read", "audit:read"], revoked_permissions=["applications:write"])
    admin_users.update_user(
        session,
        actor=hr,
        user_id=hr.id,
        data={
            "role": "employee",
            "employee_type": "hr",
            "extra_permissions": ["audit:read", "content:read", "audit:read"],
            "revoked_permissions": ["applications:write"],
            "phone": "(772) 555-0100",
        },
    )
    fresh = _reloaded(session, hr)
    assert fresh.phone == "(772) 555-0100"
    assert _access(fresh) == (Role.employee, EmployeeType.hr, ["audit:read", "content:read"], ["applications:write"])


def test_an_admin_cannot_change_their_own_role_but_another_admin_can(session: Session) -> None:
    first = f.user(session, "first_admin", role=Role.admin)
    second = f.user(session, "second_admin", role=Role.admin)
    with pytest.raises(Forbidden) as caught:
        admin_users.update_user(
            session, actor=first, user_id=first.id, data={"role": "employee", "employee_type": "hr"}
        )
    assert caught.value.message == NO_SELF
    assert _reloaded(session, first).role == Role.admin
    admin_users.update_user(session, actor=second, user_id=first.id, data={"role": "employee", "employee_type": "hr"})
    assert _access(_reloaded(session, first))[:2] == (Role.employee, EmployeeType.hr)


# --- granting to others: the actor must hold everything the target gains ---------------------------------------


@pytest.mark.parametrize("etype", ["founder", "cto", "developer"])
def test_hr_cannot_give_another_employee_a_type_with_permissions_it_lacks(session: Session, etype: str) -> None:
    hr = _hr(session)
    colleague = _hr(session, "colleague")
    with pytest.raises(Forbidden) as caught:
        admin_users.update_user(session, actor=hr, user_id=colleague.id, data={"employee_type": etype})
    assert "You cannot grant permissions you do not hold" in caught.value.message
    assert "content:read" in caught.value.message
    assert _reloaded(session, colleague).employee_type == EmployeeType.hr


@pytest.mark.parametrize("etype", ["founder", "cto"])
def test_hr_cannot_create_an_employee_with_more_than_it_holds(session: Session, etype: str) -> None:
    hr = _hr(session)
    with pytest.raises(Forbidden):
        admin_users.create_staff_or_client(
            session, actor=hr, data=_new("boosted", role="employee", employee_type=etype)
        )
    assert session.exec(select(User).where(User.username == "boosted")).first() is None


def test_hr_cannot_promote_a_client_it_created_into_a_founder(session: Session) -> None:
    """The account HR made (and knows the password of) is the same as HR itself: the grant check covers it."""
    hr = _hr(session)
    puppet = admin_users.create_client(session, actor=hr, data=_new("puppet"))
    with pytest.raises(Forbidden):
        admin_users.update_user(
            session, actor=hr, user_id=puppet.id, data={"role": "employee", "employee_type": "founder"}
        )
    assert _access(_reloaded(session, puppet))[:2] == (Role.client, None)


def test_hr_cannot_give_extras_or_un_revoke_what_it_lacks(session: Session) -> None:
    hr = _hr(session)
    cfo = f.user(
        session, "cfo_user", role=Role.employee, employee_type=EmployeeType.cfo, revoked_permissions=["billing:write"]
    )
    before = _access(cfo)
    for change in (
        {"extra_permissions": ["settings:manage"]},
        {"extra_permissions": ["billing:read"]},  # already a default of the target, but not HR's to list
        {"revoked_permissions": []},  # would give billing:write back
    ):
        with pytest.raises(Forbidden):
            admin_users.update_user(session, actor=hr, user_id=cfo.id, data=change)
        assert _access(_reloaded(session, cfo)) == before, change


def test_hr_may_revoke_from_others_and_grant_what_it_holds(session: Session) -> None:
    hr = _hr(session)
    dev = f.user(session, "dev_user", role=Role.employee, employee_type=EmployeeType.developer)
    admin_users.update_user(session, actor=hr, user_id=dev.id, data={"revoked_permissions": ["content:read"]})
    admin_users.update_user(session, actor=hr, user_id=dev.id, data={"extra_permissions": ["applications:read"]})
    fresh = _reloaded(session, dev)
    assert (fresh.revoked_permissions, fresh.extra_permissions) == (["content:read"], ["applications:read"])
    # A type whose permissions HR holds, for an existing account and a new one.
    admin_users.update_user(session, actor=hr, user_id=dev.id, data={"employee_type": "hr"})
    assert _reloaded(session, dev).employee_type == EmployeeType.hr
    made = admin_users.create_staff_or_client(
        session, actor=hr, data=_new("new_hr", role="employee", employee_type="hr")
    )
    assert made.employee_type == EmployeeType.hr


def test_a_founder_holds_everything_and_may_assign_any_type(session: Session) -> None:
    founder = f.user(session, "the_founder", role=Role.employee, employee_type=EmployeeType.founder)
    made = admin_users.create_staff_or_client(
        session, actor=founder, data=_new("cofounder", role="employee", employee_type="founder")
    )
    assert made.employee_type == EmployeeType.founder
    dev = f.user(session, "dev_two", role=Role.employee, employee_type=EmployeeType.developer)
    admin_users.update_user(
        session, actor=founder, user_id=dev.id, data={"employee_type": "cto", "extra_permissions": ["audit:read"]}
    )
    assert _access(_reloaded(session, dev))[:3] == (Role.employee, EmployeeType.cto, ["audit:read"])
    with pytest.raises(Forbidden):  # only admins make admins
        admin_users.update_user(session, actor=founder, user_id=dev.id, data={"role": "admin"})


def test_admins_assign_anything_to_others(session: Session) -> None:
    admin = f.user(session, "an_admin", role=Role.admin)
    hr = _hr(session)
    admin_users.update_user(
        session,
        actor=admin,
        user_id=hr.id,
        data={"employee_type": "founder", "extra_permissions": ["audit:read"], "revoked_permissions": []},
    )
    assert _access(_reloaded(session, hr))[:3] == (Role.employee, EmployeeType.founder, ["audit:read"])
    made = admin_users.create_staff_or_client(session, actor=admin, data=_new("admin_two", role="admin"))
    assert made.role == Role.admin


@pytest.mark.parametrize("value", [["users:manage", "root:everything"], "users:manage", [1, 2], {"users:manage": True}])
@pytest.mark.parametrize("key", ["extra_permissions", "revoked_permissions"])
def test_permission_lists_must_name_known_permissions(session: Session, key: str, value: Any) -> None:
    """Unknown strings would be stored and silently come alive if a permission of that name were ever added."""
    admin = f.user(session, "list_admin", role=Role.admin)
    dev = f.user(session, "list_dev", role=Role.employee, employee_type=EmployeeType.developer)
    with pytest.raises(Invalid) as caught:
        admin_users.update_user(session, actor=admin, user_id=dev.id, data={key: value})
    assert key in caught.value.errors
    assert _access(_reloaded(session, dev)) == (Role.employee, EmployeeType.developer, [], [])


def test_unknown_extras_are_refused_on_create(session: Session) -> None:
    admin = f.user(session, "create_admin", role=Role.admin)
    with pytest.raises(Invalid):
        admin_users.create_staff_or_client(
            session,
            actor=admin,
            data=_new("odd_extras", role="employee", employee_type="hr", extra_permissions=["future:power"]),
        )
    assert session.exec(select(User).where(User.username == "odd_extras")).first() is None


# --- taking over a stronger account is a grant too --------------------------------------------------------------


def test_hr_cannot_move_a_founders_sign_in_address(session: Session) -> None:
    """Google sign-in links an account by its address, so choosing a founder's address is becoming the founder."""
    hr = _hr(session)
    founder = f.user(session, "founder_x", role=Role.employee, employee_type=EmployeeType.founder)
    with pytest.raises(Forbidden):
        admin_users.update_user(session, actor=hr, user_id=founder.id, data={"email": "hr-owned@example.com"})
    assert _reloaded(session, founder).email == "founder_x@example.com"
    # Profile fields, and the unchanged address a form sends back, are fine.
    admin_users.update_user(
        session, actor=hr, user_id=founder.id, data={"email": "Founder_X@example.com", "phone": "(772) 555-0199"}
    )
    assert _reloaded(session, founder).phone == "(772) 555-0199"
    # An account within HR's own permissions may get a new address.
    client = f.user(session, "client_x")
    admin_users.update_user(session, actor=hr, user_id=client.id, data={"email": "client-new@example.com"})
    assert _reloaded(session, client).email == "client-new@example.com"


def test_a_password_resetter_cannot_take_over_a_stronger_account(session: Session) -> None:
    hr = _hr(session, extra_permissions=["users:reset_password"])
    founder = f.user(session, "founder_y", role=Role.employee, employee_type=EmployeeType.founder)
    peer = _hr(session, "hr_peer")
    with pytest.raises(Forbidden):
        admin_users.reset_password(session, actor=hr, user_id=founder.id, new_password="Taken-over-123")
    assert verify_password(f.PASSWORD, _reloaded(session, founder).password_hash or "")
    admin_users.reset_password(session, actor=hr, user_id=peer.id, new_password="Fresh-pass-123")
    assert verify_password("Fresh-pass-123", _reloaded(session, peer).password_hash or "")
