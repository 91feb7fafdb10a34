"""Booking without any outside service: a visitor books (a hold), confirms from the mailed link, gets the invitation,
reschedules by the manage link and cancels; a signed-in client books as themselves (confirmed at once) and finds the
meeting in the portal.

Set BOOKING_SHOTS=<folder> to save a screenshot of each step at 1280 and 390 px.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from icalendar import Calendar
from playwright.sync_api import Locator, Page, expect
from sqlmodel import Session, col, select

from app.models.meeting import Meeting, MeetingType
from app.models.user import User
from tests.e2e.conftest import Server
from tests.e2e.test_portal import open_tab, sign_in

pytestmark = pytest.mark.e2e
SHOTS = os.environ.get("BOOKING_SHOTS")
VISITOR = "visitor.booker@example.com"


def shoot(page: Page, name: str) -> None:
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or {"width": 1280, "height": 800}
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate("window.scrollTo(0, 0)")  # a scrolled page draws the sticky header mid-picture
        page.wait_for_timeout(300)
        page.screenshot(path=f"{SHOTS}/{name}-{width}.png", full_page=True)
    page.set_viewport_size(size)


def _calendar_part(msg: EmailMessage) -> EmailMessage | None:
    return next((p for p in msg.iter_attachments() if p.get_content_type() == "text/calendar"), None)


def letter(server: Server, to: str, count: int, timeout_s: float = 30, *, invitations: bool = False) -> EmailMessage:
    """The `count`-th message to `to` (of those carrying an invitation, with `invitations`), waiting for the outbox."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        mine = [m for m in server.mail.messages if m["To"] == to and (not invitations or _calendar_part(m))]
        if len(mine) >= count:
            return mine[count - 1]
        time.sleep(0.5)
    pytest.fail(f"no message {count} to {to}")


def invitation(server: Server, to: str, count: int, timeout_s: float = 30) -> tuple[EmailMessage, str, Calendar]:
    """The `count`-th invitation to `to` (waiting for the outbox), its iCalendar method and the parsed calendar. Counted
    among invitations only: a meeting booked just over a day ahead gets its 24-hour reminder while the test runs."""
    msg = letter(server, to, count, timeout_s, invitations=True)
    part = _calendar_part(msg)
    assert part is not None
    return msg, str(part.get_param("method")), Calendar.from_ical(part.get_content())


def body(msg: EmailMessage) -> str:
    plain = msg.get_body(preferencelist=("plain",))
    return plain.get_content() if plain is not None else ""


def free_days(page: Page, at_least: int = 1) -> Locator:
    """The month calendar's free days (buttons), after moving on a month if this one has fewer than `at_least` (late
    in a month only a few days are left)."""
    calendar = page.get_by_test_id("booking-calendar")
    days = calendar.locator("button[data-day]")
    expect(days.first).to_be_visible()  # a month without a free day opens on the next one
    if days.count() < at_least:
        month = calendar.get_by_role("heading").inner_text()
        calendar.get_by_role("button", name="Next month").click()
        expect(calendar.get_by_role("heading")).not_to_have_text(month)
        expect(days.first).to_be_visible()
    return days


def pick_time(page: Page, day: int = 0, time: int = 0) -> str:
    """Choose the `day`-th free day of the calendar, then its `time`-th time; the time's UTC start."""
    free_days(page, day + 1).nth(day).click()
    slot = page.get_by_test_id("booking-times").locator("[data-slot]").nth(time)
    expect(slot).to_be_visible()
    start = str(slot.get_attribute("data-slot"))
    slot.click()
    return start


def choose_zone(page: Page, search: str, zone: str) -> None:
    """Open the time-zone picker, search, and pick `zone` from the matches."""
    page.get_by_role("button", name=re.compile("^Time zone")).click()
    page.get_by_label("Search time zones").fill(search)
    page.locator(f"[data-zone='{zone}']").click()
    expect(page.get_by_label("Search time zones")).to_have_count(0)  # the picker closes on a choice


