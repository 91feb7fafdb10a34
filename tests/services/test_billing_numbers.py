"""Invoice numbers come from a per-year counter: past INV-YYYY-9999 they grow a digit, an existing database continues
its sequence after migrating, and parallel creators get unique consecutive numbers."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import column, insert, table, text
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine
from app.models.base import utcnow
from app.models.billing import Invoice
from app.models.enums import EmployeeType, Role
from app.models.user import User
from app.services.billing import billing
from tests import factories as f
from tests.conftest import PG_ADMIN_URL, TEST_DB_NAME
from tests.migrations import migrate
from tests.services.test_billing import create_at_once

BEFORE_COUNTERS = "8c4d2b6e1f37"  # the last revision that numbered invoices by their text maximum
NUMBERS_DB = f"{TEST_DB_NAME}_numbers"
ONE, ZERO = Decimal("1.00"), Decimal("0.00")
WORK = [{"description": "Work", "quantity": 1, "unit_price": "10.00"}]


@pytest.fixture(params=["sqlite", "postgresql"])
def old_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A database of its own at the revision before the counters."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'numbers.db'}"
    else:
        admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{NUMBERS_DB}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{NUMBERS_DB}"'))
        url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{NUMBERS_DB}"
    migrate(url, BEFORE_COUNTERS)
    eng = make_engine(url)
    yield eng
    eng.dispose()
    if request.param == "postgresql":
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{NUMBERS_DB}" WITH (FORCE)'))
        admin.dispose()


# The invoices table as that revision has it: today's model has columns it lacks (the reminders', issue 25).
_OLD_COLUMNS = (
    "invoice_number",
    "client_id",
    "status",
    "subtotal",
    "tax_amount",
    "total_amount",
    "created_at",
    "updated_at",
)
_OLD_INVOICES = table("invoices", *(column(c.name, c.type) for c in Invoice.__table__.c if c.name in _OLD_COLUMNS))


def _existing(s: Session, client: User, *numbers: str) -> None:
    for number in numbers:
        now = utcnow()
        values = {
            "invoice_number": number,
            "client_id": client.id,
            "status": "draft",
            "created_at": now,
            "updated_at": now,
        }
        s.execute(insert(_OLD_INVOICES).values(**values, subtotal=ONE, tax_amount=ZERO, total_amount=ONE))
    s.commit()


def test_an_existing_database_continues_past_9999_after_migrating(old_db: Engine) -> None:
    year = utcnow().year
    with Session(old_db, expire_on_commit=False) as s:
        client = f.user(s, "numbered_client")
        clerk = f.user(s, "numbered_clerk", role=Role.employee, employee_type=EmployeeType.cfo)
        # Text order puts -9999 after -10000-less numbers and -0042 of last year; only INV-YYYY-<digits> counts.
        _existing(s, client, f"INV-{year}-0042", f"INV-{year}-9999", f"INV-{year - 1}-0007", "INV-TEST-12345")
    migrate(str(old_db.url.render_as_string(hide_password=False)), "head")

    with Session(old_db) as s:
        data = {"client_id": str(client.id), "items": WORK}
        first = billing.create_invoice(s, actor=clerk, data=data).invoice_number
        second = billing.create_invoice(s, actor=clerk, data=data).invoice_number
        counters = dict(s.execute(text("SELECT year, last_number FROM invoice_number_counters")).all())

    assert (first, second) == (f"INV-{year}-10000", f"INV-{year}-10001")
    assert counters == {year - 1: 7, year: 10001}


def test_a_new_year_starts_at_0001_and_numbers_stay_four_digits(session: Session) -> None:
    clerk = f.user(session, "numbered_clerk2", role=Role.employee, employee_type=EmployeeType.cfo)
    client = f.user(session, "numbered_client2")
    number = billing._next_number(session, 2091)  # a year no other test touches, in the rolled-back transaction
    assert number == "INV-2091-0001"
    billing.number_used(session, "INV-2091-9998")
    billing.number_used(session, "INV-2091-0005")  # lower than the counter: no step back
    assert [billing._next_number(session, 2091) for _ in range(3)] == [
        "INV-2091-9999",
        "INV-2091-10000",
        "INV-2091-10001",
    ]
    created = billing.create_invoice(session, actor=clerk, data={"client_id": str(client.id), "items": WORK})
    assert created.invoice_number.startswith(f"INV-{utcnow().year}-")


@pytest.mark.parametrize("old_db", ["postgresql"], indirect=True)  # SQLite has one writer
def test_parallel_creators_past_9999_get_unique_consecutive_numbers(old_db: Engine) -> None:
    year = utcnow().year
    with Session(old_db, expire_on_commit=False) as s:
        client = f.user(s, "parallel_client")
        clerk = f.user(s, "parallel_clerk", role=Role.employee, employee_type=EmployeeType.cfo)
        _existing(s, client, f"INV-{year}-9997")
    migrate(str(old_db.url.render_as_string(hide_password=False)), "head")
    numbers, errors = create_at_once(old_db, clerk, client, 8)
    assert errors == []
    assert sorted(numbers, key=lambda n: int(n.rsplit("-", 1)[1])) == [f"INV-{year}-{n}" for n in range(9998, 10006)]
