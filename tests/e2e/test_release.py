"""A rolling release and its rollback under steady load lose no request (issue 27 point 3, ADR 0097).

The cluster is the one `make run-cluster` runs (tools/reliability/cluster.py: two processes behind nginx, a Redis and
a database of the test's own), released by tools/reliability/release.py, the script behind `make release`. While
three threads request pages, API reads, a signed-in POST and the served release's hashed assets in a loop, and two
signed-in portal tabs keep switching tabs over their websockets:

1. the same commit is released again as a new build: every process is replaced (new processes, same code), and the
   build is the real one with its router manifest renamed, as a new build's content hash would rename it;
2. the release is rolled back to the first build, every process replaced again.

Every request must succeed (200, no transport error), the old build's assets stay served after the switch (tabs
opened on it load their chunks), each switch serves the other build's HTML, and the tabs' clicks are answered
throughout: their websockets move to the new processes and their state is there (kept in Redis, or loaded again by
the page's own check: PortalState.set_tab), without a page reload and never on a sign-in page.

`make release-check` runs this module (RELEASE_CHECK=1) with its figures printed (docs/reliability.md, "Rolling
release").
"""

from __future__ import annotations

import gzip
import os
import re
import secrets
import shutil
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import text
from sqlmodel import Session, select

from app.core.db import make_engine
from app.models.user import User
from app.services.accounts import sessions
from tests.conftest import PG_ADMIN_URL, TEST_DB_NAME
from tests.e2e.test_portal import track_errors
from tools.reliability import release
from tools.reliability.cluster import Cluster, say
from tools.server import free_port

# 2 to 4 minutes on 2 cores (a build, two rolling releases of two processes): run by `make release-check`, which
# sets RELEASE_CHECK=1, not by `make test`; tests/test_release_folders.py is its quick part there.
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("RELEASE_CHECK"), reason="a release under load: make release-check"),
]
DB = f"{TEST_DB_NAME}_release"
# What the load asks for, each expected to answer 200: pages (nginx, from the served release), API reads, a signed-in
# POST (never retried by nginx on another process: it fails if a process is stopped while answering it).
ROUTES = [
    ("GET", "/"),
    ("GET", "/about"),
    ("GET", "/client-portal"),
    ("GET", "/api/health"),
    ("GET", "/api/jobs"),
    ("GET", "/api/auth/me"),
    ("POST", "/api/auth/activity"),
]
LOAD_THREADS = 3
CLICK_MS = 45_000  # a bound for a loaded 2-core machine, not a wait: each check returns when it holds


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    run_dir = tmp_path_factory.mktemp("release")
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
    c = Cluster(
        port=free_port(),
        processes=2,
        database_url=PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{DB}",
        redis_url=f"redis://127.0.0.1:{redis_port}",
        run_dir=run_dir,
        extra_env={"APP_ENV": "test", "DATA_DIR": str(run_dir / "data")},
    )
    try:
        c.prepare()
        c.start()
        yield c
    finally:
        c.stop()
        redis.kill()
        redis.wait()
        shutil.rmtree(c.releases_dir, ignore_errors=True)  # the releases of this port (make run-cluster keeps its own)


@dataclass
class Load:
    """Requests in a loop from a few threads, each on its own keep-alive connection to nginx, like browsers."""

    url: str
    token: str
    assets: list[str]  # hashed asset paths every loop also fetches (the first build's, then the second's)
    outcomes: list[tuple[str, str]] = field(default_factory=list)
    repeated: list[str] = field(default_factory=list)  # requests sent again after nginx closed an idle connection
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, offset: int) -> None:
        with httpx.Client(base_url=self.url, timeout=60, cookies={"access_token": self.token}) as client:
            n = offset
            while not self.stop.is_set():
                work = [*ROUTES, *[("GET", a) for a in list(self.assets)]]
                method, path = work[n % len(work)]
                n += 1
                outcome = self._request(client, method, path)
                with self.lock:
                    self.outcomes.append((f"{method} {path}", outcome))

    def _request(self, client: httpx.Client, method: str, path: str) -> str:
        """The answer's status, or the transport error. A keep-alive connection that nginx closes while the request
        is on its way (an old worker, ending at a reload, closes its idle connections) gets the request again on a
        new connection once, as browsers do; those are counted apart. Anything else is not repeated."""
        for attempt in (1, 2):
            try:
                return str(client.request(method, path).status_code)
            except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
                if attempt == 2 or not _closed_before_answering(exc):
                    return f"{type(exc).__name__}: {exc}"
                with self.lock:
                    self.repeated.append(f"{method} {path}: {exc}")
            except httpx.HTTPError as exc:
                return f"{type(exc).__name__}: {exc}"
        raise AssertionError("unreachable")

    def failed(self) -> list[tuple[str, str]]:
        with self.lock:
            return [o for o in self.outcomes if o[1] != "200"]

    def count(self) -> int:
        with self.lock:
            return len(self.outcomes)


