"""One permission at a time: each permission's source, who may change it and why not, and the writes."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from app.core.errors import Forbidden, Invalid, NotFound
from app.models.enums import EmployeeType, Role
from app.models.system import AuditLog
from app.models.user import User
from app.services.accounts import user_permissions as up
from app.services.accounts.admin_users import NO_SELF
from app.services.accounts.user_permissions import PermissionChange
from app.services.platform.access import perms
from tests import factories as f


@pytest.fixture
def people(session: Session) -> dict[str, User]:
    def staff(name: str, etype: EmployeeType) -> User:
        return f.user(session, name, role=Role.employee, employee_type=etype)

    return {
        "admin": f.user(session, "p_admin", role=Role.admin),
        "admin2": f.user(session, "p_admin2", role=Role.admin),
        "hr": staff("p_hr", EmployeeType.hr),
        "cfo": staff("p_cfo", EmployeeType.cfo),
        "dev": staff("p_dev", EmployeeType.developer),
        "client": f.user(session, "p_client"),
    }


def _rows(view: up.UserPermissions) -> dict[str, up.PermissionRow]:
    return {r.permission: r for r in view.permissions}


def _set(s: Session, actor: User, target: User, perm: str, held: bool) -> up.UserPermissions:
    return up.set_permission(s, actor=actor, user_id=target.id, change=PermissionChange(permission=perm, held=held))


def _refresh(s: Session, user: User) -> User:
    s.refresh(user)
    return user


def test_the_overview_shows_every_permission_its_source_and_what_the_viewer_may_change(
    session: Session, people: dict[str, User]
) -> None:
    dev = people["dev"]
    dev.extra_permissions, dev.revoked_permissions = ["billing:read"], ["meetings:read"]
    session.add(dev)
    session.commit()
    as_admin = _rows(up.user_permissions(session, actor=people["admin"], user_id=dev.id))
    assert len(as_admin) == 20 and all(r.can_change and r.reason is None for r in as_admin.values())
    assert (as_admin["content:read"].held, as_admin["content:read"].source) == (True, "default")
    assert (as_admin["billing:read"].held, as_admin["billing:read"].source) == (True, "granted")
    assert (as_admin["meetings:read"].held, as_admin["meetings:read"].source) == (False, "revoked")
    assert (as_admin["billing:write"].held, as_admin["billing:write"].source) == (False, "none")
    assert as_admin["billing:write"].description == "Create/edit invoices, record payments"

    as_hr = _rows(up.user_permissions(session, actor=people["hr"], user_id=dev.id))
    assert as_hr["content:read"].can_change  # revoking gives nothing: users:manage is enough
    assert as_hr["applications:write"].can_change  # HR holds it, so HR may grant it
    assert as_hr["billing:write"].reason == "You cannot grant permissions you do not hold: billing:write"
    assert as_hr["meetings:read"].can_change  # taking the revocation back is a grant HR holds (meetings:read)
    as_cfo = _rows(up.user_permissions(session, actor=people["cfo"], user_id=dev.id))
    assert {r.reason for r in as_cfo.values()} == {"You don't have permission to update this user"}


def test_nobody_changes_their_own_and_admins_and_clients_are_not_adjusted(
    session: Session, people: dict[str, User]
) -> None:
    mine = _rows(up.user_permissions(session, actor=people["hr"], user_id=people["hr"].id))
    assert {r.reason for r in mine.values()} == {NO_SELF}
    admin = _rows(up.user_permissions(session, actor=people["admin2"], user_id=people["admin"].id))
    assert all(r.held and r.source == "admin" and r.reason == up.ADMIN_FIXED for r in admin.values())
    client = _rows(up.user_permissions(session, actor=people["admin"], user_id=people["client"].id))
    assert all(not r.held and r.source == "none" and r.reason == up.CLIENT_FIXED for r in client.values())

    with pytest.raises(Forbidden, match=NO_SELF):
        _set(session, people["admin"], people["admin"], "billing:write", False)
    with pytest.raises(Forbidden, match=NO_SELF):
        _set(session, people["hr"], people["hr"], "clients:create", False)
    with pytest.raises(Invalid, match="Administrators hold every permission"):
        _set(session, people["admin"], people["admin2"], "billing:write", False)
    with pytest.raises(Forbidden, match="You don't have permission to update this user"):
        _set(session, people["hr"], people["admin"], "billing:write", False)
    with pytest.raises(Invalid, match="Clients hold no staff permissions"):
        _set(session, people["admin"], people["client"], "billing:read", True)
    assert _refresh(session, people["client"]).extra_permissions == []


def test_an_admin_grants_and_revokes_and_the_lists_stay_minimal(session: Session, people: dict[str, User]) -> None:
    admin, dev = people["admin"], people["dev"]
    view = _rows(_set(session, admin, dev, "billing:write", True))
    assert (view["billing:write"].held, view["billing:write"].source) == (True, "granted")
    assert "billing:write" in perms(_refresh(session, dev)) and dev.extra_permissions == ["billing:write"]

    view = _rows(_set(session, admin, dev, "content:read", False))
    assert (view["content:read"].held, view["content:read"].source) == (False, "revoked")
    assert dev.revoked_permissions == ["content:read"] and "content:read" not in perms(_refresh(session, dev))

    _set(session, admin, dev, "content:read", True)  # back to the default: no extra entry for it
    _set(session, admin, dev, "billing:write", False)
    assert (_refresh(session, dev).extra_permissions, dev.revoked_permissions) == ([], [])
    updates = session.exec(select(AuditLog).where(AuditLog.action == "user.update", AuditLog.entity_id == str(dev.id)))
    assert len(updates.all()) == 4

    _set(session, admin, dev, "content:read", True)  # already held: nothing is written
    assert len(session.exec(select(AuditLog).where(AuditLog.entity_id == str(dev.id))).all()) == 4


def test_nobody_grants_what_they_lack(session: Session, people: dict[str, User]) -> None:
    hr, dev = people["hr"], people["dev"]
    with pytest.raises(Forbidden, match="You cannot grant permissions you do not hold: billing:write"):
        _set(session, hr, dev, "billing:write", True)
    _set(session, hr, dev, "applications:read", True)  # HR holds it
    _set(session, hr, dev, "content:read", False)  # revoking gives nothing
    with pytest.raises(Forbidden, match="You cannot grant permissions you do not hold: content:read"):
        _set(session, hr, dev, "content:read", True)  # taking the revocation back is a grant HR cannot make
    _refresh(session, dev)
    assert (dev.extra_permissions, dev.revoked_permissions) == (["applications:read"], ["content:read"])
    with pytest.raises(Forbidden, match="You don't have permission to update this user"):
        _set(session, people["cfo"], dev, "content:read", True)  # users:read only


def test_bad_calls(session: Session, people: dict[str, User]) -> None:
    with pytest.raises(Invalid, match="Unknown permission"):
        _set(session, people["admin"], people["dev"], "root:everything", True)
    with pytest.raises(NotFound, match="User not found"):
        up.user_permissions(session, actor=people["admin"], user_id="not-a-uuid")
    with pytest.raises(Forbidden):
        up.user_permissions(session, actor=people["client"], user_id=people["dev"].id)
    with pytest.raises(Forbidden):
        _set(session, people["client"], people["dev"], "content:read", False)
    with pytest.raises(Forbidden):  # developers do not read users
        up.user_permissions(session, actor=people["dev"], user_id=people["hr"].id)
