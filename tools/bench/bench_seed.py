"""Bulk data for the admin benchmark (tools/bench/bench_admin.py): realistic rows written with PostgreSQL COPY.

The tables must exist already (the project's migrations) and `python -m app.cli seed-demo` must have run: the demo
staff, the demo client, the job openings and the meeting types are looked up and used. Nothing here goes through the
services: 100,000 inquiries take seconds this way instead of minutes. The values respect the tables' CHECK
constraints and lengths, so a schema change that breaks them fails loudly here instead of producing odd data.

    python tools/bench/bench_seed.py postgresql://postgres@127.0.0.1:5432/bench_admin --scale 0.05
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import bcrypt
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a file: the app package is at the checkout's root
from app.services.billing.reminders import FIRST_AFTER, REMIND_EVERY, REMINDERS_MAX

# Full-size counts (the structure issue's "Show it"); --scale multiplies them.
FULL = {"users": 10_000, "inquiries": 100_000, "invoices": 20_000, "applications": 10_000, "meetings": 5_000}
# Shares of the bulk users; the rest are clients.
ADMIN_SHARE, EMPLOYEE_SHARE = 0.001, 0.029
# The demo client ("democlient") gets this share of the invoices and meetings: one large customer for the portal.
DEMO_CLIENT_SHARE = 0.01
DEMO_CLIENT = "democlient"

EMPLOYEE_TYPES = [
    "founder", "coo", "cfo", "cto", "developer", "marketing_lead", "sales_lead", "product_manager",
    "customer_support", "hr", "legal",
]  # fmt: skip
FIRST = [
    "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William",
    "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen", "Daniel", "Lisa",
    "Matthew", "Nancy", "Anthony", "Betty", "Mark", "Sandra", "Wei", "Ashley", "Steven", "Kimberly", "Paul", "Emily",
    "Andrew", "Donna", "Joshua", "Michelle", "Kenji", "Carol", "Kevin", "Amanda", "Brian", "Priya", "George", "Melissa",
    "Timothy", "Deborah", "Ronald", "Fatima", "Jason", "Rebecca", "Edward", "Sharon", "Jeffrey", "Laura", "Ryan",
    "Cynthia", "Jacob", "Olga", "Diego", "Amy", "Nicholas", "Angela", "Eric", "Helen", "Jonathan", "Anna", "Samuel",
    "Brenda", "Chinedu", "Pamela", "Mohammed", "Nicole", "Hiroshi", "Emma", "Luis", "Samantha", "Raj", "Katherine",
]  # fmt: skip
LAST = [
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
    "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee",
    "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young",
    "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker",
    "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Okafor", "Tanaka", "Patel", "Kowalski", "Müller",
    "O'Brien", "Schmidt", "Rossi", "Dubois", "Novak", "Silva", "Kim", "Chen", "Singh", "Haddad", "Ivanova",
]  # fmt: skip
COMPANY_A = [
    "Harbor", "Sunrise", "Coastal", "Summit", "Pinecrest", "Bayview", "Lighthouse", "Evergreen", "Riverside",
    "Keystone", "Blue Heron", "Palmetto", "Granite", "Northstar", "Silverline", "Oakridge", "Seaside", "Cypress",
]  # fmt: skip
COMPANY_B = [
    "Dental Group", "Logistics", "Veterinary Clinic", "Realty", "Law Firm", "Accounting", "Marine Supply", "Bakery",
    "Fitness", "Construction", "Insurance Agency", "Medical Center", "Brewing Co.", "Auto Repair", "Architects",
    "Consulting", "Outfitters", "Property Management", "Pharmacy", "Academy",
]  # fmt: skip
DOMAINS = ["example.com", "example.org", "example.net", "mail.example.com", "corp.example.com"]
SERVICES = ["web-development", "cloud-solutions", "database-design", "digital-transformation", "other"]
BUDGETS = ["under-1.2k", "1.2k-3k", "3k-5k", "5k-10k", "10k-plus", "discuss"]
NEEDS = [
    "a new website with online booking for our clients",
    "help moving our file server and e-mail to the cloud",
    "a review of our customer database, which has become slow",
    "an online store connected to our inventory system",
    "a client portal where customers can see their orders and invoices",
    "a mobile-friendly redesign of our ten-year-old site",
    "reporting dashboards over our sales and support data",
    "automating the paperwork between our front desk and accounting",
    "a secure intranet for 40 staff across two offices",
    "integration between our CRM and our scheduling tool",
]  # fmt: skip
MESSAGE_TAIL = [
    "Could you send a quote and a rough timeline?",
    "We would like to start next quarter if the budget allows.",
    "Please call me in the afternoon; mornings are busy at the shop.",
    "We have a small in-house team but no developer.",
    "Our current vendor is retiring, so we are looking for a long-term partner.",
    "A call this week would be ideal.",
]  # fmt: skip
NOTES = [
    "Left a voicemail; follow up Thursday.",
    "Sent the discovery questionnaire.",
    "Quote sent, waiting for the client's board.",
    "Duplicate of an earlier request; merged.",
    "Budget too small for the scope; referred to the starter package.",
    None, None, None,
]  # fmt: skip
LINE_ITEMS = [
    ("Discovery workshop", 600, 1800),
    ("UX design (hours)", 85, 140),
    ("Front-end development (hours)", 90, 150),
    ("Back-end development (hours)", 95, 160),
    ("Database migration", 1200, 6000),
    ("Cloud hosting (monthly)", 49, 400),
    ("Managed backups (monthly)", 25, 120),
    ("Security review", 900, 3500),
    ("Support retainer (monthly)", 300, 1500),
    ("Training session", 250, 900),
    ("Domain and SSL renewal", 20, 90),
    ("Content migration", 400, 2500),
]  # fmt: skip
INVOICE_DESCRIPTIONS = [
    "Website redesign: phase {n}",
    "Monthly hosting and support",
    "Cloud migration milestone {n}",
    "Database optimisation",
    "Maintenance retainer",
    "Custom reporting dashboards",
    "Online booking integration",
]  # fmt: skip
MEETING_TITLES = [
    "Discovery call with {company}",
    "Project kickoff: {company}",
    "Design review with {company}",
    "Sprint demo for {company}",
    "Quarterly review: {company}",
    "Support check-in with {company}",
]  # fmt: skip
LOCATIONS = ["Video call", "Client office", "Our office, Stuart FL", "Phone"]
COVER_NOTES = [
    "Strong portfolio; schedule a technical interview.",
    "Relocating in spring; open to remote.",
    "Referred by a current employee.",
    None, None, None, None,
]  # fmt: skip


@dataclass
class Context:
    rng: random.Random
    now: datetime
    staff_ids: list[uuid.UUID]  # every staff account (demo and bulk)
    staff_emails: list[str]
    clients: list[tuple[uuid.UUID, str, str]]  # (id, e-mail, company) of bulk clients
    demo_client: tuple[uuid.UUID, str, str] | None
    openings: list[tuple[int, str]]  # (id, code)
    meeting_types: list[str]


def scaled(name: str, scale: float) -> int:
    return max(1, round(FULL[name] * scale))


def _when(ctx: Context, days_back: int, days_ahead: int = 0) -> datetime:
    """A timestamp in [now - days_back, now + days_ahead], during office hours (UTC)."""
    day = ctx.now - timedelta(days=ctx.rng.randint(-days_ahead, days_back))
    when = day.replace(hour=ctx.rng.randint(12, 22), minute=ctx.rng.choice((0, 15, 30, 45)), second=0, microsecond=0)
    return when - timedelta(days=1) if not days_ahead and when > ctx.now else when


def _person(rng: random.Random) -> tuple[str, str]:
    return rng.choice(FIRST), rng.choice(LAST)


def _company(rng: random.Random) -> str:
    return f"{rng.choice(COMPANY_A)} {rng.choice(COMPANY_B)}"


def _phone(rng: random.Random) -> str:
    return f"({rng.randint(201, 989)}) 555-{rng.randint(0, 9999):04d}"


def _slug(text: str) -> str:
    return "".join(c for c in text.lower() if c.isascii() and c.isalnum())


def _client(ctx: Context) -> tuple[uuid.UUID, str, str]:
    """A bulk client, or (for DEMO_CLIENT_SHARE of the rows) the demo client."""
    if ctx.demo_client and ctx.rng.random() < DEMO_CLIENT_SHARE:
        return ctx.demo_client
    return ctx.rng.choice(ctx.clients)


def _copy(conn: psycopg.Connection, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    count = 0
    with conn.cursor() as cur, cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


# --- users ------------------------------------------------------------------------------------------------------------

USER_COLUMNS = (
    "id", "username", "email", "password_hash", "role", "employee_type", "first_name", "last_name", "phone", "company",
    "is_verified", "profile_complete", "extra_permissions", "revoked_permissions", "created_at", "updated_at",
)  # fmt: skip


def _users(ctx: Context, count: int, password_hash: str) -> Iterable[tuple[Any, ...]]:
    admins = max(1, round(count * ADMIN_SHARE)) if count >= 100 else 0
    employees = max(1, round(count * EMPLOYEE_SHARE)) if count >= 20 else 0
    for i in range(count):
        role = "admin" if i < admins else "employee" if i < admins + employees else "client"
        first, last = _person(ctx.rng)
        handle = f"{_slug(first)}.{_slug(last)}{i}"
        user_id = uuid.UUID(int=ctx.rng.getrandbits(128), version=4)
        email = f"{handle}@{ctx.rng.choice(DOMAINS)}"
        company = _company(ctx.rng) if role == "client" and ctx.rng.random() < 0.8 else None
        created = _when(ctx, 3 * 365)
        if role == "client":
            ctx.clients.append((user_id, email, company or f"{first} {last}"))
        else:
            ctx.staff_ids.append(user_id)
            ctx.staff_emails.append(email)
        yield (
            user_id, handle[:30], email, password_hash, role,
            ctx.rng.choice(EMPLOYEE_TYPES) if role == "employee" else None,
            first, last, _phone(ctx.rng) if ctx.rng.random() < 0.7 else None, company,
            ctx.rng.random() < 0.92, ctx.rng.random() < 0.85, "[]", "[]", created, created,
        )  # fmt: skip


# --- inquiries --------------------------------------------------------------------------------------------------------

INQUIRY_COLUMNS = (
    "name", "email", "company", "phone", "service_type", "budget", "message", "newsletter", "status", "priority",
    "assigned_to", "notes", "is_spam", "created_at", "updated_at",
)  # fmt: skip


def _inquiries(ctx: Context, count: int) -> Iterable[tuple[Any, ...]]:
    rng = ctx.rng
    for _ in range(count):
        first, last = _person(rng)
        company = _company(rng) if rng.random() < 0.75 else None
        created = _when(ctx, 3 * 365)
        age_days = (ctx.now - created).days
        status = (
            rng.choices(("new", "in_progress"), (3, 2))[0]
            if age_days < 14
            else rng.choices(("new", "in_progress", "resolved", "closed"), (1, 2, 5, 4))[0]
        )
        spam = rng.random() < 0.03
        message = (
            f"Hello, we are {company or 'a small business'} and need {rng.choice(NEEDS)}. {rng.choice(MESSAGE_TAIL)}"
        )
        if rng.random() < 0.3:
            message += f" {rng.choice(MESSAGE_TAIL)} {rng.choice(MESSAGE_TAIL)}"
        yield (
            f"{first} {last}", f"{_slug(first)}.{_slug(last)}@{rng.choice(DOMAINS)}", company,
            _phone(rng) if rng.random() < 0.6 else None, rng.choice(SERVICES), rng.choice(BUDGETS), message,
            rng.random() < 0.25, status, rng.choices(("low", "medium", "high", "urgent"), (3, 5, 2, 1))[0],
            rng.choice(ctx.staff_ids) if status != "new" and rng.random() < 0.8 else None,
            rng.choice(NOTES) if status != "new" else None, spam, created,
            created + timedelta(days=rng.randint(0, min(age_days, 30))),
        )  # fmt: skip


# --- invoices and their items -----------------------------------------------------------------------------------------

INVOICE_COLUMNS = (
    "id", "invoice_number", "client_id", "status", "description", "subtotal", "tax_amount", "total_amount",
    "issue_date", "due_date", "paid_date", "notes", "created_at", "updated_at", "reminders_sent", "last_reminder_on",
)  # fmt: skip
ITEM_COLUMNS = ("invoice_id", "description", "quantity", "unit_price", "amount", "created_at", "updated_at")
CENT = Decimal("0.01")


def _reminded(due: date | None, status: str, today: date) -> tuple[int, date | None]:
    """The overdue reminders the daily pass would have sent before today, by its own schedule
    (app/services/billing/reminders.py). A data set of years of invoices is one that has been running:
    without its reminder history the server's first pass would mail (and render the PDF of) thousands of reminders
    while the benchmark measures. Today's are left to the pass, as on any day."""
    if status != "pending" or due is None:
        return 0, None
    days = [due + FIRST_AFTER + REMIND_EVERY * k for k in range(REMINDERS_MAX)]
    before = [d for d in days if d < today]
    return len(before), (before[-1] if before else None)