def _closed_before_answering(exc: httpx.HTTPError) -> bool:
    """Whether the connection to nginx was closed or reset before any answer began (nothing was answered, so the
    request may be sent again: a browser does so on a reused connection)."""
    text = str(exc)
    return "without sending a response" in text or "Connection reset" in text or "Broken pipe" in text


def _manifest(html: str) -> str:
    found = re.search(r"/assets/manifest-[0-9a-f]+\.js", html)
    assert found, "the page names no router manifest"
    return found.group(0)


def _simulated_build(cluster: Cluster, tmp: Path) -> Path:
    """The served build with its router manifest renamed and every page pointing at the new name: what a new build
    with a changed manifest looks like to nginx and to a browser. Its compressed copies are made again."""
    served = cluster.root.resolve()
    build = tmp / "client"
    shutil.copytree(served, build, ignore=shutil.ignore_patterns(release.INFO))
    old = _manifest((served / "index.html").read_text()).removeprefix("/assets/")
    new = f"manifest-{secrets.token_hex(4)}.js"
    for suffix in ("", ".gz", ".br"):
        (build / "assets" / f"{old}{suffix}").unlink(missing_ok=True)
    (build / "assets" / new).write_text((served / "assets" / old).read_text().replace(old, new))
    for page in [*build.rglob("*.html"), build / "assets" / new]:
        content = page.read_text().replace(old, new)
        page.write_text(content)
        (page.parent / f"{page.name}.gz").write_bytes(gzip.compress(content.encode()))
        (page.parent / f"{page.name}.br").unlink(missing_ok=True)  # nginx here serves .gz (gzip_static), not .br
    return build


def _portal_tab(browser: Browser, cluster: Cluster, token: str) -> tuple[Page, list[str], list[str]]:
    context = browser.new_context()
    context.add_cookies([{"name": "access_token", "value": token, "url": cluster.url, "httpOnly": True}])
    page = context.new_page()
    errors = track_errors(page)
    problems: list[str] = []  # answers of 500 and over, requests that failed, page loads after the first
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    page.on("requestfailed", lambda r: problems.append(f"failed {r.url} {r.failure}"))
    page.on("framenavigated", lambda f: problems.append(f"navigated {f.url}") if f == page.main_frame else None)
    page.goto(cluster.url + "/client-portal")
    expect(page.get_by_role("heading", name="Welcome back, Dana!")).to_be_visible(timeout=CLICK_MS)
    problems.clear()  # the first load's navigation
    return page, errors, problems


def _switch(page: Page, tab: str) -> float:
    """Click a portal tab and wait until the server's state selects it: a round trip over the tab's websocket."""
    started = time.monotonic()
    page.get_by_role("tab", name=tab).click()
    expect(page.get_by_role("tab", name=tab)).to_have_attribute("aria-selected", "true", timeout=CLICK_MS)
    return time.monotonic() - started


def _roll(cluster: Cluster, pages: list[Page], **kwargs: object) -> tuple[release.Outcome, int, float]:
    """Run a release in a thread while the tabs keep switching; the outcome, the clicks made and the slowest one."""
    result: list[release.Outcome] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(release.release(cluster, report=say, **kwargs))  # type: ignore[arg-type]
        except BaseException as exc:  # handed to the test's thread, which raises it
            failure.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    clicks, slowest, n = 0, 0.0, 0
    while worker.is_alive():
        for page in pages:
            slowest = max(slowest, _switch(page, ("Invoices", "Projects")[n % 2]))
            clicks += 1
        n += 1
        time.sleep(0.3)
    worker.join()
    if failure:
        raise failure[0]
    return result[0], clicks, slowest


