"""Test data builders: small functions that create committed rows with sensible defaults."""

from __future__ import annotations

import io
import itertools
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pypdf import PdfReader
from sqlmodel import Session

from app.core.security import hash_password
from app.models.base import utcnow
from app.models.billing import Invoice, InvoiceItem
from app.models.careers import JobApplication, JobOpening
from app.models.commerce import Price, Product
from app.models.enums import EmployeeType, InvoiceStatus, MeetingStatus, Role
from app.models.inquiry import ContactInquiry, NewsletterSubscriber
from app.models.meeting import Meeting
from app.models.project import Organization, Project, ProjectMilestone
from app.models.user import User

PASSWORD = "Correct-horse-1"
_HASH = hash_password(PASSWORD)  # computed once: bcrypt is deliberately slow
_seq = itertools.count(1)


def user(
    s: Session,
    name: str | None = None,
    *,
    role: Role = Role.client,
    employee_type: EmployeeType | None = None,
    **kw: object,
) -> User:
    name = name or f"user{next(_seq)}"
    fields: dict[str, object] = {
        "email": f"{name.lower()}@example.com",
        "password_hash": _HASH,
        "is_verified": True,
        "profile_complete": True,
        **kw,
    }
    row = User(username=name, role=role, employee_type=employee_type, **fields)
    s.add(row)
    s.commit()
    s.refresh(row)
    return row


def project(s: Session, client: User, name: str = "Website", **kw: object) -> Project:
    row = Project(name=name, client_id=client.id, **kw)
    s.add(row)
    s.commit()
    s.refresh(row)
    return row


def milestone(s: Session, p: Project, title: str, order_index: int) -> ProjectMilestone:
    row = ProjectMilestone(project_id=p.id, title=title, order_index=order_index)  # type: ignore[arg-type]
    s.add(row)
    s.commit()
    return row


def invoice(
    s: Session,
    client: User,
    *,
    status: InvoiceStatus = InvoiceStatus.pending,
    items: list[tuple[str, int, str]] | None = None,
) -> Invoice:
    items = items or [("Design work", 10, "95.00"), ("Hosting setup", 1, "150.50")]
    subtotal = sum((Decimal(price) * qty for _, qty, price in items), Decimal("0"))
    tax = (subtotal * Decimal("0.07")).quantize(Decimal("0.01"))
    row = Invoice(
        invoice_number=f"INV-TEST-{next(_seq):04d}",
        client_id=client.id,
        status=status,
        description="Website build, phase 1",
        subtotal=subtotal,
        tax_amount=tax,
        total_amount=subtotal + tax,
        issue_date=date.today(),
        due_date=date.today() + timedelta(days=30),
    )
    s.add(row)
    s.commit()
    for desc, qty, price in items:
        s.add(
            InvoiceItem(
                invoice_id=row.id,
                description=desc,
                quantity=qty,
                unit_price=Decimal(price),
                amount=Decimal(price) * qty,
            )
        )  # type: ignore[arg-type]
    s.commit()
    s.refresh(row)
    return row


def meeting(
    s: Session, client: User, *, in_hours: float = 48, status: MeetingStatus = MeetingStatus.scheduled, **kw: object
) -> Meeting:
    start = utcnow() + timedelta(hours=in_hours)
    row = Meeting(
        title=kw.pop("title", "Kick-off call"),  # type: ignore[arg-type]
        start_time=start,
        end_time=start + timedelta(minutes=45),
        client_id=client.id,
        status=status,
        meeting_url="https://meet.example.com/abc",
        **kw,
    )
    s.add(row)
    s.commit()
    s.refresh(row)
    return row


def pdf_text(pdf: bytes) -> str:
    """The text drawn in a PDF, as a reader extracts it (pypdf follows the embedded fonts' Unicode maps)."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def one_of_each(s: Session, tag: str) -> dict[str, Any]:
    """One organization, inquiry, newsletter subscriber, product with a price, job opening and application (e.g.
    behind every path id)."""
    org = Organization(name=f"{tag} Org")
    inquiry = ContactInquiry(name="Pat", email="pat@example.com", message="Need a site")
    subscriber = NewsletterSubscriber(email=f"{tag.lower()}.reader@example.com", status="confirmed", source="footer")
    product = Product(name=f"{tag} product")
    job = JobOpening(title="Engineer", code="JOB-001", department="Dev", location="Remote", employment_type="Full-time")
    s.add_all([org, inquiry, subscriber, product, job])
    s.commit()
    assert product.id is not None
    price = Price(product_id=product.id, amount=10)
    application = JobApplication(
        job_opening_id=job.id,
        job_code="JOB-001",
        first_name="Pat",
        last_name="Lee",
        phone="+1 555 123 4567",
        email="pat.lee@example.com",
        resume_path="applications/missing.pdf",
        resume_filename="cv.pdf",
        resume_content_type="application/pdf",
    )
    s.add_all([price, application])
    s.commit()
    return {
        "organization": org,
        "inquiry": inquiry,
        "subscriber": subscriber,
        "product": product,
        "price": price,
        "application": application,
    }
