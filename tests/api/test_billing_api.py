"""GET /api/admin/invoices: the staff invoice list over HTTP, one page at a time with the paging fields."""

from __future__ import annotations

from datetime import date, timedelta

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.enums import EmployeeType, InvoiceStatus, Role
from app.models.user import User
from app.services.accounts import sessions
from tests import factories as f


def as_user(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


def test_staff_list_invoices_page_by_page(client: TestClient, session: Session) -> None:
    ada = f.user(session, "ada_api", first_name="Ada", company="Analytical Engines")
    bob = f.user(session, "bob_api")
    for status in (InvoiceStatus.pending, InvoiceStatus.draft, InvoiceStatus.paid):
        f.invoice(session, ada, status=status)
    f.invoice(session, bob)
    as_user(client, session, f.user(session, "legal_api", role=Role.employee, employee_type=EmployeeType.legal))

    r = client.get("/api/admin/invoices", params={"page_size": 3})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["total"], body["page"], body["page_size"], body["pages"]) == (4, 1, 3, 2)
    assert len(body["data"]) == 3
    assert body["data"][0]["client_username"] == "bob_api" and body["data"][0]["client_name"] == "bob_api"
    assert set(body["data"][0]) >= {"id", "invoice_number", "status", "total_amount", "due_date", "client_id"}
    assert len(client.get("/api/admin/invoices", params={"page_size": 3, "page": 2}).json()["data"]) == 1
    assert client.get("/api/admin/invoices", params={"page": 9}).json()["data"] == []

    assert client.get("/api/admin/invoices", params={"search": "analytical"}).json()["total"] == 3
    drafts = client.get("/api/admin/invoices", params={"status": "draft"}).json()["data"]
    assert [i["client_username"] for i in drafts] == ["ada_api"]
    oldest = client.get("/api/admin/invoices", params={"sort": "oldest"}).json()["data"]
    assert oldest[0]["client_username"] == "ada_api"

    bad = client.get("/api/admin/invoices", params={"status": "cancelled"})
    assert bad.status_code == 422 and bad.json()["errors"] == {"status": "Unknown status"}
    assert client.get("/api/admin/invoices", params={"page": "two"}).status_code == 422


def test_clients_and_staff_without_billing_read_are_refused(client: TestClient, session: Session) -> None:
    owner = f.user(session, "owner_api")
    f.invoice(session, owner)
    as_user(client, session, owner)
    assert client.get("/api/admin/invoices").status_code == 403
    as_user(client, session, f.user(session, "dev_api", role=Role.employee, employee_type=EmployeeType.developer))
    r = client.get("/api/admin/invoices")
    assert r.status_code == 403 and "permission" in r.json()["message"]


def test_null_means_not_given_in_an_invoice_and_a_payment(client: TestClient, session: Session) -> None:
    # A JSON client may send null for what it leaves out: no tax, no project, no date, the outstanding amount.
    payer = f.user(session, "null_payer")
    as_user(client, session, f.user(session, "null_cfo", role=Role.employee, employee_type=EmployeeType.cfo))
    r = client.post(
        "/api/admin/invoices",
        json={"client_id": str(payer.id), "tax_rate": None, "project_id": None, "due_date": None, "notes": None,
              "items": [{"description": "Audit", "quantity": 2, "unit_price": "50"}]},
    )  # fmt: skip
    assert r.status_code == 201, r.text
    invoice = r.json()["data"]
    assert (invoice["subtotal"], invoice["tax_amount"], invoice["total_amount"]) == ("100.00", "0.00", "100.00")
    assert client.post(f"/api/admin/invoices/{invoice['id']}/issue").status_code == 200
    paid = client.post(
        f"/api/admin/invoices/{invoice['id']}/payments", json={"amount": None, "method": None, "paid_on": None}
    )
    assert paid.status_code == 200, paid.text
    assert paid.json()["data"]["status"] == "paid"
    bad = client.post(
        "/api/admin/invoices", json={"client_id": str(payer.id), "tax_rate": "101", "items": [{"quantity": None}]}
    )
    assert bad.status_code == 422
    assert bad.json()["errors"] == {
        "items.0.description": "Description is required",
        "items.0.quantity": "Quantity is required",
        "items.0.unit_price": "Unit price is required",
        "tax_rate": "Tax rate cannot exceed 100%",
    }


def test_a_payment_past_what_is_outstanding_is_refused_and_changes_nothing(
    client: TestClient, session: Session
) -> None:
    payer = f.user(session, "over_payer")
    as_user(client, session, f.user(session, "over_cfo", role=Role.employee, employee_type=EmployeeType.cfo))
    invoice = client.post(
        "/api/admin/invoices",
        json={"client_id": str(payer.id), "items": [{"description": "Audit", "quantity": 1, "unit_price": "100"}]},
    ).json()["data"]
    client.post(f"/api/admin/invoices/{invoice['id']}/issue")
    pay = f"/api/admin/invoices/{invoice['id']}/payments"
    assert client.post(pay, json={"amount": "60"}).status_code == 200

    over = client.post(pay, json={"amount": "60"})
    assert over.status_code == 422
    message = "$60.00 is more than the $40.00 outstanding on this invoice"
    assert over.json()["message"] == message and over.json()["errors"] == {"amount": message}
    assert client.post(pay, json={"amount": "40"}).json()["data"]["status"] == "paid"
    again = client.post(pay, json={"amount": "40"})
    assert again.status_code == 422
    assert again.json()["message"] == "This invoice is already paid in full: nothing is outstanding."


