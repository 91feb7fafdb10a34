"""Money under concurrency: the real billing services in threads against a PostgreSQL database of their own.

Each figure races staff (one session and one connection per thread, released together by a barrier) on committed
data, the way a busy office does: everyone recording the whole amount of one invoice, everyone recording a part of
it, everyone issuing one draft, everyone creating invoices across INV-YYYY-9999. `measure()` returns the rows of a
markdown table (`| figure | value | how |`); the database (measure_money) is created, migrated and dropped here.

    python tools/reliability/measure_money.py [--threads 6] [--rounds 20]
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, func, text  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402
from sqlmodel import Session, col, select  # noqa: E402

from app.core import migrations  # noqa: E402
from app.core.db import make_engine  # noqa: E402
from app.core.errors import DomainError  # noqa: E402
from app.models.base import utcnow  # noqa: E402
from app.models.billing import Invoice, Payment  # noqa: E402
from app.models.enums import EmployeeType, Role  # noqa: E402
from app.models.system import EmailOutbox  # noqa: E402
from app.models.user import User  # noqa: E402
from app.services.billing import billing  # noqa: E402

ADMIN_URL = os.environ.get("MEASURE_PG_ADMIN_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
DB_NAME = "measure_money"
HUNDRED = Decimal("100.00")


@contextmanager
def database() -> Iterator[str]:
    """A fresh database at the migrations' head, dropped afterwards."""
    admin = make_engine(ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{DB_NAME}"'))
    url = ADMIN_URL.rsplit("/", 1)[0] + f"/{DB_NAME}"
    try:
        migrations.upgrade(url)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)'))
        admin.dispose()


class Office:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        with Session(engine, expire_on_commit=False) as s:
            self.clerk = self._user(s, "measure_clerk", role=Role.employee, employee_type=EmployeeType.cfo)
            self.client = self._user(s, "measure_client", role=Role.client)

    @staticmethod
    def _user(s: Session, name: str, **kw: Any) -> User:
        user = User(username=name, email=f"{name}@example.com", password_hash="!", is_verified=True, **kw)
        s.add(user)
        s.commit()
        return user

    def invoice(self, price: Decimal = HUNDRED, *, issued: bool = True) -> int:
        data = {
            "client_id": str(self.client.id),
            "items": [{"description": "Work", "quantity": 1, "unit_price": price}],
        }
        with Session(self.engine) as s:
            invoice_id = int(billing.create_invoice(s, actor=self.clerk, data=data)["id"])
            if issued:
                billing.issue_invoice(s, actor=self.clerk, invoice_id=invoice_id)
        return invoice_id

    def race(self, pool: Engine, threads: int, act: Callable[[Session, User], Any]) -> list[Any]:
        """`act(session, clerk)` in every thread at once; each result is a return value or the refusal raised."""
        barrier = threading.Barrier(threads)

        def one(_: int) -> Any:
            with Session(pool, expire_on_commit=False) as s:
                clerk = s.get(User, self.clerk.id)
                assert clerk is not None
                barrier.wait()
                try:
                    return act(s, clerk)
                except DomainError as exc:  # the refusal is the result being measured
                    return exc

        with ThreadPoolExecutor(threads) as executor:
            return list(executor.map(one, range(threads)))

    def paid(self, invoice_id: int) -> Decimal:
        with Session(self.engine) as s:
            total = s.exec(select(func.coalesce(func.sum(Payment.amount), 0)).where(Payment.invoice_id == invoice_id))
            return Decimal(total.one())


def _ok(results: list[Any]) -> int:
    return sum(not isinstance(r, Exception) for r in results)


def _refusals(results: list[Any]) -> set[str]:
    return {f"{type(r).__name__}: {r}" for r in results if isinstance(r, Exception)}


def payments(
    office: Office, pool: Engine, threads: int, rounds: int, amount: Decimal
) -> tuple[Decimal, set[int], set[str]]:
    """Every thread records `amount` on one fresh 100.00 invoice, `rounds` times: the highest recorded total, how
    many payments were accepted per round, and the refusals' messages."""
    totals, accepted, refusals = [], set(), set()
    for _ in range(rounds):
        invoice_id = office.invoice()

        def pay(s: Session, clerk: User, invoice_id: int = invoice_id) -> Any:
            return billing.record_payment(s, actor=clerk, invoice_id=invoice_id, data={"amount": amount})

        results = office.race(pool, threads, pay)
        totals.append(office.paid(invoice_id))
        accepted.add(_ok(results))
        refusals |= _refusals(results)
    return max(totals), accepted, refusals


