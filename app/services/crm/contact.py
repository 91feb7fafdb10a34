"""The contact / quote form: validation, abuse defences, storage, and the e-mails it causes.

Both the Reflex form and POST /api/contact call `submit_inquiry`, so both enforce the same rules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field
from sqlmodel import Session

from app.core.config import settings
from app.core.errors import TooManyRequests
from app.core.net import network
from app.models.enums import InquiryPriority, InquiryStatus
from app.models.inquiry import ContactInquiry
from app.services.crm import newsletter as subscriptions  # `newsletter` is also the form's checkbox
from app.services.platform import letters, mail, ratelimit
from app.services.platform.rules import PHONE_MAX, phone_problem
from app.services.platform.schema import CHECK_FIELDS, Body, Email, RawText, Text, parse, problem, required

log = logging.getLogger(__name__)

# Spec section 9, in the order the form lists them.
SERVICE_OPTIONS: dict[str, str] = {
    "web-development": "Web Development",
    "cloud-solutions": "Web Development and Hosting",
    "database-design": "Database Design",
    "digital-transformation": "Digital Transformation",
    "other": "Other",
}
BUDGET_OPTIONS: dict[str, str] = {
    "under-1.2k": "Under $1,200",
    "1.2k-3k": "$1,200 - $3,000",
    "3k-5k": "$3,000 - $5,000",
    "5k-10k": "$5,000 - $10,000",
    "10k-plus": "$10,000+",
    "discuss": "Let's Discuss",
}
# The spec's "1.2k-5k" was labelled "$1,200 - $3,000"; old forms and stored rows may still carry it.
LEGACY_BUDGETS: dict[str, str] = {"1.2k-5k": "1.2k-3k"}

LIMITS = {"name": 100, "company": 200, "phone": PHONE_MAX, "message": 5000}
PER_IP_LIMITS = ((5, timedelta(minutes=10)), (20, timedelta(days=1)))
# Submissions over those limits kept in Spam per address and day; beyond this a flood is dropped.
OVER_LIMIT_KEPT = (20, timedelta(days=1))
OVER_LIMIT_NOTE = "Kept as spam: sent when its address was over the contact form's limit (the sender was told so)."
# Acknowledgements per address and day: the form must not become a way to mail strangers.
ACKS_PER_ADDRESS = (3, timedelta(days=1))
ECHO_CHARS = 1000

INVALID_EMAIL = "Please enter a valid email address"
TOO_MANY = "Too many messages from your address. Please try again later or e-mail us directly."
THANK_YOU = "Thank you for your inquiry. We'll get back to you within 24 hours."


def service_label(value: str | None) -> str | None:
    """The label of a stored service value (unknown values are shown as stored)."""
    return SERVICE_OPTIONS.get(value, value) if value else None


def budget_label(value: str | None) -> str | None:
    """The label of a stored budget value, old values included."""
    if not value:
        return None
    return BUDGET_OPTIONS.get(LEGACY_BUDGETS.get(value, value), value)


def _phone(value: str | None) -> str | None:
    if value and (why := phone_problem(value)):
        raise problem(why, summary=CHECK_FIELDS)
    return value


def _from(options: dict[str, str], refusal: str, legacy: dict[str, str] | None = None) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value is not None and not isinstance(value, str):
            raise ValueError("Must be text")
        chosen = (value or "").strip()
        chosen = (legacy or {}).get(chosen, chosen)
        if chosen and chosen not in options:
            raise problem(refusal, summary=CHECK_FIELDS)
        return chosen or None

    return check


def _line(label: str, field: str, **rules: Any) -> Text:
    return Text(label, LIMITS[field], one_line=True, summary=CHECK_FIELDS, **rules)


class ContactCreate(Body):
    """The contact form as sent: every refusal answers "Please check the highlighted fields." with each field's
    problem. Single-line fields are collapsed to one line (they end up in mail subjects)."""

    model_config = ConfigDict(json_schema_extra=required("name", "email", "message"))

    name: Annotated[str | None, _line("Name", "name", required=True)] = Field(None, validate_default=True)
    email: Annotated[str | None, Email(INVALID_EMAIL, summary=CHECK_FIELDS)] = Field(None, validate_default=True)
    company: Annotated[str | None, _line("Company", "company")] = None
    phone: Annotated[str | None, _line("Phone", "phone"), AfterValidator(_phone)] = None
    service_type: Annotated[
        str | None,
        BeforeValidator(_from(SERVICE_OPTIONS, "Please choose a service from the list")),
        Field(json_schema_extra={"enum": ["", *SERVICE_OPTIONS, None]}),
    ] = None
    budget: Annotated[
        str | None,
        BeforeValidator(_from(BUDGET_OPTIONS, "Please choose a budget from the list", LEGACY_BUDGETS)),
        Field(json_schema_extra={"enum": ["", *BUDGET_OPTIONS, *LEGACY_BUDGETS, None]}),
    ] = None
    message: Annotated[
        str | None,
        Text(
            "Project details",
            LIMITS["message"],
            required=True,
            missing="Project details are required",
            summary=CHECK_FIELDS,
        ),
    ] = Field(None, validate_default=True)
    newsletter: bool | None = False
    website: RawText = Field(None, description="The hidden honeypot: people leave it empty.")


def _labels(i: ContactInquiry) -> dict[str, str | None]:
    """The words for the inquiry's choices, for its letters' summary."""
    return {"service": service_label(i.service_type), "budget": budget_label(i.budget)}


def _acknowledge(s: Session, i: ContactInquiry, *, capped: bool = True) -> None:
    """The visitor's acknowledgement (in the caller's transaction); `capped=False` for staff's "Not spam", a
    person's decision rather than a form anyone can fill in."""
    if capped and not ratelimit.claim(s, ratelimit.Limit(f"contact:ack:{i.email}", *ACKS_PER_ADDRESS)):
        log.info("Acknowledgement to %s skipped: daily cap reached (inquiry stored)", i.email)
        return
    echo = i.message if len(i.message) <= ECHO_CHARS else i.message[:ECHO_CHARS].rstrip() + " [...]"
    letter = letters.render(s, "inquiry_received", inquiry=i, echo=echo, **_labels(i))
    mail.enqueue(s, to=i.email, letter=letter, public=capped)  # staff's "Not spam" is a person's, not the form's


