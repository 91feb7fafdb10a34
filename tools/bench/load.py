"""Load run: simulated visitors and signed-in clients against the served app, as `make run` serves it.

Starts the app (as `make run` does: the build, then `make serve`) over a PostgreSQL database of its own with the demo
content and N client accounts, then for `--seconds`:
- each visitor, from a loopback address of its own (127.0.1.x, so per-address limits act as for real people), reads
  public pages, the jobs list and the health check, and now and then sends the contact form;
- each client, from an address of its own, signs in once (at a moment of its own in the first 30 seconds), then reads
  its projects, invoices, meetings and account, and reports activity.
Reported: requests, statuses and p50/p95/p99 per route, 5xx and transport errors, and the server's memory (RSS of
its whole process group) at the start and at the end. HTTP only: the websocket's events are not simulated.

Usage: python tools/bench/load.py [--visitors 200] [--clients 50] [--seconds 300] [--json FILE]
Exit status 1 when any response was a 5xx or a request failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
from tools import server  # noqa: E402

DB = os.environ.get("LOAD_DB_NAME", "app_load")
PG = os.environ.get("TEST_PG_ADMIN_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
PAGES = ["/", "/about", "/services", "/portfolio", "/careers", "/contact", "/book-meeting", "/terms", "/privacy"]
CLIENT_ROUTES = ["/api/protected/projects", "/api/protected/invoices", "/api/protected/meetings", "/api/auth/me"]
PASSWORD = "Load-test-pass-1"


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def database_url() -> str:
    from sqlalchemy import text

    from app.core.db import make_engine

    admin = make_engine(PG).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{DB}"'))
    admin.dispose()
    return PG.rsplit("/", 1)[0] + f"/{DB}"


def prepare(env: dict[str, str], clients: int) -> list[str]:
    """Migrate, seed the demo content and create the clients; their usernames."""
    server.app_cli(env, "migrate", "seed-demo")
    names = [f"load_client_{i}" for i in range(clients)]
    script = (
        "import sys\n"
        "from app.core.db import session_scope\n"
        "from app.services.accounts.users import create_user\n"
        "from app.core.permissions import Role\n"
        "with session_scope() as s:\n"
        "    for name in sys.argv[1:]:\n"
        f"        create_user(s, username=name, email=name + '@example.com', password={PASSWORD!r},"
        " role=Role.client, is_verified=True, first_name='Load')\n"
        "    s.commit()\n"
    )
    subprocess.run([sys.executable, "-c", script, *names], cwd=ROOT, env=env, check=True)
    return names


def rss_mb(pgid: int) -> float:
    """Resident memory of every process in the server's process group, in MB."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # field 5 of stat: the process group
            total += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")  # field 24: resident pages
    return total / 1024 / 1024


class Stats:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.errors: dict[str, int] = defaultdict(int)

    async def call(
        self, http: httpx.AsyncClient, method: str, path: str, route: str, **kw: Any
    ) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            r = await http.request(method, path, **kw)
        except httpx.HTTPError:
            self.errors[route] += 1
            return None
        self.times[route].append(time.perf_counter() - started)
        self.statuses[route][r.status_code] += 1
        return r

    def table(self) -> list[dict[str, Any]]:
        rows = []
        for route in sorted(self.times):
            ms = sorted(t * 1000 for t in self.times[route])
            q = statistics.quantiles(ms, n=100) if len(ms) > 1 else ms * 99
            rows.append(
                {
                    "route": route,
                    "requests": len(ms),
                    "statuses": dict(sorted(self.statuses[route].items())),
                    "errors": self.errors.get(route, 0),
                    "p50_ms": round(q[49], 1),
                    "p95_ms": round(q[94], 1),
                    "p99_ms": round(q[98], 1),
                }
            )
        return rows