def _invoices(
    ctx: Context, count: int, first_id: int, next_number: dict[int, int], items: list[tuple[Any, ...]]
) -> Iterable[tuple[Any, ...]]:
    rng = ctx.rng
    # In date order, so that each year's invoice numbers follow the dates as the service would have issued them.
    dates = sorted(_when(ctx, 3 * 365) for _ in range(count))
    for i, created in enumerate(dates):
        client = _client(ctx)
        age = (ctx.now - created).days
        status = "draft" if age < 5 and rng.random() < 0.5 else rng.choices(("paid", "pending", "draft"), (14, 4, 1))[0]
        invoice_id = first_id + i
        amounts = []
        for _ in range(rng.choices((1, 2, 3, 4, 5), (3, 4, 4, 2, 1))[0]):
            desc, low, high = rng.choice(LINE_ITEMS)
            qty = rng.randint(1, 40) if "hours" in desc else rng.randint(1, 3)
            price = Decimal(rng.randint(low * 100, high * 100)) / 100
            amount = (price * qty).quantize(CENT, rounding=ROUND_HALF_UP)
            amounts.append(amount)
            items.append((invoice_id, desc, qty, price, amount, created, created))
        subtotal = sum(amounts, Decimal("0.00"))
        rate = rng.choice((Decimal("0"), Decimal("0.07"), Decimal("0.0825")))
        tax = (subtotal * rate).quantize(CENT, rounding=ROUND_HALF_UP)
        issue = created.date() if status != "draft" else None
        due = issue + timedelta(days=30) if issue else None
        paid = min(issue + timedelta(days=rng.randint(1, 45)), ctx.now.date()) if status == "paid" and issue else None
        year = created.year
        seq = next_number.get(year, 1)
        next_number[year] = seq + 1
        yield (
            invoice_id, f"INV-{year}-{seq:04d}", client[0], status,
            rng.choice(INVOICE_DESCRIPTIONS).format(n=rng.randint(1, 4)), subtotal, tax, subtotal + tax, issue, due,
            paid, "Net 30. Thank you for your business." if rng.random() < 0.3 else None, created, created,
            *_reminded(due, status, ctx.now.date()),
        )  # fmt: skip


