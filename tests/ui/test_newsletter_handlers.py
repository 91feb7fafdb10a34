"""The Newsletter tab's state holds one page, and its handlers refuse callers without the permission (a browser can
send any event with any payload): only content:write unsubscribes, only a row of the page shown, only after the
confirmation opened.

The harness is tests/ui/harness.py's: the real state tree, the session cookie in the router's headers, and committed
rows. Each test tags its rows and searches by the tag, so rows other tests committed do not count.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import Session

from app.models.enums import EmployeeType, SubscriberStatus
from app.models.inquiry import NewsletterSubscriber
from app.ui.admin.content.state import ContentState
from app.ui.admin.state import AdminState
from app.ui.admin.subscribers.state import SubscriberListState
from tests import factories as f
from tests.ui.harness import call, call_returning, handler_state, new_tag, notice, sign_in, staff

ROWS = 45


def _seed(s: Session, tag: str, count: int, status: SubscriberStatus = SubscriberStatus.confirmed) -> None:
    s.add_all([NewsletterSubscriber(email=f"r{i:02d}.{tag}@example.com", status=status) for i in range(count)])
    s.commit()


def _guard(state: SubscriberListState) -> None:
    """The page's guard (the shell's open_section), which keeps the signed-in user the view's `can_write` reads."""
    call(asyncio.run(state.get_state(AdminState)), "open_section", "content")


def test_the_state_holds_one_page_and_filters(db: Session) -> None:
    tag = new_tag()
    _seed(db, tag, ROWS)
    state = handler_state(SubscriberListState, sign_in(db, staff(db, EmployeeType.developer)))
    _guard(state)
    assert state.allowed_section == "content" and not state.can_write  # a developer reads content only
    call(state, "set_search", tag)
    assert state.total == ROWS and len(state.rows) == state.page_size and state.pages == -(-ROWS // state.page_size)
    call(state, "set_sort", "email")
    assert state.rows[0].email == f"r00.{tag}@example.com" and state.rows[0].status.label == "Confirmed"
    call(state, "next_page")
    assert state.page == 2 and state.rows[0].email == f"r{state.page_size:02d}.{tag}@example.com"
    assert state.export_url == f"/api/admin/newsletter/subscribers/export?search={tag}&sort=email"
    call(state, "set_status_filter", "pending")
    assert state.page == 1 and state.total == 0 and state.rows == []
    assert "status=pending" in state.export_url
    call(state, "set_status_filter", "nonsense")  # not a status: the filter is cleared
    assert state.status_filter == "" and state.total == ROWS


@pytest.mark.parametrize("who", ["hr", "client", "nobody"])
def test_a_crafted_load_without_content_read_gets_nothing(db: Session, who: str) -> None:
    tag = new_tag()
    _seed(db, tag, 2)
    token = {
        "hr": lambda: sign_in(db, staff(db, EmployeeType.hr)),
        "client": lambda: sign_in(db, f.user(db, f"c_{tag}")),
        "nobody": lambda: None,
    }[who]()
    state = handler_state(SubscriberListState, token)
    call(state, "set_search", tag)
    call(state, "load")
    call(state, "next_page")
    assert state.rows == [] and state.total == 0


def test_only_a_writer_unsubscribes_and_only_after_the_confirmation(db: Session) -> None:
    tag = new_tag()
    _seed(db, tag, 1)
    reader = handler_state(SubscriberListState, sign_in(db, staff(db, EmployeeType.developer)))
    call(reader, "set_search", tag)
    target = reader.rows[0].id
    call(reader, "ask_unsubscribe", target)
    assert reader.dialog == "" and notice(reader)["title"] == "Access Restricted"
    reader.dialog, reader._dialog_key = "unsubscribe", str(target)  # as if the dialog had been opened anyway
    call(reader, "confirm_unsubscribe")
    assert db.get(NewsletterSubscriber, target).status == SubscriberStatus.confirmed  # type: ignore[union-attr]

    writer = handler_state(SubscriberListState, sign_in(db, staff(db, EmployeeType.marketing_lead)))
    _guard(writer)  # the page's guard runs first, as when the page opens
    assert writer.can_write  # the Unsubscribe buttons are shown
    call(writer, "set_search", tag)
    call(writer, "confirm_unsubscribe")  # no confirmation asked: nothing happens
    call(writer, "ask_unsubscribe", 987_654_321)  # not a row of the page shown
    call(writer, "ask_unsubscribe", "not-a-number")
    assert writer.dialog == ""
    db.expire_all()
    assert db.get(NewsletterSubscriber, target).status == SubscriberStatus.confirmed  # type: ignore[union-attr]

    call(writer, "ask_unsubscribe", target)
    assert writer.dialog == "unsubscribe" and writer.dialog_name == f"r00.{tag}@example.com"
    call(writer, "confirm_unsubscribe")
    assert writer.dialog == "" and notice(writer)["title"] == "Subscriber unsubscribed"
    assert writer.rows[0].status.value == "unsubscribed" and not writer.rows[0].active
    db.expire_all()
    assert db.get(NewsletterSubscriber, target).status == SubscriberStatus.unsubscribed  # type: ignore[union-attr]
    call(writer, "ask_unsubscribe", target)  # already unsubscribed: nothing to confirm
    assert writer.dialog == ""


def test_the_content_page_loads_the_newsletter_tab_and_closes_its_dialog(db: Session) -> None:
    tag = new_tag()
    _seed(db, tag, 1)
    token = sign_in(db, staff(db, None))
    state = handler_state(ContentState, token)
    subs = call_returning(state, "set_tab", "newsletter")
    assert subs == SubscriberListState.show and state.tab == "newsletter"
    tab = asyncio.run(state.get_state(SubscriberListState))
    call(tab, "set_search", tag)
    call(tab, "ask_unsubscribe", tab.rows[0].id)
    assert tab.dialog == "unsubscribe"
    call_returning(state, "set_tab", "newsletter")  # switching (back) to the tab closes what was left open
    assert tab.dialog == ""
