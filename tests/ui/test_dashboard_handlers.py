"""The dashboard's "needs doing" through its handlers (issue 26, point 6): the cards a staff member may see, each a
link that opens its list filtered, and an open dashboard that picks up a new inquiry on its next tick."""

from __future__ import annotations

from sqlmodel import Session

from app.models.enums import EmployeeType, InquiryStatus, Role
from app.models.inquiry import ContactInquiry
from app.models.user import UserPublic
from app.ui.admin.applications.state import ApplicationListState
from app.ui.admin.billing.state import BillingState
from app.ui.admin.dashboard.state import DashboardState, pending_cards
from app.ui.admin.inquiries.state import InquiriesState
from app.ui.admin.meetings.state import MeetingsState
from tests import factories as f
from tests.ui.harness import call, handler_state, new_tag, sign_in, staff


def _cards(state: DashboardState) -> dict[str, tuple[str, str]]:
    return {c.key: (c.count, c.href) for c in state.todo}


def test_the_cards_are_the_lists_the_user_reads_and_a_tick_brings_a_new_inquiry(db: Session) -> None:
    admin = f.user(db, f"dash_{new_tag()}", role=Role.admin)
    state = handler_state(DashboardState, sign_in(db, admin), "/admin/dashboard")
    call(state, "load")
    cards = _cards(state)
    assert list(cards) == ["new_inquiries", "unpaid", "overdue", "unconfirmed_bookings", "new_applications"]
    assert cards["new_inquiries"][1] == "/admin/inquiries?status=new" and state.shows_agenda
    before = int(cards["new_inquiries"][0])

    db.add(ContactInquiry(name="Live", email="live@example.com", message="Hello", status=InquiryStatus.new))
    db.commit()
    call(state, "refresh")  # the open tab's next tick
    assert _cards(state)["new_inquiries"][0] == str(before + 1)

    developer = staff(db, EmployeeType.developer)
    mine = handler_state(DashboardState, sign_in(db, developer), "/admin/dashboard")
    call(mine, "load")
    assert list(_cards(mine)) == ["new_inquiries", "unconfirmed_bookings"]  # no billing, no careers
    assert mine.shows_agenda


def test_the_cards_are_laid_out_before_their_figures_arrive(db: Session) -> None:
    """Nothing moves when the figures come: before they do, the same cards show with "…" (a 0.59 layout shift in
    Lighthouse when the section appeared above the other cards)."""
    developer = staff(db, EmployeeType.developer)
    waiting = pending_cards(UserPublic.of(developer))
    assert [(c.key, c.count) for c in waiting] == [("new_inquiries", "…"), ("unconfirmed_bookings", "…")]
    state = handler_state(DashboardState, sign_in(db, developer), "/admin/dashboard")
    call(state, "load")
    assert [c.key for c in state.cards] == [c.key for c in waiting] and state.cards[0].count.isdigit()


def test_a_signed_out_tick_changes_nothing(db: Session) -> None:
    state = handler_state(DashboardState, None, "/admin/dashboard")
    call(state, "refresh")
    assert state.todo == []


def test_the_cards_links_open_their_lists_filtered(db: Session) -> None:
    token = sign_in(db, f.user(db, f"dash_{new_tag()}", role=Role.admin))
    inquiries = handler_state(InquiriesState, token, "/admin/inquiries", "status=new")
    call(inquiries, "load")
    assert inquiries.status_filter == "new" and {r.status.value for r in inquiries.rows} <= {"new"}

    billing = handler_state(BillingState, token, "/admin/billing", "due=overdue")
    call(billing, "load")
    assert billing.due_filter == "overdue" and all(r.overdue for r in billing.rows)
    billing = handler_state(BillingState, token, "/admin/billing", "status=pending")
    call(billing, "load")
    assert billing.status_filter == "pending"

    meetings = handler_state(MeetingsState, token, "/admin/meetings", "when=upcoming&status=unconfirmed")
    call(meetings, "load")
    assert (meetings.when, meetings.status_filter) == ("upcoming", "unconfirmed")

    applications = handler_state(ApplicationListState, token, "/admin/applications", "status=new")
    call(applications, "load")
    assert applications.status_filter == "new"

    crafted = handler_state(InquiriesState, token, "/admin/inquiries", "status=<script>")
    call(crafted, "load")
    assert crafted.status_filter == ""  # only a value the filter offers
