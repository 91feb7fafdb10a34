"""The staff invoice list pages in SQL (search, status, sort, paging fields); the pickers of the invoice form are
capped and searched on the server; the form's preview is the service's own arithmetic."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from sqlmodel import Session, select

from app.core.errors import Forbidden, Invalid
from app.models.billing import Invoice
from app.models.enums import EmployeeType, InvoiceStatus, Role
from app.models.user import User
from app.services.accounts import admin_users
from app.services.billing import billing, invoices
from tests import factories as f


@pytest.fixture
def cfo(session: Session) -> User:
    return f.user(session, "cfo_list", role=Role.employee, employee_type=EmployeeType.cfo)


@pytest.fixture
def world(session: Session) -> dict[str, User]:
    acme = f.user(session, "acme_buyer", first_name="Ada", last_name="Lovelace", company="Acme Widgets")
    zed = f.user(session, "zed_client", email="zed@zulu.example", company="Zulu")
    for status in (InvoiceStatus.pending, InvoiceStatus.paid, InvoiceStatus.draft):
        f.invoice(session, acme, status=status)
    f.invoice(session, zed, items=[("Tiny", 1, "1.00")])
    f.invoice(session, zed, status=InvoiceStatus.draft, items=[("Huge", 1, "9000.00")])
    return {"acme": acme, "zed": zed}


def numbers(page: object) -> list[str]:
    return [row.invoice_number for row in page.data]  # type: ignore[attr-defined]


def test_the_list_is_one_page_with_its_place_in_the_whole(session: Session, cfo: User, world: dict) -> None:
    first = billing.list_invoices(session, actor=cfo, page_size=2)
    assert (first.total, first.page, first.page_size, first.pages) == (5, 1, 2, 3)
    assert len(first.data) == 2
    last = billing.list_invoices(session, actor=cfo, page=3, page_size=2)
    assert len(last.data) == 1
    past = billing.list_invoices(session, actor=cfo, page=4, page_size=2)
    assert past.data == [] and past.total == 5
    everyone = numbers(billing.list_invoices(session, actor=cfo, page_size=100))
    assert len(set(everyone)) == 5
    assert sorted(numbers(first) + numbers(billing.list_invoices(session, actor=cfo, page=2, page_size=2))) == sorted(
        everyone[:4]
    )
    row = first.data[0]
    assert row.client_name == "zed_client" and row.client_username == "zed_client"  # newest first
    assert not hasattr(row, "items") and row.total_amount
    assert first.as_json()["pages"] == 3


def test_search_looks_at_the_number_and_the_client(session: Session, cfo: User, world: dict) -> None:
    def found(term: str) -> int:
        return billing.list_invoices(session, actor=cfo, search=term).total

    assert found("ada lovelace") == 3  # the full name
    assert found("LOVELACE") == 3
    assert found("acme widgets") == 3  # the company
    assert found("zulu.example") == 2  # the e-mail
    assert found("zed_") == 2  # the username (an underscore is literal, not LIKE's wildcard)
    one = billing.list_invoices(session, actor=cfo, search="zed").data[0].invoice_number
    assert numbers(billing.list_invoices(session, actor=cfo, search=one)) == [one]
    assert found("%") == 0
    assert found("nobody-like-this") == 0


def test_status_filter_and_sorts(session: Session, cfo: User, world: dict) -> None:
    drafts = billing.list_invoices(session, actor=cfo, status="draft")
    assert drafts.total == 2 and {r.status for r in drafts.data} == {"draft"}
    assert billing.list_invoices(session, actor=cfo, status="paid", search="zed").total == 0
    with pytest.raises(Invalid) as err:
        billing.list_invoices(session, actor=cfo, status="cancelled")
    assert err.value.errors == {"status": "Unknown status"}

    newest = numbers(billing.list_invoices(session, actor=cfo, sort="newest"))
    assert numbers(billing.list_invoices(session, actor=cfo, sort="oldest")) == newest[::-1]
    assert numbers(billing.list_invoices(session, actor=cfo, sort="number")) == sorted(newest)
    totals = [Decimal(r.total_amount) for r in billing.list_invoices(session, actor=cfo, sort="total").data]
    assert totals == sorted(totals, reverse=True) and totals[0] > Decimal("9000")
    assert numbers(billing.list_invoices(session, actor=cfo, sort="no-such-sort")) == newest  # the default


def test_due_sort_puts_invoices_without_a_due_date_last(session: Session, cfo: User, world: dict) -> None:
    rows = billing.list_invoices(session, actor=cfo, page_size=100).data
    first, undated = rows[0].id, rows[1].id
    soon = session.get(Invoice, first)
    never = session.get(Invoice, undated)
    assert soon is not None and never is not None
    soon.due_date, never.due_date = date.today() - timedelta(days=400), None
    session.add_all([soon, never])
    session.commit()
    due = [r.id for r in billing.list_invoices(session, actor=cfo, sort="due").data]
    assert due[0] == first and due[-1] == undated


def test_only_staff_who_read_billing_list_invoices(session: Session, world: dict) -> None:
    for name, etype in (("dev_list", EmployeeType.developer), ("hr_list", EmployeeType.hr)):
        staff = f.user(session, name, role=Role.employee, employee_type=etype)
        with pytest.raises(Forbidden, match="permission"):
            billing.list_invoices(session, actor=staff)
    with pytest.raises(Forbidden):
        billing.list_invoices(session, actor=world["acme"])  # a client: never the staff list
    legal = f.user(session, "legal_list", role=Role.employee, employee_type=EmployeeType.legal)
    assert billing.list_invoices(session, actor=legal).total == 5  # billing:read without billing:write


def test_a_client_sees_only_their_own_issued_invoices(session: Session, world: dict) -> None:
    mine = invoices.list_invoices(session, actor=world["acme"])
    assert {r.client_id for r in mine} == {str(world["acme"].id)}
    assert sorted(r.status for r in mine) == ["paid", "pending"]  # the draft stays with staff
    assert [r.status for r in invoices.list_invoices(session, actor=world["zed"])] == ["pending"]


def test_the_staff_list_says_what_the_caller_may_do_with_each_invoice(session: Session, world: dict) -> None:
    """A writer may issue or delete a draft and record a payment on an issued unpaid invoice, nothing else; a reader
    (billing:read only) may do none of it; the PDF is offered for issued invoices only."""
    writer = f.user(session, "cfo_flags", role=Role.employee, employee_type=EmployeeType.cfo)
    reader = f.user(session, "legal_flags", role=Role.employee, employee_type=EmployeeType.legal)
    flags = ("can_issue", "can_delete", "can_record_payment", "can_download")

    def seen(actor: User) -> dict[str, set[tuple[bool, ...]]]:
        rows = billing.list_invoices(session, actor=actor, page_size=100).data
        out: dict[str, set[tuple[bool, ...]]] = {}
        for r in rows:
            out.setdefault(r.status, set()).add(tuple(getattr(r, name) for name in flags))
        return out

    assert seen(writer) == {
        "draft": {(True, True, False, False)},
        "pending": {(False, False, True, True)},
        "paid": {(False, False, False, True)},
    }
    assert seen(reader) == {
        "draft": {(False, False, False, False)},
        "pending": {(False, False, False, True)},
        "paid": {(False, False, False, True)},
    }
    # The flags are the UI's: the REST row (the parent model) and any dump leave them out.
    row = billing.list_invoices(session, actor=writer, page_size=1).data[0]
    assert not set(flags) & set(row.model_dump())


def test_a_client_may_download_their_issued_invoices(session: Session, world: dict) -> None:
    assert all(r.can_download for r in invoices.list_invoices(session, actor=world["acme"]))
    other = f.invoice(session, world["zed"], status=InvoiceStatus.pending)
    assert not invoices.may_download(world["acme"], other)  # another client's
    draft = f.invoice(session, world["acme"], status=InvoiceStatus.draft)
    assert not invoices.may_download(world["acme"], draft)  # a draft stays with staff


def test_client_choices_search_on_the_server_and_are_capped(session: Session, cfo: User) -> None:
    for i in range(12):
        f.user(session, f"picker_{i:02d}", first_name="Pat", last_name=f"Number{i}", company="Picker Co")
    f.user(session, "picker_staff", role=Role.employee, employee_type=EmployeeType.hr)
    capped = admin_users.client_choices(session, actor=cfo, search="picker", limit=5)
    assert [c.label.split("@")[1][:9] for c in capped] == [f"picker_{i:02d}" for i in range(5)]
    assert capped[0].label == "Pat Number0 (@picker_00) · Picker Co" and capped[0].name == "Pat Number0"
    assert len(admin_users.client_choices(session, actor=cfo, search="pat number1", limit=50)) == 3  # 1, 10, 11
    assert len(admin_users.client_choices(session, actor=cfo, search="picker", limit=10_000)) == 12  # at most 100
    picked = admin_users.client_choices(session, actor=cfo, search="picker", limit=50)
    assert len(picked) == 12 and all(c.label != "picker_staff" for c in picked)
    with pytest.raises(TypeError):  # no unlimited list: every picker says how many it shows
        admin_users.client_choices(session, actor=cfo, search="picker")  # type: ignore[call-arg]
    one = admin_users.client_choice(session, actor=cfo, client_id=capped[3].id)
    assert one == capped[3]  # an existing record's client, as the picker shows it
    assert admin_users.client_choice(session, actor=cfo, client_id="not-an-id") is None
    staff = session.exec(select(User).where(User.username == "picker_staff")).one()
    assert admin_users.client_choice(session, actor=cfo, client_id=str(staff.id)) is None  # clients only
    with pytest.raises(Forbidden):  # every staff type holds one of the picker's permissions; clients none
        admin_users.client_choices(session, actor=f.user(session, "client_picker"), search="picker", limit=5)
    with pytest.raises(Forbidden):
        admin_users.client_choice(session, actor=f.user(session, "client_picker2"), client_id=capped[0].id)


def test_project_choices_are_one_clients_for_billing_writers(session: Session, cfo: User, world: dict) -> None:
    mine = f.project(session, world["acme"], "Acme portal")
    f.project(session, world["zed"], "Zulu app")
    assert billing.project_choices(session, actor=cfo, client_id=str(world["acme"].id)) == [
        billing.InvoiceProject(id=str(mine.id), name="Acme portal")
    ]
    assert billing.project_choices(session, actor=cfo, client_id="not-a-uuid") == []
    legal = f.user(session, "legal_projects", role=Role.employee, employee_type=EmployeeType.legal)
    with pytest.raises(Forbidden):
        billing.project_choices(session, actor=legal, client_id=str(world["acme"].id))  # reads, does not write


def test_price_invoice_is_the_arithmetic_create_stores(session: Session, cfo: User) -> None:
    client = f.user(session, "priced_client")
    items = [
        {"description": "Hours", "quantity": "3", "unit_price": "33.33"},
        {"description": "Domain", "quantity": 1, "unit_price": "0.10"},
    ]
    priced = billing.price_invoice(items, "7")
    assert [line.amount for line in priced.lines] == [Decimal("99.99"), Decimal("0.10")]
    assert (priced.subtotal, priced.tax, priced.total) == (Decimal("100.09"), Decimal("7.01"), Decimal("107.10"))
    saved = billing.create_invoice(
        session, actor=cfo, data={"client_id": str(client.id), "tax_rate": "7", "items": items}
    )
    assert (saved.subtotal, saved.tax_amount, saved.total_amount) == ("100.09", "7.01", "107.10")

    unnamed = [{"description": "", "quantity": "2", "unit_price": "5"}]
    assert billing.price_invoice(unnamed, descriptions=False).total == Decimal("10.00")
    with pytest.raises(Invalid) as err:
        billing.price_invoice(unnamed)
    assert err.value.errors == {"items.0.description": "Description is required"}
    with pytest.raises(Invalid) as err:
        billing.price_invoice([{"description": "Big", "quantity": 100000, "unit_price": "99999999.99"}])
    assert list(err.value.errors) == ["items.0.quantity"] and "$99,999,999.99" in err.value.message
    with pytest.raises(Invalid) as err:
        billing.price_invoice([{"description": "Most", "quantity": 1, "unit_price": "60000000"}], "100")
    assert list(err.value.errors) == ["tax_rate"]