def test_visitor_books_reschedules_and_cancels(server: Server, page: Page) -> None:
    page.goto(server.url + "/book-meeting")
    page.wait_for_selector("[data-hydrated=true]", state="attached")
    shoot(page, "1-types")
    page.locator("[data-meeting-type=free-consultation]").get_by_role(
        "button", name=re.compile("^Book Meeting")
    ).click()
    # Beside the calendar, as on Cal.com: the host, the meeting's length and what it is for.
    info = page.get_by_test_id("booking-info")
    expect(info).to_contain_text("Free Consultation")
    expect(info).to_contain_text("30 minutes")
    expect(info).to_contain_text("A no-obligation call")
    expect(page.get_by_test_id("booking-host")).not_to_be_empty()
    # The visitor's zone is detected (UTC in this headless browser) and can be changed: the labels follow.
    expect(page.get_by_role("button", name=re.compile("^Time zone"))).to_contain_text("UTC (UTC+00:00)")
    choose_zone(page, "tokyo", "Asia/Tokyo")
    expect(page.get_by_role("button", name=re.compile("^Time zone"))).to_contain_text("Tokyo (UTC+09:00)")
    free_days(page).first.click()
    shoot(page, "2-times")
    # The second free day's first time: the first day's first time may stop being offered (the notice) while the
    # form is filled.
    start = pick_time(page, day=1)
    page.locator("#booking-name").fill("Vera Visitor")
    page.locator("#booking-email").fill(VISITOR)
    page.locator("#booking-company").fill("Visitor Co")
    shoot(page, "3-details")
    page.get_by_role("button", name="Confirm booking").click()
    held = page.get_by_test_id("booking-held")  # signed out: a hold until confirmed from the e-mail
    expect(held).to_contain_text("Check your e-mail to confirm")
    expect(held).to_contain_text("(Tokyo, JST)")
    expect(held).to_contain_text(VISITOR)
    shoot(page, "4-held")

    asked = letter(server, VISITOR, 1)
    assert "JST" in str(asked["Subject"])  # the letter speaks the visitor's chosen zone
    assert not list(asked.iter_attachments())  # no invitation before the address is proven
    confirm = re.search(r"(http\S+/book-meeting/confirm\?token=\S+)", body(asked))
    assert confirm, body(asked)
    page.goto(confirm.group(1))
    ask = page.get_by_test_id("booking-confirm")
    expect(ask).to_contain_text("Free Consultation")
    shoot(page, "4b-confirm")
    ask.get_by_role("button", name="Confirm booking").click()
    page.wait_for_url(re.compile(r"/book-meeting/manage\?token="))
    expect(page.get_by_text("Your booking is confirmed.")).to_be_visible()
    details = page.get_by_test_id("booking-details")
    expect(details).to_contain_text("Free Consultation")
    expect(details).to_contain_text("Your host will send you the link")
    with page.expect_download() as download:
        details.get_by_role("button", name="Add to calendar").click()
    ics = Calendar.from_ical(Path(download.value.path()).read_bytes())
    assert str(ics.walk("VEVENT")[0]["ATTENDEE"]) == f"mailto:{VISITOR}"

    msg, method, cal = invitation(server, VISITOR, 1)
    [event] = cal.walk("VEVENT")
    assert method == "REQUEST" and event.decoded("DTSTART").isoformat().replace("+00:00", "Z") == start
    uid = str(event["UID"])
    link = re.search(r"(http\S+/book-meeting/manage\?token=\S+)", body(msg))
    assert link, body(msg)

    page.goto(link.group(1))
    details = page.get_by_test_id("booking-details")
    expect(details).to_contain_text("Free Consultation")
    shoot(page, "5-manage")
    details.get_by_role("button", name="Reschedule").click()
    expect(page.get_by_test_id("booking-info")).to_contain_text("Now booked for")
    shoot(page, "6-reschedule")
    new_start = pick_time(page, day=1, time=3)
    # Asked first: "Keep current time" moves nothing, "Confirm" moves it.
    ask = page.get_by_role("alertdialog")
    expect(ask).to_contain_text("Move your meeting from")
    ask.get_by_role("button", name="Keep current time").click()
    expect(ask).to_have_count(0)
    assert page.url.endswith("?token=" + link.group(1).split("token=", 1)[1])  # nothing moved, the link holds
    page.get_by_test_id("booking-times").locator(f"[data-slot='{new_start}']").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Confirm").click()
    page.wait_for_url(lambda url: "token=" in url and url != link.group(1))
    expect(page.get_by_text("Your meeting has a new time.")).to_be_visible()  # also after the move to the new link
    _, method, cal = invitation(server, VISITOR, 2)
    [event] = cal.walk("VEVENT")
    assert method == "REQUEST" and str(event["UID"]) == uid and int(event["SEQUENCE"]) == 1
    assert event.decoded("DTSTART").isoformat().replace("+00:00", "Z") == new_start
    shoot(page, "7-rescheduled")
    moved_to = page.get_by_test_id("booking-details").locator("p", has_text=" min").inner_text()
    page.goto(link.group(1))  # the first mail's link opens the booking as it is now (ADR 0089)
    details = page.get_by_test_id("booking-details")
    expect(details).to_contain_text(moved_to.splitlines()[-1])
    expect(details.get_by_role("button", name="Reschedule")).to_be_visible()

    page.get_by_role("button", name="Cancel booking").click()
    shoot(page, "8-cancel-dialog")
    page.get_by_role("alertdialog").get_by_role("button", name="Yes, cancel").click()
    expect(page.get_by_test_id("booking-cancelled")).to_contain_text("This meeting was cancelled on")
    expect(page.get_by_test_id("booking-cancelled")).to_contain_text("You cancelled it")
    shoot(page, "9-cancelled")
    _, method, cal = invitation(server, VISITOR, 3)
    assert method == "CANCEL" and str(cal.walk("VEVENT")[0]["UID"]) == uid

    page.goto(link.group(1))  # every link of it now says it was cancelled, and only then offers booking again
    expect(page.get_by_test_id("booking-cancelled")).to_contain_text("This meeting was cancelled on")
    expect(page.get_by_role("link", name="Book a new meeting")).to_be_visible()
    page.goto(server.url + "/book-meeting/manage?token=not-a-link")
    expect(page.get_by_test_id("booking-unknown")).to_contain_text("We can't find this booking")
    expect(page.get_by_role("link", name="Book a new meeting")).to_have_count(0)
    page.goto(confirm.group(1))  # and the confirmation link was used
    expect(page.get_by_text("This link cannot be used")).to_be_visible()
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_on_a_phone_a_visitor_finds_their_zone_picks_a_day_and_a_time_and_books(server: Server, page: Page) -> None:
    """Issue 26: at 390 px the times were a wall of buttons 3,745 px tall, under ~600 raw zone names."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "/book-meeting?type=project-discovery-call")
    picker = page.get_by_test_id("time-picker")
    expect(page.get_by_test_id("booking-info")).to_contain_text("Project Discovery Call")
    expect(page.get_by_test_id("booking-info")).to_contain_text("60 minutes")
    zone = page.get_by_role("button", name=re.compile("^Time zone"))
    zone.click()
    expect(zone).to_have_attribute("aria-expanded", "true")
    search = page.get_by_label("Search time zones")
    expect(search).to_be_focused()
    search.fill("Kolkata")
    expect(page.locator("[data-zone]")).to_have_count(1)  # one zone matches the city
    # Enter picks the first match, as a keyboard user would.
    search.press("Enter")
    expect(zone).to_contain_text("Kolkata (UTC+05:30)")
    expect(zone).to_have_attribute("aria-expanded", "false")
    days = free_days(page, 2)
    days.nth(1).click()
    expect(days.nth(1)).to_have_attribute("aria-pressed", "true")
    times = page.get_by_test_id("booking-times")
    expect(times.locator("[data-slot]").first).to_be_visible()
    # The calendar and one day's times fit in about two phone screens, and nothing scrolls sideways.
    box = picker.bounding_box()
    assert box is not None and box["height"] < 1800, box
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    label = times.locator("[data-slot]").first.inner_text()
    times.locator("[data-slot]").first.click()
    page.locator("#booking-name").fill("Priya Phone")
    page.locator("#booking-email").fill("priya.phone@example.com")
    page.get_by_role("button", name="Confirm booking").click()
    held = page.get_by_test_id("booking-held")
    expect(held).to_contain_text("Check your e-mail to confirm")
    expect(held).to_contain_text(f"at {label} (Kolkata, ")  # the time as picked, in the zone found
    assert page.console_errors == []  # type: ignore[attr-defined]


@pytest.fixture
def leaves_demo_meetings_as_seeded(db: Session) -> Iterator[None]:
    """The demo client's in-app bookings made here are removed afterwards: the portal journey (a later file, the
    same server) expects the demo client's meetings as seeded."""
    yield
    client = db.exec(select(User).where(User.username == "democlient")).one()
    booked = select(Meeting).where(Meeting.client_id == client.id, col(Meeting.meeting_type_id).is_not(None))
    for meeting in db.exec(booked).all():
        db.delete(meeting)
    db.commit()


