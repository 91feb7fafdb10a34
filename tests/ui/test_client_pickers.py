"""The client pickers of the organization, project and meeting forms (and the meetings filter): the state holds at
most `CLIENT_LIMIT` options however many clients there are, a search finds the others on the server, an edited
record keeps its client, and a caller without the section's permission gets nothing from a crafted search.

The harness is tests/ui/harness.py: the real state tree, the session cookie in the router, committed rows; the
clients of a test share a tag that sorts after every other username, so the first page of a plain listing never
reaches them.
"""

from __future__ import annotations

import uuid

import pytest
from sqlmodel import Session

from app.models.enums import EmployeeType, Role
from app.models.project import Organization
from app.models.user import User
from app.ui.admin.meetings.state import MeetingsState
from app.ui.admin.organizations.state import OrganizationListState
from app.ui.admin.pickers import CLIENT_LIMIT
from app.ui.admin.projects.state import ProjectListState
from tests import factories as f
from tests.ui.harness import call, handler_state, sign_in, staff

CLIENTS = 120


@pytest.fixture
def crowd(db: Session) -> tuple[str, list[User]]:
    """CLIENTS clients named zzpick_<tag>_000 …: the last of them is far beyond any first page."""
    tag = f"zzpick_{uuid.uuid4().hex[:8]}"
    users = [
        User(username=f"{tag}_{i:03d}", email=f"{tag}_{i:03d}@example.com", role=Role.client) for i in range(CLIENTS)
    ]
    for u in users:
        u.password_hash = "x"
        u.is_verified = True
    db.add_all(users)
    db.commit()
    for u in users:
        db.refresh(u)
    return tag, users


def _ids(state: object) -> list[str]:
    return [o.value for o in state.client_options]  # type: ignore[attr-defined]


def _searches_on_the_server(state: object, tag: str, last: User) -> None:
    assert len(state.client_options) <= CLIENT_LIMIT  # type: ignore[attr-defined]
    call(state, "search_clients", tag)
    assert len(state.client_options) == CLIENT_LIMIT and state.clients_capped is True  # type: ignore[attr-defined]
    assert str(last.id) not in _ids(state)
    call(state, "search_clients", last.username)
    assert _ids(state) == [str(last.id)] and state.clients_capped is False  # type: ignore[attr-defined]
    call(state, "choose_client", str(last.id))
    assert state.client_id == str(last.id)  # type: ignore[attr-defined]
    call(state, "search_clients", tag)  # the choice stays an option whatever is typed next
    assert _ids(state)[0] == str(last.id) and len(state.client_options) == CLIENT_LIMIT + 1  # type: ignore[attr-defined]
    call(state, "choose_client", str(uuid.uuid4()))  # not offered: no choice
    assert state.client_id == ""  # type: ignore[attr-defined]


def test_projects_pick_clients_on_the_server(db: Session, crowd: tuple[str, list[User]]) -> None:
    tag, users = crowd
    last = users[-1]
    writer = sign_in(db, staff(db, EmployeeType.product_manager))
    state = handler_state(ProjectListState, writer)
    call(state, "open_create")
    assert state.dialog == "form" and state.client_id == ""
    _searches_on_the_server(state, tag, last)

    f.project(db, last, f"{tag} portal")
    state = handler_state(ProjectListState, writer)
    call(state, "set_search", f"{tag} portal")
    call(state, "open_edit", state.rows[0].id)
    assert state.client_id == str(last.id) and _ids(state)[0] == str(last.id)  # kept though past the first page
    assert len(state.client_options) <= CLIENT_LIMIT + 1


def test_organizations_pick_the_primary_contact_on_the_server(db: Session, crowd: tuple[str, list[User]]) -> None:
    tag, users = crowd
    last = users[-1]
    writer = sign_in(db, staff(db, EmployeeType.marketing_lead))
    state = handler_state(OrganizationListState, writer)
    call(state, "open_create")
    _searches_on_the_server(state, tag, last)

    db.add(Organization(name=f"{tag} Org", primary_contact_id=last.id))
    db.commit()
    state = handler_state(OrganizationListState, writer)
    call(state, "set_search", f"{tag} Org")
    call(state, "open_edit", state.rows[0].id)
    assert state.client_id == str(last.id) and _ids(state)[0] == str(last.id)
    assert state.client_options[0].label == f"{last.username}"


def test_meetings_pick_clients_on_the_server(db: Session, crowd: tuple[str, list[User]]) -> None:
    tag, users = crowd
    last = users[-1]
    state = handler_state(MeetingsState, sign_in(db, staff(db, EmployeeType.product_manager)))
    call(state, "load")
    assert len(state.client_options) <= CLIENT_LIMIT
    call(state, "open_create")
    _searches_on_the_server(state, tag, last)

    meeting = f.meeting(db, last, title=f"{tag} call")
    call(state, "search_clients", last.username)
    call(state, "set_client_filter", str(last.id))  # the filter: found by searching, kept
    assert state.client_filter == str(last.id) and [r.id for r in state.rows] == [meeting.id]
    call(state, "search_clients", tag)
    assert _ids(state)[0] == str(last.id) and len(state.client_options) <= CLIENT_LIMIT + 2
    call(state, "open_edit", meeting.id)
    assert state.client_id == str(last.id) and str(last.id) in _ids(state)
    call(state, "set_client_filter", str(uuid.uuid4()))  # not offered: all clients
    assert state.client_filter == ""


@pytest.mark.parametrize(
    ("cls", "etype"),
    [
        (ProjectListState, EmployeeType.hr),  # users:read lets the service list clients; content:write is missing
        (OrganizationListState, EmployeeType.cfo),  # billing:write, content:read only
        (MeetingsState, EmployeeType.legal),  # users:read, no meetings:read
    ],
)
def test_a_crafted_search_without_the_sections_permission_gets_nothing(
    db: Session, crowd: tuple[str, list[User]], cls: type, etype: EmployeeType
) -> None:
    tag, users = crowd
    for token in (sign_in(db, staff(db, etype)), sign_in(db, users[0]), None):
        state = handler_state(cls, token)
        call(state, "search_clients", tag)
        call(state, "choose_client", str(users[0].id))
        assert state.client_options == [] and state.client_id == "" and state.clients_capped is False