# --- job applications -------------------------------------------------------------------------------------------------

APPLICATION_COLUMNS = (
    "job_opening_id", "job_code", "first_name", "last_name", "email", "phone", "linkedin_url", "resume_path",
    "resume_filename", "resume_content_type", "cover_letter_path", "cover_letter_filename",
    "cover_letter_content_type", "status", "notes", "created_at", "updated_at",
)  # fmt: skip


def _applications(ctx: Context, count: int) -> Iterable[tuple[Any, ...]]:
    rng = ctx.rng
    for _ in range(count):
        first, last = _person(rng)
        opening = rng.choice(ctx.openings) if ctx.openings and rng.random() < 0.9 else None
        created = _when(ctx, 2 * 365)
        letter = rng.random() < 0.4
        handle = f"{_slug(first)}-{_slug(last)}"
        yield (
            opening[0] if opening else None, opening[1] if opening else None, first, last,
            f"{handle}{rng.randint(1, 999)}@{rng.choice(DOMAINS)}", _phone(rng),
            f"https://www.linkedin.com/in/{handle}-{rng.randint(100, 99999)}" if rng.random() < 0.6 else None,
            f"applications/{uuid.UUID(int=rng.getrandbits(128), version=4).hex}.pdf", f"{first}_{last}_CV.pdf",
            "application/pdf",
            f"applications/{uuid.UUID(int=rng.getrandbits(128), version=4).hex}.pdf" if letter else None,
            f"{first}_{last}_cover_letter.pdf" if letter else None, "application/pdf" if letter else None,
            rng.choices(("new", "reviewing", "interview", "offer", "rejected"), (5, 3, 2, 1, 6))[0],
            rng.choice(COVER_NOTES), created, created,
        )  # fmt: skip


