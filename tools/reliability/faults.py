"""Fault run: a steady mixed load against the served app while faults are injected one at a time; nothing acked is lost.

Everything the faults touch is the run's own, so nothing else on the machine is disturbed: a private PostgreSQL
cluster (initdb into a temporary folder, run as the `postgres` user) reached through a TCP relay this script can cut,
a private Redis (`REDIS_URL`), an SMTP sink in a subprocess, a stand-in for the scheduling service (Calendly's API)
and the upload folder on a small tmpfs. Needs root (runuser, mount), as the development and CI machines run.

Load (each request from a loopback address of its own, so per-address limits act as for real people): contact
submissions, job applications with a PDF, in-app bookings, client sign-ins and portal reads, staff inquiry updates,
the meeting types (which come from the scheduling service), and a health probe every 0.25 s.

Faults, one at a time, with the steady load before and after each:
  pg-restart       PostgreSQL restarted (pg_ctl restart -m fast)
  pg-unreachable   the network to PostgreSQL cut for 30 s (the relay refuses and resets every connection)
  app-kill         the app process group killed (SIGKILL) and started again with the same command
  redis-restart    Redis restarted
  smtp-down        the SMTP server down for 60 s
  scheduler-slow   the scheduling service answering after 10 s, then failing (500), 30 s each
  disk-full        the upload disk full for 30 s

Reported per fault: requests during it, how they ended (2xx, 4xx, 503, other 5xx, transport errors), the slowest
answer, and the time to recover after the fault ends; at the end, acknowledged writes lost (every inquiry,
application, booking and inquiry update that got a 2xx must be in the database) and mail lost (every message in the
outbox delivered to the sink once SMTP is back).

Usage: python tools/reliability/faults.py [--quick] [--only NAME ...] [--json FILE] [--report docs/reliability.md]
Exit status 1 when an acknowledged write or a message was lost, a request answered another 5xx than 503, or the
product did not recover without a restart.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
from tests.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools.bench import load as served  # noqa: E402  (the load run's database and clients, the server's memory)
from tools.server import free_port  # noqa: E402
from tools.server import start as start_app  # noqa: E402

DB = "app_faults"
ADMIN = ("admin", "Admin-demo-2026")  # the demo content's administrator
DEMO_CLIENT = "Client-demo-2026"  # democlient's password in the demo content
SLOW_ANSWER_S = 10.0  # an answer slower than this counts as a hang


def say(text: str) -> None:
    sys.stdout.write(f"[{time.strftime('%H:%M:%S')}] {text}\n")
    sys.stdout.flush()


# ----------------------------------------------------------------------------------------------- the run's own services


class PrivatePostgres:
    """A PostgreSQL cluster of this run's own, so restarting it disturbs nothing else on the machine."""

    def __init__(self) -> None:
        self.bin = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]
        self.root = Path(tempfile.mkdtemp(prefix="faults-pg-"))
        shutil.chown(self.root, "postgres", "postgres")
        self.data = self.root / "data"
        self.port = free_port()
        self._pg(["initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync"])

    def _pg(self, args: list[str]) -> None:
        cmd = ["runuser", "-u", "postgres", "--", str(self.bin / args[0]), *args[1:]]
        subprocess.run(cmd, check=True, capture_output=True, cwd=self.root)

    def _ctl(self, action: str, *extra: str) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        log = str(self.root / "server.log")
        self._pg(["pg_ctl", action, "-D", str(self.data), "-l", log, "-w", "-t", "60", "-o", options, *extra])

    def start(self) -> None:
        self._ctl("start")

    def restart(self) -> None:
        self._ctl("restart", "-m", "fast")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._ctl("stop", "-m", "immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, port: int, db: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{port}/{db}"


class Relay:
    """A TCP relay between the app and PostgreSQL; `cut()` is the network going away: every connection is reset and
    new ones are refused until `restore()`."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self._pairs: set[tuple[socket.socket, socket.socket]] = set()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.restore()

    def restore(self) -> None:
        listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            pairs, self._pairs = self._pairs, set()
        for a, b in pairs:
            for sock in (a, b):
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    sock.close()  # linger 0: a reset, as a vanished network's next packet would get

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            pair = (client, upstream)
            with self._lock:
                self._pairs.add(pair)
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst, pair), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, pair: tuple[socket.socket, socket.socket]) -> None:
        try:
            while chunk := src.recv(65536):
                dst.sendall(chunk)
        except OSError:
            pass
        finally:
            with self._lock:
                self._pairs.discard(pair)
            for sock in pair:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


class Process:
    """A helper server in a subprocess of its own that can be killed and started again on the same port."""

    def __init__(self, cmd: list[str], port: int, log: Path) -> None:
        self.cmd, self.port, self.log = cmd, port, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return
            time.sleep(0.1)
        raise RuntimeError(f"{self.cmd[0]} did not start; see {self.log}")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


SINK = """
import json, sys
from aiosmtpd.controller import Controller
from email import message_from_bytes, policy
out = open(sys.argv[2], "a", buffering=1)
class H:
    async def handle_DATA(self, server, session, envelope):
        msg = message_from_bytes(envelope.content, policy=policy.default)
        out.write(json.dumps({"to": envelope.rcpt_tos, "subject": str(msg["Subject"])}) + "\\n")
        return "250 OK"
c = Controller(H(), hostname="127.0.0.1", port=int(sys.argv[1]))
c.start()
import threading; threading.Event().wait()
"""


class Scheduler:
    """A stand-in for the scheduling service's API (Calendly): answering, slow or failing."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.calls = 0
        me = {"resource": {"uri": "https://api.calendly.test/users/me", "current_organization": None}}
        types = {
            "collection": [
                {
                    "uri": "https://api.calendly.test/event_types/1",
                    "name": "Discovery call",
                    "duration": 30,
                    "active": True,
                    "profile": {"name": "Fault run"},
                    "scheduling_url": "https://calendly.test/x",
                }
            ],
            "pagination": {"next_page": None},
        }
        scheduler = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                scheduler.calls += 1
                if scheduler.mode == "slow":
                    time.sleep(10)
                if scheduler.mode == "failing":
                    self.send_response(500)
                    self.end_headers()
                    return
                body = json.dumps(me if self.path.startswith("/users/me") else types).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the app gave up waiting
                    self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@dataclass
class World:
    pg: PrivatePostgres
    relay: Relay
    redis: Process
    smtp: Process
    scheduler: Scheduler
    uploads: Path
    env: dict[str, str]
    url: str
    app: subprocess.Popen[bytes] | None = None
    sink_log: Path = field(default_factory=Path)


# ------------------------------------------------------------------------------------------------------------ the load


@dataclass
class Call:
    at: float
    route: str
    outcome: str  # "2xx", "4xx", "503", "5xx", "error"
    seconds: float


@dataclass
class Ledger:
    calls: list[Call] = field(default_factory=list)
    acked: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    statuses: dict[int, str] = field(default_factory=dict)  # inquiry id -> the last status a 2xx acknowledged
    seq: int = 0

    def next(self) -> int:
        self.seq += 1
        return self.seq


def _address(n: int) -> str:
    # 127.20.0.1 ... : one address per simulated person (loopback answers for all of 127/8).
    return f"127.20.{(n // 250) % 250}.{n % 250 + 1}"


async def _call(
    ledger: Ledger, http: httpx.AsyncClient, method: str, path: str, route: str, **kw: Any
) -> httpx.Response | None:
    started = time.monotonic()
    try:
        r = await http.request(method, path, **kw)
    except httpx.HTTPError:
        ledger.calls.append(Call(started, route, "error", time.monotonic() - started))
        return None
    code = r.status_code
    outcome = "2xx" if code < 300 else "4xx" if code < 500 else "503" if code == 503 else "5xx"
    ledger.calls.append(Call(started, route, outcome, time.monotonic() - started))
    return r


def _client(url: str, n: int) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=_address(n))
    return httpx.AsyncClient(base_url=url, transport=transport, timeout=30)


