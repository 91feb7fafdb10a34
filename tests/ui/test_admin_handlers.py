"""The admin Reflex handlers enforce the rules themselves: a browser can call any handler with any payload.

Each test builds the real state tree in-process with the router data a websocket handshake would carry (the session
cookie header, the client IP), calls a handler function the way Reflex's event processor would, and checks the
database. The handlers run their services in threads over their own connections, so the rows here are committed
(in the UI tier's own database: tests/ui/conftest.py).
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from reflex import constants
from reflex.state import State
from sqlmodel import Session, select

from app.core.permissions import effective_permissions
from app.core.security import verify_password
from app.core.text import INVALID_TEXT
from app.models.content import TeamMember
from app.models.enums import EmployeeType, InquiryStatus, Role
from app.models.inquiry import ContactInquiry
from app.models.system import EmailOutbox
from app.models.user import User, UserPublic
from app.services.accounts import admin_users, sessions
from app.ui.admin.clients.state import ClientsState
from app.ui.admin.dashboard.state import DashboardState
from app.ui.admin.inquiries.state import InquiriesState
from app.ui.admin.site_editor.state import SiteEditorState
from app.ui.admin.state import AdminState
from app.ui.admin.users.state import UsersState
from tests import factories as f
from tests.ui.harness import call, handler_state, notice, sign_in, staff


def _name(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def _user_named(s: Session, username: str) -> User | None:
    s.expire_all()
    return s.exec(select(User).where(User.username == username)).first()


NEW_EMPLOYEE = {
    "username": "x",
    "email": "x@example.com",
    "password": "Long-enough-1",
    "role": "employee",
    "employee_type": "founder",
}


def test_admin_creates_a_user_through_the_handler(db: Session) -> None:
    """The positive control: the same harness does change the database when the rules allow it."""
    admin = f.user(db, _name("adm"), role=Role.admin)
    state = handler_state(UsersState, sign_in(db, admin))
    state.create_mode = "user"
    username = _name("new")
    call(state, "submit_create", {**NEW_EMPLOYEE, "username": username, "email": f"{username}@example.com"})
    created = _user_named(db, username)
    assert created is not None and created.role == Role.employee and created.employee_type == EmployeeType.founder
    assert notice(state)["title"] == "User created successfully"
    assert state.dialog == ""


def test_developer_cannot_create_users_or_list_them(db: Session) -> None:
    dev = f.user(db, _name("dev"), role=Role.employee, employee_type=EmployeeType.developer)
    state = handler_state(UsersState, sign_in(db, dev))
    username = _name("evil")
    call(state, "submit_create", {**NEW_EMPLOYEE, "username": username, "email": f"{username}@example.com"})
    assert _user_named(db, username) is None
    assert notice(state)["title"] == "Access Restricted"
    assert "User Management" in notice(state)["description"]

    call(state, "load")
    assert state.rows == [] and state.total == 0


def test_developer_cannot_delete_or_reset_through_crafted_state(db: Session) -> None:
    dev = f.user(db, _name("dev"), role=Role.employee, employee_type=EmployeeType.developer)
    victim = f.user(db, _name("client"))
    state = handler_state(ClientsState, sign_in(db, dev))
    # A browser can call these handlers directly, with any id, without ever opening the dialogs.
    call(state, "open_delete", str(victim.id), victim.username)
    call(state, "confirm_delete")
    call(state, "open_reset", str(victim.id), victim.username)
    call(state, "send_reset")
    kept = _user_named(db, victim.username)
    assert kept is not None
    assert kept.password_hash is not None and verify_password(f.PASSWORD, kept.password_hash)
    assert _mails_to(db, victim.email) == 0


def _mails_to(s: Session, address: str) -> int:
    s.expire_all()
    return len(s.exec(select(EmailOutbox).where(EmailOutbox.to_address == address)).all())


def test_staff_create_and_reset_send_links_never_passwords(db: Session) -> None:
    """Issue 12: the create form has no password (a password sent anyway is dropped) and reset mails a link."""
    admin = f.user(db, _name("adm"), role=Role.admin)
    state = handler_state(ClientsState, sign_in(db, admin))
    call(state, "open_create", "client")
    username = _name("inv")
    call(state, "submit_create", {"username": username, "email": f"{username}@example.com", "password": "Mine-123"})
    created = _user_named(db, username)
    assert created is not None and created.password_hash is None  # staff never choose it
    assert _mails_to(db, created.email) == 1
    assert notice(state)["title"] == "Client created successfully"
    assert "a link to set their password" in notice(state)["description"]

    victim = f.user(db, _name("locked"))
    call(state, "open_reset", str(victim.id), victim.username, victim.email)
    assert state.dialog == "reset" and state.reset_email == victim.email
    call(state, "send_reset")
    assert _mails_to(db, victim.email) == 1 and state.dialog == ""
    assert notice(state)["title"] == "Reset link sent"
    kept = _user_named(db, victim.username)
    assert kept is not None and verify_password(f.PASSWORD, kept.password_hash or "")  # unchanged until used


def _open_edit(state: Any, user: User) -> None:
    """Open the edit dialog of `user`'s row as its Edit button does: the row has to be on the page shown."""
    call(state, "set_search", user.username)
    call(state, "open_edit", str(user.id))
    assert state.dialog == "edit" and state.edit.username == user.username


