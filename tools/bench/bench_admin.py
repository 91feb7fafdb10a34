"""Benchmark of the staff panel and the client portal over a large data set (the structure issue's "Show it").

    python tools/bench/bench_admin.py                 # full size: 100k inquiries, 20k invoices, 10k users, ...
    python tools/bench/bench_admin.py --scale 0.05    # a quick run on 5 % of the rows
    python tools/bench/bench_admin.py --only billing --only content/site --runs 1

What it does:
1. creates a fresh PostgreSQL database (default `bench_admin`), applies the project's migrations
   (`python -m app.cli migrate`), adds the demo content and accounts (`python -m app.cli seed-demo`), then bulk-loads
   the rows of tools/bench/bench_seed.py with COPY;
2. empties a Redis database of its own (default redis://127.0.0.1:6379/7) and starts the real server there the way
   `make run` does (the build, then `make serve`'s production backend, on a free port, with REDIS_URL so state
   lives in Redis);
3. signs in with Chromium as the demo admin (the form on /admin/login) and the demo client (the form on
   /client-portal), opens every staff section, every Content tab and every portal tab, each in a new browser tab,
   `--runs` times, and measures per section:
   - first rows: from navigation start (for a tab: from the click) until the section's first row/card is visible,
   - the largest websocket frame received and all bytes received over the websocket,
   - the rows (or cards) in the DOM,
   - the browser tab's server state: the summed sizes (STRLEN) of its Redis keys `<token>_<state name>`;
4. writes a markdown table with the medians and pass/fail against the targets to bench/report.md and stdout, then
   stops the server, drops the database and empties the Redis database (unless --keep-db).

A section that fails (times out, shows an error, redirects) is reported in its row; the run goes on.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import psycopg
import redis
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench"
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
from tests.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools import server  # noqa: E402
from tools.bench import bench_seed  # noqa: E402
from tools.dev.signed_in import access_token  # noqa: E402

ADMIN = ("admin", "Admin-demo-2026")
CLIENT = ("democlient", "Client-demo-2026")

# The targets of the structure issue.
TARGET_FIRST_ROWS_MS = 1000
TARGET_FRAME_BYTES = 100_000  # 100 KB
TARGET_STATE_BYTES = 1_000_000  # 1 MB

QUIET_MS = 600  # the websocket is "settled" after this long without a message
SETTLE_CAP_MS = 30_000


@dataclass(frozen=True)
class Section:
    """One thing to measure: a page (`path`), or a tab of it (`click`, measured from the click)."""

    name: str
    role: str  # "admin" or "client": whose browser context opens it
    path: str
    rows: str  # CSS selector of the section's rows or cards (counted, and the first one visible means "rendered")
    empty: str | None = None  # CSS selector of its empty state (accepted once the websocket has settled)
    ready: str | None = None  # a JS expression to use instead of "the first row is visible" (`vis(el)` is defined)
    click: str | None = None  # a Playwright selector clicked once the page has settled
    base: str | None = None  # for a tab: the name of the page's own section (what to wait for before the click)


ADMIN_TERMINAL = "main [role=alert]"  # 'Access Restricted' and the sections' load-error panels
CLIENT_TERMINAL = "[data-testid=portal-dashboard] [role=alert]"
TABLE_EMPTY = "main tbody td[colspan]"  # the paged tables' "No ... found" row

SECTIONS: list[Section] = [
    # The same run's ceiling: a public page (its text is in the HTML) measured until its first websocket message, the
    # earliest moment any page of this build could show data it asked the server for, on this machine at this load.
    Section("ceiling: public page", "admin", "/services", rows="main h1", ready="b.firstMessage > 0"),
    Section(
        "dashboard",
        "admin",
        "/admin/dashboard",
        rows="main [data-testid^=card-]",
        # The figures show "…" until the dashboard's loader answered; the system card then says how things are.
        ready="/Healthy|Degraded/.test(document.querySelector('[data-testid=card-system-status]')?.innerText || '')",
    ),
    Section("users", "admin", "/admin/users", rows="[data-testid=user-row]", empty=TABLE_EMPTY),
    Section("clients", "admin", "/admin/clients", rows="[data-testid=client-row]", empty=TABLE_EMPTY),
    Section("inquiries", "admin", "/admin/inquiries", rows="[data-testid=inquiry-row]", empty=TABLE_EMPTY),
    Section("content", "admin", "/admin/content", rows="[data-testid=organization-card]", empty="[data-testid=empty]"),
    Section(
        "content/projects",
        "admin",
        "/admin/content",
        rows="[data-testid=project-card]",
        empty="[data-testid=empty]",
        click="[data-testid=tab-projects]",
        base="content",
    ),
    Section(
        "content/site",
        "admin",
        "/admin/content",
        rows="[data-testid=site-row]",
        empty="[data-testid=empty]",
        click="[data-testid=tab-site]",
        base="content",
    ),
    Section("billing", "admin", "/admin/billing", rows="[data-testid=invoice-row]", empty=TABLE_EMPTY),
    Section("meetings", "admin", "/admin/meetings", rows="[data-testid=meeting-row]", empty=TABLE_EMPTY),
    Section("applications", "admin", "/admin/applications", rows="[data-testid=application-row]", empty=TABLE_EMPTY),
    Section(
        "analytics",
        "admin",
        "/admin/analytics",
        rows="main [data-testid^=figure-], main li",  # the four figures and the bars of the charts
        ready="vis(document.querySelector('[data-testid=figure-inquiries]'))",
    ),
    Section("products", "admin", "/admin/products", rows="[data-testid=catalogue-product]"),
    Section("settings", "admin", "/admin/settings", rows="[data-testid=audit-row]", empty=TABLE_EMPTY),
    Section("portal", "client", "/client-portal", rows="[data-testid=project-card]"),
    Section(
        "portal/invoices",
        "client",
        "/client-portal",
        rows="[data-testid=invoice-card]",
        click="role=tab[name='Invoices']",
        base="portal",
    ),
    Section(
        "portal/meetings",
        "client",
        "/client-portal",
        rows="[data-testid=meeting-card]",
        click="role=tab[name='Meetings']",
        base="portal",
    ),
    Section(
        "portal/profile",
        "client",
        "/client-portal",
        rows="[data-testid=profile-details]",
        click="role=tab[name='Profile']",
        base="portal",
    ),
    Section(
        "portal/settings",
        "client",
        "/client-portal",
        rows="[data-testid=portal-dashboard] input[name=username]",
        # The form is filled by the tab's own loader (on mount).
        ready="!!document.querySelector('[data-testid=portal-dashboard] input[name=username]')?.value",
        click="role=tab[name='Settings']",
        base="portal",
    ),
]
BY_NAME = {s.name: s for s in SECTIONS}

# Runs before any page script: notes, in page time, when the websocket first and last received a message and when the
# page became hydrated (Reflex sends is_hydrated=true once the page's on_load handlers are done). It only listens.
WS_HOOK = r"""
(() => {
  const Native = window.WebSocket;
  const bench = (window.__bench = { firstMessage: 0, hydrated: 0, lastMessage: 0, messages: 0 });
  const hydrated = /"is_hydrated_rx_state_"\s*:\s*true/;
  class BenchSocket extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        bench.lastMessage = performance.now();
        bench.firstMessage ||= bench.lastMessage;
        bench.messages += 1;
        if (typeof e.data === "string" && hydrated.test(e.data)) bench.hydrated = bench.lastMessage;
      });
    }
  }
  window.WebSocket = BenchSocket;
})();
"""


@dataclass
class Sample:
    """One visit of one section."""

    outcome: str = "rows"  # rows, empty, error, restricted, timeout, redirected ..., failed: ...
    first_rows_ms: float | None = None
    html_ms: float | None = None  # navigation start to the page's HTML received (pages only, not tabs)
    socket_ms: float | None = None  # navigation start to the first websocket message (pages only, not tabs)
    data_ms: float | None = None  # start to the websocket message last received before the rows showed
    max_frame: int = 0
    ws_bytes: int = 0
    frames: int = 0
    rows: int | None = None
    state_bytes: int | None = None
    state_keys: int | None = None
    note: str = ""


@dataclass
class Result:
    section: Section
    samples: list[Sample] = field(default_factory=list)


def say(line: str = "") -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


# --- database, Redis, server ------------------------------------------------------------------------------------------


def _admin_conn(pg: str) -> psycopg.Connection:
    return psycopg.connect(f"{pg}/postgres", autocommit=True)


def create_database(pg: str, name: str) -> str:
    with _admin_conn(pg) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{pg}/{name}"


def drop_database(pg: str, name: str) -> None:
    with _admin_conn(pg) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def app_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of the project's commands and server, with the toolchain and switches of `make run`."""
    return server.toolchain_env(
        {
            **os.environ,
            "APP_ENV": "dev",  # as `make run`: demo accounts exist
            "DATABASE_URL": database_url.replace("postgresql://", "postgresql+psycopg://", 1),
            **extra,
        }
    )


