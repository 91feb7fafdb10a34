"""Websocket benchmark: N connected tabs on one worker, each sending an event a second (issue 14).

    python tools/bench/bench_ws.py                           # 200 tabs (3 of them headless Chromium), 60 s, one run
    python tools/bench/bench_ws.py --tabs 200 --runs 3       # the median of three runs, each on a fresh server
    python tools/bench/bench_ws.py --tabs 20 --seconds 10    # a quick look

What it does, per run:
1. starts the app as `make run` serves it (the build, then `make serve`, tools/server.py) on a
   free port over a PostgreSQL database of its own (`ws_bench`, migrated and seeded with the demo content) and with
   no REDIS_URL: Reflex then runs one worker and keeps every tab's state in that process's memory;
2. warms it up (each public page fetched once, one tab hydrated and sent a few events, then closed) and takes the
   server's memory: the resident memory (RSS) of its whole process group;
3. opens the tabs in batches (so the server is not flooded with connections at once): `--browsers` headless Chromium
   pages on `/`, and the rest socket.io clients speaking Reflex's event protocol as the browser's script does
   (tests/e2e/test_websocket_fuzz.py does the same): a token of their own in the handshake, the page's hydrate
   event in the CONNECT packet, and they wait, as a page does, until the server says the page is hydrated;
4. for `--seconds`, every tab sends one event a second (the protocol clients spread evenly over the second): the
   footer newsletter box's `again` (NewsletterState in app/ui/components/footer.py), a public handler that stores
   nothing and answers with a small delta. Round trip: from sending the event to receiving the delta of
   NewsletterState it causes; a tab's events are answered in order, so the n-th such delta answers its n-th event.
   The Chromium pages send the same event over their own websocket and time it in the page (performance.now());
5. takes the server's memory again with every tab still connected, waits a few seconds for late answers and stops.

Reported (bench/report.md, section "Websocket tabs (issue 14)", and stdout): tabs connected, events sent, answered
and lost (never answered), round-trip p50/p95/p99 (all tabs; the browsers' on their own), the server's RSS before
and with the tabs, memory per tab = (RSS with the tabs - RSS before) / tabs, the CPU the server and this
script's own process used during the window (a client short of CPU would slow the figures it measures) and how busy
the whole machine was (on a shared machine, other work competes with the server for the cores).
Targets of the issue: p95 < 50 ms at 200 tabs, < 200 KB of server memory per public tab (1 KB = 1,000 bytes).
With --runs > 1 every figure is the median of the runs. Exit status 0 even when a target is missed (the report
says so); 1 when tabs could not be connected or events were lost.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx
import socketio

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
os.environ.setdefault("LOAD_DB_NAME", "ws_bench")
from tests.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools import server  # noqa: E402
from tools.bench import load as served  # noqa: E402  (the load run's database, the server's memory)
from tools.reliability.torture import replace_section  # noqa: E402  (one "## ..." section of a report replaced)

OUT = ROOT / "bench"
# Reflex's event protocol, as tests/e2e/test_websocket_fuzz.py speaks it (copied: importing that module imports
# tests/e2e/conftest.py, which points the settings at a test database).
NAMESPACE = "/_event"  # the socket.io namespace is the endpoint's path, as the browser's client derives it
ROOT_STATE = "reflex___state____state"
HYDRATE = f"{ROOT_STATE}.hydrate_and_load"
PAGE = "/"  # a public page: what most of the 200 tabs would have open

TARGET_P95_MS = 50.0
TARGET_BYTES_PER_TAB = 200_000  # 200 KB
SECTION = "Websocket tabs (issue 14)"

# Runs in each Chromium page before its scripts: keeps the page's own websocket (Reflex's) and, once started, sends
# the benchmark's event over it every second, timing each answer in the page. It only listens otherwise.
BROWSER_HOOK = r"""
(() => {
  const Native = window.WebSocket;
  const b = (window.__wsBench = { sock: null, pending: [], rtts: [], sent: 0, late: 0, hydrated: false, timer: 0 });
  const hydrated = /"is_hydrated_rx_state_"\s*:\s*true/;
  class BenchSocket extends Native {
    constructor(...args) {
      super(...args);
      if (!String(args[0]).includes("/_event")) return;
      b.sock = this;
      this.addEventListener("message", (e) => {
        if (typeof e.data !== "string") return;
        const now = performance.now();
        if (hydrated.test(e.data)) b.hydrated = true;
        if (b.state && e.data.startsWith("42/_event,") && e.data.includes('"' + b.state + '"') && b.pending.length)
          b.rtts.push(now - b.pending.shift());
      });
    }
  }
  window.WebSocket = BenchSocket;
  b.start = (event, state) => {
    b.state = state;
    const frame = () => "42/_event," + JSON.stringify(["event", {
      name: event, payload: {}, router_data: { pathname: location.pathname, asPath: location.pathname },
    }]);
    b.timer = setInterval(() => {
      if (!b.sock || b.sock.readyState !== 1) return;
      b.pending.push(performance.now());
      b.sent += 1;
      b.sock.send(frame());
    }, 1000);
  };
  b.stop = () => clearInterval(b.timer);
})();
"""


def say(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _event_names() -> tuple[str, str]:
    """The benchmark event's full name and its state's, as the compiled frontend names them."""
    from app.ui.components.footer import NewsletterState

    state = NewsletterState.get_full_name()
    return f"{state}.again", state


# --- one protocol tab ---------------------------------------------------------------------------------------------


class ProtocolTab:
    """One browser tab's websocket, spoken to as Reflex's page script does: a token of its own, the page's hydrate
    in the CONNECT packet, then events; every event's round trip is timed."""

    def __init__(self, url: str, event: str, state: str) -> None:
        self.url, self.event, self.state = url, event, state
        self.token = str(uuid.uuid4())
        self.hydrated = threading.Event()
        self.pending: deque[float] = deque()
        self.rtts: list[float] = []
        self.answered_sent_at: list[float] = []  # when each answered event was sent (the timeline in --json)
        self.sent = 0
        self.lock = threading.Lock()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("event", self._on_event, namespace=NAMESPACE)

    def _router_data(self) -> dict[str, Any]:
        return {"pathname": PAGE, "asPath": PAGE}

    def _on_event(self, data: Any) -> None:
        now = time.perf_counter()
        delta = (data or {}).get("delta") or {}
        if self.state in delta:
            with self.lock:
                # The hydrate's full delta names the state too, before any event was sent: nothing is pending then.
                if self.pending:
                    sent_at = self.pending.popleft()
                    self.rtts.append(now - sent_at)
                    self.answered_sent_at.append(sent_at)
        if (delta.get(ROOT_STATE) or {}).get("is_hydrated_rx_state_") is True:
            self.hydrated.set()

    def open(self, timeout: float = 60) -> None:
        hydrate = {"name": HYDRATE, "payload": {}, "router_data": self._router_data()}
        self.sio.connect(
            f"{self.url}/?token={self.token}",
            socketio_path="/_event",
            transports=["websocket"],
            namespaces=[NAMESPACE],
            auth={"event": hydrate},  # the page's first event rides in the CONNECT packet, as Reflex's script sends it
            wait_timeout=timeout,
        )
        if not self.hydrated.wait(timeout):
            raise TimeoutError(f"tab {self.token} not hydrated within {timeout:.0f} s")

    def send(self) -> None:
        with self.lock:
            self.pending.append(time.perf_counter())
            self.sent += 1
        message = {"name": self.event, "payload": {}, "router_data": self._router_data()}
        self.sio.emit("event", message, namespace=NAMESPACE)

    def close(self) -> None:
        with contextlib.suppress(Exception):  # a tab the server dropped already: nothing to close
            self.sio.disconnect()


