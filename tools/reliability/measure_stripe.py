"""Card payments under concurrency: Stripe's events delivered at once by threads, as several app processes receive
them when Stripe retries, redelivers or sends two events about one payment.

The events are the Stripe stand-in's (tools/dev/stripe_standin.py), made through the real SDK: the client starts
Checkout (`online.start_checkout`), pays on the stand-in, and the signed event it builds is applied by every thread at
once (`online.apply_event`, one session and one connection per thread, released together by a barrier) on a
PostgreSQL database of its own (measure_stripe), created, migrated and dropped here. Prints the rows of a markdown
table (`| figure | value | how |`); with --report, writes them as the report's "Card payments" section.

    python tools/reliability/measure_stripe.py [--threads 8] [--rounds 20] [--report docs/reliability.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
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

from tools.dev.stripe_standin import StandIn  # noqa: E402

# The stand-in first: the settings are read once, at the first import of the app, and must point the SDK at it.
STANDIN = StandIn(webhook_secret="whsec_measure").start()
os.environ.update(
    STRIPE_SECRET_KEY="sk_test_measure", STRIPE_WEBHOOK_SECRET="whsec_measure", STRIPE_API_BASE=STANDIN.url
)

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402
from sqlmodel import Session, select  # noqa: E402

from app.core import migrations  # noqa: E402
from app.core.db import make_engine  # noqa: E402
from app.models.billing import Invoice, Payment  # noqa: E402
from app.models.enums import EmployeeType, Role  # noqa: E402
from app.models.user import User  # noqa: E402
from app.services.billing import billing, invoices, online, stripe_gateway  # noqa: E402

ADMIN_URL = os.environ.get("MEASURE_PG_ADMIN_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
DB_NAME = "measure_stripe"
TOTAL = Decimal("100.00")


@contextmanager
def database() -> Iterator[str]:
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
            self.client = self._user(s, "measure_payer", role=Role.client)

    @staticmethod
    def _user(s: Session, name: str, **kw: Any) -> User:
        user = User(username=name, email=f"{name}@example.com", password_hash="!", is_verified=True, **kw)
        s.add(user)
        s.commit()
        return user

    def paid_event(self) -> tuple[int, dict[str, Any]]:
        """A fresh issued 100.00 invoice, paid on the stand-in: its id and the checkout.session.completed event."""
        data = {
            "client_id": str(self.client.id),
            "items": [{"description": "Work", "quantity": 1, "unit_price": "100"}],
        }
        with Session(self.engine, expire_on_commit=False) as s:
            invoice_id = int(billing.create_invoice(s, actor=self.clerk, data=data).id)
            billing.issue_invoice(s, actor=self.clerk, invoice_id=invoice_id)
            url = online.start_checkout(s, actor=self.client, invoice_id=invoice_id)
        STANDIN.pay(url.rsplit("/", 1)[1])
        return invoice_id, STANDIN.events[-1]

    def outcome(self, invoice_id: int) -> tuple[int, Decimal, Decimal, str]:
        """Payment rows, what they count toward the invoice, their excess, and the invoice's status."""
        with Session(self.engine) as s:
            rows = list(s.exec(select(Payment).where(Payment.invoice_id == invoice_id)))
            invoice = s.get(Invoice, invoice_id)
            assert invoice is not None
            excess = sum((p.excess_amount for p in rows), Decimal("0.00"))
            return len(rows), invoices.paid_amount(s, invoice_id), excess, str(invoice.status)


def race(pool: Engine, threads: int, events: list[dict[str, Any]]) -> list[Any]:
    """Thread i applies events[i % len(events)]; all start together. Each result: "applied", "duplicate", or the
    exception raised."""
    barrier = threading.Barrier(threads)

    def one(i: int) -> Any:
        with Session(pool, expire_on_commit=False) as s:
            barrier.wait()
            try:
                return online.apply_event(s, events[i % len(events)])
            except Exception as exc:  # measured, not hidden: an error is a figure of its own
                return exc

    with ThreadPoolExecutor(threads) as executor:
        return list(executor.map(one, range(threads)))


def _results(all_results: list[list[Any]]) -> str:
    counts: dict[str, int] = {}
    for results in all_results:
        for r in results:
            name = type(r).__name__ if isinstance(r, Exception) else str(r)
            counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))


