"""What an actor may do with a row is computed once, in the service, and shipped on the row: the UI shows controls by
these flags and repeats no rule. Each flag is on for a row the actor may act on and off for one they may not."""

from __future__ import annotations

import uuid

import pytest
from sqlmodel import Session

from app.core.errors import Conflict, Forbidden
from app.models.enums import EmployeeType, Role
from app.models.inquiry import ContactInquiry
from app.models.user import User
from app.services.accounts import admin_users
from app.services.crm import admin_inquiries
from tests import factories as f


def _tag() -> str:
    return uuid.uuid4().hex[:8]


def _staff(s: Session, etype: EmployeeType) -> User:
    return f.user(s, f"{etype.value}_{_tag()}", role=Role.employee, employee_type=etype)


def test_an_inquiry_says_whether_it_is_assigned_to_the_reader(session: Session) -> None:
    tag = _tag()
    me, other = f.user(session, f"admin_{tag}", role=Role.admin), _staff(session, EmployeeType.coo)
    mine = ContactInquiry(name=f"{tag} Mine", email="a@example.com", message="Hi", assigned_to=me.id)
    theirs = ContactInquiry(name=f"{tag} Theirs", email="b@example.com", message="Hi", assigned_to=other.id)
    nobodys = ContactInquiry(name=f"{tag} Open", email="c@example.com", message="Hi")
    session.add_all([mine, theirs, nobodys])
    session.commit()

    rows = admin_inquiries.list_inquiries(session, actor=me, search=tag).data
    assert {r.name: r.assigned_to_me for r in rows} == {
        f"{tag} Mine": True,
        f"{tag} Theirs": False,
        f"{tag} Open": False,
    }
    changed = admin_inquiries.update_inquiry(
        session, actor=me, inquiry_id=theirs.id or 0, data={"assigned_to": str(me.id)}
    )
    assert changed.assigned_to_me and changed.assigned_to == str(me.id)


def _flags(s: Session, actor: User, *targets: User) -> dict[str, tuple[bool, bool, bool]]:
    """(can_edit, can_delete, can_reset_password) of each target's row as `actor` is shown it."""
    found: dict[str, tuple[bool, bool, bool]] = {}
    for target in targets:
        rows = admin_users.list_users(s, actor=actor, search=target.username).data
        row = next(r for r in rows if r.id == target.id)
        found[target.username] = (row.can_edit, row.can_delete, row.can_reset_password)
    return found


def test_account_rows_carry_what_the_reader_may_do_with_them(session: Session) -> None:
    tag = _tag()
    admin = f.user(session, f"admin_{tag}", role=Role.admin)
    hr = _staff(session, EmployeeType.hr)  # users:manage, clients:reset_password
    sales = _staff(session, EmployeeType.sales_lead)  # clients:reset_password, no users:manage
    client, billed = f.user(session, f"client_{tag}"), f.user(session, f"billed_{tag}")
    f.invoice(session, billed)  # a client with invoice history is kept: nobody deletes them

    assert _flags(session, admin, admin, hr, client, billed) == {
        admin.username: (True, False, True),  # never one's own account
        hr.username: (True, True, True),
        client.username: (True, True, True),
        billed.username: (True, False, True),
    }
    assert _flags(session, hr, admin, hr, client) == {
        admin.username: (False, False, False),  # admins only on admins
        hr.username: (True, False, False),  # resets clients' passwords only
        client.username: (True, True, True),
    }
    assert _flags(session, sales, admin, hr, client) == {
        admin.username: (False, False, False),
        hr.username: (False, False, False),  # resets clients' passwords only
        client.username: (False, False, True),
    }
    # The flags are the refusals: what is off is refused, what is on goes through.
    with pytest.raises(Forbidden):
        admin_users.send_reset_link(session, actor=sales, user_id=hr.id)
    with pytest.raises(Conflict):
        admin_users.delete_user(session, actor=admin, user_id=billed.id)
    admin_users.delete_user(session, actor=hr, user_id=client.id)