def _pdf() -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Fault run applicant - Resume")
    return bytes(pdf.output())


async def contacts(url: str, ledger: Ledger, stop: asyncio.Event) -> None:
    while not stop.is_set():
        n = ledger.next()
        email = f"inquiry{n}@faults.example"
        body = {"name": f"Fault Visitor {n}", "email": email, "message": f"Fault run inquiry number {n}"}
        async with _client(url, n) as http:
            r = await _call(ledger, http, "POST", "/api/contact", "POST /api/contact", json=body)
        if r is not None and r.is_success:
            ledger.acked["inquiries"].add(email)
        await asyncio.sleep(random.uniform(0.3, 0.8))


async def applications(url: str, ledger: Ledger, stop: asyncio.Event, job: str) -> None:
    pdf = _pdf()
    while not stop.is_set():
        n = ledger.next()
        email = f"applicant{n}@faults.example"
        form = {
            "firstName": "Fault",
            "lastName": f"Applicant {n}",
            "phone": "772-555-0199",
            "email": email,
            "jobId": job,
        }
        async with _client(url, n) as http:
            r = await _call(
                ledger,
                http,
                "POST",
                "/api/applications/submit",
                "POST /api/applications/submit",
                data=form,
                files={"resume": (f"cv{n}.pdf", pdf, "application/pdf")},
            )
        if r is not None and r.is_success:
            ledger.acked["applications"].add(email)
        await asyncio.sleep(random.uniform(0.5, 1.5))


