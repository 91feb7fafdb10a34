"""User Management's Permissions dialog: the handlers show what the server says and change only what it allows,
whatever the browser sends (the harness is tests/ui/harness.py's: committed rows, the real state tree)."""

from __future__ import annotations

import uuid

from sqlmodel import Session

from app.models.enums import EmployeeType
from app.models.user import User
from app.services.accounts.admin_users import NO_SELF
from app.services.platform.access import perms
from app.ui.admin.users.state import UsersState
from tests import factories as f
from tests.ui.harness import call, handler_state, notice, sign_in, staff


def _fresh(s: Session, user: User) -> User:
    s.expire_all()
    fresh = s.get(User, user.id)
    assert fresh is not None
    return fresh


def _row(state: UsersState, perm: str):  # type: ignore[no-untyped-def]
    return next(r for r in state.perm_rows if r.permission == perm)


def test_an_admin_grants_and_revokes_through_the_switches(db: Session) -> None:
    dev = staff(db, EmployeeType.developer)
    state = handler_state(UsersState, sign_in(db, staff(db, None)))
    call(state, "open_permissions", str(dev.id))
    assert state.dialog == "permissions" and state.perm_user == dev.username and state.perm_role == "Developers (Devs)"
    assert len(state.perm_rows) == 20 and state.perm_common_reason == "" and state.perm_held_count == 4
    assert (_row(state, "content:read").source_label, _row(state, "billing:write").source_label) == ("Role default", "")

    call(state, "set_permission", "billing:write", True)
    assert notice(state)["title"] == "Permissions updated" and state.form_error == ""
    # The notice names the permission in words, not by its key.
    assert notice(state)["description"] == f"“Create/edit invoices, record payments” granted to {dev.username}."
    assert (_row(state, "billing:write").held, _row(state, "billing:write").source_label) == (True, "Granted")
    call(state, "set_permission", "content:read", False)
    assert (_row(state, "content:read").held, _row(state, "content:read").source_label) == (False, "Revoked")
    held = perms(_fresh(db, dev))
    assert "billing:write" in held and "content:read" not in held

    call(state, "set_permission", "content:read", "true")  # not a boolean: ignored, not read as "revoke" or "grant"
    assert "content:read" not in perms(_fresh(db, dev))


def test_hr_sees_why_and_the_server_refuses_what_hr_lacks(db: Session) -> None:
    dev, hr = staff(db, EmployeeType.developer), staff(db, EmployeeType.hr)
    state = handler_state(UsersState, sign_in(db, hr))
    call(state, "open_permissions", str(dev.id))
    assert state.perm_common_reason == ""
    billing = _row(state, "billing:write")
    assert not billing.can_change and billing.reason == "You cannot grant permissions you do not hold: billing:write"
    assert _row(state, "content:read").can_change and _row(state, "applications:read").can_change

    call(state, "set_permission", "billing:write", True)  # a crafted event: the switch is disabled
    assert state.form_error == "You cannot grant permissions you do not hold: billing:write"
    assert notice(state)["title"] == "Permission not changed"
    assert "billing:write" not in perms(_fresh(db, dev))
    call(state, "set_permission", "applications:read", True)
    assert "applications:read" in perms(_fresh(db, dev))

    call(state, "open_permissions", str(hr.id))  # their own account: every switch off, one reason for all
    assert state.perm_common_reason == NO_SELF and not any(r.can_change or r.reason for r in state.perm_rows)
    call(state, "set_permission", "users:manage", False)
    assert state.form_error == NO_SELF and "users:manage" in perms(_fresh(db, hr))


def test_readers_and_outsiders_change_nothing(db: Session) -> None:
    dev = staff(db, EmployeeType.developer)
    cfo = handler_state(UsersState, sign_in(db, staff(db, EmployeeType.cfo)))  # users:read, not users:manage
    call(cfo, "open_permissions", str(dev.id))
    assert cfo.perm_common_reason == "You don't have permission to update this user"
    call(cfo, "set_permission", "content:read", False)
    assert cfo.form_error == "You don't have permission to update this user"

    client = handler_state(UsersState, sign_in(db, f.user(db, f"pc_{uuid.uuid4().hex[:10]}")))
    call(client, "open_permissions", str(dev.id))
    assert client.dialog == "" and client.perm_rows == []
    client.dialog, client._dialog_key = "permissions", str(dev.id)  # forged over the websocket
    call(client, "set_permission", "content:read", False)
    signed_out = handler_state(UsersState, None)
    signed_out.dialog, signed_out._dialog_key = "permissions", str(dev.id)
    call(signed_out, "set_permission", "content:read", False)
    assert "content:read" in perms(_fresh(db, dev))
