"""The user forms offer what the service lets the actor give (issue 26: HR was offered "Admin", then refused)."""

from __future__ import annotations

import uuid

import pytest
from sqlmodel import Session

from app.core.errors import Forbidden
from app.core.permissions import EmployeeType, Role
from app.services.accounts import admin_users
from tests import factories as f

ACTORS = {
    "admin": {"role": Role.admin},
    "hr": {"role": Role.employee, "employee_type": EmployeeType.hr},
    "cto": {"role": Role.employee, "employee_type": EmployeeType.cto},
}


def _create(s: Session, actor: object, role: str, employee_type: str | None) -> None:
    tag = uuid.uuid4().hex[:8]
    data = {
        "username": f"g_{tag}",
        "email": f"g_{tag}@example.com",
        "first_name": "Gina",
        "last_name": "Grant",
        "role": role,
        "employee_type": employee_type or "",
    }
    admin_users.create_staff_or_client(s, actor=actor, data=data)  # type: ignore[arg-type]


@pytest.mark.parametrize("who", list(ACTORS))
def test_what_is_offered_is_what_is_allowed(session: Session, who: str) -> None:
    actor = f.user(session, f"grant_{who}_{uuid.uuid4().hex[:6]}", **ACTORS[who])  # type: ignore[arg-type]
    offered = admin_users.grantable(actor)
    choices = [(Role.client.value, None), (Role.admin.value, None)]
    choices += [(Role.employee.value, t.value) for t in EmployeeType]
    for role, employee_type in choices:
        allowed = role in offered.roles and (employee_type is None or employee_type in offered.employee_types)
        if allowed:
            _create(session, actor, role, employee_type)
        else:
            with pytest.raises(Forbidden):
                _create(session, actor, role, employee_type)
    assert (Role.admin.value in offered.roles) is (who == "admin")
    if who == "admin":
        assert offered.employee_types == [t.value for t in EmployeeType]
    elif who == "hr":  # users:manage, but not every type's permissions
        assert Role.employee.value in offered.roles and 0 < len(offered.employee_types) < len(EmployeeType)
    else:  # no users:manage: nothing to offer
        assert offered.roles == [] and offered.employee_types == []
