"""/api/protected: the client portal's projects, invoices, meetings and data export."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response
from pydantic import BaseModel

from app.api.deps import ClientIP, CurrentUser, DownloadUser, Paged, PageNo, PageSize, RowId, SessionDep
from app.api.schemas import Listed, One, ProjectIn, Saved
from app.core.errors import Forbidden, Invalid
from app.core.permissions import Perm, Role
from app.services.billing import invoices, online, order_checkout, orders
from app.services.billing.invoices import InvoicePublic
from app.services.billing.order_checkout import OrderCheckout
from app.services.billing.orders import OrderCreate, OrderPublic, Plan
from app.services.platform.access import staff_can
from app.services.projects import projects
from app.services.projects.projects import ProjectPublic, ProjectRow
from app.services.reporting import export
from app.services.scheduling import booking, meetings
from app.services.scheduling.booking import Booking, BookingTime, MoveSlotsQuery, SlotOut
from app.services.scheduling.meetings import MeetingCancel, MeetingLists, MeetingPublic

router = APIRouter(prefix="/protected", tags=["portal"])


@router.get("/projects", response_model=Listed[ProjectRow])
def list_projects(
    user: CurrentUser,
    s: SessionDep,
    paged: Paged,
    status: str = "",
    project_type: str = "",
    client_id: str = "",
    organization_id: RowId | None = None,
    sort: str = "newest",
) -> dict[str, object]:
    """The signed-in client's projects with milestones (staff: all, with content:read), searched, filtered and
    paginated in SQL; one page, with the paging fields."""
    page = projects.list_projects_page(
        s,
        actor=user,
        status=status,
        project_type=project_type,
        client_id=client_id,
        organization_id=organization_id,
        sort=sort,
        **paged,
    )
    return page.as_json()


@router.put("/projects/{project_id}", response_model=Saved[ProjectPublic])
def update_project(project_id: RowId, body: ProjectIn, user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """Staff with content:write change any field (partial); a client may only cancel their own project."""
    data = body.sent()
    if staff_can(user, Perm.content_write):
        return {
            "data": projects.update_project(s, actor=user, project_id=project_id, data=data),
            "message": "Project updated successfully",
        }
    if data.get("status") != "cancelled" or len(data) != 1:
        raise Invalid("Clients can only cancel a project.", errors={"status": "Only 'cancelled' is accepted"})
    return {"data": projects.cancel_project(s, actor=user, project_id=project_id), "message": "Project cancelled"}


@router.get("/invoices", response_model=Listed[InvoicePublic])
def list_invoices(user: CurrentUser, s: SessionDep, page: PageNo = 1, page_size: PageSize = 25) -> dict[str, object]:
    """The signed-in client's issued invoices (staff: all, with billing:read), newest first; one page, with the
    paging fields beside the spec's `data`."""
    return invoices.list_invoices_page(s, actor=user, page=page, page_size=page_size).as_json()


@router.get("/invoices/{invoice_id}/download")
def download_invoice(invoice_id: RowId, user: DownloadUser, s: SessionDep) -> Response:
    """The invoice as a PDF, for its client and for staff who read billing."""
    filename, pdf = invoices.invoice_pdf(s, actor=user, invoice_id=invoice_id)
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )


@router.get("/plans", response_model=One[list[Plan]])
def list_plans(user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """The services and plans a client can order: active products with their active prices (one-time, hourly,
    monthly or yearly), by name."""
    return {"data": orders.list_plans(s, actor=user)}


def clients_only(user: CurrentUser) -> None:
    """Ordering is for clients: anyone else gets the service's own 403 before the body is read (never a 422 that
    describes a body they may not send)."""
    if user.role != Role.client:
        raise Forbidden(orders.ONLY_CLIENTS)


@router.post("/orders", response_model=One[OrderCheckout], dependencies=[Depends(clients_only)])
def create_order(body: OrderCreate, user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """Order one of the plans' prices (clients only): a pending order priced on the server, and the Stripe Checkout
    Session to pay it (`payment` mode for a one-time price, `subscription` for a monthly or yearly one). Answers the
    Checkout URL to send the browser to and the order number; the order is paid only when Stripe's signed webhook
    says so. 403 for staff, 404 for a missing price or when ordering online is not set up, 422 for a withdrawn plan
    or a quantity out of bounds, 503 when Stripe cannot be reached."""
    return {"data": order_checkout.start_checkout(s, actor=user, data=body)}


@router.get("/orders", response_model=Listed[OrderPublic])
def list_orders(user: CurrentUser, s: SessionDep, page: PageNo = 1, page_size: PageSize = 25) -> dict[str, object]:
    """The signed-in user's own orders, newest first, with their lines; `status` completed means paid, and a
    subscription's `subscription_status` is Stripe's (active, past_due, canceled)."""
    return orders.list_my_orders(s, actor=user, page=page, page_size=page_size).as_json()


class CheckoutUrl(BaseModel):
    url: str


class CheckoutStarted(BaseModel):
    data: CheckoutUrl


@router.post("/invoices/{invoice_id}/pay", response_model=CheckoutStarted)
def pay_invoice(invoice_id: RowId, user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """Pay the signed-in client's own issued invoice by card: a Stripe Checkout Session for what is outstanding;
    open `data.url` to pay. 404 for someone else's invoice or a draft, 409 when nothing is outstanding, 503 when the
    payment provider cannot be reached. The invoice is marked paid by Stripe's signed webhook, never by this call."""
    return {"data": {"url": online.start_checkout(s, actor=user, invoice_id=invoice_id)}}


@router.get("/meetings", response_model=MeetingLists)
def list_meetings(user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """Upcoming and past meetings of the signed-in client (staff: all, with meetings:read)."""
    lists = meetings.list_meetings(s, actor=user)
    return {"data": lists.upcoming + lists.past, "upcoming": lists.upcoming, "past": lists.past}


@router.post("/meetings/{meeting_id}/cancel", response_model=Saved[MeetingPublic])
def cancel_meeting(meeting_id: RowId, body: MeetingCancel, user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """Cancel one of the client's scheduled future meetings."""
    meeting = meetings.cancel_meeting(s, actor=user, meeting_id=meeting_id, reason=body.reason)
    return {"data": meeting, "message": "Meeting cancelled"}


@router.get("/meetings/{meeting_id}/slots", response_model=One[list[SlotOut]])
def meeting_slots(
    meeting_id: RowId, user: CurrentUser, s: SessionDep, query: Annotated[MoveSlotsQuery, Query()]
) -> dict[str, object]:
    """The free times one of the client's own bookings can move to (UTC), `days` business days from `from` (default
    today), by its meeting type's rules. 404 for someone else's meeting; 409 for one that cannot move."""
    return {"data": booking.client_slots(s, actor=user, meeting_id=meeting_id, data=query)}


@router.post("/meetings/{meeting_id}/reschedule", response_model=Saved[Booking])
def reschedule_meeting(
    meeting_id: RowId, body: BookingTime, user: CurrentUser, s: SessionDep, ip: ClientIP
) -> dict[str, object]:
    """Move one of the client's own scheduled future bookings to a free time (at most three moves a day); both sides
    get the updated invitation, as with the mailed manage link. 404 for someone else's meeting; 409 for a past or
    cancelled one, one not booked online, or a time no longer free."""
    moved = booking.client_reschedule(s, actor=user, meeting_id=meeting_id, data=body, ip=ip)
    return {"data": moved, "message": "Meeting rescheduled"}


@router.get("/export")
def export_my_data(user: DownloadUser, s: SessionDep) -> Response:
    """Everything held about the signed-in user, as a JSON download."""
    document = export.export_client_data(s, actor=user).document()
    return Response(
        document,
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="my-data.json"', "Cache-Control": "no-store"},
    )
