"""The Meetings section's handlers: the state holds one page of meetings, never the table, and a caller without the
permission gets nothing and changes nothing, whatever events and payloads its browser sends.

The harness is tests/ui/harness.py: the real state tree in-process, the session cookie in the router data, rows
committed (the handlers run their services over their own connections).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete
from sqlmodel import Session, col, select

from app.models.base import utcnow
from app.models.enums import EmployeeType, MeetingStatus, Role
from app.models.meeting import Meeting, MeetingType
from app.models.user import User
from app.services.platform.paging import PAGE_SIZE
from app.ui.admin.meeting_types.state import MeetingTypesState, TypeRow
from app.ui.admin.meetings.state import MeetingRow, MeetingsState
from tests import factories as f
from tests.ui.harness import call, handler_state, notice, sign_in, staff


@pytest.fixture
def client(db: Session) -> Iterator[User]:
    """A client of the test's own, whose meetings are removed afterwards (they are committed)."""
    tag = uuid.uuid4().hex[:8]
    user = f.user(db, f"mtg_client_{tag}", first_name="Mina", last_name=f"Harker{tag}")
    yield user
    db.exec(delete(Meeting).where(col(Meeting.client_id) == user.id))  # type: ignore[call-overload]
    db.commit()


def _seed(db: Session, client: User, count: int) -> list[Meeting]:
    return [f.meeting(db, client, in_hours=1 + i, title=f"Check-in {i:02d}") for i in range(count)]


def test_the_state_holds_one_page_of_meetings(db: Session, client: User) -> None:
    _seed(db, client, 60)
    state = handler_state(MeetingsState, sign_in(db, staff(db, None, Role.admin)))

    call(state, "load")
    assert state.load_error == ""
    assert 0 < len(state.rows) <= state.page_size == PAGE_SIZE
    assert state.total >= 60  # every upcoming meeting in the database, counted in SQL

    call(state, "set_client_filter", str(client.id))
    assert state.total == 60 and state.pages == 3 and state.page == 1
    assert len(state.rows) == PAGE_SIZE and all(isinstance(r, MeetingRow) for r in state.rows)
    assert [r.title for r in state.rows[:2]] == ["Check-in 00", "Check-in 01"]  # upcoming: soonest first

    call(state, "next_page")
    call(state, "next_page")
    call(state, "next_page")  # past the last page: stays on it
    assert (state.page, len(state.rows), state.rows[-1].title) == (3, 10, "Check-in 59")

    call(state, "set_search", "check-in 07")  # a search starts again at the first page
    assert (state.page, state.total, [r.title for r in state.rows]) == (1, 1, ["Check-in 07"])
    call(state, "set_search", "")
    call(state, "set_sort", "latest")
    assert state.rows[0].title == "Check-in 59" and state.sort_shown == "latest"
    call(state, "set_when", "past")
    assert state.total == 0 and state.rows == []
    call(state, "set_status_filter", "no-such-status")  # a crafted value falls back to all statuses
    assert state.status_filter == "" and state.load_error == ""


def test_a_caller_without_meetings_read_gets_nothing_and_changes_nothing(db: Session, client: User) -> None:
    meeting = _seed(db, client, 1)[0]
    started = f.meeting(db, client, in_hours=-0.5, title="Already started")
    kind = MeetingType(slug=f"probe-{uuid.uuid4().hex[:6]}", name="Probe type", is_active=True)
    db.add(kind)
    db.commit()

    for actor in (staff(db, EmployeeType.cfo), staff(db, None, Role.client)):
        token = sign_in(db, actor)
        state = handler_state(MeetingsState, token)
        for event, args in [
            ("load", ()),
            ("set_client_filter", (str(client.id),)),
            ("set_search", ("Check-in",)),
            ("next_page", ()),
            ("set_sort", ("title",)),
            ("retry", ()),
        ]:
            call(state, event, *args)
            assert state.rows == [] and state.total == 0, event
        # Writes with crafted ids and payloads, without ever opening a dialog.
        state._dialog_key = str(meeting.id)
        call(state, "submit_form", {"title": "Hijacked", "date": "2031-01-01", "time": "10:00"})
        call(state, "complete", started.id)
        state._dialog_key = str(meeting.id)
        call(state, "submit_cancel", {"reason": "crafted"})
        call(state, "open_create")
        assert state.type_names == []

        types = handler_state(MeetingTypesState, token)
        call(types, "load")
        assert types.rows == [] and types.total == 0
        call(types, "submit_type", {"name": "Crafted type"})
        call(types, "toggle_type", kind.id, False)

    db.expire_all()
    assert db.get(Meeting, meeting.id).title == "Check-in 00"  # type: ignore[union-attr]
    assert db.get(Meeting, meeting.id).status == MeetingStatus.scheduled  # type: ignore[union-attr]
    assert db.get(Meeting, started.id).status == MeetingStatus.scheduled  # type: ignore[union-attr]
    assert db.get(MeetingType, kind.id).is_active is True  # type: ignore[union-attr]
    assert db.exec(select(MeetingType).where(MeetingType.name == "Crafted type")).first() is None


