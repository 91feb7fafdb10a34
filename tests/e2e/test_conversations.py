"""Project conversations live in two browsers (issue 28): the client asks in the portal, the staff member sees it in
the Projects tab without a reload and answers, with an internal note beside the answer; the client's open dialog
shows the answer by itself and never the note. Messages are text: markup typed into one is shown as typed."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy.engine import Engine

from tests.e2e.conftest import Server
from tests.e2e.test_admin import signed_in
from tests.e2e.test_admin_content import _open_content_tab

pytestmark = pytest.mark.e2e
PROJECT = "Patient Portal & Online Booking"  # one of the demo client's projects
LIVE_MS = 20_000  # the dialogs re-read every 5 s


def test_client_and_staff_talk_live_and_internal_notes_stay_inside(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    tag = uuid.uuid4().hex[:6]
    question = f"Can we launch before the holidays? <b>{tag}</b>"
    answer = f"Yes: the week of December 14 ({tag})."
    note = f"Internal: QA must sign off first ({tag})."
    with (
        signed_in(browser, server, db_engine, "democlient") as (client, client_errors),
        signed_in(browser, server, db_engine, "admin") as (staff, staff_errors),
    ):
        client.goto(server.url + "/client-portal")
        card = client.get_by_test_id("project-card").filter(has_text=PROJECT)
        card.get_by_test_id("open-conversation").click()
        asking = client.get_by_test_id("conversation")
        expect(asking).to_contain_text(PROJECT)
        asking.get_by_label("Your message").fill(question)
        asking.get_by_role("button", name="Send").click()
        expect(asking.get_by_test_id("conversation-message").filter(has_text=tag)).to_contain_text(question)
        expect(asking.get_by_label("Your message")).to_have_value("")
        expect(asking.get_by_text("Internal note")).to_have_count(0)  # no such choice for a client

        _open_content_tab(staff, server, "projects")
        staff.get_by_test_id("search-projects").fill("Patient Portal")  # other tests add projects: maybe not on page 1
        staff_card = staff.get_by_test_id("project-card").filter(has_text=PROJECT)
        staff_card.get_by_test_id("open-conversation").click()
        answering = staff.get_by_test_id("conversation")
        expect(answering.get_by_test_id("conversation-message").filter(has_text=tag)).to_contain_text(question)
        answering.get_by_label("Your message").fill(note)
        answering.get_by_label("Internal note (the client never sees it)").check()
        answering.get_by_role("button", name="Send").click()
        expect(answering.get_by_test_id("conversation-message").filter(has_text=note)).to_contain_text("Internal note")
        answering.get_by_label("Your message").fill(answer)
        answering.get_by_role("button", name="Send").click()
        expect(answering.get_by_test_id("conversation-message").filter(has_text=answer)).to_be_visible()

        # The client's dialog, left open, shows the answer by itself, and never the note.
        expect(asking.get_by_test_id("conversation-message").filter(has_text=answer)).to_be_visible(timeout=LIVE_MS)
        expect(asking.get_by_test_id("conversation-message").filter(has_text=note)).to_have_count(0)
        expect(asking).not_to_contain_text("QA must sign off")

        # And the other way: the staff member's open dialog gets the client's next message by itself.
        follow_up = f"Great, thanks ({tag})!"
        asking.get_by_label("Your message").fill(follow_up)
        asking.get_by_role("button", name="Send").click()
        expect(answering.get_by_test_id("conversation-message").filter(has_text=follow_up)).to_be_visible(
            timeout=LIVE_MS
        )
        assert client_errors == [] and staff_errors == []
