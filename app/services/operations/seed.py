"""Idempotent seeding: public site content always; demo accounts, catalogue and client data only outside production.

Every row is keyed on a natural key (slug, job code, username, invoice number, name or title). Rows that exist are
left exactly as they are, so staff edits survive a re-run; only what is missing is inserted. Child rows (milestones,
invoice items, prices) are created only together with their new parent, never added to an existing one.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlmodel import Session, SQLModel, col, select

from app.core.config import settings
from app.models import (
    ContactInquiry,
    Invoice,
    InvoiceItem,
    JobOpening,
    Meeting,
    MeetingType,
    Organization,
    PortfolioProject,
    Price,
    Product,
    Project,
    ProjectMember,
    ProjectMilestone,
    ProjectTimeEntry,
    Service,
    TeamMember,
    Testimonial,
    User,
)
from app.services.accounts.users import create_user, get_user_by_identifier
from app.services.billing.billing import number_used
from app.services.operations import demo_content as content

log = logging.getLogger(__name__)

CENT = Decimal("0.01")
PUBLIC_KINDS = ("services", "portfolio_projects", "testimonials", "team_members", "job_openings", "meeting_types")
ACCOUNT_KINDS = ("users", "products", "prices", "organizations", "inquiries")
CLIENT_KINDS = ("projects", "milestones", "time_entries", "invoices", "invoice_items", "meetings")


@dataclass(frozen=True)
class DemoCredential:
    role: str
    username: str
    email: str
    password: str


@dataclass
class SeedReport:
    created: dict[str, int] = field(default_factory=dict)  # rows inserted by this run, per kind
    credentials: list[DemoCredential] = field(default_factory=list)  # demo accounts present after the run
    with_accounts: bool = False

    @property
    def total_created(self) -> int:
        return sum(self.created.values())


def _id(row: Product | Project | Invoice) -> int:
    """The id a flush just gave `row` (the children added next need it)."""
    assert row.id is not None
    return row.id


def line_amount(quantity: int, unit_price: Decimal) -> Decimal:
    """An invoice line's amount, rounded to the cent."""
    return (unit_price * quantity).quantize(CENT, rounding=ROUND_HALF_UP)


def invoice_totals(amounts: Iterable[Decimal], tax_rate: Decimal) -> tuple[Decimal, Decimal, Decimal]:
    """Subtotal, tax and total of line amounts; tax is rounded once, on the subtotal."""
    subtotal = sum(amounts, Decimal("0.00")).quantize(CENT)
    tax = (subtotal * tax_rate).quantize(CENT, rounding=ROUND_HALF_UP)
    return subtotal, tax, subtotal + tax


def seed_demo(s: Session, *, with_accounts: bool) -> SeedReport:
    """Insert the demo content that is missing (accounts and client data only when with_accounts); commits."""
    kinds = PUBLIC_KINDS + (ACCOUNT_KINDS + CLIENT_KINDS if with_accounts else ())
    report = SeedReport(created=dict.fromkeys(kinds, 0), with_accounts=with_accounts)
    _seed_public(s, report)
    if not with_accounts:
        return report
    users = _seed_accounts(s, report)
    _seed_meeting_hosts(s, users)
    _seed_products(s, report)
    _seed_inquiries(s, report, users)
    client = users.get(content.DEMO_CLIENT.username)
    if client is not None:
        organizer = users.get(content.DEMO_ORGANIZER) or users.get(content.DEMO_ADMIN.username)
        _seed_client_data(s, report, client, organizer, users)
    return report


# --- public content ---------------------------------------------------------------------------------------------------


def _insert_missing(
    s: Session,
    report: SeedReport,
    kind: str,
    model: type[SQLModel],
    rows: Sequence[dict[str, Any]],
    key: Sequence[str],
    *,
    only_into_empty: bool = False,
) -> None:
    columns = [getattr(model, name) for name in key]
    found = s.exec(select(*columns)).all()
    if only_into_empty and found:
        return
    existing = {tuple(r) if len(key) > 1 else (r,) for r in found}
    for order, row in enumerate(rows):
        if tuple(row[name] for name in key) in existing:
            continue
        s.add(model(**row, sort_order=order))
        report.created[kind] += 1


