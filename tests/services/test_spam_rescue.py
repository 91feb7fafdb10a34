"""The Spam folder (issue 12, point 8): "Not spam" moves a message back to New and sends exactly one acknowledgement."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from app.core.errors import Forbidden, TooManyRequests
from app.models.enums import EmployeeType, InquiryStatus, Role
from app.models.inquiry import ContactInquiry
from app.models.system import EmailOutbox
from app.services.crm import admin_inquiries, contact
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
    assert [row.id for row in spam_list.data] == [inquiry.id]

    dto = admin_inquiries.update_inquiry(session, actor=admin, inquiry_id=inquiry.id, data={"is_spam": False})
    assert dto.is_spam is False and dto.status == InquiryStatus.new
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


def test_a_message_over_the_address_limit_is_refused_but_kept_in_spam_up_to_a_cap(session: Session) -> None:
    """The sender is told "too many" (429); the message waits in Spam, unsent, and "Not spam" acknowledges it once.
    A flood from one address keeps at most the daily cap."""
    ip = "203.0.113.50"
    for n in range(5):
        contact.submit_inquiry(session, data=_form(f"ok{n}@example.com"), ip=ip)
    with pytest.raises(TooManyRequests):
        contact.submit_inquiry(session, data=_form("late@example.com"), ip=ip)
    kept = session.exec(select(ContactInquiry).where(ContactInquiry.email == "late@example.com")).one()
    assert kept.is_spam and kept.notes == contact.OVER_LIMIT_NOTE and _acks(session, "late@example.com") == 0
    admin = f.user(session, "limit_admin", role=Role.admin)
    admin_inquiries.update_inquiry(session, actor=admin, inquiry_id=kept.id, data={"is_spam": False})
    assert _acks(session, "late@example.com") == 1

    cap, _window = contact.OVER_LIMIT_KEPT
    for n in range(cap + 5):
        with pytest.raises(TooManyRequests):
            contact.submit_inquiry(session, data=_form(f"flood{n}@example.com"), ip=ip)
    flood = session.exec(select(ContactInquiry).where(ContactInquiry.email.like("flood%"))).all()  # type: ignore[attr-defined]
    assert len(flood) == cap - 1  # the late message took the first place of the day's cap


def _form(email: str) -> dict[str, str]:
    return {"name": "Busy Person", "email": email, "message": "Please quote a new website."}
