"""Content Management > Newsletter in a real browser (issue 12, point 9): staff search and filter the subscribers,
unsubscribe one on request through the confirmation and see its status change (the database agrees, and the audit
log names them); a content:read-only colleague sees the list but no Unsubscribe button.

Screenshots of the tab at 1280 and 390 px go to SCREENSHOT_DIR (default /tmp/shots).
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.models.base import utcnow
from app.models.enums import EmployeeType, Role, SubscriberStatus
from app.models.inquiry import NewsletterSubscriber
from app.models.system import AuditLog
from app.models.user import User
from app.services.accounts.users import create_user
from tests.e2e.conftest import Server
from tests.e2e.test_admin import MOBILE, _toast, signed_in

pytestmark = pytest.mark.e2e
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/shots"))
WRITER = "e2e_news_writer"  # marketing lead: content:write
READER = "e2e_news_reader"  # developer: content:read only


def _account(engine: Engine, username: str, etype: EmployeeType) -> User:
    """An employee of these tests' own, so other journeys' changes to the demo staff cannot affect this one."""
    with Session(engine, expire_on_commit=False) as s:
        user = s.exec(select(User).where(User.username == username)).first()
        return user or create_user(
            s,
            username=username,
            email=f"{username}@example.com",
            password="News-letter-1",
            role=Role.employee,
            employee_type=etype,
        )


def _subscribers(engine: Engine, tag: str) -> dict[str, int]:
    rows = {
        name: NewsletterSubscriber(
            email=f"{name}.{tag}@example.com",
            status=status,
            source=source,
            confirmed_at=utcnow() if status == SubscriberStatus.confirmed else None,
        )
        for name, status, source in (
            ("ann", SubscriberStatus.confirmed, "footer"),
            ("bob", SubscriberStatus.pending, "contact"),
            ("cyd", SubscriberStatus.unsubscribed, "footer"),
        )
    }
    with Session(engine, expire_on_commit=False) as s:
        s.add_all(rows.values())
        s.commit()
        return {name: row.id or 0 for name, row in rows.items()}


def _open_newsletter(page: Page, server: Server) -> None:
    page.goto(server.url + "/admin/content")
    expect(page.get_by_role("heading", name="Content Management")).to_be_visible()
    page.get_by_test_id("tab-newsletter").click()
    expect(page.get_by_test_id("subscribers-table")).to_be_visible()


def _fits(page: Page) -> bool:
    """The table needs no sideways scrolling of its own (its secondary columns give way on narrow screens)."""
    return bool(page.get_by_test_id("subscribers-table").evaluate("t => t.scrollWidth <= t.parentElement.clientWidth"))


def test_staff_search_filter_and_unsubscribe_one_on_request(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    tag = uuid.uuid4().hex[:8]
    ids = _subscribers(db_engine, tag)
    writer = _account(db_engine, WRITER, EmployeeType.marketing_lead)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with signed_in(browser, server, db_engine, WRITER) as (page, errors):
        _open_newsletter(page, server)
        page.get_by_test_id("search-subscribers").fill(tag)
        rows = page.get_by_test_id("subscriber-row")
        expect(rows).to_have_count(3)
        # Newest first; the unsubscribed row offers no Unsubscribe.
        expect(rows.filter(has_text=f"cyd.{tag}").get_by_test_id("subscriber-status")).to_have_text("Unsubscribed")
        expect(rows.filter(has_text=f"cyd.{tag}").get_by_test_id("unsubscribe-button")).to_have_count(0)
        expect(page.get_by_test_id("unsubscribe-button")).to_have_count(2)
        assert _fits(page)
        page.screenshot(path=str(SHOTS / "newsletter-1280.png"), full_page=True)

        page.get_by_label("Filter by status").select_option("pending")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text(f"bob.{tag}@example.com")
        expect(rows.first).to_contain_text("Contact form")
        page.get_by_label("Filter by status").select_option("")
        expect(rows).to_have_count(3)

        ann = rows.filter(has_text=f"ann.{tag}")
        ann.get_by_role("button", name=f"Unsubscribe ann.{tag}@example.com").click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text(f"ann.{tag}@example.com")
        page.screenshot(path=str(SHOTS / "newsletter-confirm-1280.png"))
        dialog.get_by_role("button", name="Cancel").click()
        expect(dialog).to_be_hidden()
        expect(ann.get_by_test_id("subscriber-status")).to_have_text("Confirmed")  # Cancel changed nothing

        ann.get_by_test_id("unsubscribe-button").click()
        dialog.get_by_role("button", name="Unsubscribe").click()
        _toast(page, "Subscriber unsubscribed")
        expect(dialog).to_be_hidden()
        expect(ann.get_by_test_id("subscriber-status")).to_have_text("Unsubscribed")
        expect(ann.get_by_test_id("unsubscribe-button")).to_have_count(0)
        assert errors == []

    with Session(db_engine) as s:
        sub = s.get(NewsletterSubscriber, ids["ann"])
        assert sub is not None and sub.status == SubscriberStatus.unsubscribed and sub.confirm_token is None
        entry = s.exec(
            select(AuditLog).where(AuditLog.action == "newsletter.unsubscribe", AuditLog.entity_id == str(sub.id))
        ).one()
        assert entry.actor_id == writer.id
        assert s.get(NewsletterSubscriber, ids["bob"]).status == SubscriberStatus.pending  # type: ignore[union-attr]

    with signed_in(browser, server, db_engine, WRITER, MOBILE) as (page, errors):
        _open_newsletter(page, server)
        page.get_by_test_id("search-subscribers").fill(tag)
        expect(page.get_by_test_id("subscriber-row")).to_have_count(3)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px at 390 px"
        assert _fits(page)
        page.screenshot(path=str(SHOTS / "newsletter-390.png"), full_page=True)
        assert errors == []


def test_a_content_reader_sees_the_list_but_cannot_unsubscribe(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    tag = uuid.uuid4().hex[:8]
    _subscribers(db_engine, tag)
    _account(db_engine, READER, EmployeeType.developer)
    with signed_in(browser, server, db_engine, READER) as (page, errors):
        _open_newsletter(page, server)
        page.get_by_test_id("search-subscribers").fill(tag)
        expect(page.get_by_test_id("subscriber-row")).to_have_count(3)
        expect(page.get_by_test_id("unsubscribe-button")).to_have_count(0)
        expect(page.get_by_test_id("export-csv")).to_be_visible()  # reading is enough to export
        assert errors == []
