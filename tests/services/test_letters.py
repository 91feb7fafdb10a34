"""Every letter renders from its template, both parts: the text as sent, the HTML escaped, in the company's layout."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from jinja2 import UndefinedError
from sqlmodel import Session

from app.core.config import Settings, settings
from app.models.careers import JobApplication
from app.models.inquiry import ContactInquiry
from app.services.accounts import auth
from app.services.platform import company, letters, mail
from tests import factories as f
from tests.smtp_sink import SmtpSink

EVIL = "<script>alert(1)</script>"  # typed by a visitor: shown as typed in the text, escaped in the HTML
URL = settings.public_url
LINK = f"{URL}/reset-password?token=abc&x=<y>"


def _inquiry(**kw: Any) -> ContactInquiry:
    values = {"name": EVIL, "email": "ann@example.com", "message": "Need a site.", "newsletter": True}
    return ContactInquiry(**{**values, **kw})


def _application(**kw: Any) -> JobApplication:
    values = {"id": 7, "first_name": EVIL, "last_name": "Lee", "email": "jo@example.com", "phone": "555-010-0100"}
    files = {"resume_path": "r", "resume_filename": "r.pdf", "resume_content_type": "application/pdf"}
    return JobApplication(**{**values, **files, **kw})


BOOKING = {
    "kind": "Intro call",
    "when": "Monday, June 1 at 10:00 AM (UTC)",
    "minutes": 30,
    "booker_name": EVIL,
    "previous": None,
    "by_booker": False,
    "reason": None,
}
ORGANIZER = {"booker_email": "b@example.com", "booker_company": None, "booker_notes": None}
CANCEL_FILE = "The attached cancellation (cancel.ics) removes the meeting from your calendar"

# (letter, context, what its text says): at least one sample per template; the names are checked against the folder.
SAMPLES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("second_factor_changed", {"change": "on", "name": EVIL}, ["Two-step sign-in is now on", f"{URL}/contact/"]),
    ("second_factor_changed", {"change": "off", "name": EVIL}, ["was turned off for your account"]),
    (
        "second_factor_changed",
        {"change": "reset", "name": EVIL, "by": EVIL, "must": True},
        ["reset the two-step sign-in of your account", "you will set up an authenticator again"],
    ),
    ("second_factor_changed", {"change": "recovery_used", "name": EVIL, "left": 2}, ["You have 2 left: make new"]),
    ("second_factor_changed", {"change": "recovery_new", "name": EVIL}, ["New recovery codes were made"]),
    (
        "second_factor_changed",
        {"change": "passkey_added", "name": EVIL, "passkey": EVIL},
        ["was added to your account"],
    ),
    ("second_factor_changed", {"change": "passkey_removed", "name": EVIL, "passkey": EVIL}, ["was removed from your"]),
    (
        "meeting_for_client",
        {"moved": False, "name": EVIL, "title": "Kick-off", "when": "Monday", "meeting_url": "https://meet.example/x"},
        ["A meeting has been scheduled for you:", "Join link: https://meet.example/x", f"{URL}/client-portal"],
    ),
    (
        "meeting_for_client",
        {"moved": True, "name": EVIL, "title": "Kick-off", "when": "Monday", "meeting_url": None},
        ["Your meeting has a new time:"],
    ),
    (
        "meeting_reminder",
        {
            "soon": False,
            "name": EVIL,
            "title": "Kick-off",
            "when": "Monday",
            "meeting_url": "https://meet.example/x",
            "portal_link": f"{URL}/client-portal?tab=meetings",
            "booked": False,
        },
        ["A reminder of your meeting in about 24 hours:", "Join link: https://meet.example/x", "?tab=meetings"],
    ),
    (
        "meeting_reminder",
        {
            "soon": True,
            "name": EVIL,
            "title": "Kick-off",
            "when": "Monday",
            "meeting_url": None,
            "portal_link": None,
            "booked": True,
        },
        ["Your meeting starts in about an hour:", "use the link in your booking confirmation"],
    ),
    (
        "message_digest",
        {
            "name": EVIL,
            "projects": [
                {
                    "name": EVIL,
                    "unread": 2,
                    "link": f"{URL}/client-portal?tab=projects&conversation=4",
                    "lines": [{"author": "Lee", "text": "Ready."}],
                },
                {"name": "App", "unread": 1, "link": f"{URL}/client-portal?tab=projects&conversation=5", "lines": []},
            ],
            "settings_link": f"{URL}/client-portal?tab=settings",
        },
        [": 2 unread", "Lee: Ready.", "Open the conversation: ", "conversation=5", "E-mail me about"],
    ),
    (
        "booking_for_booker",
        {**BOOKING, "change": "confirmed", "meeting_url": None, "manage_link": f"{URL}/booking/manage?t=1"},
        [
            "is booked.",
            "Your host will send you the link",
            f"To reschedule or cancel, open: {URL}/booking/manage",
            "open it to add the meeting to your calendar",
        ],
    ),
    (
        "booking_for_booker",
        {
            **BOOKING,
            "change": "cancelled",
            "by_booker": True,
            "meeting_url": "https://meet.example/x",
            "manage_link": None,
        },
        ["You cancelled your Intro call with", "on Monday, June 1", CANCEL_FILE],
    ),
    (
        "booking_for_booker",
        {**BOOKING, "change": "cancelled", "reason": "The host is ill", "meeting_url": None, "manage_link": None},
        ["cancelled your Intro call on Monday, June 1", "Reason: The host is ill", CANCEL_FILE, "book again:"],
    ),
    (
        "booking_for_booker",
        {
            **BOOKING,
            "change": "updated",
            "previous": "Friday, May 29 at 9:00 AM (UTC)",
            "meeting_url": "https://meet.example/x",
            "manage_link": f"{URL}/booking/manage?t=9",
        },
        [
            "has a new time.",
            "New time: Monday, June 1 at 10:00 AM (UTC) (30 minutes)\nIt was: Friday, May 29 at 9:00 AM (UTC)",
            "Links from our earlier e-mails about this meeting open it too.",
            "open it to move the meeting in your calendar",
        ],
    ),
    (
        "booking_for_organizer",
        {**BOOKING, **ORGANIZER, "change": "cancelled", "by_booker": True, "meeting_url": None},
        ["cancelled the Intro call on Monday, June 1", CANCEL_FILE],
    ),
    (
        "booking_for_organizer",
        {**BOOKING, **ORGANIZER, "change": "confirmed", "meeting_url": None},
        [
            "booked a meeting with you: Intro call.",
            "send ",
            "the link to join before the meeting",
            "add the meeting to your calendar",
        ],
    ),
    (
        "booking_for_organizer",
        {
            **BOOKING,
            "change": "updated",
            "meeting_url": "https://meet.example/x",
            "booker_email": "b@example.com",
            "booker_company": EVIL,
            "booker_notes": "Bring the plans.",
        },
        ["has a new time.", "Join: https://meet.example/x", "Booked by:", "Notes:\nBring the plans."],
    ),
    (
        "booking_confirm_request",
        {**BOOKING, "until": "10:15 AM", "confirm_link": f"{URL}/booking/confirm?t=2"},
        ["Please confirm your Intro call", "To confirm it, open: ", "until 10:15 AM."],
    ),
    (
        "newsletter_confirm",
        {"confirm_url": f"{URL}/newsletter/confirm?token=3", "days": 7},
        ["The link works for 7 days.", f"{URL}/newsletter/confirm?token=3"],
    ),
    (
        "inquiry_received",
        {"inquiry": _inquiry(company=EVIL), "echo": "Need a site.", "service": "Web Development", "budget": None},
        ["Service: Web Development\nNewsletter: Yes\n\nProject details:\nNeed a site.\n", "separate e-mail"],
    ),
    (
        "inquiry_for_staff",
        {"inquiry": _inquiry(phone="555-010-0100"), "service": None, "budget": "$10k"},
        ["Phone: 555-010-0100\nBudget: $10k\n", f"Open the inbox: {URL}/admin/inquiries"],
    ),
    (
        "client_cancelled",
        {
            "kind": "meeting",
            "name": "Kick-off",
            "client": EVIL,
            "client_email": "c@example.com",
            "when": "Monday",
            "reason": "Ill",
            "calendly": "",
        },
        ['cancelled the meeting "Kick-off".\nIt was scheduled for Monday.\nReason given: Ill\n\nDetails: '],
    ),
    (
        "application_for_hr",
        {"application": _application(), "name": f"{EVIL} Lee", "job_title": None, "job_code": "JOB-001"},
        ["applied for position JOB-001.", "LinkedIn: Not provided", "Files: resume (stored", "Application #7."],
    ),
    (
        "application_received",
        {"first_name": EVIL, "job_title": "Engineer", "job_code": None},
        ["Thank you for applying for Engineer at"],
    ),
    (
        "application_interview",
        {"first_name": EVIL, "job_title": "Senior Full-Stack Developer", "job_code": "JOB-001"},
        ["applying for the Senior Full-Stack Developer position at"],
    ),
    (
        "application_rejected",
        {"first_name": EVIL, "job_title": None, "job_code": None},
        ["Thank you for your interest at"],
    ),
    (
        "invoice_issued",
        {"name": EVIL, "number": "INV-0001", "total": Decimal("1234.5"), "due_date": date(2026, 7, 4)},
        ["Invoice INV-0001 for $1,234.50 is ready. It is due on July 4, 2026.\n\nView"],
    ),
    (
        "invoice_void",
        {"name": EVIL, "number": "INV-0001", "total": Decimal("1234.5"), "reason": "Billed twice"},
        ["Invoice INV-0001 for $1,234.50 has been voided", "Reason: Billed twice"],
    ),
    (
        "invoice_reminder",
        {"name": EVIL, "number": "INV-0002", "outstanding": Decimal("50"), "due_date": date(2026, 7, 4)},
        ["invoice INV-0002 was due on July 4, 2026 and $50.00 of it is still outstanding.", "?tab=invoices"],
    ),
    (
        "payment_receipt",
        {
            "name": EVIL,
            "number": "INV-0003",
            "amount": Decimal("40"),
            "paid_on": date(2026, 7, 5),
            "outstanding": Decimal("60"),
        },
        ["we received $40.00 for invoice INV-0003 on July 5, 2026.", "$60.00 of the invoice is still outstanding."],
    ),
    (
        "payment_receipt",
        {"name": EVIL, "number": "INV-0003", "amount": Decimal("60"), "paid_on": date(2026, 7, 6), "outstanding": 0},
        ["The invoice is now paid in full."],
    ),
    ("verification_code", {"name": EVIL, "code": "123456"}, ["Your verification code is 123456."]),
    ("registration_attempt", {}, [f"sign in at {URL}/client-portal", f"{URL}/forgot-password"]),
    (
        "password_link",
        {"reason": "account_created", "name": EVIL, "username": EVIL, "link": LINK, "within": "72 hours"},
        ["(username: <script>", "To set your password and sign in, open this link within 72 hours:\n" + LINK],
    ),
    (
        "password_link",
        {"reason": "staff_reset", "name": EVIL, "username": "x", "link": LINK, "within": "24 hours"},
        ["team started a password reset", "your password stays as it is."],
    ),
    (
        "password_reset_no_account",
        {"address": "nobody@example.com"},
        ["for nobody@example.com, but", f"{URL}/register."],
    ),
]


def test_meeting_letters_subjects_say_what_happened(session: Session) -> None:
    def subject(name: str, **kw: Any) -> str:
        extra = ORGANIZER if name == "booking_for_organizer" else {"manage_link": None}
        return letters.render(session, name, **{**BOOKING, "meeting_url": None, **extra, **kw}).subject

    assert (
        subject("booking_for_booker", change="cancelled") == "Cancelled: Intro call on Monday, June 1 at 10:00 AM (UTC)"
    )
    assert subject("booking_for_booker", change="updated").startswith("Moved: Intro call, now on Monday")
    assert subject("booking_for_booker", change="confirmed").startswith("Confirmed: Intro call on")
    assert subject("booking_for_organizer", change="cancelled").startswith(f"Cancelled: Intro call with {EVIL} on")
    cancelled = letters.render(
        session, "booking_for_booker", **{**BOOKING, "change": "cancelled", "meeting_url": None, "manage_link": None}
    )
    # A cancellation never asks to add the meeting to a calendar, nor offers a link to change it.
    assert "add the meeting" not in cancelled.text and "To reschedule or cancel" not in cancelled.text


def test_every_template_has_a_sample() -> None:
    assert {name for name, _, _ in SAMPLES} == set(letters.names())


@pytest.mark.parametrize(("name", "context", "says"), SAMPLES, ids=[s[0] for s in SAMPLES])
def test_each_letter_renders_both_parts(session: Session, name: str, context: dict[str, Any], says: list[str]) -> None:
    firm = company.profile(session)
    letter = letters.render(session, name, **context)
    assert letter.subject and "\n" not in letter.subject and letter.subject == letter.subject.strip()
    assert letter.text.endswith("\n") and not letter.text.startswith("\n") and "\n\n\n" not in letter.text
    for words in says:
        assert words in letter.text
    html = letter.html or ""
    assert html.startswith("<!DOCTYPE html>") and firm.name in html and "#172554" in html  # the layout, branded
    # What a visitor typed is text in the HTML, never markup; the text part keeps it as typed.
    assert "<script" not in html.lower() and "{{" not in html and "{%" not in html
    if EVIL in letter.text:
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # Every address in the text is a link in the HTML, to the same place.
    for address in re.findall(r"https?://\S+[^\s.,:;)]", letter.text):
        escaped = address.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        assert f'href="{escaped}"' in html, address


def test_the_html_keeps_the_text_and_adds_the_button(session: Session) -> None:
    link = f"{URL}/newsletter/confirm?token=t"
    letter = letters.render(session, "newsletter_confirm", confirm_url=link, days=7)
    html = letter.html or ""
    assert ">Confirm my subscription</a>" in html and html.count(f'href="{link}"') == 2  # in the text and the button
    assert "Please confirm that you would like to receive news" in html


def test_a_missing_variable_fails_instead_of_sending_a_blank(session: Session) -> None:
    with pytest.raises(UndefinedError, match="number"):
        letters.render(session, "invoice_issued", name="Ann", total=Decimal(1), due_date=None)
    with pytest.raises(UndefinedError, match="job_title"):
        letters.render(session, "application_interview", first_name="Ann")


def test_only_the_letters_module_writes_letters() -> None:
    """Services render their letters; none builds one from strings of its own (the old way: f-strings in services)."""
    app = Path(__file__).parents[2] / "app"
    writers = {p.relative_to(app).as_posix() for p in app.rglob("*.py") if re.search(r"\bLetter\(", p.read_text())}
    assert writers == {"services/platform/letters.py"}
    for p in app.rglob("*.py"):
        assert not re.search(r"enqueue\([^)]*\b(subject|text)=", p.read_text()), p


def test_a_sent_letter_is_multipart_with_both_parts(session: Session) -> None:
    user = f.user(session, first_name=EVIL)
    auth.issue_code(session, user)
    sink = SmtpSink().start()
    try:
        cfg = Settings(_env_file=None, smtp_host="127.0.0.1", smtp_port=sink.port, smtp_tls="none")  # type: ignore[call-arg]
        assert mail.deliver_pending(session, cfg=cfg) == 1
        [msg] = sink.messages
    finally:
        sink.stop()
    assert msg.get_content_type() == "multipart/alternative"
    plain, html = msg.get_body(("plain",)), msg.get_body(("html",))
    assert plain is not None and html is not None
    text = plain.get_content().replace("\r\n", "\n")  # lines end in CRLF on the wire
    assert f"Hello {EVIL},\n\nYour verification code is " in text and "It expires in 15 minutes." in text
    assert "&lt;script&gt;" in html.get_content() and "<script" not in html.get_content()