def prepare_database(args: argparse.Namespace) -> tuple[str, dict[str, int], float]:
    """A fresh, migrated, seeded database: its URL, the row counts and the seconds the bulk load took."""
    url = f"{args.pg}/{args.db_name}"
    if args.reuse_db:
        with psycopg.connect(url, autocommit=True) as conn:
            return url, bench_seed.table_counts(conn), 0.0
    say(f"Creating database {args.db_name} and applying the migrations")
    create_database(args.pg, args.db_name)
    env = app_env(url)
    server.app_cli(env, "migrate", "seed-demo")
    say(f"Bulk-loading the rows (scale {args.scale:g})")
    started = time.monotonic()
    counts = bench_seed.seed(url, args.scale, say=say)
    return url, counts, time.monotonic() - started


@contextmanager
def running_server(database_url: str, redis_url: str, args: argparse.Namespace) -> Iterator[tuple[str, Any]]:
    extra = {
        "REDIS_URL": redis_url,
        "DATA_DIR": tempfile.mkdtemp(prefix="bench-data-"),
        # A full run takes longer than the staff idle limit (10 minutes); this keeps the admin signed in.
        "STAFF_IDLE_MINUTES": "240",
    }
    if args.workers:
        extra["GRANIAN_WORKERS"] = str(args.workers)
    log_path = OUT / "server.log"
    say(f"Starting the server (log: {log_path.relative_to(ROOT)})")
    started = time.monotonic()
    try:
        app = server.start(app_env(database_url, **extra), log_path, timeout_s=args.startup_timeout)
    except server.ServerFailed as exc:
        raise SystemExit(str(exc)) from exc
    say(f"Server ready on {app.url} in {time.monotonic() - started:.0f} s")
    try:
        yield app.url, app.proc
    finally:
        app.stop(timeout_s=30)


