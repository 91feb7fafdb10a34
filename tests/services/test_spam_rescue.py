"""The Spam folder (issue 12, point 8): "Not spam" moves a message back to New and sends exactly one acknowledgement."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from app.core.errors import Forbidden
from app.models.enums import EmployeeType, InquiryStatus, Role
from app.models.inquiry import ContactInquiry
from app.models.system import EmailOutbox
from app.services import admin_inquiries, contact
from tests import factories as f


def _acks(s: Session, email: str) -> int:
    return len(s.exec(select(EmailOutbox).where(EmailOutbox.to_address == email)).all())


def _caught(s: Session, email: str = "real.person@example.com") -> ContactInquiry:
    return contact.submit_inquiry(
        s,
        data={"name": "Real Person", "email": email, "message": "Please quote a new website.", "website": "autofilled"},
    )


def test_not_spam_moves_it_to_new_and_acknowledges_once(session: Session) -> None:
    inquiry = _caught(session)
    assert inquiry.is_spam and _acks(session, inquiry.email) == 0
    admin = f.user(session, "spam_admin", role=Role.admin)
    spam_list = admin_inquiries.list_inquiries(session, actor=admin, spam=True)
    assert [row["id"] for row in spam_list.data] == [inquiry.id]

    dto = admin_inquiries.update_inquiry(session, actor=admin, inquiry_id=inquiry.id, data={"is_spam": False})
    assert dto["is_spam"] is False and dto["status"] == InquiryStatus.new
    assert _acks(session, inquiry.email) == 1
    assert admin_inquiries.list_inquiries(session, actor=admin, spam=True).total == 0

    # Flagged again and rescued again: still one acknowledgement in all.
    admin_inquiries.update_inquiry(session, actor=admin, inquiry_id=inquiry.id, data={"is_spam": True})
    admin_inquiries.update_inquiry(session, actor=admin, inquiry_id=inquiry.id, data={"is_spam": False})
    assert _acks(session, inquiry.email) == 1


def test_a_message_flagged_by_hand_was_acknowledged_already(session: Session) -> None:
    inquiry = contact.submit_inquiry(
        session, data={"name": "Ann", "email": "ann@example.com", "message": "Hello there, a quote?"}
    )
    assert _acks(session, "ann@example.com") == 1
    admin = f.user(session, "spam_admin2", role=Role.admin)
    admin_inquiries.update_inquiry(session, actor=admin, inquiry_id=inquiry.id, data={"is_spam": True})
    admin_inquiries.update_inquiry(session, actor=admin, inquiry_id=inquiry.id, data={"is_spam": False})
    assert _acks(session, "ann@example.com") == 1


def test_the_daily_acknowledgement_cap_does_not_swallow_a_rescue(session: Session) -> None:
    for n in range(contact.ACKS_PER_ADDRESS[0]):
        contact.submit_inquiry(
            session, data={"name": "Busy", "email": "busy@example.com", "message": f"Message number {n} here"}
        )
    assert _acks(session, "busy@example.com") == contact.ACKS_PER_ADDRESS[0]
    caught = _caught(session, "busy@example.com")
    admin = f.user(session, "spam_admin3", role=Role.admin)
    admin_inquiries.update_inquiry(session, actor=admin, inquiry_id=caught.id, data={"is_spam": False})
    assert _acks(session, "busy@example.com") == contact.ACKS_PER_ADDRESS[0] + 1


def test_only_inquiry_writers_rescue(session: Session) -> None:
    inquiry = _caught(session, "kept@example.com")
    revoked = f.user(
        session,
        "spam_dev",
        role=Role.employee,
        employee_type=EmployeeType.developer,
        revoked_permissions=["inquiries:write"],
    )
    with pytest.raises(Forbidden):
        admin_inquiries.update_inquiry(session, actor=revoked, inquiry_id=inquiry.id, data={"is_spam": False})
    session.refresh(inquiry)
    assert inquiry.is_spam and _acks(session, "kept@example.com") == 0
