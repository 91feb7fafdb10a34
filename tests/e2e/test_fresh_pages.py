"""Public pages show the content of now to every reader (issue 27 point 2, ADR 0098).

A staff member saves a service's text and the company's phone through the API; the HTML served to a reader without
scripts (what a crawler gets) shows both within 60 s, with no restart; a browser then opens the pages and finds the
same content with no hydration error. The originals are put back, and the test waits until the pages show them
again, so the tests after it see the demo content.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server
from tools.dev.signed_in import access_token

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 60.0  # the bound: a saved change is in the served HTML within a minute
_SCRIPT_RE = re.compile(r"<script\b.*?</script>", re.S)


def served_text(server: Server, path: str) -> str:
    """The page's HTML as a reader without scripts gets it, scripts left out (the content block holds the texts
    too; what counts is the markup)."""
    response = httpx.get(server.url + path, follow_redirects=True, timeout=10)
    assert response.status_code == 200, path
    return _SCRIPT_RE.sub("", response.text)


def wait_until(what: str, ok: Callable[[], bool], limit_s: float = LIMIT_S) -> float:
    """Seconds until `ok()` held, failing after `limit_s`."""
    started = time.monotonic()
    while not ok():
        if time.monotonic() - started > limit_s:
            pytest.fail(f"{what}: not within {limit_s:.0f} s")
        time.sleep(1)
    return time.monotonic() - started


@pytest.fixture
def staff(server: Server) -> Iterator[httpx.Client]:
    # A session opened in the server's database: the demo admin signs in with a second factor (ADR 0103).
    token = access_token("admin", server.database_url)
    with httpx.Client(base_url=server.url, timeout=10, cookies={"access_token": token}) as client:
        assert client.get("/api/auth/me").status_code == 200
        yield client


def test_a_saved_service_and_phone_reach_the_html_served_without_scripts(
    server: Server, staff: httpx.Client, page: Page
) -> None:
    services = staff.get("/api/admin/site/services").json()["data"]
    service = next(s for s in services if s["title"] == "BI Reports")
    company = staff.get("/api/admin/settings/company").json()["data"]
    marker = f"Now with live dashboards {uuid.uuid4().hex[:8]}."
    phone = "(772) 555-0199"
    assert company["phone"] != phone
    try:
        saved = staff.put(f"/api/admin/site/services/{service['id']}", json={"description": marker})
        assert saved.status_code == 200, saved.text
        saved = staff.put("/api/admin/settings/company", json={"phone": phone})
        assert saved.status_code == 200, saved.text

        wait_until(
            "the new service text and phone in the served HTML",
            lambda: marker in served_text(server, "/services/") and phone in served_text(server, "/contact/"),
        )
        home = served_text(server, "/")
        assert marker in home and phone in home  # every page that shows them, the footer's phone included
        assert service["description"] not in home

        # With scripts: the first render and the hydration show the same content, and nothing is reported.
        page.goto(server.url + "/services/")
        page.wait_for_selector("[data-hydrated=true]", timeout=30_000)
        card = page.locator("[data-service-card]").filter(has=page.get_by_role("heading", name="BI Reports"))
        expect(card).to_contain_text(marker)
        expect(page.locator("footer")).to_contain_text(phone)
        page.goto(server.url + "/about/")
        page.wait_for_selector("[data-hydrated=true]", timeout=30_000)
        expect(page.locator("footer")).to_contain_text(phone)
        assert page.console_errors == []  # type: ignore[attr-defined]
    finally:
        staff.put(f"/api/admin/site/services/{service['id']}", json={"description": service["description"]})
        staff.put("/api/admin/settings/company", json={"phone": company["phone"]})
        wait_until(
            "the original service text and phone back in the served HTML",
            lambda: (
                service["description"] in served_text(server, "/services/")
                and company["phone"] in served_text(server, "/contact/")
            ),
        )


# In a process of its own on the server's database, as the server's start-up runs it: the pages are first made as a
# build without a database makes them (the content states empty), then the start-up's check renders them again.
_STARTUP = """
import gzip, json, sys
from pathlib import Path
from app.ui import fresh_pages
from app.ui.site.content import Snapshot

pages = Path(sys.argv[1])
fresh_pages.publish(pages, fresh_pages.payload(Snapshot()))
before = (pages / "services" / "index.html").read_text()
rendered = fresh_pages.refresh(pages, wait=True)
after = (pages / "services" / "index.html").read_text()
print(json.dumps({
    "before": before,
    "rendered": rendered,
    "after": after,
    "gzip_matches": gzip.decompress((pages / "services" / "index.html.gz").read_bytes()).decode() == after,
    "again": fresh_pages.refresh(pages, wait=True),
}))
"""


def test_pages_made_without_the_database_are_rendered_with_it_before_serving(server: Server, tmp_path: Path) -> None:
    built = ROOT / os.environ.get("REFLEX_WEB_WORKDIR", ".web") / "build" / "client"
    pages = tmp_path / "client"
    shutil.copytree(built, pages, ignore=shutil.ignore_patterns("assets"))  # the pages; rendering reads no asset
    env = {**os.environ, "DATABASE_URL": server.database_url, "APP_ENV": "test"}
    done = subprocess.run(
        [sys.executable, "-c", _STARTUP, str(pages)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    before, after = (_SCRIPT_RE.sub("", result[k]) for k in ("before", "after"))
    assert "BI Reports" not in before and "Loading services" in before  # what a build without a database serves
    assert result["rendered"] is True
    assert "BI Reports" in after and "Loading services" not in after
    assert result["gzip_matches"] is True  # the compressed copies the server prefers say the same
    assert result["again"] is False  # the stamp now says what the pages show: nothing more to do


# The states' class defaults (what a build compiles in) against what the renderer lays over them for the same
# content, for a build with the database and one without: a var that the defaults take from the content and the
# renderer does not set would keep showing the build's value.
_DEFAULTS = """
import json
from reflex_base.utils import format
from app.ui import fresh_pages
from app.ui.site.content import SNAPSHOT, Snapshot

defaults = {}
for cls in fresh_pages.sources():
    defaults.update(cls(_reflex_internal_init=True).dict(initial=True))
print(json.dumps({
    "services": len(SNAPSHOT.services),
    "defaults": json.loads(format.json_dumps(defaults)),
    "payload": fresh_pages.payload(SNAPSHOT),
    "empty": fresh_pages.payload(Snapshot()),
}))
"""


def _defaults(database_url: str) -> dict[str, Any]:
    env = {**os.environ, "DATABASE_URL": database_url, "APP_ENV": "test"}
    done = subprocess.run(
        [sys.executable, "-c", _DEFAULTS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_rendered_content_is_what_a_build_compiles_in(server: Server, tmp_path: Path) -> None:
    with_db = _defaults(server.database_url)
    without = _defaults(f"sqlite:///{tmp_path / 'none.db'}")  # no such file: the build reads nothing
    assert with_db["services"] > 0 and without["services"] == 0
    assert with_db["payload"] == with_db["defaults"]
    assert with_db["empty"] == without["defaults"]  # the renderer sets every var the content fills
    assert without["payload"] == without["defaults"]