async def bookings(url: str, ledger: Ledger, stop: asyncio.Event, kind: str) -> None:
    while not stop.is_set():
        n = ledger.next()
        email = f"booker{n}@faults.example"
        async with _client(url, n) as http:
            params = {"type": kind, "from": date.today().isoformat(), "days": 20}
            r = await _call(ledger, http, "GET", "/api/booking/slots", "GET /api/booking/slots", params=params)
            if r is not None and r.is_success and (slots := r.json()["data"]):
                slot = random.choice(slots)
                body = {"type": kind, "start": slot["start"], "name": f"Fault Booker {n}", "email": email}
                r = await _call(ledger, http, "POST", "/api/booking", "POST /api/booking", json=body)
                if r is not None and r.is_success:
                    ledger.acked["bookings"].add(email)
        await asyncio.sleep(random.uniform(1.0, 2.0))


async def client_reads(url: str, ledger: Ledger, stop: asyncio.Event, username: str, n: int) -> None:
    async with _client(url, 100_000 + n) as http:
        signed_in = False
        rounds = 0
        while not stop.is_set():
            if not signed_in or rounds % 20 == 0:
                body = {"identifier": username, "password": served.PASSWORD}
                r = await _call(ledger, http, "POST", "/api/auth/login", "POST /api/auth/login", json=body)
                signed_in = r is not None and r.is_success
            else:
                path = random.choice(served.CLIENT_ROUTES)
                r = await _call(ledger, http, "GET", path, "GET /api/protected/* (client)")
                if r is not None and r.status_code == 401:
                    signed_in = False
            rounds += 1
            await asyncio.sleep(random.uniform(0.5, 1.0))


async def staff_updates(url: str, ledger: Ledger, stop: asyncio.Event) -> None:
    cycle = ["in_progress", "resolved", "closed", "new"]
    async with _client(url, 200_000) as http:
        signed_in = False
        rounds = 0
        while not stop.is_set():
            if not signed_in:
                body = {"identifier": ADMIN[0], "password": ADMIN[1]}
                r = await _call(ledger, http, "POST", "/api/auth/login", "POST /api/auth/login", json=body)
                signed_in = r is not None and r.is_success
            else:
                r = await _call(ledger, http, "GET", "/api/admin/inquiries", "GET /api/admin/inquiries")
                if r is not None and r.is_success and (rows := r.json()["data"]):
                    row = random.choice(rows)
                    status = cycle[rounds % len(cycle)]
                    path = f"/api/admin/inquiries/{row['id']}"
                    put = await _call(
                        ledger, http, "PUT", path, "PUT /api/admin/inquiries/{id}", json={"status": status}
                    )
                    if put is not None and put.is_success:
                        ledger.statuses[int(row["id"])] = status
                    elif put is None or put.status_code >= 500:
                        # Unknown outcome (the connection broke mid-request): the row may hold either value.
                        ledger.statuses.pop(int(row["id"]), None)
                elif r is not None and r.status_code == 401:
                    signed_in = False
            rounds += 1
            await asyncio.sleep(random.uniform(0.5, 1.0))


