"""audit.recent: the Settings section's audit log, newest first, for holders of audit:read only."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from app.core.errors import Forbidden
from app.models.enums import EmployeeType, Role
from app.services.platform import audit
from tests import factories as f


def test_recent_lists_newest_first_with_actor_names_and_respects_the_limit(session: Session) -> None:
    admin = f.user(session, "auditor_admin", role=Role.admin)
    target = f.user(session, "audited_client")
    for n in range(3):
        audit.record(session, actor=admin, action=f"test.action{n}", entity=target, details={"n": n}, ip="10.0.0.9")
    audit.record(session, actor=None, action="test.system")
    session.commit()

    rows = audit.recent(session, actor=admin, limit=3)

    assert [r.action for r in rows] == ["test.system", "test.action2", "test.action1"]
    assert rows[0].actor == "system"
    assert rows[1].actor == "auditor_admin"
    assert rows[1].entity_type == "users" and rows[1].entity_id == str(target.id)
    assert rows[1].ip_address == "10.0.0.9" and rows[1].details == {"n": 2}


@pytest.mark.parametrize(
    ("role", "etype", "allowed"),
    [
        (Role.employee, EmployeeType.legal, True),
        (Role.employee, EmployeeType.cfo, True),
        (Role.employee, EmployeeType.developer, False),
        (Role.employee, EmployeeType.hr, False),
        (Role.client, None, False),
    ],
)
def test_recent_needs_audit_read(session: Session, role: Role, etype: EmployeeType | None, allowed: bool) -> None:
    actor = f.user(session, role=role, employee_type=etype)
    if allowed:
        assert isinstance(audit.recent(session, actor=actor), list)
    else:
        with pytest.raises(Forbidden):
            audit.recent(session, actor=actor)