def state_size(r: redis.Redis, token: str) -> tuple[int, int]:
    """Summed value sizes and number of the tab's state keys (`<token>_<state full name>`, one per substate)."""
    total = keys = 0
    for key in r.scan_iter(match=f"{token}_*", count=1000):
        name = key.decode()
        if name.endswith(("_lock", "_lock_waiters")):
            continue
        total += int(r.strlen(key))
        keys += 1
    return total, keys


# --- the browser side -------------------------------------------------------------------------------------------------


def _ready_js(section: Section, terminal: str, since: float) -> str:
    check = section.ready or f"vis(document.querySelector({json.dumps(section.rows)}))"
    empty = json.dumps(section.empty)
    return f"""() => {{
  const vis = (el) => !!el && el.getClientRects().length > 0;
  const b = window.__bench || {{}};
  const now = performance.now();
  if ({check}) return {{ kind: "rows", t: now, data: b.lastMessage || 0 }};
  const stop = document.querySelector({json.dumps(terminal)});
  if (vis(stop)) {{
    const restricted = stop.getAttribute("data-testid") === "access-restricted";
    return {{ kind: restricted ? "restricted" : "error: " + stop.innerText.slice(0, 80), t: now }};
  }}
  if (location.pathname.replace(/\\/$/, "") !== {json.dumps(section.path)})
    return {{ kind: "redirected to " + location.pathname, t: now }};
  const settled = b.hydrated && b.lastMessage > {since} && now - b.lastMessage > {QUIET_MS};
  if ({empty} && settled && vis(document.querySelector({empty}))) return {{ kind: "empty", t: b.lastMessage }};
  return false;
}}"""


