"""Company settings (issue 12, point 12): who may change them, what is refused, the audit entry, and that e-mails,
invoice PDFs and the business time zone follow a change."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import Conflict, Forbidden, Invalid
from app.models.billing import InvoiceItem
from app.models.enums import EmployeeType, Role
from app.models.system import AuditLog, CompanySettings, EmailOutbox
from app.models.user import User
from app.services.billing import invoice_pdf
from app.services.crm import contact
from app.services.platform import company
from app.services.projects import time_entries
from app.services.scheduling import booking_invite
from tests import factories as f

NEW = {
    "name": "Harbor Light Consulting",
    "email": "Hello@HarborLight.example",
    "sales_email": "deals@harborlight.example",
    "phone": "+1 (561) 555-0199",
    "address": "200 Ocean Blvd, Stuart, FL 34994",
    "linkedin_url": "https://www.linkedin.com/company/harbor-light",
    "twitter_url": "",
    "github_url": "https://github.com/harbor-light",
    "client_badges": "Jupiter Marine\n\n  Stuart   Dental  \nHobe Sound Realty",
    "business_timezone": "Europe/Paris",
}


def _admin(s: Session) -> Any:
    return f.user(s, "company_admin", role=Role.admin)


def test_until_saved_the_environment_applies(session: Session) -> None:
    got = company.read(session, actor=_admin(session))
    assert got == company.defaults()
    assert got.name == settings.company_name and got.business_timezone == settings.business_timezone


def test_an_admin_saves_them_with_an_audit_entry_of_what_changed(session: Session) -> None:
    admin = _admin(session)
    saved = company.update(session, actor=admin, data=NEW, ip="203.0.113.9")
    assert saved.email == "hello@harborlight.example"  # stored in its one normalised form
    assert saved.twitter_url is None  # left empty: the icon is hidden
    assert saved.client_badges == ("Jupiter Marine", "Stuart Dental", "Hobe Sound Realty")
    assert company.profile(session) == saved
    row = session.get(CompanySettings, 1)
    assert row is not None and row.updated_by == admin.id
    [entry] = session.exec(select(AuditLog).where(AuditLog.action == "company.update")).all()
    assert entry.actor_id == admin.id and entry.ip_address == "203.0.113.9"
    assert entry.details is not None
    assert entry.details["from"]["name"] == settings.company_name
    assert entry.details["to"]["name"] == "Harbor Light Consulting"
    assert "business_timezone" in entry.details["fields"]


def test_a_partial_save_keeps_the_rest_and_an_unchanged_save_is_not_audited(session: Session) -> None:
    admin = _admin(session)
    company.update(session, actor=admin, data={"phone": "(772) 555-0100"})
    got = company.profile(session)
    assert got.phone == "(772) 555-0100" and got.name == settings.company_name
    company.update(session, actor=admin, data={"phone": "(772) 555-0100"})
    entries = session.exec(select(AuditLog).where(AuditLog.action == "company.update")).all()
    assert len(entries) == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "   ", "Company name is required"),
        ("name", "x" * 121, "Company name must not exceed 120 characters"),
        ("email", "not-an-address", "Please enter a valid email address"),
        ("sales_email", "", "Please enter a valid email address"),
        ("phone", "call us", "Please enter a valid phone number"),
        ("phone", "555-0100", "Phone number must be at least 10 digits"),
        ("address", "", "Address is required"),
        ("linkedin_url", "http://linkedin.com/x", "LinkedIn link must be a full https:// address"),
        ("github_url", "https://github.com/a b", "GitHub link must be a full https:// address"),
        ("client_badges", "\n".join(f"Client {i}" for i in range(9)), "At most 8 client badges"),
        ("client_badges", "y" * 61, "A client badge must not exceed 60 characters"),
        ("client_badges", ["ok", 3], "Must be a list of text"),
        ("business_timezone", "Mars/Olympus", "Please choose a time zone from the list (e.g. New York)"),
        ("name", "Null\x00Corp", "Contains an invalid character"),
    ],
)
def test_bad_values_are_refused_by_name_and_change_nothing(
    session: Session, field: str, value: Any, message: str
) -> None:
    with pytest.raises(Invalid) as refused:
        company.update(session, actor=_admin(session), data={**NEW, field: value})
    assert refused.value.errors[field].startswith(message), refused.value.errors
    assert session.get(CompanySettings, 1) is None
    assert company.profile(session) == company.defaults()


@pytest.mark.parametrize("who", ["client", "developer", "hr"])
def test_only_holders_of_settings_manage_may_read_or_change_them(session: Session, who: str) -> None:
    actor = {
        "client": lambda: f.user(session, "company_client"),
        "developer": lambda: f.user(session, "company_dev", role=Role.employee, employee_type=EmployeeType.developer),
        "hr": lambda: f.user(session, "company_hr", role=Role.employee, employee_type=EmployeeType.hr),
    }[who]()
    with pytest.raises(Forbidden, match="You don't have permission to manage company settings"):
        company.update(session, actor=actor, data=NEW)
    with pytest.raises(Forbidden):
        company.read(session, actor=actor)
    assert session.get(CompanySettings, 1) is None


def test_a_granted_settings_manage_is_enough(session: Session) -> None:
    lead = f.user(
        session,
        "company_lead",
        role=Role.employee,
        employee_type=EmployeeType.marketing_lead,
        extra_permissions=["settings:manage"],
    )
    assert company.update(session, actor=lead, data={"name": "Granted Co"}).name == "Granted Co"


def test_mails_and_invoices_print_the_saved_details(session: Session) -> None:
    company.update(session, actor=_admin(session), data=NEW)
    contact.submit_inquiry(
        session,
        data={"name": "Dana Visitor", "email": "dana@example.com", "message": "We need a new website for our shop."},
        ip="198.51.100.7",
    )
    ack = session.exec(
        select(EmailOutbox).where(EmailOutbox.to_address == "dana@example.com").order_by(col(EmailOutbox.id))
    ).first()
    assert ack is not None
    assert ack.subject == "Thank you for contacting Harbor Light Consulting"
    assert "hello@harborlight.example" in ack.body_text and "+1 (561) 555-0199" in ack.body_text

    client = f.user(session, "company_invoice_client")
    inv = f.invoice(session, client)
    items = list(session.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == inv.id)))
    text = f.pdf_text(invoice_pdf.render(inv, items, client, company=company.profile(session)))
    for expected in ("Harbor Light Consulting", "200 Ocean Blvd, Stuart, FL 34994", "hello@harborlight.example"):
        assert expected in text, text
    assert settings.company_name not in text


def test_the_business_time_zone_follows_a_save(session: Session) -> None:
    assert booking_invite.zone().key == settings.business_timezone
    company.update(session, actor=_admin(session), data={"business_timezone": "Asia/Tokyo"})
    assert booking_invite.zone().key == "Asia/Tokyo"  # this process's copy is refreshed by the save
    assert time_entries.business_today() == datetime.now(ZoneInfo("Asia/Tokyo")).date()
    admin = session.exec(select(User).where(User.role == Role.admin)).first()
    company.update(session, actor=admin, data={"business_timezone": "US/Eastern"})  # a legacy alias
    assert company.read(session, actor=admin).business_timezone == "America/New_York"  # kept as the zone


def test_two_first_saves_at_once_refuse_the_second_and_keep_the_first(
    engine: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both find no row and insert id 1: the database keeps one, the other is told to reload (409), not a 500."""
    with Session(engine) as setup:
        admin_id = f.user(setup, "company_race_admin", role=Role.admin).id
    first, second = Session(engine), Session(engine)
    try:
        company.update(first, actor=first.get(User, admin_id), data={"name": "First Co"})
        actor = second.get(User, admin_id)
        real_get = second.get
        # The second save looked before the first one committed: it finds no row.
        monkeypatch.setattr(
            second, "get", lambda model, key: None if model is CompanySettings else real_get(model, key)
        )
        with pytest.raises(Conflict):
            company.update(second, actor=actor, data={"name": "Second Co"})
        monkeypatch.undo()
        assert company.profile(second).name == "First Co"
    finally:
        first.close()
        second.close()
        with Session(engine) as cleanup:
            for row in cleanup.exec(select(CompanySettings)).all():
                cleanup.delete(row)
            for entry in cleanup.exec(select(AuditLog).where(AuditLog.action == "company.update")).all():
                cleanup.delete(entry)
            cleanup.delete(cleanup.get(User, admin_id))
            cleanup.commit()


def test_line_breaks_in_one_line_details_become_spaces(session: Session) -> None:
    """The address is one line in the footer and one cell of the invoice PDF; the name is a mail subject's part."""
    saved = company.update(
        session, actor=_admin(session), data={"address": "200 Ocean Blvd\r\nStuart, FL 34994", "name": "Harbor\nLight"}
    )
    assert saved.address == "200 Ocean Blvd Stuart, FL 34994"
    assert saved.name == "Harbor Light"
