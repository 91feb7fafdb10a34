"""The portal's first screen in a real browser (issue 26, point 10): the demo client, signed in, opens the portal and
sees, above the tabs, what they owe and the invoice to pay next, their next meeting in their own zone, their active
projects, and the company's logo, at 1280 and 390 px without sideways scrolling; "View invoice" opens that invoice.

What the page shows is checked against the service's answer for the same client. Screenshots go to E2E_SCREENSHOTS
when set (a folder), else to the test's temporary folder.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.models.user import User
from app.services.accounts import sessions
from app.services.platform import company
from app.services.reporting.client_summary import ClientSummary, client_summary
from app.ui.format import long_date, usd
from tests import factories as f
from tests.e2e.conftest import Server
from tests.e2e.test_admin import DESKTOP, MOBILE

pytestmark = pytest.mark.e2e

PORTAL = "/client-portal"
ZONE = "America/Los_Angeles"  # the browser's zone, not the business's nor UTC: the meeting's time must follow it


def _expected(engine: Engine) -> tuple[ClientSummary, str]:
    with Session(engine) as s:
        client = s.exec(select(User).where(User.username == "democlient")).one()
        summary = client_summary(s, actor=client)
        if summary.next_meeting is None:  # an earlier browser test cancelled the demo's upcoming meetings
            f.meeting(s, client, in_hours=72, title="Summary check-in")
            summary = client_summary(s, actor=client)
        return summary, company.profile(s).name


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["1280", "390"])
def test_the_demo_client_opens_the_portal_on_its_summary(
    server: Server, browser: Browser, db_engine: Engine, tmp_path: Path, viewport: dict[str, int]
) -> None:
    want, company_name = _expected(db_engine)
    # The demo client owes something, has a meeting ahead and work under way: every part of the summary shows.
    assert want.next_invoice is not None and want.next_meeting is not None and want.active_projects
    shots = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    width = viewport["width"]
    context = browser.new_context(viewport=viewport, timezone_id=ZONE)  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # A session of the demo client's (another browser test changes its password, so not the password).
        with Session(db_engine) as s:
            client = s.exec(select(User).where(User.username == "democlient")).one()
            token = sessions.start(s, client).access_token
        context.add_cookies([{"name": "access_token", "value": token, "url": server.url, "httpOnly": True}])
        page.goto(server.url + PORTAL)

        summary = page.get_by_test_id("portal-summary")
        expect(summary.get_by_test_id("balance")).to_have_text(usd(want.balance_due))
        # The first thing on the screen: above the tabs, and its top within the first screen.
        top = summary.bounding_box()
        tabs = page.get_by_role("tablist").bounding_box()
        assert top is not None and tabs is not None and top["y"] < tabs["y"] and top["y"] < viewport["height"]
        expect(page.get_by_role("banner").get_by_role("link", name=f"{company_name}, home")).to_be_visible()

        money = summary.get_by_test_id("summary-invoices")
        nxt = want.next_invoice
        expect(money).to_contain_text(nxt.invoice_number)
        expect(money).to_contain_text(usd(nxt.balance_due))
        if nxt.due_date:
            expect(money).to_contain_text(long_date(nxt.due_date))
        expect(money.get_by_test_id("summary-overdue")).to_have_count(1 if nxt.overdue else 0)

        meeting = summary.get_by_test_id("summary-meeting")
        expect(meeting).to_contain_text(want.next_meeting.title)
        start = datetime.fromisoformat(want.next_meeting.scheduled_at).astimezone(ZoneInfo(ZONE))
        expect(meeting).to_contain_text(start.tzname() or "")  # "PST": the browser's zone, as the Meetings tab
        expect(meeting).to_contain_text(f"{start:%B} {start.day}, {start.year}")
        join = meeting.get_by_role("link", name="Join meeting")
        if want.next_meeting.join_url:
            expect(join).to_have_attribute("href", want.next_meeting.join_url)
        else:
            expect(join).to_have_count(0)

        projects = summary.get_by_test_id("summary-projects").get_by_role("listitem")
        expect(projects).to_have_count(len(want.active_projects))
        for p, row in zip(want.active_projects, projects.all(), strict=True):
            expect(row).to_contain_text(p.name)
            expect(row).to_contain_text(f"{p.progress_percentage}%")

        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "sideways scroll"
        page.screenshot(path=str(shots / f"portal-summary-{width}.png"))

        # "View invoice": the Invoices tab, scrolled to the invoice to pay.
        money.get_by_role("button", name=f"View invoice {nxt.invoice_number}").click()
        expect(page.get_by_role("tab", name="Invoices")).to_have_attribute("aria-selected", "true")
        card = page.get_by_test_id("invoice-card").filter(has_text=nxt.invoice_number)
        expect(card).to_be_in_viewport()
        page.screenshot(path=str(shots / f"portal-summary-invoice-{width}.png"))
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "sideways scroll"
        assert errors == []
    finally:
        context.close()