async def readers(url: str, ledger: Ledger, stop: asyncio.Event, n: int) -> None:
    async with _client(url, 300_000 + n) as http:
        while not stop.is_set():
            roll = random.random()
            if roll < 0.4:
                await _call(ledger, http, "GET", "/api/calendly/event-types", "GET /api/calendly/event-types")
            elif roll < 0.7:
                await _call(ledger, http, "GET", "/api/jobs", "GET /api/jobs")
            else:
                page = random.choice(["/", "/contact", "/careers"])
                await _call(ledger, http, "GET", page, "GET pages")
            await asyncio.sleep(random.uniform(0.5, 1.0))


BROWSER = "browser: portal tab (websocket event)"


async def browser(url: str, ledger: Ledger, stop: asyncio.Event) -> None:
    """A signed-in client in a real browser switching portal tabs: each switch is a websocket event whose state
    lives in Redis and whose rows come from PostgreSQL. A switch that fails is followed by what a person does:
    click again, and after three failures reload the page."""
    from playwright.async_api import async_playwright, expect

    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = await chromium.new_page()
        await page.request.post(url + "/api/auth/login", data={"identifier": "democlient", "password": DEMO_CLIENT})
        await page.goto(url + "/client-portal")
        tabs = [("Invoices", "INV-2026-0002"), ("Projects", "Patient Portal & Online Booking")]
        turn = failures = 0
        while not stop.is_set():
            name, text = tabs[turn % 2]
            turn += 1
            started = time.monotonic()
            try:
                await page.get_by_role("tab", name=name).click(timeout=5_000)
                await expect(page.get_by_text(text).first).to_be_visible(timeout=3_000)
                outcome, failures = "2xx", 0
            except Exception:
                outcome, failures = "error", failures + 1
                if failures >= 3:  # a person clicks again, then reloads the page
                    with contextlib.suppress(Exception):
                        await page.goto(url + "/client-portal", timeout=30_000)
            ledger.calls.append(Call(started, BROWSER, outcome, time.monotonic() - started))
            await asyncio.sleep(1.0)
        await chromium.close()


async def health(url: str, ledger: Ledger, stop: asyncio.Event) -> None:
    async with _client(url, 400_000) as http:
        while not stop.is_set():
            await _call(ledger, http, "GET", "/api/health", "GET /api/health", timeout=5)
            await asyncio.sleep(0.25)


# ---------------------------------------------------------------------------------------------------------- the faults


@dataclass
class Fault:
    name: str
    what: str
    inject: Callable[[World], None]
    heal: Callable[[World], None]
    hold: float
    recovered_when: str  # the route whose first 2xx after the heal ends the recovery


@dataclass
class Window:
    fault: Fault
    start: float
    healed: float = 0.0
    end: float = 0.0
    app_restart_s: float | None = None
    mark: int = 0  # the newest outbox row when the fault ended
    scheduler_calls: int = 0  # requests that reached the scheduling service during the fault


def _kill_app(world: World) -> None:
    assert world.app is not None
    os.killpg(world.app.pid, signal.SIGKILL)
    world.app.wait()


def _restart_app(world: World) -> None:
    world.app = _launch(world)


def _fill_disk(world: World) -> None:
    filler = world.uploads / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * (1 << 20))
    except OSError:
        pass
    finally:
        os.close(fd)