def test_a_release_and_its_rollback_under_load_fail_no_request(
    cluster: Cluster, browser: Browser, tmp_path: Path
) -> None:
    engine = make_engine(cluster.env["DATABASE_URL"])
    with Session(engine) as db:
        user = db.exec(select(User).where(User.username == "democlient")).one()
        tokens = [sessions.start(db, user).access_token for _ in range(LOAD_THREADS + 2)]
    engine.dispose()
    first = release.current(cluster.releases_dir)
    assert first is not None
    first_manifest = _manifest(httpx.get(cluster.url + "/").text)
    second = _simulated_build(cluster, tmp_path)
    second_id = f"{first}-simulated"
    release.publish(second, cluster.releases_dir, second_id, code_dir=cluster.code_dir)
    pids_before = dict(cluster.pids)

    tabs = [_portal_tab(browser, cluster, tokens[i]) for i in range(2)]
    pages = [page for page, _, _ in tabs]
    loads = [Load(cluster.url, tokens[2 + i], [first_manifest]) for i in range(LOAD_THREADS)]
    threads = [threading.Thread(target=load.run, args=(i * 3,), daemon=True) for i, load in enumerate(loads)]
    for thread in threads:
        thread.start()
    started = time.monotonic()
    try:
        time.sleep(3)  # steady load before the release
        out, clicks, slowest = _roll(cluster, pages, release_id=second_id)
        served = httpx.get(cluster.url + "/").text
        second_manifest = _manifest(served)
        assert second_manifest != first_manifest and release.current(cluster.releases_dir) == second_id
        assert set(cluster.pids.values()).isdisjoint(pids_before.values())  # every process was replaced
        for load in loads:
            load.assets.append(second_manifest)
        time.sleep(3)
        back, clicks_back, slowest_back = _roll(cluster, pages, rollback=True)
        assert back.release_id == first and release.current(cluster.releases_dir) == first
        assert _manifest(httpx.get(cluster.url + "/").text) == first_manifest
        time.sleep(3)
    finally:
        for load in loads:
            load.stop.set()
        for thread in threads:
            thread.join(timeout=90)
    elapsed = time.monotonic() - started
    # The tabs opened on the first build are still answered after both switches, with their state.
    for page in pages:
        _switch(page, "Invoices")
        expect(page.get_by_text("INV-2026-0002").first).to_be_visible(timeout=CLICK_MS)
        assert page.url.endswith("/client-portal")
    requests = sum(load.count() for load in loads)
    failed = [f for load in loads for f in load.failed()]
    repeated = [r for load in loads for r in load.repeated]
    by_route = Counter(what for load in loads for what, _ in load.outcomes)
    say(
        f"\nrelease: {out.seconds:.1f} s ({[round(s.seconds, 1) for s in out.steps]} per process,"
        f" websockets moved {[s.left_open for s in out.steps]}); rollback: {back.seconds:.1f} s"
        f" ({[round(s.seconds, 1) for s in back.steps]}); load for {elapsed:.0f} s: {requests} requests, {len(failed)}"
        f" failed, {len(repeated)} sent again on a new connection after nginx closed an idle one; tab clicks"
        f" answered during the release {clicks} (slowest {slowest:.1f} s), during the rollback"
        f" {clicks_back} (slowest {slowest_back:.1f} s)\nby route: {dict(by_route)}"
    )
    assert failed == [], failed[:20]
    assert requests > 100, requests  # the load ran throughout
    # At most one per load thread and reload of nginx (two per process replaced, one after the switch).
    reloads = 2 * len(out.steps + back.steps) + 2
    assert len(repeated) <= LOAD_THREADS * reloads, repeated
    for _, errors, problems in tabs:
        assert problems == [], problems
        # A tab whose process stopped logs its websocket's lost connection; nothing else may go wrong.
        assert [e for e in errors if "WebSocket" not in e and "socket" not in e] == [], errors
