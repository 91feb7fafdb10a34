"""End-to-end harness: the real single-port server on a free port over its own PostgreSQL database, and Chromium."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine
from tests.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.conftest import fresh_database
from tests.smtp_sink import SmtpSink
from tools.dev.stripe_standin import StandIn
from tools.server import ServerFailed, app_cli, serving

E2E_DB = os.environ.get("TEST_E2E_DB_NAME", "app_test_e2e")
STARTUP_TIMEOUT_S = 300  # a cold frontend build plus the first compile


@dataclass(frozen=True)
class Server:
    url: str
    database_url: str
    log: Path
    mail: SmtpSink  # every e-mail the server sends arrives here, over a real SMTP conversation
    stripe: StandIn  # STRIPE_API_BASE: Checkout's pages, and its signed events POSTed to the server's webhook


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The site as `make run` serves it (tools/server.py), over a database of its own with the demo content."""
    database_url = fresh_database(E2E_DB)
    sink = SmtpSink().start()
    # Its events wait a moment, as Stripe's often do: the payer is back on the portal before the webhook arrives.
    stripe = StandIn(webhook_secret="whsec_e2e", webhook_delay=3.0).start()
    env = {
        **os.environ,
        "APP_ENV": "test",
        "DATABASE_URL": database_url,
        "DATA_DIR": str(tmp_path_factory.mktemp("e2e-data")),
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(sink.port),
        "SMTP_TLS": "none",
        "STAFF_NOTIFY_EMAIL": "staff@example.com",
        "STRIPE_SECRET_KEY": "sk_test_e2e",
        "STRIPE_WEBHOOK_SECRET": stripe.webhook_secret,
        "STRIPE_API_BASE": stripe.url,
    }
    log = tmp_path_factory.mktemp("e2e-log") / "server.log"
    try:
        app_cli(env, "seed-demo")
        with serving(env, log, timeout_s=STARTUP_TIMEOUT_S) as served:
            stripe.webhook_url = f"{served.url}/api/stripe/webhook"
            yield Server(url=served.url, database_url=database_url, log=log, mail=sink, stripe=stripe)
    except ServerFailed as exc:
        pytest.fail(str(exc))
    finally:
        sink.stop()
        stripe.stop()


@pytest.fixture(scope="session")
def db_engine(server: Server) -> Iterator[Engine]:
    """An engine on the server's database, to arrange data and check what the browser changed."""
    engine = make_engine(server.database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def db(db_engine: Engine) -> Iterator[Session]:
    """A session of the test's own on the server's database (objects stay readable after a commit), to arrange rows
    and read what the browser changed. (A module whose tests share their rows has a module-scoped one.)"""
    with Session(db_engine, expire_on_commit=False) as s:
        yield s


# Package-scoped: Playwright's sync API keeps an event loop running on this thread while it is open, which would stop
# every later test that runs one of its own (asyncio.run), so it closes when the browser tests are done.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Debian's chromium is required at {CHROMIUM} (tools/dev/ensure-test-services.sh installs it)")
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


def wait_for_mail(server: Server, to: str, timeout_s: float = 30, *, containing: str = "") -> str:
    """The plain-text body of the newest message to `to` (that says `containing`, when given), waiting for the
    server's outbox loop to deliver it."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for msg in reversed(server.mail.messages):
            if msg["To"] == to:
                body = msg.get_body(preferencelist=("plain",))
                text = body.get_content() if body is not None else ""
                if containing in text:
                    return text
        time.sleep(0.5)
    pytest.fail(f"no e-mail to {to}{f' saying {containing!r}' if containing else ''} within {timeout_s} s")


def download_by_click(page: Page, link: Locator) -> tuple[str, bytes]:
    """Click `link` as a person does and return the file that arrives (its suggested name and bytes); fails when the
    click shows a page instead (the 404 page of a link the client-side router took) or moves off the page."""
    before = page.url
    with page.expect_download(timeout=30_000) as arrived:
        link.click()
    download = arrived.value
    path = download.path()
    assert download.failure() is None, download.failure()
    assert page.url == before
    expect(page.get_by_text("Page Not Found")).to_have_count(0)
    return download.suggested_filename, Path(path).read_bytes()