def _scheduler(mode: str) -> Callable[[World], None]:
    def change(world: World) -> None:
        world.scheduler.mode = mode

    return change


def faults(quick: bool) -> list[Fault]:
    cut = 10.0 if quick else 30.0
    smtp = 20.0 if quick else 60.0
    # The app keeps the scheduling service's answer for 60 s: only an outage longer than that reaches visitors.
    upstream = 10.0 if quick else 75.0
    return [
        Fault("pg-restart", "PostgreSQL restarted", lambda w: w.pg.restart(), lambda w: None, 0.0, "GET /api/health"),
        Fault(
            "pg-unreachable",
            f"PostgreSQL unreachable for {cut:.0f} s",
            lambda w: w.relay.cut(),
            lambda w: w.relay.restore(),
            cut,
            "GET /api/health",
        ),
        Fault(
            "app-kill", "app process killed (SIGKILL), started again", _kill_app, _restart_app, 0.0, "GET /api/health"
        ),
        Fault(
            "redis-restart",
            "Redis restarted",
            lambda w: w.redis.kill(),
            lambda w: w.redis.start(),
            1.0,
            BROWSER,
        ),
        Fault(
            "smtp-down",
            f"SMTP server down for {smtp:.0f} s",
            lambda w: w.smtp.kill(),
            lambda w: w.smtp.start(),
            smtp,
            "mail",
        ),
        Fault(
            "scheduler-slow",
            f"scheduling service slow (10 s) for {upstream:.0f} s",
            _scheduler("slow"),
            _scheduler("ok"),
            upstream,
            "GET /api/calendly/event-types",
        ),
        Fault(
            "scheduler-failing",
            f"scheduling service failing (500) for {upstream:.0f} s",
            _scheduler("failing"),
            _scheduler("ok"),
            upstream,
            "GET /api/calendly/event-types",
        ),
        Fault(
            "disk-full",
            f"upload disk full for {cut:.0f} s",
            _fill_disk,
            lambda w: (w.uploads / "filler").unlink(),
            cut,
            "POST /api/applications/submit",
        ),
    ]


# ------------------------------------------------------------------------------------------------------------ the run


def _launch(world: World) -> subprocess.Popen[bytes]:
    """The app on the run's port (the one its clients and the database proxy know), the same after a crash."""
    port = int(world.env["PORT"])
    return start_app(world.env, ROOT / "bench" / "faults-server.log", port=port, timeout_s=900).proc


def _group_size(pgid: int) -> int:
    """Processes in the app's process group (with REDIS_URL set, Reflex serves with several workers)."""
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError):
            count += int(stat.read_text().rsplit(")", 1)[1].split()[2]) == pgid
    return count


