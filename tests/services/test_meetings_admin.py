"""The staff meetings list is one page at a time, searched, filtered and sorted in SQL; meeting types page the same way.

Each test makes its own client (or a unique word to search for), so rows other tests or migrations left in the
database do not change the counts.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from sqlmodel import Session

from app.core.errors import Forbidden, Invalid
from app.models.base import utcnow
from app.models.enums import EmployeeType, MeetingStatus, Role
from app.models.meeting import Meeting, MeetingType
from app.models.user import User
from app.services.platform.validation import MAX_PAGE
from app.services.scheduling import meetings_admin
from tests import factories as f


def _tag() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture
def admin(session: Session) -> User:
    return f.user(session, f"mtg_admin_{_tag()}", role=Role.admin, first_name="Grace", last_name="Hopper")


@pytest.fixture
def client(session: Session) -> User:
    tag = _tag()
    return f.user(session, f"ada_{tag}", first_name="Ada", last_name=f"Lovelace{tag}")


def _meeting(s: Session, client: User | None, title: str, in_hours: float, **kw: Any) -> Meeting:
    if client is None:  # e.g. booked through the scheduling service by someone without an account
        start = utcnow() + timedelta(hours=in_hours)
        row = Meeting(title=title, start_time=start, end_time=start + timedelta(minutes=30), **kw)
        s.add(row)
        s.commit()
        return row
    return f.meeting(s, client, in_hours=in_hours, title=title, **kw)


def _titles(page: Any) -> list[str]:
    return [m.title for m in page.data]


def _list(s: Session, actor: User, **kw: Any) -> Any:
    return meetings_admin.list_all(s, actor=actor, **kw)


def test_search_looks_in_title_client_attendees_and_organizer(session: Session, admin: User, client: User) -> None:
    word = _tag()
    _meeting(session, client, f"Roadmap {word}", 24, organizer_id=admin.id)
    _meeting(session, client, "Budget review", 48)
    _meeting(session, None, "Walk-in", 72, attendees=[f"guest-{word}@example.com"])

    assert _titles(_list(session, admin, when="all", search=word)) == ["Walk-in", f"Roadmap {word}"]
    assert _titles(_list(session, admin, when="all", search=f"roadmap {word.upper()}")) == [f"Roadmap {word}"]
    # The client by whole name, by username and by e-mail address.
    whole = f"{client.first_name} {client.last_name}"
    assert sorted(_titles(_list(session, admin, when="all", search=whole))) == ["Budget review", f"Roadmap {word}"]
    assert _list(session, admin, when="all", search=client.username).total == 2
    assert _list(session, admin, when="all", search=client.email).total == 2
    # The organizer by name and username, and an attendee's address.
    assert _titles(_list(session, admin, when="all", client_id=str(client.id), search="grace hopper")) == [
        f"Roadmap {word}"
    ]
    assert _list(session, admin, when="all", client_id=str(client.id), search=admin.username).total == 1
    assert _titles(_list(session, admin, when="all", search=f"guest-{word}@")) == ["Walk-in"]
    # LIKE's wildcards are taken literally.
    assert _list(session, admin, when="all", client_id=str(client.id), search="%").total == 0


def test_filters_when_status_and_client(session: Session, admin: User, client: User) -> None:
    other = f.user(session, f"other_{_tag()}")
    _meeting(session, client, "Next week", 24 * 7)
    _meeting(session, client, "Tomorrow", 24, status=MeetingStatus.cancelled, cancel_reason="Ill")
    _meeting(session, client, "Last month", -24 * 30, status=MeetingStatus.completed)
    _meeting(session, other, "Someone else's", 24)
    mine = str(client.id)

    assert _titles(_list(session, admin, client_id=mine)) == ["Tomorrow", "Next week"]  # upcoming is the default
    assert _titles(_list(session, admin, when="past", client_id=mine)) == ["Last month"]
    assert _titles(_list(session, admin, when="all", client_id=mine)) == ["Next week", "Tomorrow", "Last month"]
    assert _titles(_list(session, admin, when="nonsense", client_id=mine)) == ["Next week", "Tomorrow", "Last month"]
    assert _titles(_list(session, admin, when="all", status="cancelled", client_id=mine)) == ["Tomorrow"]
    assert _titles(_list(session, admin, when="all", status="completed", client_id=mine)) == ["Last month"]
    row = _list(session, admin, status="cancelled", client_id=mine).data[0]
    assert row.client_name == f"{client.first_name} {client.last_name}" and row.cancel_reason == "Ill"

    with pytest.raises(Invalid) as err:
        _list(session, admin, status="postponed")
    assert err.value.errors == {"status": "Unknown status"}
    with pytest.raises(Invalid) as err:
        _list(session, admin, client_id="not-a-uuid")
    assert err.value.errors == {"client_id": "Unknown client"}


def test_sorts(session: Session, admin: User, client: User) -> None:
    word = _tag()
    bea = f.user(session, f"bea_{word}", first_name="Bea", last_name="Zed")
    _meeting(session, client, f"b {word}", 48)
    _meeting(session, bea, f"C {word}", 24)
    _meeting(session, client, f"a {word}", 72)

    assert _titles(_list(session, admin, search=word)) == [f"C {word}", f"b {word}", f"a {word}"]
    assert _titles(_list(session, admin, search=word, sort="latest")) == [f"a {word}", f"b {word}", f"C {word}"]
    assert _titles(_list(session, admin, search=word, sort="title")) == [f"a {word}", f"b {word}", f"C {word}"]
    # Ada before Bea; within a client, soonest first.
    assert _titles(_list(session, admin, search=word, sort="client")) == [f"b {word}", f"a {word}", f"C {word}"]
    # An unknown sort is the default of the list: soonest first for upcoming meetings, latest first otherwise.
    assert _titles(_list(session, admin, search=word, sort="bogus")) == [f"C {word}", f"b {word}", f"a {word}"]
    assert _titles(_list(session, admin, when="all", search=word)) == [f"a {word}", f"b {word}", f"C {word}"]


def test_paging_fields_and_a_page_past_the_end(session: Session, admin: User, client: User) -> None:
    for hour in range(1, 8):
        _meeting(session, client, f"Call {hour}", hour)
    mine = str(client.id)

    first = _list(session, admin, client_id=mine, page_size=3)
    assert (first.total, first.page, first.page_size, first.pages) == (7, 1, 3, 3)
    assert _titles(first) == ["Call 1", "Call 2", "Call 3"]
    last = _list(session, admin, client_id=mine, page=3, page_size=3)
    assert _titles(last) == ["Call 7"]
    beyond = _list(session, admin, client_id=mine, page=4, page_size=3)
    assert beyond.data == [] and beyond.total == 7 and beyond.page == 4
    huge = _list(session, admin, client_id=mine, page=2**63, page_size=2**63)
    assert huge.data == [] and (huge.page, huge.page_size) == (MAX_PAGE, 100)
    assert first.as_json()["pages"] == 3 and first.as_json()["data"][0].title == "Call 1"


@pytest.mark.parametrize(
    ("role", "etype"), [(Role.client, None), (Role.employee, EmployeeType.cfo), (Role.employee, EmployeeType.legal)]
)
def test_refused_without_meetings_read(session: Session, role: Role, etype: EmployeeType | None) -> None:
    actor = f.user(session, f"nope_{_tag()}", role=role, employee_type=etype)
    with pytest.raises(Forbidden):
        _list(session, actor, when="all")
    with pytest.raises(Forbidden):
        meetings_admin.list_types(session, actor=actor)


def test_a_developer_reads_meetings(session: Session, client: User) -> None:
    dev = f.user(session, f"dev_{_tag()}", role=Role.employee, employee_type=EmployeeType.developer)
    _meeting(session, client, "Stand-up", 5)
    assert _titles(_list(session, dev, client_id=str(client.id))) == ["Stand-up"]


def test_meeting_types_page_in_booking_order(session: Session, admin: User) -> None:
    word = _tag()
    for order, (name, active) in enumerate([("Intro", True), ("Deep dive", False), ("Review", True)]):
        session.add(
            MeetingType(slug=f"{name.lower()}-{word}", name=f"{name} {word}", sort_order=order, is_active=active)
        )
    session.commit()

    found = meetings_admin.list_types(session, actor=admin, search=word)
    assert [t.name for t in found.data] == [f"Intro {word}", f"Deep dive {word}", f"Review {word}"]
    active = meetings_admin.list_types(session, actor=admin, search=word, active=True)
    assert [t.name for t in active.data] == [f"Intro {word}", f"Review {word}"]
    by_name = meetings_admin.list_types(session, actor=admin, search=word, sort="name", page_size=2)
    assert [t.name for t in by_name.data] == [f"Deep dive {word}", f"Intro {word}"]
    assert (by_name.total, by_name.pages) == (3, 2)
    assert meetings_admin.list_types(session, actor=admin, search=word, page=3, page_size=2).data == []
