"""Ids no row can have (past INTEGER's range, negative, not an int) are "not found" in every service look-up.

PostgreSQL refuses to compare an INTEGER column with 2**31 or more ("integer out of range"), so a look-up that sent
such an id failed with a database error. Reflex handlers pass ids from the browser straight to these services.
"""

from __future__ import annotations

import pytest
from sqlmodel import Session

from app.core.db import MAX_ID, get_by_id
from app.core.errors import Invalid, NotFound
from app.models.billing import Invoice
from app.models.enums import Role
from app.services.billing import billing, invoices
from app.services.careers import applications
from app.services.catalogue import products
from app.services.crm import admin_inquiries, newsletter
from app.services.projects import organizations, projects
from app.services.scheduling import meetings, meetings_admin
from app.services.site import site_admin
from tests import factories as f

HUGE = (2**31, 2**63, -1, 0)


def test_get_by_id_answers_none_for_ids_no_row_can_have(session: Session) -> None:
    client = f.user(session, "range_client")
    invoice = f.invoice(session, client)
    assert get_by_id(session, Invoice, invoice.id) == invoice
    for bad in (*HUGE, MAX_ID + 1, "1", True, None, 1.0):
        assert get_by_id(session, Invoice, bad) is None


@pytest.mark.parametrize("bad", HUGE)
def test_every_look_up_is_not_found(session: Session, bad: int) -> None:
    admin = f.user(session, "range_admin", role=Role.admin)
    calls = [
        lambda: invoices.invoice_pdf(session, actor=admin, invoice_id=bad),
        lambda: billing.issue_invoice(session, actor=admin, invoice_id=bad),
        lambda: billing.record_payment(session, actor=admin, invoice_id=bad, data={"amount": "1"}),
        lambda: billing.delete_draft(session, actor=admin, invoice_id=bad),
        lambda: projects.update_project(session, actor=admin, project_id=bad, data={"name": "X"}),
        lambda: projects.delete_project(session, actor=admin, project_id=bad),
        lambda: projects.set_milestones(session, actor=admin, project_id=bad, milestones=[]),
        lambda: projects.cancel_project(session, actor=admin, project_id=bad),
        lambda: meetings.cancel_meeting(session, actor=admin, meeting_id=bad),
        lambda: meetings_admin.update_meeting(session, actor=admin, meeting_id=bad, data={}),
        lambda: meetings_admin.complete_meeting(session, actor=admin, meeting_id=bad),
        lambda: meetings_admin.save_type(session, actor=admin, data={}, type_id=bad),
        lambda: organizations.update_organization(session, actor=admin, organization_id=bad, data={}),
        lambda: organizations.delete_organization(session, actor=admin, organization_id=bad),
        lambda: products.update_product(session, actor=admin, product_id=bad, data={}),
        lambda: products.set_price_active(session, actor=admin, price_id=bad, active=True),
        lambda: admin_inquiries.update_inquiry(session, actor=admin, inquiry_id=bad, data={"notes": "x"}),
        lambda: applications.update_application(session, actor=admin, application_id=bad, data={"notes": "x"}),
        lambda: site_admin.update_item(session, actor=admin, kind="team", item_id=bad, data={}),
    ]
    for number, call in enumerate(calls):
        with pytest.raises(NotFound):
            call()
            pytest.fail(f"call {number} found a row")


def test_ids_inside_a_body_past_the_range_are_a_field_error(session: Session) -> None:
    admin = f.user(session, "range_admin_body", role=Role.admin)
    client = f.user(session, "range_body_client")
    with pytest.raises(Invalid) as caught:
        projects.create_project(
            session,
            actor=admin,
            data={
                "name": "Site",
                "client_id": str(client.id),
                "status": "planning",
                "project_type": "consulting",
                "organization_id": str(MAX_ID + 1),
            },
        )
    assert caught.value.errors == {"organization_id": f"Organization must be between 1 and {MAX_ID}"}
    item = {"description": "Work", "quantity": 1, "unit_price": "1"}
    with pytest.raises(Invalid) as caught:
        billing.create_invoice(
            session, actor=admin, data={"client_id": str(client.id), "project_id": MAX_ID + 1, "items": [item]}
        )
    assert "project_id" in caught.value.errors


@pytest.mark.parametrize("sub_id", ["99999999999", "2147483648", "²", "9" * 5000])
def test_an_unsubscribe_token_naming_no_possible_row_is_invalid(session: Session, sub_id: str) -> None:
    with pytest.raises(Invalid) as caught:
        newsletter.unsubscribe(session, token=f"{sub_id}.signature")
    assert caught.value.message == newsletter.UNSUBSCRIBE_INVALID