def _psql(world: World, sql: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(f"host=127.0.0.1 port={world.pg.port} user=postgres dbname={DB}") as conn:
        return list(conn.execute(sql).fetchall())  # type: ignore[arg-type]


@contextlib.contextmanager
def world_up(root: Path) -> Iterator[World]:
    pg = PrivatePostgres()
    pg.start()
    relay = Relay(pg.port)
    uploads = root / "data"
    uploads.mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(uploads)], check=True)
    redis_port, smtp_port = free_port(), free_port()
    redis = Process(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        redis_port,
        root / "redis.log",
    )
    sink_log = root / "sink.jsonl"
    smtp = Process([sys.executable, "-c", SINK, str(smtp_port), str(sink_log)], smtp_port, root / "smtp.log")
    scheduler = Scheduler()
    port = free_port()
    env = {
        **os.environ,
        "APP_ENV": "dev",
        "DATABASE_URL": pg.url(relay.port, DB),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(smtp_port),
        "SMTP_TLS": "none",
        "CALENDLY_TOKEN": "fault-run-token",
        "CALENDLY_API_URL": f"http://127.0.0.1:{scheduler.port}",
        "DATA_DIR": str(uploads),
        "PORT": str(port),
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    world = World(pg, relay, redis, smtp, scheduler, uploads, env, f"http://127.0.0.1:{port}", sink_log=sink_log)
    try:
        redis.start()
        smtp.start()
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={pg.port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{DB}"')  # type: ignore[arg-type]
        yield world
    finally:
        if world.app is not None and world.app.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(world.app.pid, signal.SIGKILL)
        redis.kill()
        smtp.kill()
        scheduler.server.shutdown()
        relay.cut()
        subprocess.run(["umount", "-l", str(uploads)], check=False)
        pg.stop()


async def drive(
    world: World, plan: list[Fault], clients: list[str], steady: float, job: str, kind: str
) -> tuple[Ledger, list[Window]]:
    ledger = Ledger()
    stop = asyncio.Event()
    url = world.url
    tasks = [asyncio.create_task(contacts(url, ledger, stop)) for _ in range(3)]
    tasks.append(asyncio.create_task(applications(url, ledger, stop, job)))
    tasks.append(asyncio.create_task(bookings(url, ledger, stop, kind)))
    tasks += [asyncio.create_task(client_reads(url, ledger, stop, name, n)) for n, name in enumerate(clients)]
    tasks.append(asyncio.create_task(staff_updates(url, ledger, stop)))
    tasks += [asyncio.create_task(readers(url, ledger, stop, n)) for n in range(3)]
    tasks.append(asyncio.create_task(health(url, ledger, stop)))
    if Path(CHROMIUM).exists():
        tasks.append(asyncio.create_task(browser(url, ledger, stop)))
    windows: list[Window] = []
    await asyncio.sleep(steady)
    for fault in plan:
        say(f"fault: {fault.what}")
        window = Window(fault, time.monotonic())
        calls_before = world.scheduler.calls
        await asyncio.to_thread(fault.inject, world)
        await asyncio.sleep(fault.hold)
        started = time.monotonic()
        await asyncio.to_thread(fault.heal, world)
        if fault.name == "app-kill":
            window.app_restart_s = round(time.monotonic() - started, 1)
        window.healed = time.monotonic()
        if fault.recovered_when == "mail":
            window.mark = (await asyncio.to_thread(_psql, world, "SELECT coalesce(max(id), 0) FROM email_outbox"))[0][0]
        await _until_recovered(world, ledger, window)
        window.scheduler_calls = world.scheduler.calls - calls_before
        say(f"  recovered {window.end - window.healed:.1f} s after the fault ended")
        windows.append(window)
        await asyncio.sleep(steady)
    stop.set()
    await asyncio.gather(*tasks)
    return ledger, windows


async def _until_recovered(world: World, ledger: Ledger, window: Window, limit: float = 300) -> None:
    route = window.fault.recovered_when
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if route == "mail":  # everything queued until SMTP came back has been delivered (new mail keeps coming)
            query = f"SELECT count(*) FROM email_outbox WHERE id <= {window.mark} AND status = 'pending'"
            if (await asyncio.to_thread(_psql, world, query))[0][0] == 0:
                break
        elif any(c.route == route and c.outcome == "2xx" and c.at >= window.healed for c in ledger.calls):
            break
        await asyncio.sleep(0.25)
    window.end = time.monotonic()


def summarize(ledger: Ledger, windows: list[Window]) -> list[dict[str, Any]]:
    rows = []
    for w in windows:
        during = [c for c in ledger.calls if w.start <= c.at <= w.end]
        counts = {k: sum(1 for c in during if c.outcome == k) for k in ("2xx", "4xx", "503", "5xx", "error")}
        rows.append(
            {
                "fault": w.fault.name,
                "what": w.fault.what,
                "requests": len(during),
                **counts,
                # The browser's figure includes its own 10 s wait for the page: HTTP answers only here.
                "slowest_s": round(max((c.seconds for c in during if c.route != BROWSER), default=0.0), 2),
                "hangs": sum(1 for c in during if c.seconds > SLOW_ANSWER_S and c.route != BROWSER),
                "recovery_s": round(w.end - w.healed, 1),
                "app_restart_s": w.app_restart_s,
                "scheduler_calls": w.scheduler_calls,
                "browser_recovery_s": _first_success_after(ledger, BROWSER, w.healed),
                "failing_routes": sorted({c.route for c in during if c.outcome not in ("2xx", "4xx")}),
            }
        )
    return rows


def _first_success_after(ledger: Ledger, route: str, moment: float) -> float | None:
    """Seconds from `moment` to the first 2xx of `route` that started after it (None: none did)."""
    times = [c.at + c.seconds for c in ledger.calls if c.route == route and c.outcome == "2xx" and c.at >= moment]
    return round(min(times) - moment, 1) if times else None


def verify(world: World, ledger: Ledger) -> dict[str, Any]:
    """Every acknowledged write in the database; every message in the outbox delivered to the sink."""
    inquiries = {r[0] for r in _psql(world, "SELECT email FROM contact_inquiries WHERE email LIKE '%@faults.example'")}
    applicants = {r[0] for r in _psql(world, "SELECT email FROM job_applications WHERE email LIKE '%@faults.example'")}
    bookers = {
        r[0] for r in _psql(world, "SELECT booker_email FROM meetings WHERE booker_email LIKE '%@faults.example'")
    }
    statuses = dict(_psql(world, "SELECT id, status FROM contact_inquiries"))  # type: ignore[arg-type]
    outbox = _psql(world, "SELECT to_address, subject, status FROM email_outbox")
    delivered: dict[tuple[str, str], int] = defaultdict(int)
    if world.sink_log.exists():
        for line in world.sink_log.read_text().splitlines():
            item = json.loads(line)
            for to in item["to"]:
                # A long subject folded right after "Subject:" unfolds with a leading space (readers trim it).
                delivered[(to.lower(), " ".join(item["subject"].split()))] += 1
    undelivered = []
    for to, subject, status in outbox:
        key = (to.lower(), " ".join(subject.split()))
        if delivered[key] > 0:
            delivered[key] -= 1
        else:
            undelivered.append(f"{status}: {to}: {subject}")
    stale = sum(1 for i, s in ledger.statuses.items() if str(statuses.get(i, "")).split(".")[-1] != s)
    return {
        "inquiries": {
            "acknowledged": len(ledger.acked["inquiries"]),
            "lost": len(ledger.acked["inquiries"] - inquiries),
        },
        "applications": {
            "acknowledged": len(ledger.acked["applications"]),
            "lost": len(ledger.acked["applications"] - applicants),
        },
        "bookings": {"acknowledged": len(ledger.acked["bookings"]), "lost": len(ledger.acked["bookings"] - bookers)},
        "inquiry_updates": {"acknowledged": len(ledger.statuses), "lost": stale},
        "mail": {
            "queued": len(outbox),
            "undelivered": len(undelivered),
            "undelivered_examples": undelivered[:5],
            "unmatched_deliveries": [f"{k[0]}: {k[1]}" for k, n in delivered.items() if n > 0][:5],
            "failed": sum(1 for r in outbox if str(r[2]).endswith("failed")),
        },
    }


def _wait_for_mail(world: World, limit: float = 180) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if _psql(world, "SELECT count(*) FROM email_outbox WHERE status = 'pending'")[0][0] == 0:
            return
        time.sleep(1)


def report_lines(result: dict[str, Any], command: str) -> list[str]:
    lines = [
        "",
        "## Faults",
        "",
        f"Run: {result['run_at']} at commit `{result['commit']}` (`{command}`). The app as `make run` serves it",
        f"({result['app_processes']} processes: with `REDIS_URL` set Reflex runs several workers) with a PostgreSQL,",
        "Redis, SMTP sink and scheduling-service stand-in of its own; the steady load (contact forms, applications",
        "with a PDF, bookings, sign-ins and portal reads, staff inquiry updates, page and meeting-type reads, a health",
        "probe every 0.25 s, one signed-in browser switching portal tabs) runs before, during and after each fault.",
        "Requests are counted from the fault's start until recovery. *Recovered after*: from the fault's end to the",
        "first success of what it broke (the health check; for SMTP, every message queued until then delivered; for",
        "the scheduling service, its meeting types; for the disk, an application). Transport errors are connections",
        "refused while the app restarts.",
        "",
        "| fault | requests | 2xx | 4xx | 503 | other 5xx | transport errors | slowest | recovered after |"
        " browser works again after |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in result["faults"]:
        restart = f" (app start {r['app_restart_s']} s)" if r["app_restart_s"] is not None else ""
        if r["fault"].startswith("scheduler"):
            restart += f" ({r['scheduler_calls']} calls reached the service)"
        lines.append(
            f"| {r['what']} | {r['requests']} | {r['2xx']} | {r['4xx']} | {r['503']} | {r['5xx']} | {r['error']} |"
            f" {r['slowest_s']} s | {r['recovery_s']} s{restart} | {_seconds(r['browser_recovery_s'])} |"
        )
    v = result["verified"]
    lost = ", ".join(
        f"{k.replace('_', ' ')} **{v[k]['lost']}** of {v[k]['acknowledged']}"
        for k in ("inquiries", "applications", "bookings", "inquiry_updates")
    )
    lines += [
        "",
        f"Acknowledged writes lost: {lost}. Mail: {v['mail']['queued']} messages queued, **"
        f"{v['mail']['undelivered']} undelivered**, {v['mail']['failed']} failed.",
        "",
    ]
    return lines


def _seconds(value: float | None) -> str:
    return "not measured" if value is None else f"{value} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter outages (10 s, SMTP 20 s) and steady periods")
    parser.add_argument("--only", nargs="*", help="run only these faults (names as listed above)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--report", type=Path, help="replace the Faults section of this report (docs/reliability.md)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # clean up (unmount, stop servers) when stopped
    if os.geteuid() != 0:
        sys.exit("the fault run needs root: it runs PostgreSQL as the postgres user and mounts a small tmpfs")
    plan = [f for f in faults(args.quick) if not args.only or f.name in args.only]
    steady = 10.0 if args.quick else 20.0
    (ROOT / "bench").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="faults-") as tmp, world_up(Path(tmp)) as world:
        say("preparing the database…")
        clients = served.prepare(world.env, 3)
        say("starting the app…")
        world.app = _launch(world)
        processes = _group_size(world.app.pid)
        jobs = httpx.get(f"{world.url}/api/jobs", timeout=30).json()["data"]
        types = httpx.get(f"{world.url}/api/booking/types", timeout=30).json()["data"]
        say(f"load running; {len(plan)} faults")
        ledger, windows = asyncio.run(drive(world, plan, clients, steady, jobs[0]["id"], types[0]["slug"]))
        say("waiting for the outbox to drain…")
        _wait_for_mail(world)
        verified = verify(world, ledger)
    rows = summarize(ledger, windows)
    result = {
        "run_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip(),
        "faults": rows,
        "verified": verified,
        "requests": len(ledger.calls),
        "app_processes": processes,
    }
    for r in rows:
        say(
            f"{r['fault']:<18} {r['requests']:>5} req  2xx {r['2xx']} 4xx {r['4xx']} 503 {r['503']} 5xx {r['5xx']} "
            f"errors {r['error']} slowest {r['slowest_s']} s, recovered {r['recovery_s']} s {r['failing_routes']}"
        )
    say(json.dumps(verified))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    if args.report:
        command = "python tools/reliability/faults.py" + (" --quick" if args.quick else "")
        from torture import replace_section  # the report's owner

        replace_section(args.report, "Faults", report_lines(result, command))
    lost = sum(v["lost"] for k, v in verified.items() if k != "mail") + verified["mail"]["undelivered"]
    bad = sum(r["5xx"] + r["hangs"] for r in rows)
    unrecovered = sum(1 for w in windows if w.end - w.healed >= 299)
    return 1 if lost or bad or unrecovered else 0


if __name__ == "__main__":
    sys.exit(main())