def acknowledge_rescued(s: Session, i: ContactInquiry) -> None:
    """Send the acknowledgement a message caught as spam never got (staff said "Not spam")."""
    _acknowledge(s, i, capped=False)


def _notify_staff(s: Session, i: ContactInquiry) -> None:
    if not settings.staff_notify_email:
        log.info("STAFF_NOTIFY_EMAIL is not set; no staff e-mail for inquiry %s (it is in the admin inbox)", i.id)
        return
    letter = letters.render(s, "inquiry_for_staff", inquiry=i, **_labels(i))
    # Anyone can fill in the form: the staff inbox is capped too (by the staff inboxes' cap).
    mail.enqueue(s, to=settings.staff_notify_email, letter=letter, public=True)


def submit_inquiry(s: Session, *, data: ContactCreate | Mapping[str, Any], ip: str | None = None) -> ContactInquiry:
    """Validate and store an inquiry with its e-mails and newsletter request, in one transaction; commits."""
    form = parse(ContactCreate, data)
    # Counted in this transaction: only stored submissions count (spam too, which caps a flooding bot).
    if ip and not ratelimit.claim(s, *(ratelimit.Limit(f"contact:ip:{network(ip)}", n, w) for n, w in PER_IP_LIMITS)):
        _keep_over_the_limit(s, form, ip)
        raise TooManyRequests(TOO_MANY)
    # `website` is the hidden honeypot: when filled, the inquiry is stored flagged as spam and nothing is sent, and
    # the caller sees the usual success, so a bot learns nothing.
    is_spam = bool((form.website or "").strip())
    inquiry = _inquiry(form, is_spam=is_spam)
    s.add(inquiry)
    s.flush()
    if is_spam:
        log.info("Contact form honeypot filled; inquiry %s stored as spam", inquiry.id)
    else:
        _acknowledge(s, inquiry)
        _notify_staff(s, inquiry)
        if inquiry.newsletter:
            subscriptions.stage(s, email=inquiry.email, source="contact")
    s.commit()
    return inquiry


def _keep_over_the_limit(s: Session, form: ContactCreate, ip: str) -> None:
    """A submission over the address's limit is refused (429) but kept in Spam, unsent, so a real person who wrote
    too often is not lost: staff can move it back with "Not spam". Kept up to a daily cap, so a flood stays bounded."""
    if not ratelimit.claim(s, ratelimit.Limit(f"contact:over-limit:{network(ip)}", *OVER_LIMIT_KEPT)):
        return
    inquiry = _inquiry(form, is_spam=True)
    inquiry.notes = OVER_LIMIT_NOTE
    s.add(inquiry)
    s.commit()
    log.info("Contact form over the address's limit; inquiry %s kept as spam", inquiry.id)


def _inquiry(form: ContactCreate, *, is_spam: bool) -> ContactInquiry:
    return ContactInquiry(
        **form.model_dump(include={"name", "email", "company", "phone", "service_type", "budget", "message"}),
        newsletter=bool(form.newsletter) and not is_spam,
        status=InquiryStatus.new,
        priority=InquiryPriority.medium,
        is_spam=is_spam,
    )
