"""seed_demo: idempotent, public content per the spec, demo accounts and client data only when asked for.

Seeding hashes 13 bcrypt passwords (about 4 s), so one module-scoped run serves every test: public content only, then
twice with accounts, all inside one outer transaction that is rolled back at the end. Tests here only read, or undo
what they change, and never use the per-test `session` fixture: its separate connection would wait on this
transaction's uncommitted unique keys.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

from app.core.config import settings
from app.core.permissions import EmployeeType, Role
from app.core.security import verify_password
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
    ProjectMilestone,
    ProjectTimeEntry,
    Service,
    TeamMember,
    User,
)
from app.models import content as content_models  # `Testimonial` itself would look like a test class to pytest
from app.services.billing import billing
from app.services.operations import demo_content as content
from app.services.operations.seed import ACCOUNT_KINDS, CLIENT_KINDS, PUBLIC_KINDS, SeedReport, seed_demo

TABLES: dict[str, type[SQLModel]] = {
    "services": Service,
    "portfolio_projects": PortfolioProject,
    "testimonials": content_models.Testimonial,
    "team_members": TeamMember,
    "job_openings": JobOpening,
    "meeting_types": MeetingType,
    "users": User,
    "products": Product,
    "prices": Price,
    "organizations": Organization,
    "inquiries": ContactInquiry,
    "projects": Project,
    "milestones": ProjectMilestone,
    "time_entries": ProjectTimeEntry,
    "invoices": Invoice,
    "invoice_items": InvoiceItem,
    "meetings": Meeting,
}
PUBLIC_COUNTS = {
    "services": 6,
    "portfolio_projects": 5,
    "testimonials": 13,
    "team_members": 4,
    "job_openings": 4,
    "meeting_types": 3,
}
ACCOUNT_COUNTS = {
    "users": 13,  # admin, one employee per type (11), the demo client
    "products": 3,
    "prices": 3,
    "organizations": 1,
    "inquiries": 2,
    "projects": 3,
    "milestones": 4,
    "time_entries": 34,
    "invoices": 3,
    "invoice_items": 8,
    "meetings": 2,
}
CENT = Decimal("0.01")


def _counts(s: Session) -> dict[str, int]:
    return {kind: s.exec(select(func.count()).select_from(model)).one() for kind, model in TABLES.items()}


@dataclass
class Runs:
    s: Session
    before: dict[str, int]
    public_only: SeedReport
    after_public_only: dict[str, int]
    first: SeedReport
    after_first: dict[str, int]
    second: SeedReport
    after_second: dict[str, int]


@pytest.fixture(scope="module")
def runs(engine: Engine) -> Iterator[Runs]:
    conn = engine.connect()
    outer = conn.begin()
    s = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
    try:
        before = _counts(s)
        public_only = seed_demo(s, with_accounts=False)
        after_public_only = _counts(s)
        first = seed_demo(s, with_accounts=True)
        after_first = _counts(s)
        second = seed_demo(s, with_accounts=True)
        yield Runs(s, before, public_only, after_public_only, first, after_first, second, _counts(s))
    finally:
        s.close()
        outer.rollback()
        conn.close()


def _delta(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    return {kind: after[kind] - before[kind] for kind in after}


# --- runs and idempotency ---------------------------------------------------------------------------------------------


def test_without_accounts_only_public_content_is_created(runs: Runs) -> None:
    assert runs.public_only.created == PUBLIC_COUNTS
    assert not runs.public_only.credentials
    delta = _delta(runs.after_public_only, runs.before)
    assert {k: v for k, v in delta.items() if v} == PUBLIC_COUNTS
    assert delta["users"] == 0


def test_with_accounts_adds_accounts_and_client_data_but_no_second_copy_of_public_content(runs: Runs) -> None:
    assert set(runs.first.created) == set(PUBLIC_KINDS + ACCOUNT_KINDS + CLIENT_KINDS)
    assert all(runs.first.created[kind] == 0 for kind in PUBLIC_KINDS)
    assert {kind: runs.first.created[kind] for kind in ACCOUNT_COUNTS} == ACCOUNT_COUNTS
    assert _delta(runs.after_first, runs.after_public_only) == dict.fromkeys(PUBLIC_COUNTS, 0) | ACCOUNT_COUNTS


def test_running_again_creates_nothing_and_still_lists_the_accounts(runs: Runs) -> None:
    assert runs.second.total_created == 0
    assert runs.after_second == runs.after_first
    assert runs.second.credentials == runs.first.credentials


def test_credentials_list_every_demo_account(runs: Runs) -> None:
    creds = {c.username: c for c in runs.first.credentials}
    assert len(creds) == 13
    assert (creds["admin"].role, creds["admin"].password) == (Role.admin, "Admin-demo-2026")
    assert (creds["democlient"].role, creds["democlient"].password) == (Role.client, "Client-demo-2026")
    for t in EmployeeType:
        assert creds[f"staff_{t.value}"].password == "Staff-demo-2026"


def test_staff_edits_and_deletions_of_public_content_survive_a_rerun(runs: Runs) -> None:
    s = runs.s
    service = s.exec(select(Service).where(Service.slug == "web-development")).one()
    job = s.exec(select(JobOpening).where(JobOpening.code == "JOB-004")).one()
    job_data = job.model_dump(exclude={"id"})
    original_title = service.title
    service.title = "Web Apps (edited by staff)"
    s.add(service)
    s.delete(job)
    s.commit()
    try:
        report = seed_demo(s, with_accounts=False)
        assert report.total_created == 0  # a deleted opening stays deleted
        s.refresh(service)
        assert service.title == "Web Apps (edited by staff)"
        assert s.exec(select(JobOpening).where(JobOpening.code == "JOB-004")).first() is None
    finally:
        service.title = original_title
        s.add(service)
        s.add(JobOpening(**job_data))
        s.commit()
    assert _counts(s) == runs.after_first


# --- public content ---------------------------------------------------------------------------------------------------


def test_services_follow_the_spec(runs: Runs) -> None:
    services = {sv.slug: sv for sv in runs.s.exec(select(Service)).all()}
    ordered = sorted(services.values(), key=lambda sv: sv.sort_order)
    assert [sv.slug for sv in ordered] == [
        "bi-reports",
        "web-development",
        "website-hosting",
        "mobile-development",
        "database-design",
        "digital-transformation",
    ]
    assert [slug for slug, sv in services.items() if sv.popular] == ["web-development"]
    assert services["web-development"].features == [
        "React & Next.js",
        "E-commerce",
        "CMS Integration",
        "API Development",
    ]
    assert services["website-hosting"].features == [
        "99.9% Uptime Guarantee",
        "Global CDN",
        "Auto-scaling",
        "HTTPS/SSL Certificates",
        "24/7 Monitoring",
    ]
    assert services["mobile-development"].features == [
        "iOS & Android",
        "React Native",
        "App Store Deployment",
        "Maintenance",
    ]
    assert services["database-design"].features == [
        "Schema Design",
        "Performance Tuning",
        "Data Migration",
        "Backup Solutions",
    ]
    assert services["digital-transformation"].features == [
        "Process Automation",
        "Legacy Modernization",
        "Training",
        "Support",
    ]
    # The spec records the BI card's copy of the mobile list as a defect: BI has its own features.
    bi = services["bi-reports"]
    assert not set(bi.features) & set(services["mobile-development"].features)
    assert "Power BI Dashboards" in bi.features
    assert {sv.icon for sv in services.values()} == {
        "bar-chart-3",
        "code",
        "server",
        "smartphone",
        "database",
        "rocket",
    }


def test_portfolio_has_two_live_projects_and_an_empty_category(runs: Runs) -> None:
    projects = runs.s.exec(select(PortfolioProject)).all()
    assert len(projects) == 5
    live = [p for p in projects if p.is_live]
    assert len(live) == 2
    assert all(p.link and p.link.startswith("https://") and ".example.com" in p.link for p in live)
    assert all(p.link is None for p in projects if not p.is_live)
    categories = {p.category for p in projects}
    assert categories <= set(content.PORTFOLIO_CATEGORIES)
    assert set(content.PORTFOLIO_CATEGORIES) - categories  # some filter shows "Be Our First"
    assert all(p.tags and p.image is None for p in projects)


def test_testimonials_ten_rated_and_three_featured(runs: Runs) -> None:
    rows = runs.s.exec(select(content_models.Testimonial)).all()
    regular = [t for t in rows if not t.featured]
    featured = [t for t in rows if t.featured]
    assert len(regular) == 10 and len(featured) == 3
    for t in regular:
        assert 4 <= t.rating <= 5 and t.verified and t.text
        assert t.date is not None and dt.date(2025, 1, 1) <= t.date <= dt.date(2026, 12, 31)
    assert all(t.role and t.company and t.rating == 5 for t in featured)


def test_team_and_jobs(runs: Runs) -> None:
    team = runs.s.exec(select(TeamMember)).all()
    assert len(team) == 4 and all(m.name and m.role and m.bio and m.skills for m in team)
    jobs = {j.code: j for j in runs.s.exec(select(JobOpening)).all()}
    expected = {
        "JOB-001": ("Senior Full-Stack Developer", "Engineering", "$120k - $160k"),
        "JOB-002": ("UI/UX Designer", "Design", "$90k - $120k"),
        "JOB-003": ("DevOps Engineer", "Engineering", "$110k - $140k"),
        "JOB-004": ("Junior Developer", "Engineering", "$70k - $90k"),
    }
    assert {code: (j.title, j.department, j.salary) for code, j in jobs.items()} == expected
    assert jobs["JOB-001"].location == "Remote / San Francisco"
    assert jobs["JOB-004"].location == "San Francisco"
    for job in jobs.values():
        assert job.employment_type == "Full-time" and job.is_active
        assert job.location and job.description and job.requirements and job.benefits


def test_meeting_types_book_on_this_site(runs: Runs) -> None:
    types = {m.slug: m for m in runs.s.exec(select(MeetingType)).all()}
    assert {slug: m.duration_minutes for slug, m in types.items()} == {
        "free-consultation": 30,
        "project-discovery-call": 60,
        "technical-review": 45,
    }
    for slug, m in types.items():
        assert m.scheduling_url == f"{settings.public_url}/contact?meeting={slug}"
        assert m.host_name and m.description and m.is_active


# --- demo accounts and client data ------------------------------------------------------------------------------------


def _user(s: Session, username: str) -> User:
    return s.exec(select(User).where(User.username == username)).one()


def test_demo_accounts_have_the_listed_roles_and_passwords(runs: Runs) -> None:
    s = runs.s
    admin = _user(s, "admin")
    assert (admin.role, admin.email, admin.employee_type) == (Role.admin, "admin@example.com", None)
    assert verify_password("Admin-demo-2026", admin.password_hash)
    for t in EmployeeType:
        staff = _user(s, f"staff_{t.value}")
        assert (staff.role, staff.employee_type, staff.email) == (Role.employee, t, f"{t.value}@example.com")
        assert staff.first_name and staff.last_name and staff.is_verified
    assert verify_password("Staff-demo-2026", _user(s, "staff_hr").password_hash)
    client = _user(s, "democlient")
    assert (client.role, client.email, client.company) == (Role.client, "client@example.com", "Harbor Dental Group")
    assert client.phone and client.is_verified and client.profile_complete
    assert verify_password("Client-demo-2026", client.password_hash)


def test_demo_client_projects(runs: Runs) -> None:
    client = _user(runs.s, "democlient")
    projects = {p.status: p for p in runs.s.exec(select(Project).where(Project.client_id == client.id)).all()}
    assert set(projects) == {"in_progress", "planning", "completed"}
    active = projects["in_progress"]
    assert active.progress_percentage == 60 and active.deadline is not None
    assert all(isinstance(p.budget, Decimal) and p.budget > 0 for p in projects.values())
    org = runs.s.get(Organization, active.organization_id)
    assert org is not None and org.primary_contact_id == client.id
    milestones = runs.s.exec(select(ProjectMilestone).where(ProjectMilestone.project_id == active.id)).all()
    assert len(milestones) == 4
    assert {m.status for m in milestones} == {"completed", "in_progress", "pending"}
    for project in projects.values():  # actual hours are the demo staff's time entries, as time tracking keeps them
        entries = runs.s.exec(select(ProjectTimeEntry).where(ProjectTimeEntry.project_id == project.id)).all()
        assert project.actual_hours == sum((e.hours for e in entries), Decimal(0))
        assert all(e.user_id is not None and e.work_date <= dt.date.today() for e in entries)
    assert (active.actual_hours, projects["completed"].actual_hours, projects["planning"].actual_hours) == (128, 116, 0)


def test_demo_invoices_add_up_to_the_cent(runs: Runs) -> None:
    client = _user(runs.s, "democlient")
    invoices = runs.s.exec(select(Invoice).where(Invoice.client_id == client.id)).all()
    assert sorted(i.invoice_number for i in invoices) == ["INV-2026-0001", "INV-2026-0002", "INV-2026-0003"]
    assert {i.status for i in invoices} == {"paid", "pending", "draft"}
    for invoice in invoices:
        items = runs.s.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice.id)).all()
        assert items
        for item in items:
            assert item.amount == (item.unit_price * item.quantity).quantize(CENT)
        subtotal = sum((item.amount for item in items), Decimal("0"))
        tax = (subtotal * Decimal("0.07")).quantize(CENT, rounding=ROUND_HALF_UP)
        assert (invoice.subtotal, invoice.tax_amount, invoice.total_amount) == (subtotal, tax, subtotal + tax)
        assert (invoice.paid_date is not None) == (invoice.status == "paid")
    # Staff's next invoice follows the demo ones (later still when the tests that commit have numbered some).
    assert int(billing._next_number(runs.s, 2026).removeprefix("INV-2026-")) >= 4


def test_demo_meetings_one_upcoming_one_past(runs: Runs) -> None:
    client = _user(runs.s, "democlient")
    meetings = runs.s.exec(select(Meeting).where(Meeting.client_id == client.id)).all()
    now = dt.datetime.now(dt.UTC)
    upcoming = [m for m in meetings if m.start_time > now]
    past = [m for m in meetings if m.start_time < now]
    assert len(upcoming) == 1 and len(past) == 1
    assert upcoming[0].status == "scheduled" and upcoming[0].meeting_url
    assert past[0].status == "completed"
    for m in meetings:
        assert m.start_time.tzinfo is not None and m.end_time > m.start_time
        assert client.email in m.attendees


def test_demo_catalogue_and_inquiries(runs: Runs) -> None:
    products = runs.s.exec(select(Product)).all()
    assert len({p.category for p in products}) == 3
    for product in products:
        prices = runs.s.exec(select(Price).where(Price.product_id == product.id)).all()
        assert len(prices) == 1 and prices[0].amount > 0 and prices[0].currency == "usd"
    inquiries = runs.s.exec(select(ContactInquiry)).all()
    assert len(inquiries) == 2
    assigned = [i for i in inquiries if i.assigned_to is not None]
    assert len(assigned) == 1 and assigned[0].assigned_to == _user(runs.s, "staff_sales_lead").id


# --- the data module itself -------------------------------------------------------------------------------------------

# Helper keys the seeder resolves itself; every other key must be a column, since SQLModel drops unknown ones silently.
HELPER_KEYS = {"time_log", "milestones", "items", "prices", "project", "assign_to", "hour_utc", "duration_minutes"}


@pytest.mark.parametrize(
    ("rows", "model"),
    [
        (content.SERVICES, Service),
        (content.PORTFOLIO_PROJECTS, PortfolioProject),
        (content.TESTIMONIALS + content.FEATURED_TESTIMONIALS, content_models.Testimonial),
        (content.TEAM_MEMBERS, TeamMember),
        (content.JOB_OPENINGS, JobOpening),
        (content.MEETING_TYPES, MeetingType),
        ([content.DEMO_ORGANIZATION], Organization),
        (content.DEMO_PROJECTS, Project),
        ([m for p in content.DEMO_PROJECTS for m in p["milestones"]], ProjectMilestone),
        (content.DEMO_INVOICES, Invoice),
        (content.DEMO_MEETINGS, Meeting),
        (content.DEMO_INQUIRIES, ContactInquiry),
        (content.DEMO_PRODUCTS, Product),
        ([p for row in content.DEMO_PRODUCTS for p in row["prices"]], Price),
    ],
)
def test_content_keys_are_model_columns(rows: list[dict[str, Any]], model: type[SQLModel]) -> None:
    columns = set(model.model_fields)
    for row in rows:
        unknown = {k for k in row if k not in columns and k not in HELPER_KEYS and not k.endswith("_in_days")}
        assert not unknown, f"{model.__name__}: {unknown}"
