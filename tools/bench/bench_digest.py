"""How long one pass of the message digests (ADR 0102) takes to find whom to mail, over many messages, with the
messages' created_at index and without it (dropped inside the run's transaction). Every server process runs that
query every few seconds, so its cost is paid all day.

    python tools/bench/bench_digest.py                       # 200,000 messages in 200 projects, the tests' database
    python tools/bench/bench_digest.py --messages 1000000 --database-url postgresql+psycopg://...

Everything happens in one transaction that is rolled back: the database is left as it was.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlmodel import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a file: app and tests are at the checkout's root
from app.models.base import utcnow
from app.services.projects import message_digests
from tests import factories

PROJECTS = 200


def say(line: str) -> None:
    sys.stdout.write(line + "\n")


def timed(s: Session, runs: int) -> list[float]:
    now = utcnow()
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        message_digests._candidates(s, now, now - timedelta(minutes=10))
        out.append((time.perf_counter() - started) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--database-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/app_test")
    args = parser.parse_args()
    engine = create_engine(args.database_url)
    with engine.connect() as conn:
        outer = conn.begin()
        s = Session(bind=conn, join_transaction_mode="create_savepoint")  # the factories' commits stay inside
        client = factories.user(s, "bench_digest_client")
        ids = [factories.project(s, client, name=f"Project {i}").id for i in range(PROJECTS)]
        # One message a minute backwards from now: the last seven days hold 10,080 of them.
        s.exec(
            text(
                "INSERT INTO project_messages (project_id, author_id, body, internal, created_at)"
                " SELECT (:ids)[1 + (g % :n_projects)], :author, 'Hello', false, now() - (g || ' minutes')::interval"
                " FROM generate_series(1, :n) g"
            ).bindparams(ids=ids, n_projects=PROJECTS, author=client.id, n=args.messages)
        )
        s.exec(text("ANALYZE project_messages"))
        with_index = timed(s, args.runs)
        s.exec(text("DROP INDEX ix_project_messages_created_at"))
        without = timed(s, args.runs)
        outer.rollback()
    for label, ms in (("with the created_at index", with_index), ("without it", without)):
        say(f"{args.messages:,} messages, {label}: median {statistics.median(ms):.1f} ms, min {min(ms):.1f} ms")
    say(f"ratio with/without (medians): {statistics.median(with_index) / statistics.median(without):.2f}")


if __name__ == "__main__":
    main()
