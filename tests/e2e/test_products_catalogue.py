"""Products are edited in one place, Products & Services (issue 26 point 8, ADR 0090): a product manager finds it from
Content Management, creates a product, prices it and edits it by clicking, and a client sees it among the portal's
plans as it was last saved; the public catalogue (GET /api/products) says the same. Content Management's old Products
tab address leads there; a catalogue reader without products:write sees no write buttons; the cards' buttons fit a
phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, delete, select

from app.models.commerce import Price, Product
from tests.e2e.conftest import Server
from tests.e2e.test_admin import MOBILE, _toast, _unique, signed_in

pytestmark = pytest.mark.e2e


@pytest.fixture
def names(db_engine: Engine) -> Iterator[list[str]]:
    """The products a test creates, by name; deleted afterwards (nothing orders them)."""
    created: list[str] = []
    yield created
    with Session(db_engine) as s:
        ids = list(s.exec(select(Product.id).where(col(Product.name).in_(created))))
        s.exec(delete(Price).where(col(Price.product_id).in_(ids)))
        s.exec(delete(Product).where(col(Product.id).in_(ids)))
        s.commit()


def _card(page: Page, name: str) -> Locator:
    page.get_by_test_id("search-products").fill(name)
    card = page.get_by_test_id("catalogue-product").filter(has_text=name)
    expect(card).to_have_count(1)
    return card


def test_a_product_is_created_priced_and_edited_in_one_place_and_offered_to_clients(
    server: Server, browser: Browser, db_engine: Engine, names: list[str]
) -> None:
    name = _unique("E2E Backup Plan ")
    names.append(name)
    with signed_in(browser, server, db_engine, "staff_product_manager") as (page, errors):
        # Content Management points to the one place; its old Products tab is gone.
        page.goto(server.url + "/admin/content")
        expect(page.get_by_role("heading", name="Content Management")).to_be_visible()
        expect(page.get_by_test_id("tab-products")).to_have_count(0)
        page.get_by_test_id("content-products-link").click()
        expect(page).to_have_url(re.compile(r"/admin/products$"))
        expect(page.get_by_role("heading", name="Products & Services")).to_be_visible()

        page.get_by_test_id("create-products").click()
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_role("heading", name="Create Product")).to_be_visible()
        dialog.locator("#product-name").fill(name)
        dialog.locator("#product-category").select_option("service_package")
        dialog.locator("#product-description").fill("Nightly off-site backups.")
        expect(dialog.locator("#product-active")).to_be_checked()
        dialog.get_by_test_id("save-form").click()
        _toast(page, "Product created successfully")
        expect(dialog).to_have_count(0)

        card = _card(page, name)
        expect(card.get_by_test_id("product-offered")).to_have_text("Not offered yet: it needs an active price.")
        card.get_by_role("button", name="Add price").click()
        dialog = page.get_by_role("dialog")
        dialog.locator("#price-amount").fill("75")
        dialog.locator("#price-period").select_option("monthly")
        dialog.get_by_role("button", name="Add price").click()
        _toast(page, "Price added successfully")
        expect(card.get_by_test_id("price-row")).to_contain_text(["$75.00"])
        expect(card.get_by_test_id("product-offered")).to_have_text("Offered to clients in the portal's plans.")

        card.get_by_role("button", name=f"Edit {name}").click()
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_role("heading", name="Edit Product")).to_be_visible()
        expect(dialog.locator("#product-name")).to_have_value(name)
        dialog.locator("#product-description").fill("Nightly off-site backups, kept for 90 days.")
        dialog.get_by_test_id("save-form").click()
        _toast(page, "Product updated successfully")
        expect(card).to_contain_text("kept for 90 days")
        assert errors == []

    # The public catalogue and the portal's plans show the product as it was saved.
    listed = httpx.get(server.url + "/api/products").json()["data"]
    [mine] = [p for p in listed if p["name"] == name]
    assert mine["description"] == "Nightly off-site backups, kept for 90 days."
    assert [(p["amount"], p["billing_period"]) for p in mine["prices"]] == [("75.00", "monthly")]
    with signed_in(browser, server, db_engine, "democlient") as (page, errors):
        page.goto(server.url + "/client-portal")
        page.get_by_role("tab", name="Plans").click()
        plan = page.get_by_test_id("plan-card").filter(has_text=name)
        expect(plan).to_contain_text("kept for 90 days")
        expect(plan.get_by_test_id("plan-price")).to_have_text("$75.00 / month")
        assert errors == []

    # Switched off in the one place, the plan leaves the portal.
    with signed_in(browser, server, db_engine, "staff_product_manager") as (page, errors):
        page.goto(server.url + "/admin/products")
        card = _card(page, name)
        switch = card.get_by_test_id("price-row").get_by_role("checkbox")
        switch.click()
        expect(switch).not_to_be_checked()
        _toast(page, "Price updated successfully")
        expect(card.get_by_test_id("product-offered")).to_have_text("Not offered yet: it needs an active price.")
        assert errors == []
    with signed_in(browser, server, db_engine, "democlient") as (page, errors):
        page.goto(server.url + "/client-portal")
        page.get_by_role("tab", name="Plans").click()
        expect(page.get_by_role("heading", name="Services & plans")).to_be_visible()
        expect(page.get_by_test_id("plan-card").filter(has_text=name)).to_have_count(0)


def test_the_old_products_tab_address_and_a_reader_without_write(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    # A marketing lead reads the catalogue (products:read) and writes content, not products.
    with signed_in(browser, server, db_engine, "staff_marketing_lead") as (page, errors):
        page.goto(server.url + "/admin/content?tab=products")
        expect(page).to_have_url(re.compile(r"/admin/products$"))
        expect(page.get_by_test_id("catalogue-product").first).to_be_visible()
        expect(page.get_by_test_id("create-products")).to_have_count(0)
        expect(page.get_by_test_id("edit-button")).to_have_count(0)
        expect(page.get_by_role("button", name="Add price")).to_have_count(0)
        # The public Services page's texts are website content: the catalogue points there.
        page.get_by_test_id("website-services-link").click()
        expect(page).to_have_url(re.compile(r"/admin/content\?tab=site$"))
        expect(page.get_by_test_id("tab-site")).to_have_attribute("aria-selected", "true")
        assert errors == []


def test_a_products_buttons_fit_a_phone(server: Server, browser: Browser, db_engine: Engine, names: list[str]) -> None:
    name = _unique("E2E Phone Plan ")
    names.append(name)
    with Session(db_engine) as s:
        product = Product(name=name, description="Made for the phone test.")
        s.add(product)
        s.flush()
        s.add(Price(product_id=product.id or 0, amount=Decimal("1200.00")))
        s.commit()
    with signed_in(browser, server, db_engine, "staff_product_manager", MOBILE) as (page, errors):
        page.goto(server.url + "/admin/products")
        card = _card(page, name)
        for button in (f"Edit {name}", f"Delete {name}", "Add price"):
            target = card.get_by_role("button", name=button)
            expect(target).to_be_in_viewport()
        # The price's switch too: the phone's price table leaves out the currency rather than scroll it away.
        box = card.get_by_test_id("price-row").get_by_role("checkbox").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        card.get_by_role("button", name=f"Delete {name}").click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text(f'Are you sure you want to delete "{name}"?')
        dialog.get_by_role("button", name="Delete").click()
        _toast(page, "Product deleted successfully")
        expect(page.get_by_test_id("catalogue-product").filter(has_text=name)).to_have_count(0)
        assert errors == []