# --- the server's process group ----------------------------------------------------------------------------------


def _cpu_seconds(pgid: int) -> float:
    """User + system CPU time of every process in the group (field 14 and 15 of /proc/<pid>/stat, in ticks)."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _machine_ticks() -> tuple[int, int]:
    """All cores' (busy, total) clock ticks since boot, from /proc/stat (busy: all but idle and iowait)."""
    values = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    total = sum(values[:8])  # user nice system idle iowait irq softirq steal (guest time is inside user)
    return total - values[3] - values[4], total


def _rss_bytes(pgid: int) -> int:
    return int(served.rss_mb(pgid) * 1024 * 1024)


# --- one run ------------------------------------------------------------------------------------------------------


@dataclass
class Run:
    tabs_wanted: int
    connected: int = 0
    browsers: int = 0
    failed_to_connect: int = 0
    connect_errors: list[str] = field(default_factory=list)
    ramp_s: float = 0.0
    sent: int = 0
    answered: int = 0
    rtts_ms: list[float] = field(default_factory=list)
    timeline: list[dict[str, float]] = field(default_factory=list)  # per second of the window: events, p50, max
    browser_sent: int = 0
    browser_rtts_ms: list[float] = field(default_factory=list)
    dropped_tabs: int = 0
    rss_before: int = 0
    rss_connected: int = 0  # every tab connected and hydrated, before the window's events
    rss_with_tabs: int = 0
    rss_peak: int = 0
    server_cpu_pct: float = 0.0
    machine_busy_pct: float = 0.0  # all cores, everything on the machine (other people's work included)
    client_cpu_pct: float = 0.0
    window_s: float = 0.0

    @property
    def lost(self) -> int:
        return self.sent - self.answered

    @property
    def per_tab(self) -> float | None:
        return (self.rss_with_tabs - self.rss_before) / self.connected if self.connected else None

    def quantiles(self, browsers_only: bool = False) -> dict[str, float | None]:
        ms = sorted(self.browser_rtts_ms if browsers_only else self.rtts_ms)
        if len(ms) < 2:
            return {"p50": ms[0] if ms else None, "p95": ms[0] if ms else None, "p99": ms[0] if ms else None}
        q = statistics.quantiles(ms, n=100)
        return {"p50": q[49], "p95": q[94], "p99": q[98]}


