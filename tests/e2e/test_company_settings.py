"""Company settings in a real browser (issue 12, point 12): an admin changes the company's details in Settings and a
visitor sees them on the next page view; staff without settings:manage do not get the form."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.models.system import CompanySettings
from tests.e2e.conftest import Server
from tests.e2e.test_admin import DESKTOP, _toast, signed_in

pytestmark = pytest.mark.e2e
MOBILE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/shots"))  # looked at by people, not asserted


@pytest.fixture
def stored_details_removed(db_engine: Engine) -> Iterator[None]:
    """The environment's details again afterwards (the server re-reads them within platform.company.CACHE_S)."""
    yield
    with Session(db_engine) as s:
        row = s.get(CompanySettings, 1)
        if row is not None:
            s.delete(row)
            s.commit()


def test_an_admin_changes_the_details_a_visitor_then_sees(
    server: Server, browser: Browser, db_engine: Engine, stored_details_removed: None
) -> None:
    with signed_in(browser, server, db_engine, "admin") as (page, errors):
        page.goto(server.url + "/admin/settings")
        card = page.get_by_test_id("company-settings")
        expect(card.locator("#company-name")).to_have_value("Coastline IT Solutions")
        card.locator("#company-phone").fill("555")
        card.get_by_test_id("save-company").click()
        expect(card.get_by_text("Phone number must be at least 10 digits")).to_be_visible()
        card.locator("#company-phone").fill("(772) 555-0199")
        card.locator("#company-sales_email").fill("deals@coastline-it.example")
        card.locator("#company-twitter_url").fill("")
        card.locator("#company-client_badges").fill("Jupiter Marine Works\nHobe Sound Realty")
        card.locator("#company-business_timezone").select_option("America/Chicago")
        card.get_by_test_id("save-company").click()
        _toast(page, "Company settings saved")
        page.reload()
        expect(card.locator("#company-phone")).to_have_value("(772) 555-0199")
        expect(card.locator("#company-business_timezone")).to_have_value("America/Chicago")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "company-settings-1280.png"), full_page=True)
        page.set_viewport_size(MOBILE)
        page.screenshot(path=str(SHOTS / "company-settings-390.png"), full_page=True)
        assert errors == []

    with signed_in(browser, server, db_engine, None, viewport=MOBILE) as (page, errors):
        page.goto(server.url + "/")
        footer = page.locator("footer").last
        expect(footer.get_by_role("link", name="(772) 555-0199")).to_have_attribute("href", "tel:+17725550199")
        expect(footer.get_by_role("link", name="deals@coastline-it.example")).to_be_visible()
        expect(
            footer.get_by_role("link", name="Coastline IT Solutions on LinkedIn (opens in a new tab)")
        ).to_be_visible()
        expect(footer.get_by_role("link", name="Coastline IT Solutions on Twitter (opens in a new tab)")).to_have_count(
            0
        )
        badges = page.get_by_role("list", name="Some of our clients").get_by_role("listitem")
        expect(badges).to_have_text(["Jupiter Marine Works", "Hobe Sound Realty"])
        page.screenshot(path=str(SHOTS / "company-home-390.png"), full_page=True)
        page.goto(server.url + "/contact")
        expect(page.get_by_role("link", name="deals@coastline-it.example").first).to_be_visible()
        assert errors == []


def test_staff_without_settings_manage_see_no_company_form(server: Server, browser: Browser, db_engine: Engine) -> None:
    with signed_in(browser, server, db_engine, "staff_developer", viewport=DESKTOP) as (page, errors):
        page.goto(server.url + "/admin/settings")
        expect(page.get_by_test_id("account-summary")).to_be_visible()
        expect(page.get_by_test_id("company-settings")).to_have_count(0)
        assert errors == []