def _settle(page: Page, need_hydrated: bool) -> None:
    """Wait until the websocket has been quiet for QUIET_MS (and the page hydrated), at most SETTLE_CAP_MS."""
    cond = f"performance.now() - (window.__bench?.lastMessage || 0) > {QUIET_MS}"
    if need_hydrated:
        cond += " && window.__bench?.hydrated > 0"
    with suppress(PlaywrightTimeout):
        page.wait_for_function(f"() => {cond}", timeout=SETTLE_CAP_MS, polling=100)


def _frame_size(payload: str | bytes) -> int:
    return len(payload.encode()) if isinstance(payload, str) else len(payload)


def visit(
    context: BrowserContext, url: str, section: Section, r: redis.Redis, timeout_ms: int, terminal: str
) -> Sample:
    sample = Sample()
    page = context.new_page()
    frames: list[int] = []

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(_frame_size(payload)))

    page.on("websocket", on_socket)
    try:
        since, start_at = 0.0, 0.0
        target = section
        if section.base:
            # Open the page, let it settle, then measure the tab from the click.
            base = BY_NAME[section.base]
            page.goto(url + base.path, wait_until="commit", timeout=timeout_ms)
            page.wait_for_function(_ready_js(base, terminal, 0), timeout=timeout_ms, polling="raf")
            _settle(page, need_hydrated=True)
            first_frame = len(frames)
            since = start_at = float(page.evaluate("performance.now()"))
            assert section.click is not None
            page.locator(section.click).first.click(timeout=timeout_ms)
        else:
            first_frame = 0
            page.goto(url + target.path, wait_until="commit", timeout=timeout_ms)
        try:
            found = page.wait_for_function(_ready_js(target, terminal, since), timeout=timeout_ms, polling="raf")
            value = found.json_value()
            sample.outcome = str(value["kind"])
            sample.first_rows_ms = float(value["t"]) - start_at
            if value.get("data"):
                sample.data_ms = float(value["data"]) - start_at
        except PlaywrightTimeout:
            sample.outcome = "timeout"
            sample.note = f"no rows after {timeout_ms / 1000:.0f} s"
        _settle(page, need_hydrated=not section.base)
        if not section.base:
            sample.socket_ms = float(page.evaluate("window.__bench.firstMessage")) or None
            sample.html_ms = float(page.evaluate("performance.getEntriesByType('navigation')[0].responseEnd")) or None
        received = frames[first_frame:]
        sample.frames, sample.ws_bytes, sample.max_frame = len(received), sum(received), max(received, default=0)
        sample.rows = int(page.evaluate(f"document.querySelectorAll({json.dumps(section.rows)}).length"))
        token = page.evaluate("window.sessionStorage.getItem('token')")
        if token:
            sample.state_bytes, sample.state_keys = state_size(r, str(token))
        else:
            sample.note = (sample.note + "; " if sample.note else "") + "no state token in sessionStorage"
    except Exception as exc:  # one broken section must not stop the run
        sample.outcome = f"failed: {type(exc).__name__}"
        sample.note = str(exc).splitlines()[0][:160] if str(exc) else ""
        received = frames
        sample.frames, sample.ws_bytes, sample.max_frame = len(received), sum(received), max(received, default=0)
    finally:
        with suppress(Exception):
            page.close()
    return sample