def _warm_up(url: str, event: str, state: str) -> None:
    """The first request of each page and the first tab's first events are not part of the measurement."""
    for path in served.PAGES:
        httpx.get(url + path, timeout=60)
    tab = ProtocolTab(url, event, state)
    tab.open()
    for _ in range(5):
        tab.send()
        time.sleep(0.2)
    time.sleep(1)
    tab.close()


def _open_protocol_tabs(url: str, n: int, batch: int, event: str, state: str, run: Run) -> list[ProtocolTab]:
    tabs: list[ProtocolTab] = []
    with ThreadPoolExecutor(max_workers=batch) as pool:
        for start in range(0, n, batch):
            group = [ProtocolTab(url, event, state) for _ in range(min(batch, n - start))]
            for tab, outcome in zip(group, pool.map(_try_open, group), strict=True):
                if outcome is None:
                    tabs.append(tab)
                else:
                    run.failed_to_connect += 1
                    run.connect_errors.append(outcome)
                    tab.close()
            say(f"  {len(tabs)} protocol tabs hydrated")
            time.sleep(0.5)  # let the server settle between batches, as visitors do not all arrive at one instant
    return tabs


def _try_open(tab: ProtocolTab) -> str | None:
    try:
        tab.open()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"[:200]
    return None


def _drive(tabs: list[ProtocolTab], seconds: float, stop: threading.Event) -> None:
    """Each tab sends one event a second, the tabs spread evenly over the second (people do not click in step)."""
    n = len(tabs)
    start = time.perf_counter()
    tick = 0
    while not stop.is_set():
        for i, tab in enumerate(tabs):
            due = start + tick + i / n
            if due - start >= seconds:
                return
            if (wait := due - time.perf_counter()) > 0:
                time.sleep(wait)
            if stop.is_set():
                return
            if tab.sio.connected:
                tab.send()
        tick += 1


