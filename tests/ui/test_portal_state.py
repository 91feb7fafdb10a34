"""The portal's Reflex event handlers called directly, as any browser could call them, with any payload.

Handlers re-derive the user from the websocket's cookie and reach data only through the services with that user as
actor: another client's ids get the service's NotFound message and never the record, and a missing or ended session
drops what the tab had loaded.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from app.app import app  # noqa: F401  (registers the pages and their states)
from app.models.billing import Invoice
from app.models.enums import EmployeeType, InvoiceStatus, MeetingStatus, ProjectStatus, Role
from app.models.meeting import Meeting
from app.models.project import Project
from app.models.user import User
from app.services.accounts import sessions
from app.services.projects import time_entries
from app.services.projects.time_entries import business_today
from app.ui.portal.invoices import InvoicesState
from app.ui.portal.meetings import MeetingsState
from app.ui.portal.profile import ProfileState
from app.ui.portal.projects import ProjectsState
from app.ui.portal.settings import SettingsState
from app.ui.portal.state import PROFILE_SAVED, PortalState
from tests import factories as f
from tests.ui.harness import drain, in_own_loop, root_state, sign_in


@dataclass
class World:
    alice: User
    bob: User
    alice_project: Project
    bob_project: Project
    alice_draft: Invoice
    bob_invoice: Invoice
    bob_meeting: Meeting


@pytest.fixture
def world(engine: Engine) -> Iterator[World]:
    """Two clients with committed records (handlers open their own sessions), removed afterwards."""
    tag = uuid.uuid4().hex[:6]
    with Session(engine, expire_on_commit=False) as s:
        alice, bob = f.user(s, f"alice_{tag}"), f.user(s, f"bob_{tag}")
        w = World(
            alice=alice,
            bob=bob,
            alice_project=f.project(s, alice, "Alice site", status=ProjectStatus.in_progress),
            bob_project=f.project(s, bob, "Bob secret app", status=ProjectStatus.planning),
            alice_draft=f.invoice(s, alice, status=InvoiceStatus.draft),
            bob_invoice=f.invoice(s, bob),
            bob_meeting=f.meeting(s, bob, title="Bob private call"),
        )
    yield w
    with Session(engine) as s:
        ids = [w.alice.id, w.bob.id]
        for model in (Invoice, Project, Meeting):
            s.exec(delete(model).where(col(model.client_id).in_(ids)))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_(ids)))  # type: ignore[call-overload]
        s.commit()


@in_own_loop
async def test_lists_hold_only_the_clients_own_records(engine: Engine, world: World) -> None:
    root = root_state(sign_in(engine, world.alice))
    projects = await root.get_state(ProjectsState)
    await projects.load()
    assert [p.name for p in projects.projects] == ["Alice site"]
    invoices = await root.get_state(InvoicesState)
    await invoices.load()
    assert invoices.invoices == []  # alice's only invoice is a draft
    meetings = await root.get_state(MeetingsState)
    await meetings.load()
    assert meetings.upcoming == [] and meetings.past == []


@in_own_loop
async def test_cancelling_another_clients_project_shows_not_found(engine: Engine, world: World) -> None:
    root = root_state(sign_in(engine, world.alice))
    state = await root.get_state(ProjectsState)
    await state.load()
    state.ask_cancel(world.bob_project.id, "anything")
    await drain(state.confirm_cancel())
    assert state.cancel_error == "Project not found"
    assert [p.name for p in state.projects] == ["Alice site"]
    with Session(engine) as s:
        assert s.get(Project, world.bob_project.id).status == ProjectStatus.planning  # type: ignore[union-attr]


@in_own_loop
async def test_downloading_another_clients_or_a_draft_invoice_is_refused(engine: Engine, world: World) -> None:
    root = root_state(sign_in(engine, world.alice))
    state = await root.get_state(InvoicesState)
    for invoice in (world.bob_invoice, world.alice_draft):
        assert await state.download(invoice.id) is None
        assert state.download_error == "Invoice not found"


@in_own_loop
async def test_cancelling_another_clients_meeting_shows_not_found(engine: Engine, world: World) -> None:
    root = root_state(sign_in(engine, world.alice))
    state = await root.get_state(MeetingsState)
    state.ask_cancel(world.bob_meeting.id)
    await drain(state.confirm_cancel())
    assert state.cancel_error == "Meeting not found"
    assert state.upcoming == []
    with Session(engine) as s:
        assert s.get(Meeting, world.bob_meeting.id).status == MeetingStatus.scheduled  # type: ignore[union-attr]


@in_own_loop
async def test_no_session_means_no_data(engine: Engine, world: World) -> None:
    root = root_state(None)
    state = await root.get_state(ProjectsState)
    await state.load()
    assert state.projects == []
    invoices = await root.get_state(InvoicesState)
    assert await invoices.download(world.bob_invoice.id) is None


@in_own_loop
async def test_an_ended_session_drops_what_the_tab_had_loaded(engine: Engine, world: World) -> None:
    token = sign_in(engine, world.alice)
    root = root_state(token)
    portal = await root.get_state(PortalState)
    await portal.on_load()
    projects = await root.get_state(ProjectsState)
    await projects.load()
    assert portal.is_client and [p.name for p in projects.projects] == ["Alice site"]
    with Session(engine) as s:
        sessions.end(s, access_token=token, refresh_token=None)  # logout elsewhere in this browser
    await portal.on_load()
    assert portal.user is None and not portal.is_client
    assert projects.projects == [] and projects.loading


@in_own_loop
async def test_a_tab_switch_on_a_state_the_server_lost_loads_the_page_again(engine: Engine, world: World) -> None:
    """Redis lost or expired the tab's state: the browser still shows the portal, its next event meets a fresh state.
    The tab switch loads the page again (the session comes from the websocket's cookie) instead of signing out."""
    root = root_state(sign_in(engine, world.alice))  # a fresh tree: what a lost state looks like to the server
    portal = await root.get_state(PortalState)
    again = portal.set_tab("projects")
    assert again is not None and again.fn.__name__ == "on_load"  # type: ignore[attr-defined]
    await portal.on_load()  # what the returned event runs
    projects = await root.get_state(ProjectsState)
    await projects.load()
    assert portal.is_client and portal.active_tab == "projects"
    assert [p.name for p in projects.projects] == ["Alice site"]
    assert portal.set_tab("invoices") is None  # a state that was loaded just switches


@in_own_loop
async def test_the_projects_tab_shows_hours_worked_against_the_estimate(engine: Engine, world: World) -> None:
    with Session(engine, expire_on_commit=False) as s:
        pm = f.user(s, f"pm_{uuid.uuid4().hex[:6]}", role=Role.employee, employee_type=EmployeeType.product_manager)
        project = s.get(Project, world.alice_project.id)
        assert project is not None
        project.estimated_hours = 40
        s.add(project)
        s.commit()
        for hours in ("1.25", "6"):
            data = {"work_date": business_today().isoformat(), "hours": hours}
            time_entries.log_time(s, actor=pm, project_id=project.id or 0, data=data)
    try:
        root = root_state(sign_in(engine, world.alice))
        projects = await root.get_state(ProjectsState)
        await projects.load()
        assert [(p.name, p.hours) for p in projects.projects] == [("Alice site", "7.25 of 40 hours")]
    finally:
        with Session(engine) as s:
            s.exec(delete(User).where(col(User.id) == pm.id))  # type: ignore[call-overload]
            s.commit()


@in_own_loop
async def test_the_profile_and_settings_forms_save_only_their_own_fields(engine: Engine, world: World) -> None:
    """Both tabs' forms are ProfileFields: typing is clipped and limited to the tab's fields, a save goes through the
    profile service, and a taken username shows under the username field."""
    root = root_state(sign_in(engine, world.alice))
    profile_tab = await root.get_state(ProfileState)
    await profile_tab.start_edit()
    assert profile_tab.editing and set(profile_tab.form) == {"first_name", "last_name", "phone", "company"}
    profile_tab.set_field("company", "x" * 1000)
    profile_tab.set_field("username", "sneaky")  # not a field of this form
    assert len(profile_tab.form["company"]) == 400 and "username" not in profile_tab.form
    for name, value in (("first_name", "Alice"), ("last_name", "Archer"), ("company", "Alice & Co")):
        profile_tab.set_field(name, value)
    await drain(profile_tab.save())
    assert not profile_tab.editing and profile_tab.message == PROFILE_SAVED, (profile_tab.errors, profile_tab.error)

    settings_tab = await root.get_state(SettingsState)
    await settings_tab.load()
    assert settings_tab.profile_loaded and settings_tab.form["username"] == world.alice.username
    settings_tab.set_field("username", world.bob.username)
    await drain(settings_tab.save())
    assert settings_tab.errors.get("username") and settings_tab.error and settings_tab.message == ""
    settings_tab.set_field("phone", "  (772) 555-0100  ")
    settings_tab.set_field("username", world.alice.username)
    await drain(settings_tab.save())
    assert settings_tab.message == PROFILE_SAVED, (settings_tab.errors, settings_tab.error)
    assert settings_tab.form["phone"] == "(772) 555-0100"  # as stored
    with Session(engine) as s:
        saved = s.get(User, world.alice.id)
        assert saved is not None and (saved.company, saved.phone) == ("Alice & Co", "(772) 555-0100")


@in_own_loop
async def test_a_refused_password_change_shows_each_fields_error(engine: Engine, world: World) -> None:
    root = root_state(sign_in(engine, world.alice))
    settings_tab = await root.get_state(SettingsState)
    await drain(settings_tab.change_password({"current_password": "", "new_password": "x", "confirm_password": "y"}))
    assert set(settings_tab.password_errors) == {"currentPassword", "newPassword", "confirmPassword"}
    assert settings_tab.password_error and not settings_tab.password_saving and settings_tab.password_message == ""


@in_own_loop
async def test_the_invoice_card_shows_the_issue_date_the_pdf_prints(engine: Engine, world: World) -> None:
    """Issue 26: the card said "Created Nov 27" (the row's creation) while the PDF said "Issue date Nov 18"."""
    with Session(engine) as s:
        invoice = s.get(Invoice, world.bob_invoice.id)
        assert invoice is not None
        invoice.issue_date = date(2026, 11, 18)
        s.add(invoice)
        s.commit()
    root = root_state(sign_in(engine, world.bob))
    invoices = await root.get_state(InvoicesState)
    await invoices.load()
    [card] = invoices.invoices
    assert card.issued == "November 18, 2026"
