"""The staff dashboard says what needs doing, live (issue 26, point 6): an admin's open dashboard shows a new inquiry
without a reload, and its card opens the inquiries list filtered to New. At a phone's width the cards fit without
sideways scrolling. (The inquiry is stored as the contact form's service stores it: the form's per-address limit
is shared by every browser test, all of which come from 127.0.0.1.)"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.services.crm import contact
from app.ui.admin.dashboard.state import REFRESH_SECONDS
from tests.e2e.conftest import Server
from tests.e2e.test_admin import DESKTOP, MOBILE, signed_in

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["1280", "390"])
def test_a_new_inquiry_shows_up_on_an_open_dashboard_and_its_card_opens_the_list(
    server: Server, browser: Browser, db_engine: Engine, viewport: dict[str, int]
) -> None:
    with signed_in(browser, server, db_engine, "admin", viewport) as (page, errors):
        page.goto(server.url + "/admin/dashboard")
        card = page.get_by_test_id("todo-new_inquiries")
        expect(card).to_be_visible()
        expect(page.get_by_test_id("todo-overdue")).to_be_visible()
        expect(page.get_by_test_id("agenda-today")).to_be_visible()
        count = card.locator("span").first
        expect(count).to_have_text(re.compile(r"^\d+$"))  # "…" until the dashboard's figures have loaded
        before = int(count.inner_text())
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "sideways scroll"

        name = f"Live Prospect {uuid.uuid4().hex[:6]}"
        with Session(db_engine) as s:
            contact.submit_inquiry(
                s, data={"name": name, "email": "live@prospect.example.com", "message": "Call me back."}
            )
        # No reload: the open tab's next tick brings it.
        expect(card.locator("span").first).to_have_text(str(before + 1), timeout=(REFRESH_SECONDS + 10) * 1000)

        card.click()
        expect(page).to_have_url(f"{server.url}/admin/inquiries?status=new")
        expect(page.get_by_role("heading", name="Contact Inquiries")).to_be_visible()
        page.get_by_role("searchbox", name="Search inquiries").fill(name)
        expect(page.get_by_test_id("inquiry-row").filter(visible=True)).to_have_count(1)
        expect(page.get_by_role("combobox", name="Filter by status")).to_have_value("new")
        assert errors == []
