"""Project conversations live in two browsers (issue 28): the client asks in the portal, the staff member sees it in
the Projects tab without a reload and answers, with an internal note beside the answer; the client's open dialog
shows the answer by itself and never the note. Messages are text: markup typed into one is shown as typed."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy.engine import Engine

from tests.e2e.conftest import Server, download_by_click
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
    answer = f"Yes: the week of December 14 ({tag}). Plan: https://example.com/plan-{tag}. javascript:alert(1)"
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

        # The client's dialog, left open, shows the answer by itself, and never the note; the web address in it is a
        # link that opens in a new tab (the full stop after it is the sentence's), anything else stays text.
        said = asking.get_by_test_id("conversation-message").filter(has_text=answer)
        expect(said).to_be_visible(timeout=LIVE_MS)
        link = said.get_by_role("link", name=f"https://example.com/plan-{tag}")
        expect(link).to_have_attribute("href", f"https://example.com/plan-{tag}")
        expect(link).to_have_attribute("rel", "noopener noreferrer nofollow ugc")
        expect(link).to_have_attribute("target", "_blank")
        expect(said.get_by_role("link")).to_have_count(1)
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


def test_a_file_attached_in_the_portal_reaches_the_staff_live_and_downloads_whole(
    server: Server, browser: Browser, db_engine: Engine, tmp_path: Path
) -> None:
    """The client chooses two files, removes one and sends the other with a line of text; the staff member's open
    dialog shows it by itself and the click downloads the same bytes under the same name. A program renamed .pdf is
    refused in the dialog, and nothing of it is shown."""
    tag = uuid.uuid4().hex[:6]
    brief = tmp_path / f"Brief {tag}.pdf"
    brief.write_bytes(b"%PDF-1.4\n% " + tag.encode() + b"\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
    extra = tmp_path / f"Notes {tag}.txt"
    extra.write_text("not this one\n")
    renamed = tmp_path / f"Invoice {tag}.pdf"
    renamed.write_bytes(b"MZ\x90\x00\x03\x00\x00\x00" + b"\x00" * 64)
    with (
        signed_in(browser, server, db_engine, "democlient") as (client, client_errors),
        signed_in(browser, server, db_engine, "admin") as (staff, staff_errors),
    ):
        _open_content_tab(staff, server, "projects")
        staff.get_by_test_id("search-projects").fill("Patient Portal")
        staff.get_by_test_id("project-card").filter(has_text=PROJECT).get_by_test_id("open-conversation").click()
        answering = staff.get_by_test_id("conversation")
        expect(answering).to_contain_text(PROJECT)

        client.goto(server.url + "/client-portal")
        client.get_by_test_id("project-card").filter(has_text=PROJECT).get_by_test_id("open-conversation").click()
        asking = client.get_by_test_id("conversation")
        expect(asking.get_by_text("Attach files")).to_be_visible()
        asking.locator("input[type=file]").set_input_files([brief, extra])
        chosen = asking.get_by_test_id("chosen-file")
        expect(chosen).to_have_count(2)
        chosen.filter(has_text=extra.name).get_by_test_id("remove-file").click()
        expect(chosen).to_have_count(1)
        expect(chosen).to_contain_text(brief.name)
        asking.get_by_label("Your message").fill(f"The brief ({tag})")
        asking.get_by_role("button", name="Send").click()
        sent = asking.get_by_test_id("conversation-message").filter(has_text=f"The brief ({tag})")
        expect(sent.get_by_test_id("message-file")).to_have_text(brief.name)
        expect(chosen).to_have_count(0)
        expect(sent).not_to_contain_text(extra.name)

        # The staff member's dialog, open all along, shows it without a reload; the click downloads it whole.
        link = answering.get_by_test_id("conversation-message").filter(has_text=tag).get_by_test_id("message-file")
        expect(link).to_have_text(brief.name, timeout=LIVE_MS)
        name, content = download_by_click(staff, link)
        assert (name, content) == (brief.name, brief.read_bytes())

        # A program renamed .pdf is refused in the dialog and nothing is sent.
        asking.locator("input[type=file]").set_input_files([renamed])
        asking.get_by_role("button", name="Send").click()
        expect(asking).to_contain_text(f"{renamed.name}: Please attach only PDF files")
        expect(asking.get_by_test_id("message-file").filter(has_text=renamed.name)).to_have_count(0)
        # The browser reports the refused POST (422) on its console; nothing else may be there.
        assert [e for e in client_errors if "422" not in e] == [] and staff_errors == []