@pytest.mark.usefixtures("leaves_demo_meetings_as_seeded")
def test_signed_in_client_books_and_sees_it_in_the_portal(server: Server, page: Page, db: Session) -> None:
    sign_in(page, server, db, "democlient")
    page.goto(server.url + "/client-portal")
    open_tab(page, "Meetings")
    page.get_by_role("button", name="Book New Meeting").click()
    page.get_by_test_id("meeting-type-card").filter(has_text="Technical Review").get_by_role(
        "link", name="Book Meeting"
    ).click()
    expect(page.get_by_test_id("booking-info")).to_contain_text("Technical Review")
    pick_time(page, day=1)  # not the first day: its first time may pass the notice before the click
    expect(page.get_by_text("Booking as")).to_contain_text("client@example.com")
    shoot(page, "10-client-details")
    page.get_by_role("button", name="Confirm booking").click()
    expect(page.get_by_test_id("booking-confirmation")).to_contain_text("You're booked!")
    page.get_by_role("link", name="See it in your portal").click()
    open_tab(page, "Meetings")
    expect(page.get_by_test_id("upcoming-meetings")).to_contain_text("Technical Review with Dana Whitfield")
    shoot(page, "11-client-portal")


def test_staff_set_a_meeting_types_hours(server: Server, page: Page, db: Session) -> None:
    sign_in(page, server, db, "admin")
    page.goto(server.url + "/admin/meetings")
    page.get_by_role("button", name="Edit Project Discovery Call").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.locator("#type-organizer")).to_have_value(re.compile(r"^[0-9a-f-]{36}$"))
    expect(dialog.get_by_label("Sat")).not_to_be_checked()
    dialog.get_by_label("Sat").check()
    dialog.get_by_label("Buffer after (min)").fill("15")
    shoot(page, "12-admin-type-dialog")
    dialog.get_by_role("button", name=re.compile("^Save")).click()
    expect(page.get_by_text("Meeting type saved")).to_be_visible()
    row = db.exec(select(MeetingType).where(MeetingType.slug == "project-discovery-call")).one()
    db.refresh(row)
    assert row.availability["5"] == [["09:00", "17:00"]] and row.buffer_after_minutes == 15


def test_the_zone_picker_answers_the_arrow_keys_escape_and_a_press_outside(server: Server, page: Page) -> None:
    """As a list box is used: from the search down the zones and back up with the arrow keys, Escape on a zone closes
    the list and gives the focus back to its button, and a press anywhere else closes it."""
    page.goto(server.url + "/book-meeting?type=free-consultation")
    page.wait_for_selector("[data-hydrated=true]", state="attached")
    zone = page.get_by_role("button", name=re.compile("^Time zone"))
    zone.click()
    search = page.get_by_label("Search time zones")
    expect(search).to_be_focused()
    search.fill("america")
    options = page.locator("[data-zone]")
    expect(options.nth(1)).to_be_visible()
    search.press("ArrowDown")
    expect(options.nth(0)).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(options.nth(1)).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(search).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Escape")
    expect(zone).to_have_attribute("aria-expanded", "false")
    expect(zone).to_be_focused()

    zone.click()
    expect(search).to_be_visible()
    page.get_by_test_id("booking-info").click()  # outside the picker
    expect(zone).to_have_attribute("aria-expanded", "false")
    expect(search).to_have_count(0)
    assert page.console_errors == []  # type: ignore[attr-defined]
