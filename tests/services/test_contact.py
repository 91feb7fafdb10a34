"""The contact form's rules: validation, honeypot, per-address limits, e-mails and the newsletter checkbox."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import Invalid, TooManyRequests
from app.models.enums import InquiryPriority, InquiryStatus, SubscriberStatus
from app.models.inquiry import ContactInquiry, NewsletterSubscriber
from app.models.system import EmailOutbox
from app.services.crm import contact

STAFF = "sales@coastline.example"


def form(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Dana Whitfield",
        "email": "dana@example.com",
        "company": "Harbor Dental",
        "phone": "(772) 555-0100",
        "service_type": "web-development",
        "budget": "3k-5k",
        "message": "We need a new website with online booking.",
        "newsletter": False,
        "website": "",
        "ip": "203.0.113.7",
    }
    return {**data, **overrides}


def send(s: Session, data: dict[str, Any]) -> ContactInquiry:
    ip = data.pop("ip", None)
    return contact.submit_inquiry(s, data=data, ip=ip)


def outbox(s: Session) -> list[EmailOutbox]:
    return list(s.exec(select(EmailOutbox).order_by(col(EmailOutbox.id))).all())


def errors_of(s: Session, **overrides: Any) -> dict[str, str]:
    with pytest.raises(Invalid) as exc:
        send(s, form(**overrides))
    assert exc.value.message == "Please check the highlighted fields."
    return exc.value.errors


@pytest.fixture(autouse=True)
def staff_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "staff_notify_email", STAFF)


def test_valid_inquiry_is_stored_trimmed_with_defaults(session: Session) -> None:
    inquiry = send(session, form(name="  Dana   Whitfield ", message="  Hello there.  "))
    stored = session.get(ContactInquiry, inquiry.id)
    assert stored is not None
    assert stored.name == "Dana Whitfield" and stored.message == "Hello there."
    assert stored.status == InquiryStatus.new and stored.priority == InquiryPriority.medium
    assert stored.is_spam is False and stored.newsletter is False
    assert (stored.service_type, stored.budget, stored.company) == ("web-development", "3k-5k", "Harbor Dental")


def test_optional_fields_may_be_empty(session: Session) -> None:
    inquiry = send(session, form(company="", phone=" ", service_type="", budget=""))
    assert (inquiry.company, inquiry.phone, inquiry.service_type, inquiry.budget) == (None, None, None, None)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "   ", "Name is required"),
        ("name", "x" * 101, "Name must not exceed 100 characters"),
        ("email", "", "Please enter a valid email address"),
        ("email", "not-an-address", "Please enter a valid email address"),
        ("email", "dana@", "Please enter a valid email address"),
        ("message", "  ", "Project details are required"),
        ("message", "x" * 5001, "Project details must not exceed 5000 characters"),
        ("company", "x" * 201, "Company must not exceed 200 characters"),
        ("phone", "5" * 31, "Phone must not exceed 30 characters"),
        ("phone", "call me maybe", "Please enter a valid phone number"),
        ("phone", "12-34", "Phone number must be at least 10 digits"),
        ("service_type", "hacking", "Please choose a service from the list"),
        ("budget", "a-million", "Please choose a budget from the list"),
    ],
)
def test_each_invalid_field_has_its_message(session: Session, field: str, value: str, message: str) -> None:
    assert errors_of(session, **{field: value}) == {field: message}
    assert session.exec(select(ContactInquiry)).first() is None


def test_all_field_errors_are_reported_at_once(session: Session) -> None:
    errors = errors_of(session, name="", email="nope", message="", service_type="x", budget="y")
    assert set(errors) == {"name", "email", "message", "service_type", "budget"}


def test_budget_values_and_the_old_defective_value(session: Session) -> None:
    assert contact.BUDGET_OPTIONS["1.2k-3k"] == "$1,200 - $3,000"
    assert "1.2k-5k" not in contact.BUDGET_OPTIONS
    inquiry = send(session, form(budget="1.2k-5k"))
    assert inquiry.budget == "1.2k-3k"  # the old value is accepted and stored as the corrected one
    assert contact.budget_label("1.2k-5k") == contact.budget_label("1.2k-3k") == "$1,200 - $3,000"
    assert contact.budget_label("discuss") == "Let's Discuss" and contact.budget_label(None) is None


def test_service_options_and_labels_follow_the_spec() -> None:
    assert list(contact.SERVICE_OPTIONS) == [
        "web-development",
        "cloud-solutions",
        "database-design",
        "digital-transformation",
        "other",
    ]
    assert contact.service_label("cloud-solutions") == "Web Development and Hosting"
    assert contact.service_label("legacy-thing") == "legacy-thing" and contact.service_label("") is None
    assert list(contact.BUDGET_OPTIONS) == ["under-1.2k", "1.2k-3k", "3k-5k", "5k-10k", "10k-plus", "discuss"]


def test_acknowledgement_and_staff_mail_are_queued_with_the_inquiry(session: Session) -> None:
    send(session, form(budget="1.2k-5k"))
    mails = outbox(session)
    assert [m.to_address for m in mails] == ["dana@example.com", STAFF]
    ack, staff = mails
    assert "we'll get back to you within 24 hours" in ack.body_text
    assert "Service: Web Development" in ack.body_text and "Budget: $1,200 - $3,000" in ack.body_text
    assert "We need a new website with online booking." in ack.body_text
    assert "Dana Whitfield" in staff.subject and "/admin/inquiries" in staff.body_text
    assert "dana@example.com" in staff.body_text


def test_no_staff_mail_without_an_address(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "staff_notify_email", None)
    send(session, form())
    assert [m.to_address for m in outbox(session)] == ["dana@example.com"]


def test_newlines_cannot_reach_a_mail_subject(session: Session) -> None:
    send(session, form(name="Eve\r\nBcc: victim@example.com"))
    staff = outbox(session)[1]
    assert "\n" not in staff.subject and "\r" not in staff.subject


def test_honeypot_is_stored_as_spam_without_mail(session: Session) -> None:
    inquiry = send(session, form(website="http://spam.example", newsletter=True))
    stored = session.get(ContactInquiry, inquiry.id)
    assert stored is not None and stored.is_spam is True and stored.newsletter is False
    assert outbox(session) == []
    assert session.exec(select(NewsletterSubscriber)).first() is None


def test_per_ip_limit_counts_only_accepted_submissions(session: Session) -> None:
    for _ in range(3):
        errors_of(session, name="")  # refused submissions do not count
    for _ in range(5):
        send(session, form())
    with pytest.raises(TooManyRequests) as exc:
        send(session, form())
    assert exc.value.message == "Too many messages from your address. Please try again later or e-mail us directly."
    assert exc.value.status_code == 429
    send(session, form(ip="198.51.100.1"))  # another address is not affected
    # The refused one is kept in Spam, unsent (issue 12: nothing a visitor sent is invisible).
    assert len(session.exec(select(ContactInquiry).where(ContactInquiry.is_spam == False)).all()) == 6  # noqa: E712
    assert len(session.exec(select(ContactInquiry).where(ContactInquiry.is_spam == True)).all()) == 1  # noqa: E712


def test_acknowledgements_to_one_address_are_capped_but_inquiries_kept(session: Session) -> None:
    for n in range(4):
        send(session, form(ip=f"198.51.100.{n}"))
    acks = [m for m in outbox(session) if m.to_address == "dana@example.com"]
    assert len(acks) == 3
    assert len([m for m in outbox(session) if m.to_address == STAFF]) == 4
    assert len(session.exec(select(ContactInquiry)).all()) == 4


def test_newsletter_checkbox_starts_a_double_opt_in(session: Session) -> None:
    send(session, form(newsletter=True))
    sub = session.exec(select(NewsletterSubscriber)).one()
    assert sub.email == "dana@example.com" and sub.status == SubscriberStatus.pending and sub.source == "contact"
    assert [m.to_address for m in outbox(session)] == ["dana@example.com", STAFF, "dana@example.com"]
    assert "/api/newsletter/confirm?token=" in outbox(session)[2].body_text


def test_a_failing_newsletter_step_rolls_back_the_whole_inquiry(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("database hiccup")

    monkeypatch.setattr(contact.subscriptions, "stage", boom)
    with pytest.raises(RuntimeError):
        send(session, form(newsletter=True))
    session.rollback()
    assert session.exec(select(ContactInquiry)).first() is None
    assert outbox(session) == []