async def visitor(url: str, n: int, stop: float, stats: Stats) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.1.{n % 250 + 1}")
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30, follow_redirects=True) as http:
        while time.monotonic() < stop:
            roll = random.random()
            if roll < 0.6:
                page = random.choice(PAGES)
                await stats.call(http, "GET", page, f"GET {page}")
            elif roll < 0.8:
                await stats.call(http, "GET", "/api/jobs", "GET /api/jobs")
            elif roll < 0.95:
                await stats.call(http, "GET", "/api/health", "GET /api/health")
            else:
                body = {"name": f"Visitor {n}", "email": f"v{n}@example.com", "message": "Load test inquiry"}
                await stats.call(http, "POST", "/api/contact", "POST /api/contact", json=body)
            await asyncio.sleep(random.uniform(0.2, 1.0))  # a person reads before the next click


async def client(url: str, n: int, username: str, stop: float, stats: Stats) -> None:
    # Each client from an address of its own (127.0.2.x) and signing in at its own moment within the first 30
    # seconds, as people do: 50 first sign-ins from one address at one instant would be a burst the per-address
    # throttle is there to refuse.
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.2.{n % 250 + 1}")
    await asyncio.sleep(random.uniform(0, 30))
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as http:
        r = await stats.call(
            http, "POST", "/api/auth/login", "POST /api/auth/login", json={"identifier": username, "password": PASSWORD}
        )
        if r is None or r.status_code != 200:
            return
        while time.monotonic() < stop:
            if random.random() < 0.05:
                await stats.call(http, "POST", "/api/auth/activity", "POST /api/auth/activity")
            else:
                path = random.choice(CLIENT_ROUTES)
                await stats.call(http, "GET", path, f"GET {path}")
            await asyncio.sleep(random.uniform(0.5, 2.0))


async def drive(url: str, names: list[str], visitors: int, seconds: float) -> Stats:
    stats = Stats()
    stop = time.monotonic() + seconds
    tasks = [visitor(url, n, stop, stats) for n in range(visitors)]
    tasks += [client(url, n, name, stop, stats) for n, name in enumerate(names)]
    await asyncio.gather(*tasks)
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=200)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--json", type=Path, help="write the results here as JSON")
    args = parser.parse_args()
    env = {**os.environ, "APP_ENV": "dev", "DATABASE_URL": database_url(), "DATA_DIR": str(ROOT / ".load-data")}
    say("preparing the database…")
    names = prepare(env, args.clients)
    say("starting the server…")
    served = server.start(env, ROOT / "bench" / "load-server.log", timeout_s=900)
    try:
        for path in PAGES:  # the first request of each page is not part of the measurement
            httpx.get(served.url + path, timeout=60)
        rss_start = rss_mb(served.proc.pid)
        say(f"running {args.visitors} visitors and {args.clients} clients for {args.seconds:.0f} s…")
        stats = asyncio.run(drive(served.url, names, args.visitors, args.seconds))
        rss_end = rss_mb(served.proc.pid)
    finally:
        served.stop()  # a server still draining a backlog is killed: the figures above are taken already
    rows = stats.table()
    server_errors = sum(n for r in rows for code, n in r["statuses"].items() if code >= 500)
    failures = sum(r["errors"] for r in rows)
    result = {
        "visitors": args.visitors,
        "clients": args.clients,
        "seconds": args.seconds,
        "routes": rows,
        "server_errors": server_errors,
        "transport_errors": failures,
        "rss_start_mb": round(rss_start),
        "rss_end_mb": round(rss_end),
    }
    for r in rows:
        say(
            f"{r['route']:<32} {r['requests']:>7} {r['statuses']} p50 {r['p50_ms']} p95 {r['p95_ms']} p99 {r['p99_ms']}"
        )
    say(f"5xx: {server_errors}, failed requests: {failures}, RSS {rss_start:.0f} MB -> {rss_end:.0f} MB")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 1 if server_errors or failures else 0


if __name__ == "__main__":
    sys.exit(main())