def test_the_edit_dialog_opens_only_for_a_row_on_the_page_shown(db: Session) -> None:
    admin = f.user(db, _name("adm"), role=Role.admin)
    other = f.user(db, _name("other"))
    state = handler_state(UsersState, sign_in(db, admin))
    call(state, "open_edit", str(other.id))  # no page read yet: not a row the user was shown
    assert state.dialog == ""
    _open_edit(state, other)


def test_sales_lead_creates_clients_but_not_employees_and_cannot_promote_themselves(db: Session) -> None:
    lead = f.user(db, _name("lead"), role=Role.employee, employee_type=EmployeeType.sales_lead)
    state = handler_state(UsersState, sign_in(db, lead))

    employee = _name("emp")
    call(state, "open_create", "user")
    call(state, "submit_create", {**NEW_EMPLOYEE, "username": employee, "email": f"{employee}@example.com"})
    assert _user_named(db, employee) is None
    assert state.form_error == "You don't have permission to create this type of user"

    client = _name("cli")
    call(state, "open_create", "client")
    # Even with a role smuggled into the payload, create-client makes a client.
    call(state, "submit_create", {**NEW_EMPLOYEE, "username": client, "email": f"{client}@example.com"})
    created = _user_named(db, client)
    assert created is not None and created.role == Role.client and created.employee_type is None

    _open_edit(state, lead)
    call(state, "submit_edit", {"username": lead.username, "email": lead.email, "role": "admin"})
    assert _user_named(db, lead.username).role == Role.employee  # type: ignore[union-attr]
    assert state.form_error == "You don't have permission to update this user"


def test_hr_cannot_promote_itself_or_an_account_it_controls_through_crafted_events(db: Session) -> None:
    hr = f.user(db, _name("hr"), role=Role.employee, employee_type=EmployeeType.hr)
    state = handler_state(UsersState, sign_in(db, hr))
    me = {"id": str(hr.id), "username": hr.username, "email": hr.email, "role": "employee", "employee_type": "hr"}

    # The edit dialog of one's own row, submitted with another type (the form's select lists every type).
    _open_edit(state, hr)
    call(state, "submit_edit", {**me, "employee_type": "founder"})
    assert state.form_error == "You cannot change your own role or permissions" and state.dialog == "edit"
    assert _user_named(db, hr.username).employee_type == EmployeeType.hr  # type: ignore[union-attr]

    # A client HR just created (so knows the password of), edited into a founder.
    puppet = _name("puppet")
    call(state, "open_create", "client")
    call(state, "submit_create", {"username": puppet, "email": f"{puppet}@example.com", "password": "Long-enough-1"})
    created = _user_named(db, puppet)
    assert created is not None and created.role == Role.client
    _open_edit(state, created)
    call(state, "submit_edit", {"username": puppet, "role": "employee", "employee_type": "founder"})
    assert state.form_error.startswith("You cannot grant permissions you do not hold")
    assert _user_named(db, puppet).role == Role.client  # type: ignore[union-attr]

    # The positive control: the whole record sent back unchanged, with a new phone number, is saved.
    _open_edit(state, hr)
    call(state, "submit_edit", {**me, "phone": "(772) 555-0102"})
    saved = _user_named(db, hr.username)
    assert saved is not None and saved.phone == "(772) 555-0102" and saved.employee_type == EmployeeType.hr
    assert notice(state)["title"] == "User updated successfully"


