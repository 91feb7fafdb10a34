"""Two app processes behind nginx with a shared Redis and PostgreSQL (issue 14): what one process guarantees must hold
across both.

- A signed-in client keeps working when the process serving them is killed: the tab's websocket reconnects through
  nginx to the other process and its state (in Redis) and session (in the database) are still there.
- The contact form's per-address limit and a verification code's attempt limit count requests to either process.
- The outbox is delivered once: both processes run the mail sender, and no message reaches the SMTP server twice.
- A tab that changes hands receives nothing of the last person, its state loaded from Redis by either process.

The cluster is tools/reliability/cluster.py, the one `make run-cluster` starts, on a database and a Redis of the
test's own.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import text
from sqlmodel import Session, col, select

from app.core.db import make_engine
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.accounts import sessions
from app.services.platform import mail
from tests.conftest import PG_ADMIN_URL, TEST_DB_NAME
from tests.e2e.test_portal import track_errors
from tests.e2e.test_tab_handover import developer_after_admin
from tests.smtp_sink import SmtpSink
from tools.reliability.cluster import Cluster  # what `make run-cluster` runs
from tools.server import free_port

pytestmark = pytest.mark.e2e
DB = f"{TEST_DB_NAME}_cluster"
CONTACT_LIMIT = 5  # app.services.crm.contact.PER_IP_LIMITS: per address in 10 minutes


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    run_dir = tmp_path_factory.mktemp("cluster")
    admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)'))
    admin.dispose()
    redis_port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    sink = SmtpSink().start()
    database_url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{DB}"
    c = Cluster(
        port=free_port(),
        processes=2,
        database_url=database_url,
        redis_url=f"redis://127.0.0.1:{redis_port}",
        run_dir=run_dir,
        extra_env={
            "APP_ENV": "test",
            "SMTP_HOST": "127.0.0.1",
            "SMTP_PORT": str(sink.port),
            "SMTP_TLS": "none",
            "DATA_DIR": str(run_dir / "data"),
        },
    )
    c.mail = sink  # type: ignore[attr-defined]
    try:
        c.prepare()
        c.start()
        yield c
    finally:
        c.stop()
        sink.stop()
        redis.kill()
        redis.wait()
        shutil.rmtree(c.releases_dir, ignore_errors=True)  # the releases of this port (make run-cluster keeps its own)


@pytest.fixture(scope="module")
def db(cluster: Cluster) -> Iterator[Session]:
    engine = make_engine(cluster.env["DATABASE_URL"])
    with Session(engine, expire_on_commit=False) as s:
        yield s
    engine.dispose()


def _backend(cluster: Cluster, index: int) -> str:
    return f"http://127.0.0.1:{cluster.backend_ports[index]}"


# How long a tab may take to answer a click after its process was killed: its socket reconnects to the other process,
# which loads the tab's state from Redis. A bound for a loaded machine, not a wait: each check returns when it holds.
AFTER_A_KILL_MS = 45_000


def _portal_shows(page: Page, tab: str, marker: str) -> None:
    """A click on the tab is answered (the tab is selected by the server's state) and the tab shows `marker`."""
    page.get_by_role("tab", name=tab).click()
    expect(page.get_by_role("tab", name=tab)).to_have_attribute("aria-selected", "true", timeout=AFTER_A_KILL_MS)
    expect(page.get_by_text(marker).first).to_be_visible(timeout=AFTER_A_KILL_MS)


def _logs(cluster: Cluster) -> str:
    """nginx's error log, for a failure's message: which process failed which request, and when."""
    log = cluster.run_dir / "nginx-error.log"
    return log.read_text()[-4000:] if log.exists() else ""


def test_a_signed_in_client_survives_the_loss_of_either_process(
    cluster: Cluster, browser: Browser, db: Session
) -> None:
    user = db.exec(select(User).where(User.username == "democlient")).one()
    token = sessions.start(db, user).access_token
    context = browser.new_context()
    context.add_cookies([{"name": "access_token", "value": token, "url": cluster.url, "httpOnly": True}])
    page = context.new_page()
    errors = track_errors(page)
    failed: list[str] = []  # answers of 500 and over, by address: which request a lost process cost
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    try:
        page.goto(cluster.url + "/client-portal")
        expect(page.get_by_role("heading", name="Welcome back, Dana!")).to_be_visible(timeout=30_000)
        _portal_shows(page, "Invoices", "INV-2026-0002")
        for victim in (0, 1):
            cluster.kill_process(victim)  # wherever this tab's websocket was, one of these kills cut it
            _portal_shows(page, "Meetings" if victim == 0 else "Projects", "Patient Portal")
            _portal_shows(page, "Invoices", "INV-2026-0002")
            expect(page.get_by_role("heading", name="Welcome back, Dana!")).to_be_visible()
            # nginx takes a process that failed back only after its fail timeout; the other must not die before
            # (both down at once is an outage, not a failover), so the next kill waits until nginx uses it again.
            cluster.rejoin(victim)
        assert page.url.endswith("/client-portal")  # never sent to a sign-in page
        # What a killed process may cost: the request it was answering. nginx retries only what is safe to repeat,
        # so a POST in flight gets a 502; the one the page sends unasked is the activity heartbeat, which it ignores
        # and sends again a minute later. A socket that reconnects logs its lost connection. Anything else is a fault.
        heartbeat = f"{cluster.url}/api/auth/activity"
        assert all(f.endswith(heartbeat) for f in failed), failed
        allowed = ("WebSocket", "socket", "502 (Bad Gateway)") if failed else ("WebSocket", "socket")
        assert [e for e in errors if not any(a in e for a in allowed)] == [], errors
    except AssertionError as exc:  # a failure says what nginx saw, so a rare one can be understood from CI's output
        raise AssertionError(f"{exc}\nanswers of 500 and over: {failed}\nnginx:\n{_logs(cluster)}") from exc
    finally:
        context.close()


def test_the_contact_limit_counts_both_processes(cluster: Cluster) -> None:
    address = "198.51.100.77"  # the client address nginx would forward; each process reads it the same way
    answers = []
    for n in range(CONTACT_LIMIT + 3):
        response = httpx.post(
            _backend(cluster, n % 2) + "/api/contact",
            json={"name": "Pat Visitor", "email": f"pat{n}@example.com", "message": "We need help with our website."},
            headers={"X-Forwarded-For": address},
            timeout=30,
        )
        answers.append(response.status_code)
    assert answers[:CONTACT_LIMIT] == [201] * CONTACT_LIMIT, answers
    assert answers[CONTACT_LIMIT:] == [429] * 3, answers


def test_a_codes_attempts_count_on_both_processes(cluster: Cluster, db: Session) -> None:
    registered = httpx.post(
        _backend(cluster, 0) + "/api/auth/register",
        json={"username": "cluster_user", "email": "cluster_user@example.com", "password": "Cluster-pass-1"},
        headers={"X-Forwarded-For": "198.51.100.78"},
        timeout=30,
    )
    assert registered.status_code == 201, registered.text
    user_id = registered.json()["userId"]
    answers = []
    for n in range(6):
        wrong = httpx.post(
            _backend(cluster, n % 2) + "/api/auth/verify", json={"userId": user_id, "code": "000000"}, timeout=30
        )
        answers.append(wrong.json()["message"])
    assert answers[0].endswith("4 attempts left.") and answers[1].endswith("3 attempts left."), answers
    assert "No attempts left" in answers[4] and answers[5].startswith("Too many incorrect attempts"), answers


def test_each_message_is_delivered_once(cluster: Cluster, db: Session) -> None:
    sink: SmtpSink = cluster.mail  # type: ignore[attr-defined]
    before = len(sink.messages)
    subjects = [f"Cluster delivery {n}" for n in range(40)]
    for subject in subjects:
        letter = mail.Letter(subject, "Delivered by whichever process claims it.")
        mail.enqueue(db, public=False, to="once@example.com", letter=letter)
    db.commit()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        db.expire_all()
        pending = db.exec(
            select(EmailOutbox).where(col(EmailOutbox.subject).in_(subjects), EmailOutbox.status != "sent")
        ).all()
        if not pending:
            break
        time.sleep(1)
    got = [str(m["Subject"]) for m in sink.messages[before:] if str(m["Subject"]).startswith("Cluster delivery")]
    assert sorted(got) == sorted(subjects), got  # every one, none twice, with a sender in each process


def test_a_tab_that_changes_hands_receives_nothing_of_the_last_person(
    cluster: Cluster, browser: Browser, db: Session
) -> None:
    """ADR 0107 with the tab's state in Redis, loaded by whichever process the tab's socket reaches."""
    developer_after_admin(cluster.url, browser, db)