# --- meetings ---------------------------------------------------------------------------------------------------------

MEETING_COLUMNS = (
    "title", "description", "meeting_type", "start_time", "end_time", "location", "meeting_url", "attendees",
    "organizer_id", "client_id", "status", "cancel_reason", "created_at", "updated_at",
)  # fmt: skip


def _meetings(ctx: Context, count: int) -> Iterable[tuple[Any, ...]]:
    rng = ctx.rng
    for _ in range(count):
        client = _client(ctx)
        start = _when(ctx, 2 * 365, 90)
        minutes = rng.choice((15, 30, 30, 45, 60, 90))
        future = start > ctx.now
        status = (
            rng.choices(("scheduled", "cancelled"), (9, 1))[0]
            if future
            else rng.choices(("completed", "cancelled", "scheduled"), (16, 3, 1))[0]
        )
        organizer = rng.randrange(len(ctx.staff_ids))
        location = rng.choice(LOCATIONS)
        yield (
            rng.choice(MEETING_TITLES).format(company=client[2]),
            "Agenda: goals, current systems, timeline and budget." if rng.random() < 0.5 else None,
            rng.choice(ctx.meeting_types) if ctx.meeting_types else None, start, start + timedelta(minutes=minutes),
            location,
            f"https://meet.example.com/{uuid.UUID(int=rng.getrandbits(128), version=4).hex[:12]}"
            if location == "Video call"
            else None,
            json.dumps([client[1], ctx.staff_emails[organizer]]), ctx.staff_ids[organizer], client[0], status,
            "Client asked to reschedule." if status == "cancelled" else None,
            start - timedelta(days=rng.randint(1, 21)), start - timedelta(days=rng.randint(0, 1)),
        )  # fmt: skip