def sign_in(
    browser: Browser, url: str, path: str, who: tuple[str, str], landed: str, *, database_url: str
) -> BrowserContext:
    """A browser context signed in, checked by opening `path` and seeing `landed` (a selector of the page after it).
    The client signs in through the real form on `path`. Staff must pass a second factor at sign-in (ADR 0103) and a
    benchmark has no phone, so the admin's browser gets a session opened in the database (tools/dev/signed_in.py)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(WS_HOOK)
    page = context.new_page()
    if who == ADMIN:
        token = access_token(who[0], database_url.replace("postgresql://", "postgresql+psycopg://", 1))
        context.add_cookies([{"name": "access_token", "value": token, "url": url, "httpOnly": True}])
    page.goto(url + path)
    if who != ADMIN:
        # Required fields add a visual " *" to their label.
        page.get_by_label(re.compile(r"^Username or Email( \*)?$")).fill(who[0])
        page.get_by_label(re.compile(r"^Password( \*)?$")).fill(who[1])
        page.get_by_role("button", name="Sign In").click()
    page.locator(landed).first.wait_for(timeout=120_000)
    page.close()
    return context


# --- the report -------------------------------------------------------------------------------------------------------


def _kb(n: float | None) -> str:
    if n is None:
        return "-"
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f} MB"
    if n >= 1_000:
        return f"{n / 1_000:.1f} KB"
    return f"{int(n)} B"


def _median(values: list[float | int | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def _verdict(value: float | None, limit: float, failed: bool = False) -> str:
    if failed or value is None:
        return "FAIL"
    return "pass" if value < limit else "FAIL"


def summarize(result: Result) -> dict[str, Any]:
    s = result.samples
    bad = [x for x in s if x.outcome not in ("rows", "empty")]
    first = _median([x.first_rows_ms for x in s if x.outcome in ("rows", "empty")])
    frame = _median([x.max_frame for x in s])
    state = _median([x.state_bytes for x in s])
    notes = []
    if bad:
        notes.append(f"{len(bad)}/{len(s)} runs: " + ", ".join(sorted({x.outcome for x in bad})))
    if empties := sum(x.outcome == "empty" for x in s):
        notes.append(f"empty state in {empties}/{len(s)} runs")
    notes += sorted({x.note for x in s if x.note})
    return {
        "first": first,
        "first_ok": _verdict(first, TARGET_FIRST_ROWS_MS, failed=bool(bad)),
        "html": _median([x.html_ms for x in s]),
        "socket": _median([x.socket_ms for x in s]),
        "data": _median([x.data_ms for x in s if x.outcome == "rows"]),
        "runs": " / ".join("-" if x.first_rows_ms is None else f"{x.first_rows_ms:.0f}" for x in s),
        "frame": frame,
        "frame_ok": _verdict(frame, TARGET_FRAME_BYTES),
        "ws": _median([x.ws_bytes for x in s]),
        "frames": _median([x.frames for x in s]),
        "rows": _median([x.rows for x in s]),
        "state": state,
        "keys": _median([x.state_keys for x in s]),
        "state_ok": _verdict(state, TARGET_STATE_BYTES),
        "notes": "; ".join(notes),
    }


def _machine() -> dict[str, str]:
    mem = "?"
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cores": str(os.cpu_count()), "memory": mem, "cpu": cpu}


def render_report(
    results: list[Result],
    *,
    meta: dict[str, str],
    counts: dict[str, int],
    runs: int,
) -> str:
    lines = [
        "# Staff panel and portal benchmark",
        "",
        f"- When: {meta['when']} (took {meta['duration']}); commit `{meta['commit']}` on `{meta['branch']}`",
        f"- Command: `{meta['command']}`",
        f"- Machine: {meta['cores']} cores ({meta['cpu']}), {meta['memory']} memory, "
        f"load average {meta['load_start']} at start, {meta['load_end']} at the end",
        f"- Server: `make serve` (Reflex {meta['reflex']}'s production backend, one port), state in Redis "
        f"({meta['redis_url']}), {meta['workers']}; PostgreSQL {meta['postgres']}; Chromium {meta['chromium']}",
        "- Seed: " + ", ".join(f"{v:,} {k}" for k, v in counts.items()) + f" (bulk load {meta['seed_time']})",
        f"- Each section opened {runs} times in a new browser tab; the table shows medians (first rows: every run).",
        "",
        f"Targets: first rows < {TARGET_FIRST_ROWS_MS / 1000:g} s, largest websocket frame < "
        f"{_kb(TARGET_FRAME_BYTES)}, server state < {_kb(TARGET_STATE_BYTES)} per tab (1 KB = 1,000 bytes).",
        "",
        "| section | first rows | | runs (ms) | HTML in | socket up | data in | largest frame | | ws received (frames) "
        "| rows in DOM | state (keys) | | notes |",
        "|---|---:|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|",
    ]
    for result in results:
        m = summarize(result)
        sec = result.section
        where = f"{sec.path} → {sec.name.split('/')[-1]} tab" if sec.base else sec.path
        first = "-" if m["first"] is None else f"{m['first']:.0f} ms"
        html, sock, data = ("-" if m[k] is None else f"{m[k]:.0f} ms" for k in ("html", "socket", "data"))
        frames = "-" if m["frames"] is None else f"{m['frames']:.0f}"
        rows = "-" if m["rows"] is None else f"{m['rows']:.0f}"
        keys = "-" if m["keys"] is None else f"{m['keys']:.0f}"
        lines.append(
            f"| {sec.name} (`{where}`) | {first} | {m['first_ok']} | {m['runs']} | {html} | {sock} | {data} "
            f"| {_kb(m['frame'])} | {m['frame_ok']} | {_kb(m['ws'])} ({frames}) | {rows} | {_kb(m['state'])} ({keys}) "
            f"| {m['state_ok']} | {m['notes']} |"
        )
    lines += [
        "",
        "How to read it:",
        "- first rows: page navigation start until the section's first row or card is visible (an empty state counts "
        "once the websocket is quiet); for a tab (`→ ... tab`), from the click on the tab, after the page settled.",
        "- HTML in: navigation start until the page's HTML was received (the navigation's responseEnd).",
        "- socket up: navigation start until the first websocket message (page scripts loaded, socket connected, "
        "first state received): the part of first rows that no section's data causes.",
        "- data in: from the same start until the websocket message last received before the rows showed (the one "
        "that carried them); first rows minus data in is the browser's render of them.",
        "- largest frame and ws received: websocket frames the browser received (uncompressed payloads) until the "
        "websocket was quiet for 0.6 s; for a tab, only those after the click.",
        "- state: the sum of the Redis value sizes (STRLEN) of the browser tab's state keys `<token>_<state>`, "
        "one per substate, after the section settled; for a tab, the whole browser tab's state after the click.",
        "- ceiling: a public page's first websocket message, in the same run: no page can show server data sooner; "
        "a section's first rows minus this is what the section itself costs.",
        "- A run that timed out, showed an error or was redirected fails its row's first-rows target.",
    ]
    return "\n".join(lines) + "\n"


# --- main -------------------------------------------------------------------------------------------------------------


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _preflight(args: argparse.Namespace) -> redis.Redis:
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Chromium is needed at {CHROMIUM} (sudo apt-get install chromium)")
    try:
        with _admin_conn(args.pg) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        raise SystemExit(f"PostgreSQL does not answer at {args.pg}: {exc}") from exc
    r = redis.Redis.from_url(args.redis_url)
    try:
        r.ping()
    except redis.RedisError as exc:
        raise SystemExit(
            f"Redis does not answer at {args.redis_url} ({exc}); start it with "
            "`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no`"
        ) from exc
    return r


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    OUT.mkdir(exist_ok=True)
    r = _preflight(args)
    sections = [s for s in SECTIONS if not args.only or s.name in args.only]
    if args.only and (unknown := set(args.only) - set(BY_NAME)):
        raise SystemExit(f"unknown section(s): {', '.join(sorted(unknown))}; known: {', '.join(BY_NAME)}")
    meta = {
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _git("rev-parse", "--short", "HEAD"),
        "branch": _git("rev-parse", "--abbrev-ref", "HEAD"),
        "command": shlex.join(["python", "tools/bench/bench_admin.py", *sys.argv[1:]]),
        "load_start": _load(),
        "reflex": metadata.version("reflex"),
        "redis_url": args.redis_url,
        "workers": f"{args.workers} workers (GRANIAN_WORKERS)"
        if args.workers
        else f"{min((os.cpu_count() or 1) * 2 + 1, 8)} workers (Reflex's default with Redis)",
        **_machine(),
    }
    database_url, counts, seed_seconds = prepare_database(args)
    meta["seed_time"] = f"{seed_seconds:.0f} s" if not args.reuse_db else "reused database"
    with psycopg.connect(database_url, autocommit=True) as conn:
        meta["postgres"] = str(conn.execute("SHOW server_version").fetchone()[0])  # type: ignore[index]
    flushed = r.dbsize()
    r.flushdb()
    say(f"Emptied Redis {args.redis_url} ({flushed} keys)")
    results = [Result(s) for s in sections]
    try:
        with running_server(database_url, args.redis_url, args) as (url, proc), sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            meta["chromium"] = browser.version
            contexts: dict[str, BrowserContext] = {}
            if any(s.role == "admin" for s in sections):
                contexts["admin"] = sign_in(
                    browser, url, "/admin/dashboard", ADMIN, "[data-testid=welcome-line]", database_url=database_url
                )
            if any(s.role == "client" for s in sections):
                contexts["client"] = sign_in(
                    browser, url, "/client-portal", CLIENT, "[data-testid=portal-dashboard]", database_url=database_url
                )
            terminals = {"admin": ADMIN_TERMINAL, "client": CLIENT_TERMINAL}
            for run_no in range(1, args.runs + 1):
                for result in results:
                    sec = result.section
                    if proc.poll() is not None:
                        sample = Sample(outcome="failed: server down", note=f"server exited with {proc.returncode}")
                    else:
                        sample = visit(contexts[sec.role], url, sec, r, args.timeout * 1000, terminals[sec.role])
                    result.samples.append(sample)
                    first = "-" if sample.first_rows_ms is None else f"{sample.first_rows_ms:.0f} ms"
                    say(
                        f"  run {run_no} {sec.name:<18} {sample.outcome:<10} first rows {first:>9}  "
                        f"max frame {_kb(sample.max_frame):>9}  ws {_kb(sample.ws_bytes):>9}  "
                        f"rows {sample.rows if sample.rows is not None else '-':>5}  state {_kb(sample.state_bytes):>9}"
                        + (f"  ({sample.note})" if sample.note else "")
                    )
            browser.close()
    finally:
        r.flushdb()
        if not args.keep_db and not args.reuse_db:
            drop_database(args.pg, args.db_name)
    minutes, seconds = divmod(int(time.monotonic() - started), 60)
    meta["duration"] = f"{minutes} min {seconds} s"
    meta["load_end"] = _load()
    report = render_report(results, meta=meta, counts=counts, runs=args.runs)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(report)
    raw = {r.section.name: [dataclasses.asdict(x) for x in r.samples] for r in results}
    args.report.with_suffix(".json").write_text(json.dumps({"meta": meta, "seed": counts, "samples": raw}, indent=1))
    say()
    say(report)
    say(f"Written to {args.report}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies the seed sizes (default 1.0: full size)")
    parser.add_argument("--runs", type=int, default=3, help="visits per section; the report shows medians")
    parser.add_argument("--timeout", type=int, default=120, help="seconds a section may take to show its rows")
    parser.add_argument("--only", action="append", metavar="SECTION", help="measure only these sections")
    parser.add_argument("--db-name", default="bench_admin", help="the database created (and dropped) for the run")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432", help="PostgreSQL server URL")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7", help="a Redis database of its own")
    parser.add_argument("--workers", type=int, help="GRANIAN_WORKERS for the server (default: Reflex decides)")
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards")
    parser.add_argument("--reuse-db", action="store_true", help="use the database as it is (no create, no seed)")
    parser.add_argument("--startup-timeout", type=int, default=600, help="seconds the server may take to start")
    parser.add_argument("--report", type=Path, default=OUT / "report.md")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
