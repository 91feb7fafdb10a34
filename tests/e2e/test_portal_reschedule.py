"""A client moves a booking from the portal's Meetings tab by clicking (issue 26, point 9): Reschedule, a free time,
"are you sure?", and the card shows the new time; both sides get the updated invitation. The data is made here (a
meeting type, its host, a client and their booking), never the demo's, which other browser tests change.

Set RESCHEDULE_SHOTS=<folder> to save the tab and the dialog at 1280 and 390 px.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from app.models.enums import Role
from app.models.meeting import Meeting, MeetingType
from app.models.user import User
from tests import factories as f
from tests.e2e.conftest import Server
from tests.e2e.test_portal import open_tab, sign_in, track_errors

pytestmark = pytest.mark.e2e
SHOTS = os.environ.get("RESCHEDULE_SHOTS")
EVERY_DAY = {str(d): [["09:00", "17:00"]] for d in range(7)}


def shoot(page: Page, name: str) -> None:
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(400)
        page.screenshot(path=f"{SHOTS}/{name}-{width}.png")
    page.set_viewport_size({"width": 1280, "height": 900})


def mails(server: Server, to: str, subject: str, timeout_s: float = 30) -> list[str]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = [str(m["Subject"]) for m in server.mail.messages if m["To"] == to and subject in str(m["Subject"])]
        if found:
            return found
        time.sleep(0.5)
    pytest.fail(f"no '{subject}' letter to {to}")


@pytest.fixture
def kind(db: Session) -> Iterator[MeetingType]:
    """A meeting type of the test's own, taken off the booking page afterwards: other browser tests count the demo's
    types."""
    tag = uuid.uuid4().hex[:8]
    host = f.user(db, f"rehost{tag}", role=Role.employee, first_name="Rita", last_name="Host")
    row = MeetingType(
        slug=f"move-{tag}", name=f"Move Review {tag}", duration_minutes=30, availability=EVERY_DAY,
        organizer_id=host.id, min_notice_minutes=60,
    )  # fmt: skip
    db.add(row)
    db.commit()
    yield row
    db.rollback()
    row = db.get(MeetingType, row.id)  # type: ignore[assignment]
    row.is_active = False
    db.add(row)
    db.commit()


def test_a_client_reschedules_from_the_portal(server: Server, page: Page, db: Session, kind: MeetingType) -> None:
    from app.services.scheduling import booking

    tag = kind.slug.removeprefix("move-")
    host = db.get(User, kind.organizer_id)
    assert host is not None
    client = f.user(db, f"mover{tag}", first_name="Mia", last_name="Mover")
    starts = [s.start for s in booking.free_slots(db, data={"type": kind.slug, "days": 7})]
    done = booking.book(db, data={"type": kind.slug, "start": starts[0]}, actor=client)

    errors = track_errors(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, server, db, client.username)
    page.goto(server.url + "/client-portal")
    open_tab(page, "Meetings")
    card = page.get_by_test_id("meeting-card").filter(has_text=kind.name)
    expect(card).to_be_visible()
    shoot(page, "1-meetings-tab")
    card.get_by_role("button", name=re.compile("^Reschedule")).click()

    dialog = page.get_by_test_id("reschedule-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(kind.name)
    times = dialog.get_by_role("button", name=re.compile(r"^\d{1,2}:\d{2} [AP]M$"))
    expect(times.first).to_be_visible()
    days = dialog.get_by_role("group", name="Days with free times").get_by_role("button")
    expect(days.first).to_have_attribute("aria-pressed", "true")
    days.nth(1).click()  # the next day's times
    expect(days.nth(1)).to_have_attribute("aria-pressed", "true")
    shoot(page, "2-reschedule-times")
    choice = times.nth(2)
    chosen = choice.inner_text()
    choice.click()
    expect(dialog).to_contain_text("Move your meeting?")
    expect(dialog).to_contain_text(chosen)
    shoot(page, "3-reschedule-confirm")
    dialog.get_by_role("button", name="Yes, move it").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_text("Your meeting now starts")).to_be_visible()

    db.expire_all()
    moved = db.get(Meeting, done.id)
    assert moved is not None and moved.sequence == 1 and booking.iso(moved.start_time) != starts[0]
    expect(page.get_by_test_id("meeting-card").filter(has_text=kind.name)).to_contain_text(chosen)
    shoot(page, "4-rescheduled")
    mails(server, client.email, "Moved:")
    mails(server, host.email, "Moved:")
    assert errors == []