def test_a_reader_lists_but_only_a_writer_schedules(db: Session, client: User) -> None:
    dev = handler_state(MeetingsState, sign_in(db, staff(db, EmployeeType.developer)))  # meetings:read only
    call(dev, "load")
    call(dev, "set_client_filter", str(client.id))
    assert dev.total == 0 and dev.load_error == "" and dev.can_write is False
    form = {
        "client_id": str(client.id),
        "title": "Scoping call",
        "date": "2031-03-04",
        "time": "09:30",
        "duration_minutes": "45",
        "meeting_url": "https://meet.example.com/scoping",
    }
    call(dev, "submit_form", form)
    assert notice(dev)["title"] == "Access Restricted" and dev.total == 0

    support = handler_state(MeetingsState, sign_in(db, staff(db, EmployeeType.customer_support)))
    call(support, "load")
    call(support, "set_client_filter", str(client.id))
    call(support, "open_create")
    assert support.dialog == "form" and support.edit.id == 0
    call(support, "submit_form", form)
    assert notice(support)["title"] == "Meeting scheduled" and support.dialog == ""
    # Typed and shown in the business time zone (America/New_York by default), stored in UTC.
    assert [(r.title, r.when, r.duration) for r in support.rows] == [
        ("Scoping call", "Tue Mar 4, 2031 · 9:30 AM EST", 45)
    ]
    stored = db.exec(select(Meeting).where(Meeting.id == support.rows[0].id)).one()
    assert stored.start_time == datetime(2031, 3, 4, 14, 30, tzinfo=UTC)
    assert support.rows[0].joinable
    call(support, "open_edit", support.rows[0].id)
    assert support.edit.title == "Scoping call" and (support.edit.date, support.edit.time) == ("2031-03-04", "09:30")
    call(support, "ask_cancel", support.rows[0].id)
    call(support, "submit_cancel", {"reason": "Moved to e-mail"})
    assert support.rows[0].status.value == "cancelled" and support.rows[0].cancel_reason == "Moved to e-mail"
    assert not support.rows[0].joinable  # a cancelled meeting offers no join link (issue 26)


def test_meeting_types_are_a_page_and_writers_edit_them(db: Session) -> None:
    name = f"Workshop {uuid.uuid4().hex[:6]}"
    state = handler_state(MeetingTypesState, sign_in(db, staff(db, EmployeeType.product_manager)))
    call(state, "load")
    assert len(state.rows) <= state.page_size and state.total >= len(state.rows)
    call(state, "open_type", 0)
    assert state.edit == TypeRow() and state.dialog == "form"
    call(state, "submit_type", {"name": name, "duration_minutes": "90", "is_active": "on"})
    assert notice(state)["title"] == "Meeting type saved" and state.dialog == ""
    made = db.exec(select(MeetingType).where(MeetingType.name == name)).one()
    assert made.duration_minutes == 90 and made.is_active
    call(state, "set_search", name)
    assert [t.name for t in state.rows] == [name]
    call(state, "toggle_type", made.id, False)
    assert state.rows[0].active is False
    db.delete(made)
    db.commit()