def test_the_invoice_detail_edit_and_void_over_http(client: TestClient, session: Session) -> None:
    payer = f.user(session, "flow_payer", first_name="Flo")
    cfo = f.user(session, "flow_cfo", role=Role.employee, employee_type=EmployeeType.cfo)
    as_user(client, session, cfo)
    line = {"description": "Audit", "quantity": 1, "unit_price": "100"}
    draft = client.post("/api/admin/invoices", json={"client_id": str(payer.id), "items": [line]}).json()["data"]
    path = f"/api/admin/invoices/{draft['id']}"

    edited = client.put(path, json={"items": [line, {**line, "quantity": 2}], "tax_rate": "5", "notes": "Net 30"})
    assert edited.status_code == 200, edited.text
    assert edited.json()["message"] == "Invoice updated successfully"
    assert (edited.json()["data"]["total_amount"], edited.json()["data"]["notes"]) == ("315.00", "Net 30")
    bad = client.put(path, json={"items": [{**line, "unit_price": "-1"}]})
    assert bad.status_code == 422 and list(bad.json()["errors"]) == ["items.0.unit_price"]

    assert client.post(f"{path}/issue").status_code == 200
    refused = client.put(path, json={"items": [line]})
    assert refused.status_code == 422
    assert refused.json()["message"] == f"Only draft invoices can be edited: {draft['invoice_number']} is issued."
    assert client.post(f"{path}/void", json={"reason": ""}).json()["errors"] == {"reason": "Reason is required"}
    voided = client.post(f"{path}/void", json={"reason": "Wrong client"})
    assert voided.status_code == 200 and voided.json()["data"]["status"] == "void"
    pay = client.post(f"{path}/payments", json={"amount": "1"})
    assert pay.status_code == 422 and pay.json()["message"] == "This invoice is void: it takes no payment."

    detail = client.get(path)
    assert detail.status_code == 200, detail.text
    body = detail.json()["data"]
    assert (body["status"], body["void_reason"], body["voided_by"], body["tax_rate"]) == (
        "void", "Wrong client", "flow_cfo", "5.00"
    )  # fmt: skip
    assert [m["subject"] for m in body["mails"]] == [
        f"Invoice {draft['invoice_number']} from {body['mails'][0]['subject'].split(' from ', 1)[1]}",
        f"Invoice {draft['invoice_number']} has been voided",
    ]
    assert [a["action"] for a in body["audit"]] == ["invoice.create", "invoice.update", "invoice.issue", "invoice.void"]
    assert body["payments"] == [] and not any(k.startswith("can_") for k in body)
    assert client.get("/api/admin/invoices", params={"status": "void"}).json()["total"] >= 1


def test_the_detail_edit_and_void_are_refused_without_billing_permissions(client: TestClient, session: Session) -> None:
    payer = f.user(session, "perm_payer")
    invoice = f.invoice(session, payer, status=InvoiceStatus.draft)
    issued = f.invoice(session, payer)
    path = f"/api/admin/invoices/{invoice.id}"
    line = {"description": "Audit", "quantity": 1, "unit_price": "100"}
    as_user(client, session, f.user(session, "perm_legal", role=Role.employee, employee_type=EmployeeType.legal))
    assert client.get(path).status_code == 200  # billing:read
    assert client.put(path, json={"items": [line]}).status_code == 403
    assert client.post(f"/api/admin/invoices/{issued.id}/void", json={"reason": "x"}).status_code == 403
    for who in (payer, f.user(session, "perm_dev", role=Role.employee, employee_type=EmployeeType.developer)):
        as_user(client, session, who)
        assert client.get(path).status_code == 403
        assert client.put(path, json={"items": [line]}).status_code == 403
        assert client.post(f"/api/admin/invoices/{issued.id}/void", json={"reason": "x"}).status_code == 403
    session.refresh(invoice)
    session.refresh(issued)
    assert (invoice.status, issued.status) == (InvoiceStatus.draft, InvoiceStatus.pending)
    assert client.get("/api/admin/invoices/999999").status_code == 403


def test_the_overdue_filter_and_the_reminder_switch(client: TestClient, session: Session) -> None:
    late = f.invoice(session, f.user(session, "late_api"))
    late.due_date = date.today() - timedelta(days=40)  # days, not hours: whatever the business time zone
    session.add(late)
    session.commit()
    f.invoice(session, f.user(session, "ontime_api"))
    as_user(client, session, f.user(session, "cfo_overdue", role=Role.employee, employee_type=EmployeeType.cfo))
    body = client.get("/api/admin/invoices", params={"overdue": "true"}).json()
    assert [(i["invoice_number"], i["overdue"]) for i in body["data"]] == [(late.invoice_number, True)]
    assert body["data"][0]["balance_due"] == f"{late.total_amount:.2f}" and body["data"][0]["amount_paid"] == "0.00"
    assert client.get("/api/admin/invoices", params={"overdue": "maybe"}).status_code == 422

    switch = f"/api/admin/invoices/{late.id}/reminders"
    r = client.put(switch, json={"enabled": False})
    assert r.status_code == 200 and r.json()["data"]["reminders_enabled"] is False, r.text
    assert client.put(switch, json={"enabled": "no"}).status_code == 422
    as_user(client, session, f.user(session, "legal_overdue", role=Role.employee, employee_type=EmployeeType.legal))
    assert client.put(switch, json={"enabled": True}).status_code == 403  # billing:read is not enough