def scenario(
    office: Office, pool: Engine, threads: int, rounds: int, events_of: Callable[[dict[str, Any]], list[dict[str, Any]]]
) -> tuple[list[tuple[int, Decimal, Decimal, str]], list[list[Any]], float]:
    outcomes, results = [], []
    started = time.perf_counter()
    for _ in range(rounds):
        invoice_id, event = office.paid_event()
        results.append(race(pool, threads, events_of(event)))
        outcomes.append(office.outcome(invoice_id))
    return outcomes, results, time.perf_counter() - started


def _copy(event: dict[str, Any], **changes: Any) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(event))
    copied.update(changes)
    return copied


def _second_intent(event: dict[str, Any]) -> dict[str, Any]:
    other = _copy(event, id=event["id"] + "_second")
    other["data"]["object"]["payment_intent"] = event["data"]["object"]["payment_intent"] + "_second"
    return other


def _full_refund(event: dict[str, Any]) -> dict[str, Any]:
    """The charge.refunded Stripe sends for a full refund of the event's payment (made through the SDK)."""
    intent = event["data"]["object"]["payment_intent"]
    stripe_gateway.create_refund(intent, 10000, idempotency_key=f"measure-{intent}")
    return STANDIN.events[-1]


def measure(threads: int = 8, rounds: int = 20) -> list[str]:
    how = f"real services and SDK, stand-in events, {threads} threads with a session and connection each, barrier start"
    rows = []
    with database() as url:
        engine = make_engine(url)
        pool = create_engine(url, pool_size=threads, max_overflow=0)
        try:
            office = Office(engine)
            one, res, secs = scenario(office, pool, threads, rounds, lambda e: [e])
            rows.append(
                f"| {threads} concurrent deliveries of one checkout.session.completed ({rounds} rounds, 100.00 "
                f"invoices) | payment rows per invoice max {max(o[0] for o in one)}, counted max "
                f"{max(o[1] for o in one)}, invoices paid {sum(o[3] == 'paid' for o in one)}/{rounds}; results: "
                f"{_results(res)}; {secs:.1f} s | {how} |"
            )
            two, res, _ = scenario(
                office,
                pool,
                threads,
                rounds,
                lambda e: [e, _copy(e, id=e["id"] + "_async", type="checkout.session.async_payment_succeeded")],
            )
            rows.append(
                f"| completed and async_payment_succeeded for one payment intent, {threads} deliveries at once "
                f"({rounds} rounds) | payment rows per invoice max {max(o[0] for o in two)}, counted max "
                f"{max(o[1] for o in two)}; results: {_results(res)} | {how} |"
            )
            over, res, _ = scenario(office, pool, threads, rounds, lambda e: [e, _second_intent(e)])
            rows.append(
                f"| two payment intents each paying the whole 100.00, {threads} deliveries at once ({rounds} rounds) "
                f"| counted toward the invoice max {max(o[1] for o in over)} (never above 100.00), excess kept per "
                f"invoice {min(o[2] for o in over)}..{max(o[2] for o in over)}; results: {_results(res)} | {how} |"
            )
            refund, res, _ = scenario(office, pool, threads, rounds, lambda e: [_full_refund(e), e])
            rows.append(
                f"| a full refund and its payment's completion delivered at once, in any order ({threads} deliveries, "
                f"{rounds} rounds) | payment rows per invoice max {max(o[0] for o in refund)}, counted max "
                f"{max(o[1] for o in refund)}, invoices back to pending "
                f"{sum(o[3] == 'pending' for o in refund)}/{rounds}; results: {_results(res)} | {how} |"
            )
        finally:
            pool.dispose()
            engine.dispose()
            STANDIN.stop()
    return rows


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--report", type=Path, help="write the rows as this report's 'Card payments' section")
    args = parser.parse_args()
    rows = measure(args.threads, args.rounds)
    table = ["| figure | value | how |", "|---|---|---|", *rows]
    sys.stdout.write("\n".join(table) + "\n")
    if args.report:
        from tools.reliability.torture import replace_section

        section = [
            "",  # the section before ends with its table
            "## Card payments (Stripe webhook)",
            "",
            f"Run: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC at commit `{commit()}`"
            " (`python tools/reliability/measure_stripe.py --report docs/reliability.md`). Each delivery locks the"
            " invoice, then checks the event id and the payment intent (ADRs 0074, 0075): N deliveries of one event"
            " record one payment, and money never counts above the invoice.",
            "",
            *table,
            "",
        ]
        replace_section(args.report, "Card payments (Stripe webhook)", section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
