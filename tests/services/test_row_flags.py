"""What an actor may do with a row is computed once, in the service, and shipped on the row: the UI shows controls by
these flags and repeats no rule. Each flag is on for a row the actor may act on and off for one they may not."""

from __future__ import annotations

import uuid

from sqlmodel import Session

from app.models.enums import EmployeeType, Role
from app.models.inquiry import ContactInquiry
from app.models.user import User
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