def test_client_and_anonymous_callers_change_nothing(db: Session) -> None:
    client = f.user(db, _name("cli"))
    inquiry = ContactInquiry(name="Probe", email="probe@example.com", message="Hello")
    db.add(inquiry)
    db.commit()
    db.refresh(inquiry)

    state = handler_state(InquiriesState, sign_in(db, client))
    state._dialog_key = str(inquiry.id)
    call(state, "set_status", "closed")
    call(state, "load")
    assert state.rows == []

    anonymous = handler_state(InquiriesState, None)
    anonymous._dialog_key = str(inquiry.id)
    call(anonymous, "set_priority", "urgent")
    assert anonymous.leave_reason == "auth"

    db.refresh(inquiry)
    assert inquiry.status == InquiryStatus.new and str(inquiry.priority) == "medium"


def test_a_revoked_session_is_refused_even_with_its_cookie(db: Session) -> None:
    admin = f.user(db, _name("adm"), role=Role.admin)
    token = sign_in(db, admin)
    sessions.revoke_all(db, admin.id)  # e.g. logout elsewhere, password reset, idle timeout
    state = handler_state(UsersState, token)
    state.user = UserPublic.of(admin)  # the tab still shows the old display data
    username = _name("late")
    call(state, "submit_create", {**NEW_EMPLOYEE, "username": username, "email": f"{username}@example.com"})
    assert _user_named(db, username) is None
    assert state.leave_reason == "expired" and notice(state)["title"] == "Session Expired"


@pytest.mark.parametrize(
    ("role", "etype", "section", "allowed", "restricted", "leave"),
    [
        (Role.admin, None, "users", "users", "", ""),
        (Role.employee, EmployeeType.sales_lead, "users", "users", "", ""),
        (Role.employee, EmployeeType.developer, "users", "", "users", ""),
        (Role.employee, EmployeeType.developer, "inquiries", "inquiries", "", ""),
        (Role.employee, EmployeeType.developer, "content", "content", "", ""),
        (Role.employee, EmployeeType.developer, "billing", "", "billing", ""),
        (Role.employee, EmployeeType.hr, "applications", "applications", "", ""),
        (Role.employee, EmployeeType.cfo, "applications", "", "applications", ""),
        (Role.employee, EmployeeType.developer, "no-such-section", "", "no-such-section", ""),
        (Role.client, None, "dashboard", "", "", "staff"),
    ],
)
def test_the_page_guard(
    db: Session,
    role: Role,
    etype: EmployeeType | None,
    section: str,
    allowed: str,
    restricted: str,
    leave: str,
) -> None:
    user = f.user(db, _name("g"), role=role, employee_type=etype)
    state = handler_state(AdminState, sign_in(db, user))
    call(state, "open_section", section)
    assert (state.allowed_section, state.restricted_section, state.leave_reason) == (allowed, restricted, leave)


MATRIX_ACTORS = [(Role.admin, None), (Role.client, None)] + [(Role.employee, t) for t in EmployeeType]


@pytest.mark.parametrize(("role", "etype"), MATRIX_ACTORS, ids=lambda v: str(v) if v else "-")
def test_handler_permission_matrix(db: Session, role: Role, etype: EmployeeType | None) -> None:
    """Listing users, creating a client and triaging an inquiry through the handlers follow docs/permissions.md."""
    perms = effective_permissions(role, etype)
    is_staff = role in (Role.admin, Role.employee)
    actor = f.user(db, _name("m"), role=role, employee_type=etype)
    token = sign_in(db, actor)

    users = handler_state(UsersState, token)
    call(users, "load")
    assert (users.total > 0) == (is_staff and "users:read" in perms)

    client = _name("mc")
    call(users, "open_create", "client")
    call(users, "submit_create", {"username": client, "email": f"{client}@example.com", "password": "Long-enough-1"})
    may_create = is_staff and ("clients:create" in perms or "users:manage" in perms)
    assert (_user_named(db, client) is not None) == may_create

    inquiry = ContactInquiry(name="Matrix", email="matrix@example.com", message="Hi")
    db.add(inquiry)
    db.commit()
    db.refresh(inquiry)
    inquiries = handler_state(InquiriesState, token)
    inquiries._dialog_key = str(inquiry.id)
    call(inquiries, "set_status", "resolved")
    db.refresh(inquiry)
    assert (inquiry.status == InquiryStatus.resolved) == (is_staff and "inquiries:write" in perms)