def _seed_public(s: Session, report: SeedReport) -> None:
    # Public content is seeded into empty tables only: once staff edit the site, a content row they deleted or
    # renamed must not come back at the next `make run`.
    first = {"only_into_empty": True}
    _insert_missing(s, report, "services", Service, content.SERVICES, ["slug"], **first)
    _insert_missing(s, report, "portfolio_projects", PortfolioProject, content.PORTFOLIO_PROJECTS, ["title"], **first)
    testimonials = content.TESTIMONIALS + content.FEATURED_TESTIMONIALS
    _insert_missing(s, report, "testimonials", Testimonial, testimonials, ["name", "featured"], **first)
    _insert_missing(s, report, "team_members", TeamMember, content.TEAM_MEMBERS, ["name"], **first)
    _insert_missing(s, report, "job_openings", JobOpening, content.JOB_OPENINGS, ["code"], **first)
    # Booking is handled in-app, so the link points at this site, wherever PUBLIC_URL puts it.
    meeting_types = [
        {
            **row,
            "scheduling_url": f"{settings.public_url}/contact?meeting={row['slug']}",
            "availability": content.WEEKDAY_HOURS,
        }
        for row in content.MEETING_TYPES
    ]
    _insert_missing(s, report, "meeting_types", MeetingType, meeting_types, ["slug"], **first)
    s.commit()


# --- development-only data -------------------------------------------------------------------------------------------


def _seed_accounts(s: Session, report: SeedReport) -> dict[str, User]:
    users: dict[str, User] = {}
    for account in content.DEMO_ACCOUNTS:
        user = get_user_by_identifier(s, account.username)
        if user is None:
            if get_user_by_identifier(s, account.email) is not None:
                log.warning("Demo account %s skipped: %s belongs to another user", account.username, account.email)
                continue
            user = create_user(s, **asdict(account))
            report.created["users"] += 1
        elif user.email != account.email:
            # Someone else's account holds the demo username: never list a password that is not ours.
            log.warning("Demo account %s skipped: the username belongs to another user", account.username)
            continue
        users[account.username] = user
        report.credentials.append(DemoCredential(account.role, account.username, account.email, account.password))
    return users


def _seed_meeting_hosts(s: Session, users: dict[str, User]) -> None:
    """Demo meeting types nobody has set up yet (no organizer, no hours) get their host's account and weekday hours,
    so `make run` can book at once, also on a database seeded before booking existed."""
    by_name = {f"{u.first_name} {u.last_name}": u for u in users.values()}
    slugs = [row["slug"] for row in content.MEETING_TYPES]
    for t in s.exec(select(MeetingType).where(col(MeetingType.slug).in_(slugs))).all():
        if t.organizer_id is not None:
            continue
        host = by_name.get(t.host_name or "")
        t.organizer_id = host.id if host else None
        t.availability = t.availability or content.WEEKDAY_HOURS
        s.add(t)
    s.commit()


def _seed_products(s: Session, report: SeedReport) -> None:
    existing = set(s.exec(select(Product.name)).all())
    for row in content.DEMO_PRODUCTS:
        if row["name"] in existing:
            continue
        product = Product(**_without(row, "prices"))
        s.add(product)
        s.flush()  # assigns product.id for its prices
        for price in row["prices"]:
            s.add(Price(product_id=_id(product), **price))
            report.created["prices"] += 1
        report.created["products"] += 1
    s.commit()


def _seed_inquiries(s: Session, report: SeedReport, users: dict[str, User]) -> None:
    existing = {tuple(r) for r in s.exec(select(ContactInquiry.email, ContactInquiry.message)).all()}
    for row in content.DEMO_INQUIRIES:
        if (row["email"], row["message"]) in existing:
            continue
        assignee = users.get(row["assign_to"]) if row["assign_to"] else None
        s.add(ContactInquiry(**_without(row, "assign_to"), assigned_to=assignee.id if assignee else None))
        report.created["inquiries"] += 1
    s.commit()


def _without(row: dict[str, Any], *names: str) -> dict[str, Any]:
    """The row's model columns: everything but the named helper keys."""
    return {k: v for k, v in row.items() if k not in names}


def _day(today: date, offset: int | None) -> date | None:
    return None if offset is None else today + timedelta(days=offset)


def _seed_client_data(
    s: Session, report: SeedReport, client: User, organizer: User | None, users: dict[str, User]
) -> None:
    today = datetime.now(UTC).date()
    organization = _ensure_organization(s, report, client)
    projects = _seed_projects(s, report, client, organization, today, users)
    _seed_invoices(s, report, client, projects, today)
    _seed_meetings(s, report, client, projects, organizer, today)
    s.commit()


def _ensure_organization(s: Session, report: SeedReport, client: User) -> Organization:
    row = content.DEMO_ORGANIZATION
    organization = s.exec(select(Organization).where(Organization.name == row["name"])).first()
    if organization is None:
        organization = Organization(**row, primary_contact_id=client.id)
        s.add(organization)
        s.flush()
        report.created["organizations"] += 1
    return organization


