"""The billing page's handlers: the state holds one page of invoices, crafted events from those without billing
permissions get and change nothing, the pickers ask the server, and the preview is the billing service's arithmetic.

Built on tests/ui/harness.py: the real state tree with the handshake's cookie, handlers run as the
event processor runs them, rows committed (and this module's invoices deleted afterwards).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from app.models.billing import Invoice
from app.models.enums import EmployeeType, InvoiceStatus, Role
from app.models.project import Project
from app.models.user import User
from app.services.billing import billing
from app.ui.admin.billing.state import PAGE_SIZE, BillingState, InvoicePreview, invoice_preview
from app.ui.admin.common import dollars
from tests import factories as f
from tests.ui.harness import call, handler_state, notice, sign_in

SEEDED = 60


@dataclass
class World:
    client: User
    other: User
    project: Project
    draft: Invoice
    cfo: User
    legal: User
    developer: User


def _name(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def _count(s: Session) -> int:
    return int(s.exec(select(func.count()).select_from(Invoice)).one())


@pytest.fixture
def world(db: Session) -> Iterator[World]:
    client = f.user(db, _name("payer"), first_name="Quinn", last_name="Ledger", company="Ledger Labs")
    other = f.user(db, _name("other"))
    for i in range(SEEDED - 1):
        f.invoice(db, client, status=InvoiceStatus.paid if i % 2 else InvoiceStatus.pending, items=[("Work", 1, "10")])
    w = World(
        client=client,
        other=other,
        project=f.project(db, client, "Ledger site"),
        draft=f.invoice(db, client, status=InvoiceStatus.draft),
        cfo=f.user(db, _name("cfo"), role=Role.employee, employee_type=EmployeeType.cfo),
        legal=f.user(db, _name("legal"), role=Role.employee, employee_type=EmployeeType.legal),
        developer=f.user(db, _name("dev"), role=Role.employee, employee_type=EmployeeType.developer),
    )
    f.project(db, other, "Not the chosen client's")
    yield w
    ids = [client.id, other.id]
    for model in (Invoice, Project):
        db.exec(delete(model).where(col(model.client_id).in_(ids)))  # type: ignore[call-overload]
    db.commit()


def test_the_state_holds_one_page_and_pages_through_the_rest(db: Session, world: World) -> None:
    others = _count(db) - SEEDED  # invoices other tests may have committed
    state = handler_state(BillingState, sign_in(db, world.cfo))
    call(state, "load")
    assert len(state.rows) == PAGE_SIZE and state.total == SEEDED + others
    assert state.page == 1 and state.pages == -(-state.total // PAGE_SIZE)

    call(state, "set_search", world.client.username)
    assert state.total == SEEDED and len(state.rows) == PAGE_SIZE
    assert {r.client for r in state.rows} == {"Quinn Ledger"}
    assert state.rows[0].number == world.draft.invoice_number and state.rows[0].status.label == "Draft"
    call(state, "next_page")
    call(state, "next_page")
    assert state.page == 3 and len(state.rows) == SEEDED - 2 * PAGE_SIZE
    assert (state.first_shown, state.last_shown) == (2 * PAGE_SIZE + 1, SEEDED)

    call(state, "set_status_filter", "draft")  # a filter starts again at the first page
    assert state.page == 1 and state.total == 1 and [r.id for r in state.rows] == [world.draft.id]
    call(state, "set_status_filter", "not-a-status")  # an unknown value is no filter
    assert state.status_filter == "" and state.total == SEEDED
    call(state, "set_sort", "oldest")
    assert state.rows[0].number != world.draft.invoice_number
    call(state, "set_search", "Ledger Labs")
    assert state.total == SEEDED


def test_callers_without_billing_read_get_nothing(db: Session, world: World) -> None:
    for caller in (world.developer, world.client):
        state = handler_state(BillingState, sign_in(db, caller))
        for handler, args in (("load", ()), ("set_search", ("",)), ("next_page", ()), ("set_sort", ("total",))):
            call(state, handler, *args)
            assert state.rows == [] and state.total == 0, (caller.username, handler)
        call(state, "open_create")
        call(state, "search_clients", world.client.username)
        assert state.dialog == "" and state.client_options == []
    anonymous = handler_state(BillingState, None)
    call(anonymous, "load")
    assert anonymous.rows == [] and anonymous.total == 0


def test_readers_cannot_write_through_crafted_events(db: Session, world: World) -> None:
    before = _count(db)
    state = handler_state(BillingState, sign_in(db, world.legal))
    call(state, "load")
    assert state.total >= SEEDED and state.can_write is False  # legal reads billing
    call(state, "ask_issue", world.draft.id)
    assert state.dialog == ""
    state._open_dialog("issue", world.draft.id, world.draft.invoice_number)  # as if opened: the confirm checks again
    call(state, "confirm_issue")
    call(state, "ask_delete", world.draft.id, world.draft.invoice_number)
    call(state, "confirm_delete")
    call(state, "open_create")
    assert state.dialog == ""
    call(state, "set_inv_client", str(world.client.id))
    assert state.project_options == []
    call(
        state,
        "submit_create",
        {"client_id": str(world.client.id), "description": "Sneaky"},
    )
    db.expire_all()
    kept = db.get(Invoice, world.draft.id)
    assert kept is not None and kept.status == InvoiceStatus.draft
    assert _count(db) == before
    call(state, "ask_issue", "not-a-number")  # a crafted id is ignored, not a crash
    call(state, "open_detail", "not-a-number")
    call(state, "remove_line", "x")
    call(state, "set_line", "x", "quantity", "2")


def test_the_pickers_ask_the_server(db: Session, world: World) -> None:
    state = handler_state(BillingState, sign_in(db, world.cfo))
    call(state, "open_create")
    assert state.dialog == "create" and len(state.client_options) <= 50
    call(state, "search_clients", "quinn ledger")  # every client of this module is a Quinn Ledger
    assert str(world.client.id) in [c.value for c in state.client_options]
    call(state, "search_clients", world.client.username.upper())
    assert [c.value for c in state.client_options] == [str(world.client.id)]
    assert state.client_options[0].label.startswith("Quinn Ledger (@payer_") and state.clients_capped is False
    call(state, "set_inv_client", str(world.client.id))
    assert state.inv_client == str(world.client.id)
    assert [(p.value, p.label) for p in state.project_options] == [(str(world.project.id), "Ledger site")]
    call(state, "search_clients", world.other.username)  # the chosen client stays chosen while searching on
    assert [c.value for c in state.client_options] == [str(world.client.id), str(world.other.id)]
    call(state, "set_inv_client", str(uuid.uuid4()))  # not one of the options offered
    assert state.inv_client == "" and state.project_options == []

    crowd = _name("crowd")
    for i in range(51):
        f.user(db, f"{crowd}_{i:02d}")
    call(state, "search_clients", crowd)
    assert len(state.client_options) == 50 and state.clients_capped is True
    call(state, "search_clients", f"{crowd}_50")
    assert len(state.client_options) == 1 and state.clients_capped is False  # typing finds the 51st


def test_the_preview_is_the_services_arithmetic(db: Session, world: World) -> None:
    state = handler_state(BillingState, sign_in(db, world.cfo))
    call(state, "open_create")
    assert state.preview == InvoicePreview("$0.00", "$0.00", "$0.00", "")
    call(state, "set_line", 0, "quantity", "3")
    call(state, "set_line", 0, "unit_price", "33.33")  # no description yet: priced all the same
    call(state, "set_line", 1, "description", "Domain")
    call(state, "set_line", 1, "unit_price", "0.10")
    call(state, "set_tax_rate", "7")
    expected = billing.price_invoice(
        [{"quantity": "3", "unit_price": "33.33"}, {"quantity": "1", "unit_price": "0.10"}], "7", descriptions=False
    )
    assert (expected.subtotal, expected.tax, expected.total) == (Decimal("100.09"), Decimal("7.01"), Decimal("107.10"))
    assert state.preview == InvoicePreview(dollars(expected.subtotal), dollars(expected.tax), dollars(expected.total))

    call(state, "set_line", 0, "description", "Hours")
    call(state, "submit_create", {"client_id": str(world.client.id), "description": "Preview check"})
    assert state.dialog == "" and notice(state)["title"] == "Invoice created successfully"
    saved = db.exec(select(Invoice).where(Invoice.description == "Preview check")).one()
    assert saved.total_amount == expected.total and state.rows[0].id == saved.id  # first page, newest first


@pytest.mark.parametrize(
    ("lines", "rate", "note"),
    [
        ([("1", "99999999.99"), ("1", "0.01")], "0", "The invoice's lines cannot add up to more than $99,999,999.99"),
        ([("100000", "99999999.99")], "0", "Quantity times unit price cannot exceed $99,999,999.99"),
        ([("1", "60000000")], "100", "With this tax rate the invoice total would exceed $99,999,999.99"),
        ([("1.5", "10")], "0", "Quantity must be a whole number"),
        ([("", "10")], "0", "Quantity is required"),
        ([("1", "abc")], "0", "Unit price must be a number"),
        ([("1", "10")], "101", "Tax rate cannot exceed 100%"),
        ([("1", "1e999999999")], "0", "Unit price is too large"),
    ],
)
def test_values_the_service_refuses_give_a_neutral_preview(lines: list[tuple[str, str]], rate: str, note: str) -> None:
    rows = [{"key": str(i), "description": "", "quantity": q, "unit_price": p} for i, (q, p) in enumerate(lines)]
    assert invoice_preview(rows, rate) == InvoicePreview("—", "—", "—", note)


def test_the_detail_issue_edit_and_void_from_the_page(db: Session, world: World) -> None:
    state = handler_state(BillingState, sign_in(db, world.cfo))
    call(state, "load")
    call(state, "open_detail", world.draft.id)
    assert state.dialog == "detail" and state.detail.number == world.draft.invoice_number
    assert state.detail.can_edit and state.detail.can_issue and not state.detail.can_void
    assert [i.description for i in state.detail_items] == ["Design work", "Hosting setup"]
    assert [a.action for a in state.detail_audit] == []  # made by the factory, not through the service

    # Edit from the detail: the form starts from the draft, saves through the service, and comes back to the detail.
    call(state, "open_edit")
    assert state.dialog == "edit" and [x["unit_price"] for x in state.lines] == ["95.00", "150.50"]
    assert state.tax_rate == "7"  # the rate its amounts imply: the factory stores none
    call(state, "set_line", 1, "quantity", "0")
    call(state, "submit_edit", {"description": "Phase 2", "notes": ""})
    assert state.dialog == "edit" and state.form_errors == {"items.1.quantity": "Quantity must be between 1 and 100000"}
    call(state, "set_line", 1, "quantity", "2")
    call(state, "submit_edit", {"description": "Phase 2", "notes": ""})
    assert state.dialog == "detail" and notice(state)["title"] == "Invoice updated"
    assert state.detail.description == "Phase 2" and state.detail.total == "$1,338.57"  # its 7 % kept
    assert [a.action for a in state.detail_audit] == ["Draft edited"]

    # Issue asks first, naming the client's address; Cancel goes back to the detail and changes nothing.
    call(state, "ask_issue", world.draft.id)
    assert state.dialog == "issue" and state.issue_to == world.client.email
    call(state, "close_dialog", False)
    db.expire_all()
    assert state.dialog == "detail" and db.get(Invoice, world.draft.id).status == InvoiceStatus.draft  # type: ignore[union-attr]
    call(state, "ask_issue", world.draft.id)
    call(state, "confirm_issue")
    assert state.dialog == "detail" and state.detail.status.label == "Issued" and state.detail.can_void
    assert [m.recipient for m in state.detail_mails] == [world.client.email]

    # Void needs a reason; then the detail shows it, and the invoice takes no payment.
    call(state, "open_void")
    assert state.dialog == "void"
    call(state, "submit_void", {"reason": " "})
    assert state.dialog == "void" and state.form_errors == {"reason": "Reason is required"}
    call(state, "submit_void", {"reason": "Wrong client"})
    assert state.dialog == "detail" and state.detail.status.label == "Void"
    assert state.detail.void_reason == "Wrong client" and not state.detail.can_record_payment
    assert len(state.detail_mails) == 2 and state.detail_audit[-1].details == "Wrong client"
    call(state, "close_dialog", False)
    assert state.dialog == ""


def test_readers_see_the_detail_but_change_nothing_through_it(db: Session, world: World) -> None:
    issued = f.invoice(db, world.client)
    state = handler_state(BillingState, sign_in(db, world.legal))
    call(state, "open_detail", issued.id)
    assert state.dialog == "detail" and not (state.detail.can_void or state.detail.can_record_payment)
    call(state, "open_void")
    assert state.dialog == "detail"
    state._open_dialog("void", issued.id, issued.invoice_number)  # as if the browser forged the dialog open
    call(state, "submit_void", {"reason": "Sneaky"})
    state._open_dialog("edit", world.draft.id, world.draft.invoice_number)
    call(state, "submit_edit", {"description": "Sneaky"})
    db.expire_all()
    assert db.get(Invoice, issued.id).status == InvoiceStatus.pending  # type: ignore[union-attr]
    assert db.get(Invoice, world.draft.id).description != "Sneaky"  # type: ignore[union-attr]
    developer = handler_state(BillingState, sign_in(db, world.developer))
    call(developer, "open_detail", issued.id)
    assert developer.dialog == "" and developer.detail.number == ""


def test_a_payment_from_the_detail_returns_to_it_and_then_void_is_refused(db: Session, world: World) -> None:
    issued = f.invoice(db, world.client)
    state = handler_state(BillingState, sign_in(db, world.cfo))
    call(state, "open_detail", issued.id)
    call(state, "open_pay", issued.id, issued.invoice_number)
    assert state.dialog == "pay"
    call(state, "close_dialog", False)  # Cancel: back to the detail
    assert state.dialog == "detail"
    call(state, "open_pay", issued.id, issued.invoice_number)
    call(state, "submit_pay", {"amount": "10", "method": "Cheque"})
    assert state.dialog == "detail" and [p.amount for p in state.detail_payments] == ["$10.00"]
    assert not state.detail.can_void and state.detail.void_refusal.startswith("$10.00 has been paid on")
    state._open_dialog("void", issued.id, issued.invoice_number)  # as a forged event would
    call(state, "submit_void", {"reason": "Mistake"})
    assert state.dialog == "void" and "refund the payments first" in state.form_error
    db.expire_all()
    assert db.get(Invoice, issued.id).status == InvoiceStatus.pending  # type: ignore[union-attr]


def test_the_overdue_filter_and_the_reminder_switch(db: Session, world: World) -> None:
    late = f.invoice(db, world.client, items=[("Late work", 1, "70")])
    late.due_date = late.issue_date - timedelta(days=20)  # type: ignore[operator]
    db.add(late)
    db.commit()
    state = handler_state(BillingState, sign_in(db, world.cfo))
    call(state, "load")
    call(state, "set_search", world.client.username)
    call(state, "set_due_filter", "overdue")
    assert [(r.number, r.overdue, r.balance) for r in state.rows] == [(late.invoice_number, True, dollars("74.90"))]
    assert "overdue=true" in state.export_url
    [row] = state.rows
    assert row.reminders_enabled and row.can_switch_reminders
    call(state, "switch_reminders", {"invoice_id": str(late.id), "enabled": "off"})
    assert notice(state)["level"] == "success" and state.rows[0].reminders_enabled is False
    db.expire_all()
    assert db.get(Invoice, late.id).reminders_enabled is False  # type: ignore[union-attr]

    reader = handler_state(BillingState, sign_in(db, world.legal))  # billing:read only
    call(reader, "load")
    call(reader, "switch_reminders", {"invoice_id": str(late.id), "enabled": "on"})
    call(reader, "switch_reminders", {"invoice_id": "x", "enabled": "sideways"})  # crafted: ignored
    db.expire_all()
    assert db.get(Invoice, late.id).reminders_enabled is False  # type: ignore[union-attr]
