"""The portal's summary handlers (issue 26, point 10) called directly, as any browser could call them: the session is
checked on the server, only the signed-in client's records show, and the invoice button opens the Invoices tab."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from app.app import app  # noqa: F401  (registers the pages and their states)
from app.models.billing import Invoice, InvoiceItem
from app.models.enums import ProjectStatus
from app.models.meeting import Meeting
from app.models.project import Project
from app.models.user import User
from app.services.accounts import sessions
from app.ui.portal.state import PortalState
from app.ui.portal.summary import SummaryState
from tests import factories as f
from tests.ui.harness import in_own_loop, root_state, sign_in


@dataclass
class World:
    alice: User
    bob: User
    alice_invoice: Invoice
    bob_invoice: Invoice


@pytest.fixture
def world(engine: Engine) -> Iterator[World]:
    """Two clients with committed records (handlers open their own sessions), removed afterwards."""
    tag = uuid.uuid4().hex[:6]
    with Session(engine, expire_on_commit=False) as s:
        alice, bob = f.user(s, f"alice_s_{tag}"), f.user(s, f"bob_s_{tag}")
        alice_invoice = f.invoice(s, alice, items=[("Audit", 1, "200.00")])
        alice_invoice.due_date = date.today() - timedelta(days=3)
        s.add(alice_invoice)
        s.commit()
        f.project(s, alice, "Alice site", status=ProjectStatus.in_progress, progress_percentage=55)
        f.project(s, bob, "Bob secret app", status=ProjectStatus.in_progress)
        f.meeting(s, bob, in_hours=3, title="Bob private call")
        w = World(alice=alice, bob=bob, alice_invoice=alice_invoice, bob_invoice=f.invoice(s, bob))
    yield w
    with Session(engine) as s:
        ids = [w.alice.id, w.bob.id]
        invoice_ids = [w.alice_invoice.id, w.bob_invoice.id]
        s.exec(delete(InvoiceItem).where(col(InvoiceItem.invoice_id).in_(invoice_ids)))  # type: ignore[call-overload]
        for model in (Invoice, Project, Meeting):
            s.exec(delete(model).where(col(model.client_id).in_(ids)))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_(ids)))  # type: ignore[call-overload]
        s.commit()


@in_own_loop
async def test_the_summary_shows_only_the_clients_own_records(engine: Engine, world: World) -> None:
    root = root_state(sign_in(engine, world.alice))
    state = await root.get_state(SummaryState)
    await state.load()
    assert not state.loading and state.error == ""
    assert state.balance == "$214.00" and state.unpaid == 1
    assert state.next_invoice.number == world.alice_invoice.invoice_number
    assert state.next_invoice.overdue and state.next_invoice.balance == "$214.00"
    assert state.next_meeting.id == 0  # bob's meeting is not alice's
    assert [(p.name, p.progress, p.status.label) for p in state.projects] == [("Alice site", 55, "in progress")]


@in_own_loop
async def test_view_invoice_opens_the_invoices_tab_at_that_invoice(engine: Engine, world: World) -> None:
    root = root_state(sign_in(engine, world.alice))
    state = await root.get_state(SummaryState)
    await state.open_invoice(world.alice_invoice.id)
    assert state.active_tab == "invoices" and state.scroll_target == f"invoice-{world.alice_invoice.id}"
    state.scrolled()  # the browser has scrolled: switching back to Invoices later does not scroll again
    assert state.scroll_target == ""


@in_own_loop
async def test_no_session_or_an_ended_one_shows_no_summary(engine: Engine, world: World) -> None:
    signed_out = await root_state(None).get_state(SummaryState)
    await signed_out.load()
    assert signed_out.loading and signed_out.next_invoice.id == 0 and signed_out.projects == []
    await signed_out.open_invoice(world.bob_invoice.id)
    assert signed_out.active_tab == "projects" and signed_out.scroll_target == ""

    token = sign_in(engine, world.alice)
    root = root_state(token)
    portal = await root.get_state(PortalState)
    await portal.on_load()  # the page's load runs every tab's load, the summary's too
    state = await root.get_state(SummaryState)
    await state.load()
    assert state.next_invoice.id == world.alice_invoice.id
    with Session(engine) as s:
        sessions.end(s, access_token=token, refresh_token=None)  # logout elsewhere in this browser
    await state.load()
    assert portal.user is None and state.next_invoice.id == 0 and state.projects == [] and state.balance == ""
