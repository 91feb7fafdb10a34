"""Unread messages and their digest mails in real browsers (issue 28, ADR 0102): a staff member on the project posts,
the client's open portal shows the unread badge without a reload and opening the conversation clears it; the client's
question shows on the staff member's sidebar and on the dashboard's "waiting for a reply", whose link opens the
conversation; a digest mail's link opens the conversation in the portal."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, func, select

from app.core.config import settings
from app.models.base import utcnow
from app.models.project import Project
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.projects import conversations, message_digests
from tests.e2e.conftest import Server
from tests.e2e.test_admin import signed_in

pytestmark = pytest.mark.e2e
PROJECT = "Patient Portal & Online Booking"  # one of the demo client's projects; staff_developer is on its team
LIVE_MS = 25_000  # the portal counts every 10 s, the staff shell every 15 s


def _portal_card(page: Page):  # type: ignore[no-untyped-def]
    return page.get_by_test_id("project-card").filter(has_text=PROJECT)


def _read_conversation(page: Page) -> None:
    """Open the project's conversation in the portal, then close it (it is read up to its newest message)."""
    _portal_card(page).get_by_test_id("open-conversation").click()
    dialog = page.get_by_test_id("conversation")
    expect(dialog).to_contain_text(PROJECT)
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_have_count(0)


def _tab_badge(page: Page):  # type: ignore[no-untyped-def]
    """The Projects tab's badge (Radix renders a tab's label twice, the second hidden, to keep its width)."""
    return page.get_by_role("tab", name=re.compile(r"^Projects")).get_by_test_id("projects-unread").first


def _total(page: Page) -> int:
    badge = _tab_badge(page)
    return int(badge.inner_text().split()[0]) if badge.count() else 0


def test_the_badge_counts_new_messages_live_and_the_question_waits_on_the_dashboard(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    tag = uuid.uuid4().hex[:6]
    with (
        signed_in(browser, server, db_engine, "democlient") as (client, client_errors),
        signed_in(browser, server, db_engine, "staff_developer") as (staff, staff_errors),
    ):
        client.goto(server.url + "/client-portal")
        _read_conversation(client)
        expect(_portal_card(client).get_by_test_id("unread-badge")).to_have_count(0)
        before = _total(client)

        staff.goto(server.url + "/admin/content?tab=projects")
        staff.get_by_test_id("search-projects").fill("Patient Portal")
        staff.get_by_test_id("project-card").filter(has_text=PROJECT).get_by_test_id("open-conversation").click()
        answering = staff.get_by_test_id("conversation")
        answering.get_by_label("Your message").fill(f"The booking calendar is on staging ({tag}).")
        answering.get_by_role("button", name="Send").click()
        expect(answering.get_by_test_id("conversation-message").filter(has_text=tag)).to_be_visible()
        answering.get_by_role("button", name="Close").click()

        # The client's portal, not reloaded, counts the new message: on the tab and on the project's card.
        expect(_tab_badge(client)).to_contain_text(str(before + 1), timeout=LIVE_MS)
        expect(_portal_card(client).get_by_test_id("unread-badge")).to_contain_text("1 unread message")
        expect(client.get_by_role("tab", name=re.compile(r"Projects.*unread message"))).to_be_visible()
        _portal_card(client).get_by_test_id("open-conversation").click()
        asking = client.get_by_test_id("conversation")
        expect(asking.get_by_test_id("conversation-message").filter(has_text=tag)).to_be_visible()
        expect(_portal_card(client).get_by_test_id("unread-badge")).to_have_count(0)  # read: the count drops
        assert _total(client) == before

        # The client answers with a question: it waits for the team, on the sidebar and on the dashboard.
        question = f"Can the dentists try it this week ({tag})?"
        asking.get_by_label("Your message").fill(question)
        asking.get_by_role("button", name="Send").click()
        expect(asking.get_by_test_id("conversation-message").filter(has_text=question)).to_be_visible()
        sidebar = staff.get_by_test_id("admin-sidebar")
        expect(sidebar.get_by_test_id("nav-unread")).to_contain_text("unread message", timeout=LIVE_MS)

        staff.goto(server.url + "/admin/dashboard")
        waiting = staff.get_by_test_id("waiting-conversations")
        expect(waiting.get_by_test_id("waiting-conversation").filter(has_text=PROJECT)).to_be_visible()
        waiting.get_by_test_id("waiting-conversation").filter(has_text=PROJECT).get_by_role("link").click()
        opened = staff.get_by_test_id("conversation")
        expect(opened.get_by_test_id("conversation-message").filter(has_text=question)).to_be_visible()
        assert "conversation=" in staff.url
        assert client_errors == [] and staff_errors == []


def test_a_digest_mails_link_opens_the_conversation(
    server: Server, browser: Browser, db_engine: Engine, db: Session
) -> None:
    tag = uuid.uuid4().hex[:6]
    mark = db.exec(select(func.coalesce(func.max(EmailOutbox.id), 0))).one()
    client = db.exec(select(User).where(User.username == "democlient")).one()
    dev = db.exec(select(User).where(User.username == "staff_developer")).one()
    project = db.exec(select(Project).where(Project.name == PROJECT, Project.client_id == client.id)).one()
    conversations.post(db, actor=dev, project_id=project.id, data={"body": f"Please review the intake forms ({tag})."})

    later = utcnow() + timedelta(minutes=settings.message_digest_minutes, seconds=30)
    assert any(d.to == client.email for d in message_digests.send_due(db, now=later))
    letter = db.exec(
        select(EmailOutbox).where(EmailOutbox.to_address == client.email, col(EmailOutbox.id) > mark)
    ).one()
    assert f"intake forms ({tag})" in letter.body_text
    link = re.search(r"/client-portal\?tab=projects&conversation=\d+", letter.body_text)
    assert link is not None

    with signed_in(browser, server, db_engine, "democlient") as (page, errors):
        page.goto(server.url + link.group(0))
        dialog = page.get_by_test_id("conversation")
        expect(dialog).to_contain_text(PROJECT)
        expect(dialog.get_by_test_id("conversation-message").filter(has_text=tag)).to_be_visible()
        assert errors == []