def one_run(args: argparse.Namespace, env: dict[str, str], run_no: int, event: str, state: str) -> Run:
    log = OUT / "server-ws.log"  # bench/server* is git-ignored
    say(f"run {run_no}: starting the server (log: {log.relative_to(ROOT)})…")
    started = time.monotonic()
    app = server.start(env, log, timeout_s=900)
    proc = app.proc
    say(f"  ready on {app.url} in {time.monotonic() - started:.0f} s")
    url = app.url
    run = Run(tabs_wanted=args.tabs)
    tabs: list[ProtocolTab] = []
    try:
        _warm_up(url, event, state)
        time.sleep(2)
        run.rss_before = _rss_bytes(proc.pid)
        say(f"  RSS with no tab connected: {run.rss_before / 1e6:.1f} MB")
        browsers = min(args.browsers, args.tabs)
        pw = None
        pages: list[Any] = []
        ramp_started = time.monotonic()
        if browsers:
            from playwright.sync_api import sync_playwright

            pw = sync_playwright().start()
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(browsers):
                context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone's viewport
                context.add_init_script(BROWSER_HOOK)
                page = context.new_page()
                page.goto(url + PAGE)
                page.wait_for_function("() => window.__wsBench && window.__wsBench.hydrated", timeout=60_000)
                pages.append(page)
            say(f"  {len(pages)} Chromium pages hydrated")
        try:
            tabs = _open_protocol_tabs(url, args.tabs - browsers, args.batch, event, state, run)
            run.ramp_s = time.monotonic() - ramp_started
            run.browsers = len(pages)
            run.connected = len(tabs) + len(pages)
            time.sleep(2)  # the last batch's hydration settled
            run.rss_connected = _rss_bytes(proc.pid)
            say(f"  {run.connected} tabs connected in {run.ramp_s:.0f} s; sending one event a second each…")
            stop = threading.Event()
            driver = threading.Thread(target=_drive, args=(tabs, args.seconds, stop), daemon=True)
            cpu0, own0, t0, ticks0 = _cpu_seconds(proc.pid), _own_cpu(), time.monotonic(), _machine_ticks()
            window_start = time.perf_counter()
            for page in pages:
                page.evaluate("([e, s]) => window.__wsBench.start(e, s)", [event, state])
            driver.start()
            run.rss_peak = run.rss_before
            while driver.is_alive():
                driver.join(timeout=5)
                run.rss_peak = max(run.rss_peak, _rss_bytes(proc.pid))
            for page in pages:
                page.evaluate("() => window.__wsBench.stop()")
            run.window_s = time.monotonic() - t0
            run.server_cpu_pct = 100 * (_cpu_seconds(proc.pid) - cpu0) / run.window_s
            run.client_cpu_pct = 100 * (_own_cpu() - own0) / run.window_s
            ticks1 = _machine_ticks()
            run.machine_busy_pct = 100 * (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1])
            run.rss_with_tabs = _rss_bytes(proc.pid)
            run.rss_peak = max(run.rss_peak, run.rss_with_tabs)
            time.sleep(args.grace)  # answers still on their way are answered, not lost
            run.dropped_tabs = sum(not t.sio.connected for t in tabs)
            by_second: dict[int, list[float]] = {}
            for tab in tabs:
                with tab.lock:
                    run.sent += tab.sent
                    run.answered += len(tab.rtts)
                    run.rtts_ms += [x * 1000 for x in tab.rtts]
                    for sent_at, rtt in zip(tab.answered_sent_at, tab.rtts, strict=True):
                        by_second.setdefault(int(sent_at - window_start), []).append(rtt * 1000)
            # Slow answers all in the same seconds point at the server stalling for every tab at once (a pause of
            # its event loop), slow answers spread evenly at a server short of CPU for its queue.
            run.timeline = [
                {"second": s, "events": len(v), "p50_ms": statistics.median(v), "max_ms": max(v)}
                for s, v in sorted(by_second.items())
            ]
            for page in pages:
                b = page.evaluate("() => ({ sent: window.__wsBench.sent, rtts: window.__wsBench.rtts })")
                run.browser_sent += b["sent"]
                run.browser_rtts_ms += b["rtts"]
                run.sent += b["sent"]
                run.answered += len(b["rtts"])
                run.rtts_ms += b["rtts"]
        finally:
            for tab in tabs:
                tab.close()
            if pw is not None:
                pw.stop()
    finally:
        app.stop()
    return run


def _own_cpu() -> float:
    t = os.times()
    return t.user + t.system


# --- the report ---------------------------------------------------------------------------------------------------


def _median(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f} ms"


def _verdict(value: float | None, target: float) -> str:
    if value is None:
        return "-"
    return f"{value / target:.2f} ({'pass' if value < target else 'FAIL'})"