def test_site_content_handlers_write_only_for_content_writers(db: Session) -> None:
    editor = f.user(db, _name("mkt"), role=Role.employee, employee_type=EmployeeType.marketing_lead)
    state = handler_state(SiteEditorState, sign_in(db, editor))
    call(state, "load")
    call(state, "set_kind", "team")
    name = _name("Member")
    call(state, "open_create")
    call(state, "submit_form", {"name": name, "role": "Designer", "bio": "Designs things", "is_published": "on"})
    assert notice(state)["title"] == "Team member created successfully"
    member = db.exec(select(TeamMember).where(TeamMember.name == name)).one()
    assert member.is_published is True
    member_id = member.id
    listed = next(r for r in state.rows if r["name"] == name)
    assert listed["position"] == str(member.sort_order + 1)  # counted from 1, as people count places (issue 26)

    dev = f.user(db, _name("dev"), role=Role.employee, employee_type=EmployeeType.developer)
    crafted = handler_state(SiteEditorState, sign_in(db, dev))
    call(crafted, "load")
    call(crafted, "set_kind", "team")
    assert any(r["name"] == name for r in crafted.rows)  # content:read
    call(crafted, "submit_form", {"name": _name("Evil"), "role": "x", "bio": "x"})
    assert notice(crafted)["title"] == "Access Restricted"
    crafted._dialog_key = str(member_id)  # a browser can send any id; the handler still asks the server
    call(crafted, "confirm_delete")
    db.expire_all()
    assert db.get(TeamMember, member_id) is not None
    assert db.exec(select(TeamMember).where(TeamMember.name.startswith("Evil"))).first() is None  # type: ignore[attr-defined]
    call(state, "ask_delete", str(member_id), name)
    call(state, "confirm_delete")
    db.expire_all()
    assert db.get(TeamMember, member_id) is None


def test_text_no_database_can_store_is_a_message_not_a_crash(db: Session) -> None:
    """Handlers call services directly, past the API's boundary check: the engine's guard answers for them."""
    admin = f.user(db, _name("adm"), role=Role.admin)
    inquiry = ContactInquiry(name="Pat", email="pat@example.com", message="Hi", notes="Kept")
    db.add(inquiry)
    db.commit()
    db.refresh(inquiry)
    state = handler_state(InquiriesState, sign_in(db, admin))
    state._dialog_key = str(inquiry.id)
    call(state, "save_notes", {"notes": "Call\x00back"})
    assert notice(state)["title"] == "Update Failed"
    assert notice(state)["description"] == INVALID_TEXT
    db.refresh(inquiry)
    assert inquiry.notes == "Kept"

    call(state, "set_search", "\ud800")
    assert state.load_error == INVALID_TEXT


def _dashboard(token: str, url: str) -> Any:
    root = State(_reflex_internal_init=True)
    root._update_router_vars(
        {
            constants.RouteVar.HEADERS: {"cookie": f"access_token={token}"},
            constants.RouteVar.PATH: "/admin/dashboard",
            constants.RouteVar.ORIGIN: url,
        },
        {},
    )
    return root.get_substate(DashboardState.get_full_name().split("."))


@pytest.mark.parametrize(
    ("role", "etype", "text"),
    [
        (Role.admin, None, "Redirecting to Admin Dashboard..."),
        (Role.employee, EmployeeType.developer, "Redirecting to Employee Dashboard..."),
    ],
)
def test_the_dashboard_greets_after_a_form_sign_in_and_drops_the_marker(
    db: Session, role: Role, etype: EmployeeType | None, text: str
) -> None:
    token = sign_in(db, f.user(db, _name("hi"), role=role, employee_type=etype))
    state = _dashboard(token, "/admin/dashboard?login=1")
    assert state.router.url.query_parameters.get("login") == "1"
    result = asyncio.run(type(state).event_handlers["load"].fn(state))
    assert (notice(state)["level"], notice(state)["title"], notice(state)["description"]) == (
        "success",
        "Login Successful",
        text,
    )
    assert "/admin/dashboard" in str(result) and "login=1" not in str(result)  # the replace that drops ?login=1
    assert not state.loaded  # the figures load on the on_load the replace triggers

    again = _dashboard(token, "/admin/dashboard")
    call(again, "load")
    assert notice(again)["title"] != "Login Successful" and again.loaded


