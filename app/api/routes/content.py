"""Staff content and business calls: organizations, projects, products and prices, invoices, meetings, analytics.

Plus the public GET /api/products. Each service checks the actor's permission; routes only translate HTTP.
"""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse

from app.api.crud import Write, writes
from app.api.deps import (
    CurrentUser,
    DownloadUser,
    Paged,
    PageNo,
    PageSize,
    RowId,
    Search,
    SessionDep,
    StaffUser,
    permitted,
)
from app.api.downloads import csv_file
from app.api.schemas import Done, Listed, One, Saved
from app.core.permissions import Perm
from app.services.billing import billing
from app.services.billing.billing import InvoiceCreate, PaymentCreate
from app.services.billing.invoices import InvoicePublic, InvoiceRow
from app.services.careers import applications
from app.services.careers.applications import ApplicationPublic, ApplicationUpdate
from app.services.catalogue import products
from app.services.catalogue.products import PriceActive, PriceCreate, ProductCreate, ProductPublic, ProductUpdate
from app.services.projects import organizations, projects, time_entries
from app.services.projects.organizations import OrganizationCreate, OrganizationPublic, OrganizationUpdate
from app.services.projects.projects import MilestonesSave, ProjectCreate, ProjectPublic
from app.services.projects.time_entries import TimeEntriesPage, TimeEntryCreate, TimeEntryPublic
from app.services.reporting import analytics
from app.services.reporting.analytics import AnalyticsReport
from app.services.scheduling import meetings_admin
from app.services.scheduling.meetings import MeetingPublic, MeetingRow
from app.services.site import site_admin

router = APIRouter(tags=["content"])
public = APIRouter(tags=["content"])

NameSort = Annotated[str, Query(description="name (default), newest or oldest.")]


@public.get("/products", response_model=One[list[ProductPublic]])
def list_active_products(s: SessionDep) -> dict[str, Any]:
    """Active products with their active prices (public)."""
    return {"data": products.list_public(s)}


@router.get("/protected/organizations", response_model=Listed[OrganizationPublic])
def list_organizations(user: StaffUser, s: SessionDep, paged: Paged, sort: NameSort = "name") -> dict[str, Any]:
    """Organizations, searched (name, industry) and paginated in SQL (content:read); one page with paging fields."""
    return organizations.list_organizations(s, actor=user, sort=sort, **paged).as_json()


writes(
    router,
    "/protected/organizations",
    "organization_id",
    noun="Organization",
    public=OrganizationPublic,
    perm=Perm.content_write,
    things="organizations",
    create=Write(organizations.create_organization, "Create an organization (content:write).", OrganizationCreate),
    update=Write(
        organizations.update_organization, "Change an organization (partial; content:write).", OrganizationUpdate
    ),
    delete=Write(organizations.delete_organization, "Delete an organization (content:write)."),
)
writes(
    router,
    "/protected/projects",
    "project_id",
    noun="Project",
    public=ProjectPublic,
    perm=Perm.content_write,
    things="projects",
    create=Write(projects.create_project, "Create a project for a client (content:write).", ProjectCreate),
    delete=Write(projects.delete_project, "Delete a project (content:write)."),
)


@router.put(
    "/protected/projects/{project_id}/milestones",
    response_model=Saved[ProjectPublic],
    dependencies=[permitted(Perm.content_write, doing="update projects")],
)
def set_milestones(project_id: RowId, user: StaffUser, s: SessionDep, body: MilestonesSave) -> dict[str, Any]:
    """Replace a project's milestones, in order (content:write)."""
    data = projects.set_milestones(s, actor=user, project_id=project_id, milestones=body.milestones)
    return {"data": data, "message": "Project updated successfully"}


@router.get("/protected/projects/{project_id}/time-entries", response_model=TimeEntriesPage)
def list_time_entries(
    project_id: RowId, user: StaffUser, s: SessionDep, page: PageNo = 1, page_size: PageSize = 10
) -> TimeEntriesPage:
    """A project's time entries, newest day first, with its actual and estimated hours (content:read)."""
    return time_entries.list_time_entries(s, actor=user, project_id=project_id, page=page, page_size=page_size)