def summarize(runs: list[Run]) -> dict[str, Any]:
    q = [r.quantiles() for r in runs]
    qb = [r.quantiles(browsers_only=True) for r in runs]
    return {
        "connected": _median([r.connected for r in runs]),
        "browsers": _median([r.browsers for r in runs]),
        "sent": _median([r.sent for r in runs]),
        "answered": _median([r.answered for r in runs]),
        "lost": _median([r.lost for r in runs]),
        "p50": _median([x["p50"] for x in q]),
        "p95": _median([x["p95"] for x in q]),
        "p99": _median([x["p99"] for x in q]),
        "b_p50": _median([x["p50"] for x in qb]),
        "b_p95": _median([x["p95"] for x in qb]),
        "b_sent": _median([r.browser_sent for r in runs]),
        "b_answered": _median([len(r.browser_rtts_ms) for r in runs]),
        "rss_before": _median([r.rss_before for r in runs]),
        "rss_connected": _median([r.rss_connected for r in runs]),
        "rss_with": _median([r.rss_with_tabs for r in runs]),
        "per_tab": _median([r.per_tab for r in runs]),
        "server_cpu": _median([r.server_cpu_pct for r in runs]),
        "client_cpu": _median([r.client_cpu_pct for r in runs]),
        "machine_busy": _median([r.machine_busy_pct for r in runs]),
        "ramp": _median([r.ramp_s for r in runs]),
        "failed": sum(r.failed_to_connect for r in runs),
        "dropped": sum(r.dropped_tabs for r in runs),
    }


def _machine() -> str:
    mem = "?"
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    return f"{os.cpu_count()} cores ({platform.machine()}), {mem} memory"


def render(runs: list[Run], meta: dict[str, str], args: argparse.Namespace) -> list[str]:
    s = summarize(runs)
    per_run = "; ".join(
        f"run {i}: p95 {_ms(r.quantiles()['p95'])}, "
        + ("-" if r.per_tab is None else f"{r.per_tab / 1000:.0f} KB/tab")
        + f", {r.lost} lost"
        for i, r in enumerate(runs, 1)
    )
    per_tab = s["per_tab"]
    lines = [
        "",
        f"## {SECTION}",
        "",
        f"- When: {meta['when']} (took {meta['duration']}); commit `{meta['commit']}` on `{meta['branch']}`",
        f"- Command: `{meta['command']}`",
        f"- Machine: {meta['machine']}, load average {meta['load_start']} at start, {meta['load_end']} at the end",
        f"- Server: `make serve` (Reflex {meta['reflex']}'s production backend), one worker, state in memory "
        "(no REDIS_URL), PostgreSQL with the demo content",
        f"- Tabs: {args.tabs} ({args.browsers} headless Chromium on `{PAGE}`, the rest socket.io clients speaking "
        f"Reflex's protocol), opened in batches of {args.batch}; each sends `NewsletterState.again` once a second "
        f"for {args.seconds:.0f} s. {len(runs)} run(s), each on a fresh server; figures are medians of the runs.",
        "",
        "| figure | value | target | ratio (value / target) |",
        "|---|---:|---:|---|",
        f"| tabs connected (Chromium) | {s['connected']:.0f} ({s['browsers']:.0f}) | {args.tabs} | "
        f"{'all' if s['connected'] == args.tabs else 'MISSING TABS'} |",
        f"| events sent / answered / lost | {s['sent']:.0f} / {s['answered']:.0f} / {s['lost']:.0f} | 0 lost | "
        f"{'pass' if not s['lost'] else 'FAIL'} |",
        f"| round trip p50 | {_ms(s['p50'])} | | |",
        f"| round trip p95 | {_ms(s['p95'])} | < {TARGET_P95_MS:.0f} ms | {_verdict(s['p95'], TARGET_P95_MS)} |",
        f"| round trip p99 | {_ms(s['p99'])} | | |",
        f"| Chromium tabs' round trip p50 / p95 ({s['b_answered']:.0f} of {s['b_sent']:.0f} answered) "
        f"| {_ms(s['b_p50'])} / {_ms(s['b_p95'])} | | |",
        f"| server RSS: no tab / {s['connected']:.0f} tabs hydrated / after the window | "
        f"{s['rss_before'] / 1e6:.1f} MB / {s['rss_connected'] / 1e6:.1f} MB / {s['rss_with'] / 1e6:.1f} MB | | |",
        "| server memory per tab | "
        + ("-" if per_tab is None else f"{per_tab / 1000:.0f} KB")
        + f" | < {TARGET_BYTES_PER_TAB / 1000:.0f} KB | {_verdict(per_tab, TARGET_BYTES_PER_TAB)} |",
        f"| server CPU during the window | {s['server_cpu']:.0f} % of one core | | |",
        f"| this script's CPU (the protocol clients) | {s['client_cpu']:.0f} % of one core | | |",
        f"| the machine's CPU busy during the window (all {os.cpu_count()} cores, everything running) | "
        f"{s['machine_busy']:.0f} % | | |",
        "",
        f"Per run: {per_run}. Opening the tabs took {s['ramp']:.0f} s; "
        f"{s['failed']} failed to connect, {s['dropped']} dropped during the window. RSS: the resident memory of "
        "the server's whole process group (the `reflex run` command and its worker); 1 KB = 1,000 bytes, "
        "1 MB = 1,000,000 bytes. Round trip: from sending an event to receiving the delta it causes.",
        "",
    ]
    return lines