def test_writers_see_unconfirmed_bookings_and_cancel_the_pages_at_once(db: Session, client: User) -> None:
    until = utcnow() + timedelta(minutes=30)
    holds = [
        f.meeting(
            db, client, in_hours=5 + i, status=MeetingStatus.unconfirmed, title=f"Hold {i}", hold_expires_at=until
        )
        for i in range(2)
    ]
    kept = f.meeting(db, client, in_hours=9, title="Confirmed one")

    dev = handler_state(MeetingsState, sign_in(db, staff(db, EmployeeType.developer)))  # meetings:read only
    call(dev, "load")
    call(dev, "set_client_filter", str(client.id))
    call(dev, "set_status_filter", "unconfirmed")
    assert sorted(r.title for r in dev.rows) == ["Hold 0", "Hold 1"] and dev.shown_holds == 2
    call(dev, "ask_cancel_holds")
    call(dev, "submit_cancel_holds", {})  # crafted, without the dialog: the permission is checked again
    assert notice(dev)["title"] == "Access Restricted"
    db.expire_all()
    assert {db.get(Meeting, m.id).status for m in holds} == {MeetingStatus.unconfirmed}  # type: ignore[union-attr]

    support = handler_state(MeetingsState, sign_in(db, staff(db, EmployeeType.customer_support)))
    call(support, "load")
    call(support, "set_client_filter", str(client.id))
    assert {r.status.value for r in support.rows} == {"unconfirmed", "scheduled"} and support.shown_holds == 2
    call(support, "ask_cancel_holds")
    assert support.dialog == "holds" and support.dialog_name == "2"
    call(support, "submit_cancel_holds", {})
    assert notice(support)["title"] == "Unconfirmed bookings cancelled" and support.dialog == ""
    db.expire_all()
    assert [db.get(Meeting, m.id).status for m in holds] == [MeetingStatus.cancelled] * 2  # type: ignore[union-attr]
    assert db.get(Meeting, kept.id).status == MeetingStatus.scheduled  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("day", "utc_hour", "shown"),
    [
        ("2031-11-01", 18, "Sat Nov 1, 2031 · 2:00 PM EDT"),  # the day before the clocks go back
        ("2031-11-03", 19, "Mon Nov 3, 2031 · 2:00 PM EST"),  # the day after: the same 14:00, an hour later in UTC
    ],
)
def test_a_meeting_typed_as_14_00_is_14_00_in_florida_on_both_sides_of_the_clock_change(
    db: Session, client: User, day: str, utc_hour: int, shown: str
) -> None:
    """Issue 26: staff typed 14:00 and the meeting was at 9-10 AM in Florida (the form read UTC)."""
    support = handler_state(MeetingsState, sign_in(db, staff(db, EmployeeType.customer_support)))
    call(support, "load")
    assert support.zone in ("New York (EST)", "New York (EDT)")
    call(support, "set_client_filter", str(client.id))
    call(support, "set_when", "all")
    call(support, "open_create")
    title = f"Review {uuid.uuid4().hex[:6]}"
    call(support, "submit_form", {"client_id": str(client.id), "title": title, "date": day, "time": "14:00"})
    assert notice(support)["title"] == "Meeting scheduled"
    stored = db.exec(select(Meeting).where(Meeting.title == title)).one()
    assert stored.start_time == datetime.fromisoformat(day).replace(hour=utc_hour, tzinfo=UTC)
    row = next(r for r in support.rows if r.title == title)
    assert row.when == shown
    call(support, "open_edit", row.id)
    assert (support.edit.date, support.edit.time) == (day, "14:00")  # the form shows it as typed


def test_a_time_the_clocks_skip_is_refused_in_words(db: Session, client: User) -> None:
    support = handler_state(MeetingsState, sign_in(db, staff(db, EmployeeType.customer_support)))
    call(support, "load")
    call(support, "open_create")
    title = f"Skipped {uuid.uuid4().hex[:6]}"
    call(support, "submit_form", {"client_id": str(client.id), "title": title, "date": "2031-03-09", "time": "02:30"})
    assert support.dialog == "form"
    assert support.form_error == "02:30 does not exist on March 9, 2031 in America/New_York: the clocks skip that hour"
    assert db.exec(select(Meeting).where(Meeting.title == title)).first() is None