# --- the whole seed ---------------------------------------------------------------------------------------------------


def _lookup_context(conn: psycopg.Connection, rng: random.Random) -> Context:
    staff = conn.execute("SELECT id, email FROM users WHERE role IN ('admin', 'employee') ORDER BY username").fetchall()
    demo = conn.execute(
        "SELECT id, email, coalesce(company, username) FROM users WHERE username = %s", (DEMO_CLIENT,)
    ).fetchone()
    openings = conn.execute("SELECT id, code FROM job_openings ORDER BY code").fetchall()
    types = [r[0] for r in conn.execute("SELECT name FROM meeting_types ORDER BY sort_order, id").fetchall()]
    return Context(
        rng=rng,
        now=datetime.now(UTC).replace(microsecond=0),
        staff_ids=[r[0] for r in staff],
        staff_emails=[r[1] for r in staff],
        clients=[],
        demo_client=(demo[0], demo[1], demo[2]) if demo else None,
        openings=[(r[0], r[1]) for r in openings],
        meeting_types=types,
    )


def _next_invoice_numbers(conn: psycopg.Connection) -> dict[int, int]:
    """Per year, the next free sequence of INV-<year>-<seq> after what is there (the demo invoices)."""
    numbers: dict[int, int] = {}
    for (number,) in conn.execute("SELECT invoice_number FROM invoices").fetchall():
        parts = str(number).split("-")
        if len(parts) == 3 and parts[0] == "INV" and parts[1].isdigit() and parts[2].isdigit():
            year, seq = int(parts[1]), int(parts[2])
            numbers[year] = max(numbers.get(year, 1), seq + 1)
    for year, last in conn.execute("SELECT year, last_number FROM invoice_number_counters").fetchall():
        numbers[year] = max(numbers.get(year, 1), last + 1)  # numbers of deleted drafts are not reused either
    return numbers