def _project_member(doing: str) -> Any:
    """The gate of time writes, run before the body is read: the project's manager or content:write (as the service)."""

    def gate(request: Request, user: StaffUser, s: SessionDep) -> None:
        # The raw path text (the route declares and validates it): an id no row can have is "not a member" (403),
        # not a 422 that tells outsiders about ids.
        raw = str(request.path_params.get("project_id", ""))
        row = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else 0
        time_entries.member_project(s, user, row, doing)

    return Depends(gate)


@router.post(
    "/protected/projects/{project_id}/time-entries",
    status_code=201,
    response_model=Saved[TimeEntryPublic],
    dependencies=[_project_member("log time on projects")],
)
def log_time(project_id: RowId, user: StaffUser, s: SessionDep, body: TimeEntryCreate) -> dict[str, Any]:
    """Log hours worked on an open project, at most 24 a day per person; its actual hours grow by them (the project's
    manager or content:write)."""
    return {"data": time_entries.log_time(s, actor=user, project_id=project_id, data=body), "message": "Time logged"}


@router.delete(
    "/protected/projects/{project_id}/time-entries/{entry_id}",
    response_model=Done,
    dependencies=[_project_member("delete time entries")],
)
def delete_time_entry(project_id: RowId, entry_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Delete a time entry of an open project: its author (the project's manager or content:write) or an admin."""
    time_entries.delete_time_entry(s, actor=user, project_id=project_id, entry_id=entry_id)
    return {"message": "Time entry deleted"}


def _site_routes(key: str) -> None:
    """GET, POST and PUT of one content kind, each declaring that kind's body and answer (the kinds' fields differ)."""
    noun = site_admin.KINDS[key].noun

    def listing(user: StaffUser, s: SessionDep) -> dict[str, Any]:
        return {"data": site_admin.list_items(s, actor=user, kind=key)}

    listing.__doc__ = f"Every {noun} of the public site, in its order (content:read)."
    item: Any = site_admin.PUBLIC[key]  # the kind's model, chosen at import time
    rows: Any = One[list[item]]
    router.get(f"/admin/site/{key}", response_model=rows, name=f"list_{key}")(listing)
    writes(
        router,
        f"/admin/site/{key}",
        "item_id",
        noun=noun.capitalize(),
        public=site_admin.PUBLIC[key],
        perm=Perm.content_write,
        things="site content",
        create=Write(
            partial(site_admin.create_item, kind=key),
            f"Add a {noun} to the public site (content:write).",
            site_admin.CREATE[key],
            name=f"create_{key}",
        ),
        update=Write(
            partial(site_admin.update_item, kind=key),
            f"Change a {noun} (partial; content:write).",
            site_admin.UPDATE[key],
            name=f"update_{key}",
        ),
    )


for _kind in site_admin.KINDS:
    _site_routes(_kind)


@router.get("/admin/site/{kind}", include_in_schema=False)
@router.post("/admin/site/{kind}", status_code=201, include_in_schema=False)
@router.put("/admin/site/{kind}/{item_id}", include_in_schema=False)
def unknown_site_content(kind: str) -> None:
    """Any other kind: 404, whatever the method."""
    site_admin.kind_of(kind)
    raise AssertionError("every known kind has its own routes")


@router.delete(
    "/admin/site/{kind}/{item_id}", dependencies=[permitted(Perm.content_write, doing="delete site content")]
)
def delete_site_content(kind: str, item_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Remove a row of public content (content:write)."""
    site_admin.delete_item(s, actor=user, kind=kind, item_id=item_id)
    return {"message": f"{site_admin.kind_of(kind).noun.capitalize()} deleted successfully"}


@router.get("/admin/products", response_model=Listed[ProductPublic])
def list_all_products(user: StaffUser, s: SessionDep, paged: Paged, sort: NameSort = "name") -> dict[str, Any]:
    """Every product with every price, searched (name, category) and paginated in SQL (products:read)."""
    return products.list_products(s, actor=user, sort=sort, **paged).as_json()


writes(
    router,
    "/admin/products",
    "product_id",
    noun="Product",
    public=ProductPublic,
    perm=Perm.products_write,
    things="products",
    create=Write(products.create_product, "Create a product, optionally with prices (products:write).", ProductCreate),
    update=Write(products.update_product, "Change a product (partial; products:write).", ProductUpdate),
    delete=Write(products.delete_product, "Delete a product that was never ordered (products:write)."),
)


@router.post(
    "/admin/products/{product_id}/prices",
    status_code=201,
    response_model=One[ProductPublic],
    dependencies=[permitted(Perm.products_write, doing="update products")],
)
def add_price(product_id: RowId, user: StaffUser, s: SessionDep, body: PriceCreate) -> dict[str, Any]:
    """Offer a product at another price (products:write)."""
    return {"data": products.add_price(s, actor=user, product_id=product_id, data=body)}


@router.put(
    "/admin/prices/{price_id}",
    response_model=One[ProductPublic],
    dependencies=[permitted(Perm.products_write, doing="update products")],
)
def set_price_active(price_id: RowId, user: StaffUser, s: SessionDep, body: PriceActive) -> dict[str, Any]:
    """Switch a price on or off (products:write)."""
    return {"data": products.set_price_active(s, actor=user, price_id=price_id, active=bool(body.is_active))}


@router.get("/admin/invoices/export", response_class=StreamingResponse)
def export_invoices(
    user: DownloadUser,
    s: SessionDep,
    search: Search = "",
    status: InvoiceStatusFilter = "",
    sort: InvoiceSort = "newest",
) -> StreamingResponse:
    """Every invoice the staff list shows with these filters, as a CSV file streamed row by row (billing:read)."""
    return csv_file("invoices", billing.export_invoices(s, actor=user, search=search, status=status, sort=sort))


InvoiceStatusFilter = Annotated[str, Query(description="draft, pending or paid; empty for all.")]
InvoiceSort = Annotated[str, Query(description="newest (default), oldest, number, total or due.")]


@router.get("/admin/invoices", response_model=Listed[InvoiceRow])
def list_invoices(
    user: StaffUser, s: SessionDep, paged: Paged, status: InvoiceStatusFilter = "", sort: InvoiceSort = "newest"
) -> dict[str, Any]:
    """Every client's invoices, drafts included, searched, filtered and paged in SQL (billing:read)."""
    return billing.list_invoices(s, actor=user, status=status, sort=sort, **paged).as_json()


writes(
    router,
    "/admin/invoices",
    "invoice_id",
    noun="Invoice",
    public=InvoicePublic,
    perm=Perm.billing_write,
    things="invoices",
    create=Write(billing.create_invoice, "Create a draft invoice with line items (billing:write).", InvoiceCreate),
)


@router.post(
    "/admin/invoices/{invoice_id}/issue",
    response_model=Saved[InvoicePublic],
    dependencies=[permitted(Perm.billing_write, doing="issue invoices")],
)
def issue_invoice(invoice_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, Any]:
    """Issue a draft: the client sees it and is e-mailed (billing:write)."""
    return {"data": billing.issue_invoice(s, actor=user, invoice_id=invoice_id), "message": "Invoice issued"}


@router.post(
    "/admin/invoices/{invoice_id}/payments",
    response_model=Saved[InvoicePublic],
    dependencies=[permitted(Perm.billing_write, doing="record payments on invoices")],
)
def record_payment(invoice_id: RowId, user: StaffUser, s: SessionDep, body: PaymentCreate) -> dict[str, Any]:
    """Record a payment; the invoice is paid once payments cover it (billing:write)."""
    data = billing.record_payment(s, actor=user, invoice_id=invoice_id, data=body)
    return {"data": data, "message": "Payment recorded"}


@router.delete(
    "/admin/invoices/{invoice_id}",
    response_model=Done,
    dependencies=[permitted(Perm.billing_write, doing="delete invoices")],
)
def delete_invoice(invoice_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Delete a draft invoice (billing:write)."""
    billing.delete_draft(s, actor=user, invoice_id=invoice_id)
    return {"message": "Invoice deleted"}


@router.get("/admin/meetings", response_model=Listed[MeetingRow])
def list_meetings(
    user: StaffUser,
    s: SessionDep,
    paged: Paged,
    when: str = "upcoming",
    status: str = "",
    client_id: str = "",
    sort: str = "",
) -> dict[str, Any]:
    """Meetings searched, filtered by upcoming/past, status and client, and sorted (meetings:read); one page, with the
    paging fields."""
    page = meetings_admin.list_all(s, actor=user, when=when, status=status, client_id=client_id, sort=sort, **paged)
    return page.as_json()


@router.post(
    "/admin/meetings",
    status_code=201,
    response_model=Saved[MeetingPublic],
    dependencies=[permitted(Perm.meetings_write, doing="schedule meetings")],
)
def create_meeting(user: StaffUser, s: SessionDep, body: meetings_admin.MeetingCreate) -> dict[str, Any]:
    """Schedule a meeting for a client, who is e-mailed (meetings:write)."""
    return {"data": meetings_admin.create_meeting(s, actor=user, data=body), "message": "Meeting scheduled"}


@router.put(
    "/admin/meetings/{meeting_id}",
    response_model=One[MeetingPublic],
    dependencies=[permitted(Perm.meetings_write, doing="update meetings")],
)
def update_meeting(
    meeting_id: RowId, user: StaffUser, s: SessionDep, body: meetings_admin.MeetingUpdate
) -> dict[str, Any]:
    """Change a scheduled meeting (meetings:write)."""
    return {"data": meetings_admin.update_meeting(s, actor=user, meeting_id=meeting_id, data=body)}


@router.post(
    "/admin/meetings/{meeting_id}/complete",
    response_model=One[MeetingPublic],
    dependencies=[permitted(Perm.meetings_write, doing="update meetings")],
)
def complete_meeting(meeting_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, Any]:
    """Mark a meeting completed (meetings:write)."""
    return {"data": meetings_admin.complete_meeting(s, actor=user, meeting_id=meeting_id)}


@router.get("/admin/applications/export", response_class=StreamingResponse)
def export_applications(
    user: DownloadUser, s: SessionDep, job_code: str = "", status: str = "", search: Search = "", sort: str = ""
) -> StreamingResponse:
    """Every application the list shows with these filters, as a CSV file streamed row by row (applications:read)."""
    pieces = applications.export_applications(s, actor=user, job_code=job_code, status=status, search=search, sort=sort)
    return csv_file("applications", pieces)


@router.get("/admin/applications", response_model=Listed[ApplicationPublic])
def list_applications(
    user: StaffUser,
    s: SessionDep,
    paged: Paged,
    job_code: Annotated[str, Query(description="Only this opening's applications.")] = "",
    status: Annotated[str, Query(description="Only applications in this status.")] = "",
    sort: Annotated[str, Query(description="newest (default), oldest or name.")] = "newest",
) -> dict[str, Any]:
    """Job applications by opening and status, searched (name, e-mail, job) and paginated in SQL (applications:read)."""
    page = applications.list_applications(s, actor=user, job_code=job_code, status=status, sort=sort, **paged)
    return page.as_json()


@router.put(
    "/admin/applications/{application_id}",
    response_model=Saved[ApplicationPublic],
    dependencies=[permitted(Perm.applications_write, doing="access job applications")],
)
def update_application(
    application_id: RowId, user: StaffUser, s: SessionDep, body: ApplicationUpdate
) -> dict[str, Any]:
    """Move an application through the workflow and keep notes (applications:write)."""
    data = applications.update_application(s, actor=user, application_id=application_id, data=body)
    return {"data": data, "message": "Application updated"}


@router.get("/admin/applications/{application_id}/{document}")
def download_document(application_id: RowId, document: str, user: DownloadUser, s: SessionDep) -> StreamingResponse:
    """The applicant's CV (`resume`) or cover letter (`cover-letter`), for staff who read applications."""
    name, kind, handle = applications.open_document(s, actor=user, application_id=application_id, which=document)
    safe = quote(name)
    return StreamingResponse(
        handle,
        media_type=kind,
        headers={
            "Content-Disposition": f"attachment; filename*=UTF-8''{safe}",
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )


@router.get("/admin/analytics", response_model=AnalyticsReport)
def analytics_report(
    user: CurrentUser, s: SessionDep, start: date | None = None, end: date | None = None
) -> dict[str, Any]:
    """The analytics figures for a period (default: the last 90 days; analytics:read)."""
    return analytics.report(s, actor=user, start=start, end=end)
