"""End-to-end harness: the real single-port server on a free port over its own PostgreSQL database, and Chromium."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from sqlalchemy import text
from sqlalchemy.engine import Engine

from app.core.db import make_engine
from tests.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.conftest import PG_ADMIN_URL
from tests.migrations import migrate
from tests.smtp_sink import SmtpSink

ROOT = Path(__file__).resolve().parents[2]
E2E_DB = os.environ.get("TEST_E2E_DB_NAME", "app_test_e2e")
STARTUP_TIMEOUT_S = 300  # a cold frontend build plus the first compile


@dataclass(frozen=True)
class Server:
    url: str
    database_url: str
    log: Path
    mail: SmtpSink  # every e-mail the server sends arrives here, over a real SMTP conversation


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fresh_database() -> str:
    admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{E2E_DB}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{E2E_DB}"'))
    admin.dispose()
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{E2E_DB}"
    migrate(url, "head")
    return url


PORT_ATTEMPTS = 3  # a port found free can be taken by another process before the server binds it


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    database_url = _fresh_database()
    sink = SmtpSink().start()
    base = {
        **os.environ,
        # The same toolchain and switches as `make run`, whoever starts pytest.
        "PATH": f"{ROOT / '.tools' / 'node_modules' / '.bin'}:{Path(sys.executable).parent}:{os.environ['PATH']}",
        "REFLEX_USE_SYSTEM_BUN": "1",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "REFLEX_CHECK_LATEST_VERSION": "0",
        "REFLEX_HTTP_CLIENT_BIND_ADDRESS": "0.0.0.0",
        "NPM_CONFIG_REGISTRY": "https://registry.npmjs.org",
        "APP_ENV": "test",
        "DATABASE_URL": database_url,
        "DATA_DIR": str(tmp_path_factory.mktemp("e2e-data")),
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(sink.port),
        "SMTP_TLS": "none",
        "STAFF_NOTIFY_EMAIL": "staff@example.com",
    }
    subprocess.run([sys.executable, "-m", "app.cli", "seed-demo"], cwd=ROOT, env=base, check=True, capture_output=True)
    proc: subprocess.Popen[bytes] | None = None
    try:
        for attempt in range(1, PORT_ATTEMPTS + 1):
            port = _free_port()
            env = {**base, "PORT": str(port), "PUBLIC_URL": f"http://127.0.0.1:{port}"}
            log = tmp_path_factory.mktemp("e2e-log") / "server.log"
            cmd = ["reflex", "run", "--env", "prod", "--single-port", "--frontend-port", str(port)]
            cmd += ["--backend-port", str(port)]
            with log.open("wb") as out:
                proc = subprocess.Popen(
                    cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
                )
            url = f"http://127.0.0.1:{port}"
            if _wait_until_up(url, proc, log, retry=attempt < PORT_ATTEMPTS):
                break
        yield Server(url=url, database_url=database_url, log=log, mail=sink)
    finally:
        if proc is not None:
            _stop(proc)
        sink.stop()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):  # it may have exited on its own
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def _wait_until_up(url: str, proc: subprocess.Popen[bytes], log: Path, *, retry: bool = False) -> bool:
    """True once the server answers; False when it could not bind its port and `retry` allows another one."""
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            if retry and "already in use" in log.read_text():
                return False
            pytest.fail(f"server exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
        try:
            if httpx.get(f"{url}/ping", timeout=2).status_code == 200 and httpx.get(url, timeout=5).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(1)
    pytest.fail(f"server did not answer within {STARTUP_TIMEOUT_S} s:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="session")
def db_engine(server: Server) -> Iterator[Engine]:
    """An engine on the server's database, to arrange data and check what the browser changed."""
    engine = make_engine(server.database_url)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is required at /usr/bin/chromium (scripts/ensure-test-services.sh installs it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    errors: list[str] = []
    # Reflex reports failed client actions with console.log, so CSP and eval failures are caught by their text too.
    pg.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" or "Content Security Policy" in m.text or "EvalError" in m.text
            else None
        ),
    )
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.console_errors = errors  # type: ignore[attr-defined]
    yield pg
    context.close()


def wait_for_mail(server: Server, to: str, timeout_s: float = 30) -> str:
    """The plain-text body of the newest message to `to`, waiting for the server's outbox loop to deliver it."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for msg in reversed(server.mail.messages):
            if msg["To"] == to:
                body = msg.get_body(preferencelist=("plain",))
                return body.get_content() if body is not None else ""
        time.sleep(0.5)
    pytest.fail(f"no e-mail to {to} within {timeout_s} s")