def _raise_invoice_counters(conn: psycopg.Connection, numbers: dict[int, int]) -> None:
    """The services number invoices from these counters: continue after the bulk ones."""
    for year, after in numbers.items():
        conn.execute(
            "INSERT INTO invoice_number_counters (year, last_number) VALUES (%s, %s) ON CONFLICT (year) DO UPDATE"
            " SET last_number = excluded.last_number WHERE invoice_number_counters.last_number < excluded.last_number",
            (year, after - 1),
        )


def seed(url: str, scale: float, *, say: Any = print, random_seed: int = 2026) -> dict[str, int]:
    """Insert the bulk rows; returns the row counts of the seeded tables afterwards."""
    rng = random.Random(random_seed)
    # One real bcrypt hash (of a random password nobody knows): the bulk accounts exist but cannot sign in.
    password_hash = bcrypt.hashpw(uuid.uuid4().hex.encode(), bcrypt.gensalt(12)).decode()
    with psycopg.connect(url) as conn:
        ctx = _lookup_context(conn, rng)
        if not ctx.staff_ids:
            raise SystemExit("no staff accounts found: run `python -m app.cli seed-demo` (APP_ENV=dev) first")

        def step(name: str, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
            started = time.monotonic()
            n = _copy(conn, table, columns, rows)
            say(f"  {name:<14} {n:>8,} rows in {time.monotonic() - started:5.1f} s")

        step("users", "users", USER_COLUMNS, _users(ctx, scaled("users", scale), password_hash))
        if not ctx.clients:
            ctx.clients.append(ctx.demo_client or (uuid.uuid4(), "", ""))
        step("inquiries", "contact_inquiries", INQUIRY_COLUMNS, _inquiries(ctx, scaled("inquiries", scale)))
        first_id = int(conn.execute("SELECT coalesce(max(id), 0) + 1 FROM invoices").fetchone()[0])  # type: ignore[index]
        items: list[tuple[Any, ...]] = []
        numbers = _next_invoice_numbers(conn)
        step(
            "invoices", "invoices", INVOICE_COLUMNS, _invoices(ctx, scaled("invoices", scale), first_id, numbers, items)
        )
        conn.execute("SELECT setval(pg_get_serial_sequence('invoices', 'id'), (SELECT max(id) FROM invoices))")
        _raise_invoice_counters(conn, numbers)
        step("invoice items", "invoice_items", ITEM_COLUMNS, items)
        step("applications", "job_applications", APPLICATION_COLUMNS, _applications(ctx, scaled("applications", scale)))
        step("meetings", "meetings", MEETING_COLUMNS, _meetings(ctx, scaled("meetings", scale)))
        conn.commit()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE")
        return table_counts(conn)


SEEDED_TABLES = {
    "users": "users",
    "inquiries": "contact_inquiries",
    "invoices": "invoices",
    "invoice items": "invoice_items",
    "applications": "job_applications",
    "meetings": "meetings",
}


def table_counts(conn: psycopg.Connection) -> dict[str, int]:
    counts = {
        name: int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]) for name, table in SEEDED_TABLES.items()
    }  # type: ignore[index]
    demo = conn.execute(
        "SELECT (SELECT count(*) FROM invoices i JOIN users u ON u.id = i.client_id WHERE u.username = %(u)s),"
        " (SELECT count(*) FROM meetings m JOIN users u ON u.id = m.client_id WHERE u.username = %(u)s)",
        {"u": DEMO_CLIENT},
    ).fetchone()
    counts["democlient invoices"], counts["democlient meetings"] = int(demo[0]), int(demo[1])  # type: ignore[index]
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", help="postgresql://... of a migrated database with the demo content")
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    counts = seed(args.url.replace("postgresql+psycopg://", "postgresql://"), args.scale)
    sys.stdout.write(json.dumps(counts, indent=2) + "\n")


if __name__ == "__main__":
    main()
