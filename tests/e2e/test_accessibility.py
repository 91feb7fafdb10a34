"""The signed-in pages pass axe-core and do not scroll sideways, at desktop and phone widths: every staff section,
the Content Management tabs and a form dialog; the client portal's tabs and the account pages; the sign-in pages.
(The public pages have the same check in test_public_site.)"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy.engine import Engine

from app.ui.admin.state import SECTIONS
from tests.e2e.axe import axe_source, page_problems
from tests.e2e.conftest import Server
from tests.e2e.test_admin import DESKTOP, MOBILE, signed_in
from tests.e2e.test_portal import open_tab

pytestmark = pytest.mark.e2e


def _settled(page: Page) -> None:
    """The section's heading is up and its lists have finished loading."""
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Loading")).to_have_count(0)


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["1280px", "390px"])
def test_staff_sections_pass_axe(server: Server, browser: Browser, db_engine: Engine, viewport: dict[str, int]) -> None:
    axe = axe_source()
    problems: list[str] = []
    with signed_in(browser, server, db_engine, "admin", viewport) as (page, errors):
        for _key, _label, route, _icon in SECTIONS:
            page.goto(server.url + route)
            expect(page.get_by_test_id("access-restricted")).to_have_count(0)
            _settled(page)
            problems += page_problems(page, route, axe)

        page.goto(server.url + "/admin/content")
        _settled(page)
        for tab in ("projects", "newsletter", "site"):
            page.get_by_test_id(f"tab-{tab}").click()
            _settled(page)
            problems += page_problems(page, f"/admin/content ({tab})", axe)
        expect(page.get_by_test_id("site-row").first).to_be_visible()
        page.get_by_test_id("site-kind-jobs").click()
        expect(page.get_by_test_id("site-row").first).to_contain_text("JOB-")
        page.get_by_test_id("site-edit").first.click()
        expect(page.get_by_role("dialog")).to_be_visible()
        problems += page_problems(page, "/admin/content (edit job opening)", axe)
        assert errors == []
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["1280px", "390px"])
def test_client_pages_pass_axe(server: Server, browser: Browser, db_engine: Engine, viewport: dict[str, int]) -> None:
    axe = axe_source()
    problems: list[str] = []
    with signed_in(browser, server, db_engine, None, viewport) as (page, errors):
        for path in ("/client-portal", "/admin/login", "/register", "/forgot-password", "/admin/forgot-password"):
            page.goto(server.url + path)
            expect(page.get_by_role("textbox").first).to_be_visible()
            problems += page_problems(page, f"{path} (signed out)", axe)
        page.goto(server.url + "/reset-password?token=made-up")
        expect(page.get_by_role("link", name="Request a new link")).to_be_visible()
        problems += page_problems(page, "/reset-password (dead link)", axe)
        assert errors == []
    with signed_in(browser, server, db_engine, "democlient", viewport) as (page, errors):
        page.goto(server.url + "/client-portal")
        expect(page.get_by_test_id("project-card").first).to_be_visible()
        for tab in ("Projects", "Invoices", "Meetings", "Profile", "Settings"):
            open_tab(page, tab)
            expect(page.get_by_role("status").filter(has_text="Loading")).to_have_count(0)
            problems += page_problems(page, f"/client-portal ({tab})", axe)
        for path in ("/profile", "/settings"):
            page.goto(server.url + path)
            expect(page.get_by_role("heading", level=1)).to_be_visible()
            problems += page_problems(page, path, axe)
        assert errors == []
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["1280px", "390px"])
def test_the_booking_calendar_and_zone_picker_pass_axe(
    server: Server, browser: Browser, db_engine: Engine, viewport: dict[str, int]
) -> None:
    """Issue 26 point 9: the month calendar with a day's times, and the time-zone picker opened on a search."""
    axe = axe_source()
    with signed_in(browser, server, db_engine, None, viewport) as (page, errors):
        page.goto(server.url + "/book-meeting?type=free-consultation")
        day = page.get_by_test_id("booking-calendar").locator("button[data-day]").first
        day.click()
        expect(page.get_by_test_id("booking-times").locator("[data-slot]").first).to_be_visible()
        problems = page_problems(page, "/book-meeting (a day's times)", axe)
        page.get_by_role("button", name=re.compile("^Time zone")).click()
        page.get_by_label("Search time zones").fill("paris")
        expect(page.locator("[data-zone='Europe/Paris']")).to_be_visible()
        problems += page_problems(page, "/book-meeting (zone search)", axe)
        assert errors == []
    assert problems == [], "\n".join(problems)