def test_the_spam_filter_lists_caught_messages_and_not_spam_rescues_once(db: Session) -> None:
    """Issue 12, point 8, through the handlers: a crafted call by someone without inquiries:write changes nothing."""
    email = f"{_name('caught')}@example.com"
    inquiry = ContactInquiry(name="Caught", email=email, message="Real request", is_spam=True)
    db.add(inquiry)
    db.commit()
    db.refresh(inquiry)
    outsider = f.user(
        db, _name("dev"), role=Role.employee, employee_type=EmployeeType.developer,
        revoked_permissions=["inquiries:write"],
    )  # fmt: skip
    crafted = handler_state(InquiriesState, sign_in(db, outsider))
    crafted._dialog_key = str(inquiry.id)
    call(crafted, "not_spam")
    db.refresh(inquiry)
    assert inquiry.is_spam and _mails_to(db, email) == 0

    admin = f.user(db, _name("adm"), role=Role.admin)
    state = handler_state(InquiriesState, sign_in(db, admin))
    call(state, "set_status_filter", "spam")
    call(state, "set_search", email)
    assert [r.email for r in state.rows] == [email] and state.rows[0].spam
    call(state, "open_detail", str(inquiry.id))
    call(state, "not_spam")
    call(state, "not_spam")  # a double click
    db.refresh(inquiry)
    assert not inquiry.is_spam and inquiry.status == InquiryStatus.new
    assert _mails_to(db, email) == 1
    assert notice(state)["title"] == "Moved to New" and state.dialog == ""
    assert state.rows == []  # no longer in Spam


def test_the_user_forms_offer_only_what_the_staff_member_may_give(db: Session) -> None:
    """Issue 26: HR was offered "Admin" in Create User, and every employee type, and then refused."""
    hr = staff(db, EmployeeType.hr)
    state = handler_state(UsersState, sign_in(db, hr))
    call(state, "open_create", "user")
    roles = [c.value for c in state.role_choices]
    assert "admin" not in roles and roles[:2] == ["client", "employee"]
    offered = {c.value for c in state.type_choices}
    assert offered and offered < {t.value for t in EmployeeType}
    # What is offered is what the service lets HR create.
    assert offered == set(admin_users.grantable(db.get(User, hr.id)).employee_types)  # type: ignore[arg-type]
    admin = handler_state(UsersState, sign_in(db, f.user(db, f"adm_{uuid.uuid4().hex[:6]}", role=Role.admin)))
    call(admin, "open_create", "user")
    assert [c.value for c in admin.role_choices] == ["client", "employee", "admin"]
    assert len(admin.type_choices) == len(EmployeeType)


def _handshake(root: State, token: str) -> None:
    """The tab's websocket connected again, now with `token` as its session cookie (another person signed in)."""
    new = {constants.RouteVar.HEADERS: {"cookie": f"access_token={token}"}, constants.RouteVar.PATH: "/admin/users"}
    root._update_router_vars(new, {})


def test_a_tab_that_changes_hands_starts_empty_whoever_loaded_it_first(db: Session) -> None:
    """The section states hold one person's data. A new tab is not emptied (nothing is in it: the guard skips that
    work), yet a list loaded before any guard ran (a handler called directly) is claimed by its reader, so the next
    person's guard still empties it."""
    first, second = (f.user(db, _name(n), role=Role.admin) for n in ("own1", "own2"))
    users = handler_state(UsersState, sign_in(db, first), "/admin/users")
    root = users._get_root_state()
    shell = root.get_substate(AdminState.get_full_name().split("."))
    call(users, "load")  # before the page's guard: the handler claims the tab for its reader
    assert users.rows and shell._owner == str(first.id)

    _handshake(root, sign_in(db, second))
    call(shell, "open_section", "users")
    assert users.rows == [] and shell._owner == str(second.id)  # the first person's list went before anything else

    call(users, "load")
    assert users.rows
    _handshake(root, sign_in(db, first))
    users.search = "nothing-loaded-yet"  # a field the handler keeps: the claim empties the state before the load
    call(users, "load")
    assert shell._owner == str(first.id) and users.search == ""
