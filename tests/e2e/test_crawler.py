"""Click everything (issue 26): signed in as an admin, a staff member and a client, at 1280 and 390 px, every link of
every page of their area is clicked as a person clicks it, and so is every button that says it downloads or exports.

A click must land on a real page (never the site's 404 page: what the staff's "Download PDF" and CV links did while
the tests only read their `href`), or deliver a file that is what its name says (a PDF starts with %PDF, a CSV is
text with a header row, JSON parses, a calendar file is a calendar); and no page may log a console error. Links to
other sites must open a new tab; mail and phone links are left to the visitor's apps.

Every page and tab the crawl opens is also looked at as `make screenshots` looks at it (tools/dev/page_checks.py): it
never scrolls sideways and shows no raw codes (`users:read`, `auth.login`, `in_progress`, ISO times, `None`...).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Download, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from sqlalchemy import text
from sqlalchemy.engine import Engine

from tests.e2e.conftest import Server
from tests.e2e.test_admin import signed_in
from tools.dev.page_checks import page_problems

# Who clicks, where they start, and the paths their crawl follows (links elsewhere are clicked, not followed).
ROLES = {
    "admin": ("/admin/dashboard", ("/admin/", "/profile", "/settings")),
    "staff_hr": ("/admin/dashboard", ("/admin/", "/profile", "/settings")),
    "democlient": ("/client-portal", ("/client-portal", "/profile", "/settings")),
}
WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
NEVER = ("/api/auth/form/logout", "/api/auth/logout", "/api/auth/google")  # a click would end the crawl's session
FILE_BUTTONS = re.compile(r"download|export", re.I)
MAX_PAGES = 30
# Each visible link's href, whether it is a download, and its target, read in one go (the page may re-render).
VISIBLE_LINKS = """els => els.filter(e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden")
  .map(e => [e.getAttribute("href") || "", e.hasAttribute("download"), e.getAttribute("target") || ""])"""


@dataclass
class Crawl:
    server: Server
    page: Page
    follow: tuple[str, ...]
    queue: list[str]
    usernames: frozenset[str] = frozenset()  # shown as they are (`staff_hr`): data, not raw codes
    visited: set[str] = field(default_factory=set)
    clicked: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    @property
    def phone(self) -> bool:
        return bool(self.page.viewport_size and self.page.viewport_size["width"] < 768)

    def open(self, view: View) -> None:
        """Go to the view: its page, with the phone's menu drawer open or one of its tabs chosen."""
        self.page.goto(self.server.url + view.path)
        self.page.wait_for_load_state("networkidle")
        if view.menu:
            self.page.get_by_role("button", name="Open menu").first.click()
        if view.tab:
            self.page.get_by_role("tab", name=view.tab, exact=True).first.click()
            self.page.wait_for_load_state("networkidle")

    def looked_at(self, view: View) -> None:
        """The view as a person sees it once it has loaded: no sideways scroll, no 404 page, no raw codes."""
        expect(self.page.get_by_text(re.compile(r"^Loading")).locator("visible=true")).to_have_count(0, timeout=15_000)
        self.problems += [f"{view} at {self.page.viewport_size}: {p}" for p in page_problems(self.page, self.usernames)]

    def landed(self, what: str) -> None:
        """The page a click led to is a page of the site, not its 404 page."""
        self.page.wait_for_load_state("networkidle")
        if self.page.get_by_text("Page Not Found").count():
            self.problems.append(f"{what} showed the 404 page ({self.page.url})")


@dataclass(frozen=True)
class View:
    path: str
    menu: bool = False  # the phone's menu drawer open (its links are behind the button)
    tab: str = ""  # a tab chosen (the portal's sections, the staff's tabbed sections)

    def __str__(self) -> str:
        return self.path + (" (menu)" if self.menu else "") + (f" [{self.tab}]" if self.tab else "")


def _path(url: str) -> str:
    return urlsplit(url).path.rstrip("/") or "/"


def _is_what_it_says(download: Download) -> str | None:
    """Why the file is not what its name says, or None."""
    name = download.suggested_filename
    data = Path(download.path()).read_bytes()
    if not data:
        return f"{name} is empty"
    suffix = Path(name).suffix.lower()
    checks = {
        ".pdf": lambda: data.startswith(b"%PDF"),
        ".csv": lambda: b"," in data.split(b"\n", 1)[0],
        ".json": lambda: json.loads(data) is not None,
        ".ics": lambda: data.startswith(b"BEGIN:VCALENDAR"),
    }
    try:
        ok = checks.get(suffix, lambda: True)()
    except ValueError:
        ok = False
    return None if ok else f"{name} is not a {suffix} file"


def _download(crawl: Crawl, target: Locator, what: str) -> None:
    before = crawl.page.url
    try:
        with crawl.page.expect_download(timeout=20_000) as arrived:
            target.click()
    except Exception as exc:
        crawl.problems.append(f"{what}: no download ({type(exc).__name__})")
        crawl.landed(what)
        return
    if why := _is_what_it_says(arrived.value):
        crawl.problems.append(f"{what}: {why}")
    if crawl.page.url != before:
        crawl.problems.append(f"{what}: the page moved to {crawl.page.url}")


def _click_link(crawl: Crawl, here: View, href: str, download: bool, target: str) -> None:
    what = f"link {href!r} on {here}"
    split = urlsplit(href)
    if split.scheme in ("mailto", "tel") or href.startswith("#"):
        return
    if split.scheme in ("http", "https") and split.netloc != urlsplit(crawl.server.url).netloc:
        if target != "_blank":
            crawl.problems.append(f"{what}: another site, opened in the same tab")
        return
    link = crawl.page.locator(f'a[href="{href}"]:visible').first
    if download or split.path.startswith("/api/"):
        _download(crawl, link, what)
        return
    if target == "_blank":  # one of ours in a new tab (the portal's Home): that tab must show a real page
        with crawl.page.context.expect_page(timeout=15_000) as opened:
            link.click()
        tab = opened.value
        tab.wait_for_load_state("networkidle")
        if tab.get_by_text("Page Not Found").count():
            crawl.problems.append(f"{what}: the new tab showed the 404 page ({tab.url})")
        tab.close()
        return
    before, wanted = _path(crawl.page.url), _path(href)
    link.click()
    if wanted != before:  # the router changes the address after the click: wait for it, as a person would look
        try:
            crawl.page.wait_for_url(lambda url: _path(url) != before, timeout=15_000)
        except PlaywrightTimeoutError:  # a link that goes nowhere is the finding
            crawl.problems.append(f"{what}: the click went nowhere")
            return
    crawl.landed(what)
    path = _path(crawl.page.url)
    if path.startswith(crawl.follow) and path not in crawl.visited:
        crawl.queue.append(path)


def _crawl_view(crawl: Crawl, view: View) -> list[str]:
    """Click every new link and file button of the view (coming back to it after each); its tabs' names."""
    crawl.open(view)
    crawl.landed(f"page {view}")
    if not view.menu:  # the drawer covers the page: the page itself is looked at without it
        crawl.looked_at(view)
    tabs = [] if view.tab or view.menu else [t.inner_text().strip() for t in crawl.page.get_by_role("tab").all()]
    found: list[list[Any]] = crawl.page.locator("a[href]").evaluate_all(VISIBLE_LINKS)
    for href, download, target in found:
        key = href if download else href.split("?")[0]
        if not href or key in crawl.clicked or href.startswith(NEVER):
            continue
        crawl.clicked.add(key)
        _click_link(crawl, view, href, download, target)
        crawl.open(view)
    if view.menu:
        return tabs
    buttons = crawl.page.get_by_role("button", name=FILE_BUTTONS)
    for i in range(buttons.count()):
        button = buttons.nth(i)
        label = (button.get_attribute("aria-label") or button.inner_text()).strip()
        if not button.is_visible() or not button.is_enabled() or f"button {label}" in crawl.clicked:
            continue
        crawl.clicked.add(f"button {label}")
        _download(crawl, button, f"button {label!r} on {view}")
        crawl.open(view)
    return tabs


def _crawl_page(crawl: Crawl, path: str) -> None:
    crawl.visited.add(path)
    tabs = _crawl_view(crawl, View(path))
    if crawl.phone and crawl.page.get_by_role("button", name="Open menu").count():
        _crawl_view(crawl, View(path, menu=True))
    for tab in tabs:
        _crawl_view(crawl, View(path, tab=tab))


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("username", list(ROLES))
def test_every_link_and_file_button_leads_somewhere_real(
    server: Server, browser: Browser, db_engine: Engine, username: str, width: str
) -> None:
    start, follow = ROLES[username]
    with db_engine.connect() as conn:  # every account, the ones other tests made too (User Management lists them)
        usernames = frozenset(conn.execute(text("SELECT username FROM users")).scalars())
    with signed_in(browser, server, db_engine, username, WIDTHS[width]) as (page, errors):
        crawl = Crawl(server, page, follow, [start], usernames)
        while crawl.queue and len(crawl.visited) < MAX_PAGES:
            path = crawl.queue.pop(0)
            if path not in crawl.visited:
                _crawl_page(crawl, path)
        # The crawl found the pages' links (a client's portal is one page of tabs: a few links and file buttons).
        assert len(crawl.clicked) >= (3 if username == "democlient" else 8), (crawl.visited, crawl.clicked)
        assert crawl.problems == []
        assert errors == []