def issues(office: Office, pool: Engine, threads: int, rounds: int) -> tuple[int, set[int]]:
    """Every thread issues one fresh draft, `rounds` times: the most mails one invoice sent, and successes per round."""
    mails, accepted = [], set()
    for _ in range(rounds):
        invoice_id = office.invoice(issued=False)

        def issue(s: Session, clerk: User, invoice_id: int = invoice_id) -> Any:
            return billing.issue_invoice(s, actor=clerk, invoice_id=invoice_id)

        results = office.race(pool, threads, issue)
        with Session(office.engine) as s:
            number = s.exec(select(Invoice.invoice_number).where(Invoice.id == invoice_id)).one()
            mails.append(len(s.exec(select(EmailOutbox.id).where(col(EmailOutbox.subject).contains(number))).all()))
        accepted.add(_ok(results))
    return max(mails), accepted


def numbering(office: Office, pool: Engine, threads: int, each: int) -> tuple[list[int], int, float]:
    """The year's counter set just below 9999 (as the migration seeds it from an existing INV-YYYY-9997), then every
    thread creates `each` invoices: the numbers' sequences, the refusals, and the wall time."""
    year = utcnow().year
    with Session(office.engine) as s:
        billing.number_used(s, f"INV-{year}-9997")
        s.commit()
    data = {"client_id": str(office.client.id), "items": [{"description": "Work", "quantity": 1, "unit_price": "1"}]}

    def create(s: Session, clerk: User) -> list[str]:
        return [str(billing.create_invoice(s, actor=clerk, data=data)["invoice_number"]) for _ in range(each)]

    started = time.perf_counter()
    results = office.race(pool, threads, create)
    elapsed = time.perf_counter() - started
    numbers = [n for r in results if isinstance(r, list) for n in r]
    refused = sum(isinstance(r, Exception) for r in results)
    assert all(n.startswith(f"INV-{year}-") for n in numbers)
    return sorted(int(n.rsplit("-", 1)[1]) for n in numbers), refused, elapsed


def _counts(accepted: set[int]) -> str:
    return " or ".join(str(n) for n in sorted(accepted))


def measure(threads: int = 6, rounds: int = 20) -> list[str]:
    """The money figures as markdown table rows: | figure | value | how |."""
    how = f"real services, {threads} threads with a session and connection each, barrier start, PostgreSQL"
    with database() as url:
        engine = make_engine(url)
        pool = create_engine(url, pool_size=threads, max_overflow=0)
        try:
            office = Office(engine)
            started = time.perf_counter()
            whole, whole_ok, whole_no = payments(office, pool, threads, rounds, HUNDRED)
            part, part_ok, part_no = payments(office, pool, threads, rounds, Decimal("30.00"))
            mails, issue_ok = issues(office, pool, threads, rounds)
            paying = time.perf_counter() - started
            seqs, refused, elapsed = numbering(office, pool, threads, 5)
        finally:
            pool.dispose()
            engine.dispose()
    consecutive = seqs == list(range(seqs[0], seqs[0] + len(seqs))) if seqs else False
    return [
        f"| parallel payments on one 100.00 invoice ({threads} threads x {rounds} rounds, each the whole 100.00) "
        f"| recorded total max {whole:.2f}, accepted per round: {_counts(whole_ok)} "
        f"(the rest: {'; '.join(sorted(whole_no))}) "
        f"| {how} |",
        f"| parallel part payments on one 100.00 invoice ({threads} threads x {rounds} rounds, 30.00 each) "
        f"| recorded total max {part:.2f}, accepted per round: {_counts(part_ok)} (the rest: "
        f"{'; '.join(sorted(part_no))}) | {how}; the payment and issue figures took {paying:.1f} s |",
        f"| parallel issue of one draft ({threads} threads x {rounds} rounds) "
        f"| client mails per invoice max {mails}, issues accepted per round: {_counts(issue_ok)} | {how} |",
        f"| parallel invoice creation across INV-YYYY-9999 ({threads} threads x 5 invoices) "
        f"| {len(seqs)} numbers {seqs[0] if seqs else '-'}..{seqs[-1] if seqs else '-'}, "
        f"unique: {'yes' if len(set(seqs)) == len(seqs) else 'NO'}, consecutive: {'yes' if consecutive else 'NO'}, "
        f"{refused} refused, {elapsed:.2f} s | {how}; counter seeded at 9997 |",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    rows = measure(args.threads, args.rounds)
    sys.stdout.write("\n".join(["| figure | value | how |", "|---|---|---|", *rows]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