def _git(*a: str) -> str:
    return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True).stdout.strip() or "?"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _drop_database() -> None:
    from sqlalchemy import text

    from app.core.db import make_engine

    admin = make_engine(served.PG).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{served.DB}" WITH (FORCE)'))
    admin.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tabs", type=int, default=200, help="tabs connected at once (browsers included)")
    parser.add_argument("--browsers", type=int, default=3, help="how many of the tabs are headless Chromium pages")
    parser.add_argument("--seconds", type=float, default=60, help="the steady window, every tab sending")
    parser.add_argument("--runs", type=int, default=1, help="runs, each on a fresh server; the report has medians")
    parser.add_argument("--batch", type=int, default=20, help="tabs opened at once while ramping up")
    parser.add_argument("--grace", type=float, default=5, help="seconds after the window for late answers")
    parser.add_argument("--report", type=Path, default=OUT / "report.md")
    parser.add_argument("--json", type=Path, help="also write every run's figures and per-second timeline here")
    args = parser.parse_args(argv)
    if args.browsers and not Path(CHROMIUM).exists():
        sys.exit(f"Chromium is needed at {CHROMIUM} for --browsers (or pass --browsers 0)")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the finally blocks stop the server when stopped
    started = time.monotonic()
    meta = {
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _git("rev-parse", "--short", "HEAD"),
        "branch": _git("rev-parse", "--abbrev-ref", "HEAD"),
        "command": shlex.join(["python", "tools/bench/bench_ws.py", *(sys.argv[1:] if argv is None else argv)]),
        "machine": _machine(),
        "load_start": _load(),
        "reflex": metadata.version("reflex"),
    }
    OUT.mkdir(exist_ok=True)
    event, state = _event_names()
    data_dir = tempfile.mkdtemp(prefix="ws-bench-data-")
    env = {**os.environ, "APP_ENV": "dev", "DATABASE_URL": served.database_url(), "DATA_DIR": data_dir}
    env.pop("REDIS_URL", None)  # one worker, state in its memory
    say(f"preparing the database {served.DB}…")
    served.prepare(env, 0)
    runs: list[Run] = []
    try:
        for n in range(1, args.runs + 1):
            run = one_run(args, env, n, event, state)
            runs.append(run)
            q = run.quantiles()
            say(
                f"run {n}: {run.connected} tabs, {run.sent} sent, {run.lost} lost, p50 {_ms(q['p50'])}, "
                f"p95 {_ms(q['p95'])}, p99 {_ms(q['p99'])}, RSS {run.rss_before / 1e6:.1f} -> "
                f"{run.rss_with_tabs / 1e6:.1f} MB"
                + ("" if run.per_tab is None else f" ({run.per_tab / 1000:.0f} KB/tab)")
                + f", server CPU {run.server_cpu_pct:.0f} %, client CPU {run.client_cpu_pct:.0f} %"
                + f", machine busy {run.machine_busy_pct:.0f} %"
            )
    finally:
        _drop_database()
        shutil.rmtree(data_dir, ignore_errors=True)
    minutes, seconds = divmod(int(time.monotonic() - started), 60)
    meta["duration"] = f"{minutes} min {seconds} s"
    meta["load_end"] = _load()
    lines = render(runs, meta, args)
    replace_section(args.report, SECTION, lines, title="# Benchmarks")
    if args.json:
        raw = [{k: v for k, v in vars(r).items() if k not in ("rtts_ms", "browser_rtts_ms")} for r in runs]
        for r, out in zip(runs, raw, strict=True):
            out["quantiles_ms"] = r.quantiles()
            out["browser_quantiles_ms"] = r.quantiles(browsers_only=True)
        args.json.write_text(json.dumps({"meta": meta, "runs": raw, "summary": summarize(runs)}, indent=1))
    say("\n".join(lines))
    say(f"written to {args.report}")
    bad = any(r.connected < r.tabs_wanted or r.lost for r in runs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
