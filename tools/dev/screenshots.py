"""Full-page screenshots at 1280 and 390 px into screenshots/ (git-ignored): every public page, then, signed in, every
staff section (and each tab of the tabbed ones) as the admin and as a staff member with fewer sections (HR), and every
tab of the client portal with the account pages as the demo client.

    python tools/dev/screenshots.py                 # starts the server (like `make run`) on a free port, then stops it
    python tools/dev/screenshots.py --url URL       # uses a server that is already running (with the demo accounts)
    python tools/dev/screenshots.py --only admin    # one set: public, admin, staff or client

Each shot waits for the page's content to load (no skeleton, no "Loading...") and is checked as the browser crawler
checks every page (tools/dev/page_checks.py): no sideways scroll, not the 404 page, no raw codes in the visible text
(`users:read`, `auth.login`, `in_progress`, ISO timestamps, `None`...), and no console error. The summary lists every
problem; the exit code is 1 when there is one.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
from app.services.operations.demo_content import DEMO_ACCOUNTS  # noqa: E402
from tools import server  # noqa: E402
from tools.dev.page_checks import page_problems  # noqa: E402
from tools.dev.signed_in import access_token  # noqa: E402

OUT = ROOT / "screenshots"
CHROMIUM = "/usr/bin/chromium"
WIDTHS = {"desktop": (1280, 800), "mobile": (390, 844)}
PAGES: list[tuple[str, str]] = [
    ("home", "/"),
    ("about", "/about"),
    ("services", "/services"),
    ("portfolio", "/portfolio"),
    ("contact", "/contact"),
    ("careers", "/careers"),
    ("apply-job-001", "/apply?jobId=JOB-001"),
    ("apply-general", "/apply"),
    ("book-meeting", "/book-meeting"),
    ("privacy", "/privacy"),
    ("terms", "/terms"),
    ("not-found", "/no-such-page"),
    ("forgot-password", "/forgot-password"),
    ("reset-password-bad-link", "/reset-password?token=expired-or-made-up"),
]
# Who signs in for the signed-in sets: (set, username). HR sees fewer sections than the admin.
SIGNED_IN = [("admin", "admin"), ("staff", "staff_hr"), ("client", "democlient")]
ACCOUNT_PAGES = ["/profile", "/settings"]  # the account pages every signed-in person has
STAFF_NAV = 'nav[aria-label="Admin sections"] a[href]'
# Usernames are shown as they are (`staff_hr`): data, not codes.
USERNAMES = frozenset(a.username for a in DEMO_ACCOUNTS)


@dataclass
class Report:
    shots: int = 0
    problems: list[str] = field(default_factory=list)


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _start_server() -> server.Server:
    env = dict(os.environ)
    server.app_cli(env, "migrate", "seed-demo")
    return server.start(env, OUT / "server.log")


def _settle(page: Page) -> None:
    """Wait as a person waits: the page loaded, no skeleton and no "Loading..." left (the websocket fills tables)."""
    page.wait_for_load_state("networkidle")
    try:
        expect(page.locator("[data-skeleton]")).to_have_count(0, timeout=15_000)
        expect(page.get_by_text(re.compile(r"^Loading")).locator("visible=true")).to_have_count(0, timeout=15_000)
    except AssertionError:
        _say("    (still loading after 15 s)")
    page.wait_for_timeout(400)


def _shoot(page: Page, name: str, report: Report, errors: list[str], *, expect_404: bool = False) -> None:
    """The screenshot, its checks, one line of output."""
    target = OUT / f"{name}.png"
    page.screenshot(path=str(target), full_page=True)
    notes = [p for p in page_problems(page, USERNAMES) if not (expect_404 and p == "shows the 404 page")]
    if errors and not expect_404:
        notes.append(f"console errors: {errors}")
    errors.clear()
    report.shots += 1
    if notes:  # the summary names the shot and its first findings; the line above it has them all
        more = f" (and {len(notes) - 3} more)" if len(notes) > 3 else ""
        report.problems.append(f"{target.name}: {'; '.join(notes[:3])}{more}")
    _say(f"{target.relative_to(ROOT)}" + (f"  !! {'; '.join(notes)}" if notes else ""))


def _watch(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _tabs(page: Page) -> list[str]:
    """The page's tabs other than the one it opens on (that one is in the page's own shot)."""
    tabs = page.get_by_role("tab").all()
    return [t.inner_text().strip() for t in tabs if t.is_visible() and t.get_attribute("aria-selected") != "true"]


def _shoot_with_tabs(page: Page, url: str, path: str, prefix: str, report: Report, errors: list[str]) -> None:
    """The page as it opens, then each of its tabs chosen as a person chooses it."""
    page.goto(url + path)
    _settle(page)
    base = f"{prefix}-{_slug(path) or 'home'}"
    _shoot(page, base, report, errors)
    _shoot_choices(page, base, report, errors)
    for tab in _tabs(page):
        page.get_by_role("tab", name=tab, exact=True).first.click()
        _settle(page)
        _shoot(page, f"{base}-tab-{_slug(tab)}", report, errors)
        _shoot_choices(page, f"{base}-tab-{_slug(tab)}", report, errors)


def _shoot_choices(page: Page, base: str, report: Report, errors: list[str]) -> None:
    """The views a row of toggle buttons chooses between (the website editor's Services, Portfolio, Team...): each
    one not chosen yet. A toggle with its own label (show password) changes no view and is left alone."""
    choices = page.locator('button[aria-pressed="false"]:not([aria-label]):visible')
    for label in [c.inner_text().strip() for c in choices.all()]:
        page.locator('button[aria-pressed="false"]:not([aria-label])', has_text=label).first.click()
        _settle(page)
        _shoot(page, f"{base}-{_slug(label)}", report, errors)


def _public(context: BrowserContext, url: str, label: str, report: Report) -> None:
    for name, path in PAGES:
        page = context.new_page()
        errors = _watch(page)
        page.goto(url + path)
        _settle(page)
        _shoot(page, f"{name}-{label}", report, errors, expect_404=name == "not-found")
        page.close()


def _signed_in(context: BrowserContext, url: str, label: str, who: str, username: str, report: Report) -> None:
    # A session opened in the server's database (tools/dev/signed_in.py): staff pass a second factor at sign-in.
    context.add_cookies([{"name": "access_token", "value": access_token(username), "url": url, "httpOnly": True}])
    page = context.new_page()
    errors = _watch(page)
    if who == "client":
        paths = ["/client-portal"]
    else:  # every section the person's navigation offers, in its order
        page.goto(url + "/admin/dashboard")
        expect(page.locator(STAFF_NAV).first).to_be_attached(timeout=30_000)
        hrefs: list[str] = page.locator(STAFF_NAV).evaluate_all("els => els.map(e => e.getAttribute('href'))")
        paths = list(dict.fromkeys(hrefs))
    for path in [*paths, *ACCOUNT_PAGES]:
        _shoot_with_tabs(page, url, path, f"{who}-{label}", report, errors)
    page.close()


def shoot(url: str, only: str | None = None) -> Report:
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium is needed at {CHROMIUM} (sudo apt-get install chromium)")
    OUT.mkdir(exist_ok=True)
    report = Report()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"])
        for label, (width, height) in WIDTHS.items():
            if only in (None, "public"):
                context = browser.new_context(viewport={"width": width, "height": height})
                _public(context, url, label, report)
                context.close()
            for who, username in SIGNED_IN:
                if only in (None, who):
                    context = browser.new_context(viewport={"width": width, "height": height})
                    _signed_in(context, url, label, who, username, report)
                    context.close()
        browser.close()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--only", choices=["public", *(who for who, _ in SIGNED_IN)], help="one set of pages")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    app = None
    url = args.url.rstrip("/") if args.url else None
    if url is None:
        app = _start_server()
        url = app.url
    try:
        report = shoot(url, args.only)
    finally:
        if app is not None:
            app.stop(timeout_s=30)
    _say(f"{report.shots} screenshots in {OUT.relative_to(ROOT)}/, {len(report.problems)} with problems")
    for problem in report.problems:
        _say(f"  {problem}")
    sys.exit(1 if report.problems else 0)


if __name__ == "__main__":
    main()