def _seed_projects(
    s: Session, report: SeedReport, client: User, organization: Organization, today: date, users: dict[str, User]
) -> dict[str, Project]:
    """The client's projects by name, creating the missing demo ones (with their milestones and time entries)."""
    projects = {p.name: p for p in s.exec(select(Project).where(Project.client_id == client.id)).all()}
    for row in content.DEMO_PROJECTS:
        if row["name"] in projects:
            continue
        project = Project(
            **_without(row, "start_in_days", "end_in_days", "deadline_in_days", "milestones", "time_log"),
            client_id=client.id,
            organization_id=organization.id,
            start_date=_day(today, row["start_in_days"]),
            end_date=_day(today, row["end_in_days"]),
            deadline=_day(today, row["deadline_in_days"]),
        )
        s.add(project)
        s.flush()
        for index, milestone in enumerate(row["milestones"]):
            due = _day(today, milestone["due_in_days"])
            fields = _without(milestone, "due_in_days")
            s.add(ProjectMilestone(**fields, project_id=_id(project), due_date=due, order_index=index))
            report.created["milestones"] += 1
        team: set[uuid.UUID] = set()  # whoever logged hours is on the project's team (they log their own)
        for offset, hours, staff_type, note in row["time_log"]:
            author = users.get(f"staff_{staff_type}")
            if author is not None:
                team.add(author.id)
            work_date = _day(today, offset) or today
            entry = ProjectTimeEntry(
                project_id=_id(project), user_id=author.id if author else None, work_date=work_date,
                hours=Decimal(hours), note=note,
            )  # fmt: skip
            s.add(entry)
            project.actual_hours += entry.hours  # the sum of the entries, as time_entries keeps it
            report.created["time_entries"] += 1
        s.add_all(ProjectMember(project_id=_id(project), user_id=member) for member in sorted(team))
        projects[project.name] = project
        report.created["projects"] += 1
    return projects


def _seed_invoices(s: Session, report: SeedReport, client: User, projects: dict[str, Project], today: date) -> None:
    numbers = [row["invoice_number"] for row in content.DEMO_INVOICES]
    existing = set(s.exec(select(Invoice.invoice_number).where(col(Invoice.invoice_number).in_(numbers))).all())
    for row in content.DEMO_INVOICES:
        if row["invoice_number"] in existing:
            continue
        amounts = [line_amount(quantity, unit_price) for _, quantity, unit_price in row["items"]]
        subtotal, tax, total = invoice_totals(amounts, content.TAX_RATE)
        project = projects.get(row["project"])
        invoice = Invoice(
            **_without(row, "project", "items", "issue_in_days", "due_in_days", "paid_in_days"),
            client_id=client.id,
            project_id=project.id if project else None,
            subtotal=subtotal,
            tax_amount=tax,
            total_amount=total,
            issue_date=_day(today, row["issue_in_days"]),
            due_date=_day(today, row["due_in_days"]),
            paid_date=_day(today, row["paid_in_days"]),
        )
        s.add(invoice)
        s.flush()
        number_used(s, invoice.invoice_number)  # staff's next invoice follows the demo ones
        for (description, quantity, unit_price), amount in zip(row["items"], amounts, strict=True):
            line = {"description": description, "quantity": quantity, "unit_price": unit_price, "amount": amount}
            s.add(InvoiceItem(invoice_id=_id(invoice), **line))
            report.created["invoice_items"] += 1
        report.created["invoices"] += 1


def _seed_meetings(
    s: Session, report: SeedReport, client: User, projects: dict[str, Project], organizer: User | None, today: date
) -> None:
    existing = set(s.exec(select(Meeting.title).where(Meeting.client_id == client.id)).all())
    attendees = [client.email] + ([organizer.email] if organizer else [])
    for row in content.DEMO_MEETINGS:
        if row["title"] in existing:
            continue
        day = today + timedelta(days=row["starts_in_days"])
        start = datetime.combine(day, time(row["hour_utc"], tzinfo=UTC))
        project = projects.get(row["project"])
        meeting = Meeting(
            **_without(row, "project", "starts_in_days", "hour_utc", "duration_minutes"),
            start_time=start,
            end_time=start + timedelta(minutes=row["duration_minutes"]),
            attendees=attendees,
            organizer_id=organizer.id if organizer else None,
            client_id=client.id,
            project_id=project.id if project else None,
        )
        s.add(meeting)
        report.created["meetings"] += 1
