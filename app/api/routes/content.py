"""Staff content and business calls: organizations, projects, products and prices, invoices, meetings, analytics.

Plus the public GET /api/products. Each service checks the actor's permission; routes only translate HTTP.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

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
from app.services import (
    analytics,
    applications,
    billing,
    meetings_admin,
    organizations,
    products,
    projects,
    site_admin,
    time_entries,
)
from app.services.analytics import AnalyticsReport
from app.services.applications import ApplicationPublic, ApplicationUpdate
from app.services.billing import InvoiceCreate, PaymentCreate
from app.services.invoices import InvoicePublic, InvoiceRow
from app.services.meetings import MeetingPublic, MeetingRow
from app.services.organizations import OrganizationCreate, OrganizationPublic, OrganizationUpdate
from app.services.products import PriceActive, PriceCreate, ProductCreate, ProductPublic, ProductUpdate
from app.services.projects import MilestonesSave, ProjectCreate, ProjectPublic
from app.services.time_entries import TimeEntriesPage, TimeEntryCreate, TimeEntryPublic

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
    return organizations.list_organizations(s, actor=user, sort=sort, **paged.args()).as_json()


@router.post(
    "/protected/organizations",
    status_code=201,
    response_model=Saved[OrganizationPublic],
    dependencies=[permitted(Perm.content_write, doing="create organizations")],
)
def create_organization(user: StaffUser, s: SessionDep, body: OrganizationCreate) -> dict[str, Any]:
    """Create an organization (content:write)."""
    return {
        "data": organizations.create_organization(s, actor=user, data=body),
        "message": "Organization created successfully",
    }


@router.put("/protected/organizations/{organization_id}", response_model=Saved[OrganizationPublic])
def update_organization(
    organization_id: RowId, user: StaffUser, s: SessionDep, body: OrganizationUpdate
) -> dict[str, Any]:
    """Change an organization (partial; content:write)."""
    data = organizations.update_organization(s, actor=user, organization_id=organization_id, data=body)
    return {"data": data, "message": "Organization updated successfully"}


@router.delete("/protected/organizations/{organization_id}", response_model=Done)
def delete_organization(organization_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Delete an organization (content:write)."""
    organizations.delete_organization(s, actor=user, organization_id=organization_id)
    return {"message": "Organization deleted successfully"}


@router.post(
    "/protected/projects",
    status_code=201,
    response_model=Saved[ProjectPublic],
    dependencies=[permitted(Perm.content_write, doing="create projects")],
)
def create_project(user: StaffUser, s: SessionDep, body: ProjectCreate) -> dict[str, Any]:
    """Create a project for a client (content:write)."""
    return {"data": projects.create_project(s, actor=user, data=body), "message": "Project created successfully"}


@router.delete("/protected/projects/{project_id}", response_model=Done)
def delete_project(project_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Delete a project (content:write)."""
    projects.delete_project(s, actor=user, project_id=project_id)
    return {"message": "Project deleted successfully"}


@router.put("/protected/projects/{project_id}/milestones", response_model=Saved[ProjectPublic])
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


@router.post(
    "/protected/projects/{project_id}/time-entries",
    status_code=201,
    response_model=Saved[TimeEntryPublic],
    dependencies=[permitted(Perm.content_write, doing="log time on projects")],
)
def log_time(project_id: RowId, user: StaffUser, s: SessionDep, body: TimeEntryCreate) -> dict[str, Any]:
    """Log hours worked on a project; its actual hours grow by them (content:write)."""
    return {"data": time_entries.log_time(s, actor=user, project_id=project_id, data=body), "message": "Time logged"}


@router.delete("/protected/projects/{project_id}/time-entries/{entry_id}", response_model=Done)
def delete_time_entry(project_id: RowId, entry_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Delete a time entry: its author or an admin (content:write)."""
    time_entries.delete_time_entry(s, actor=user, project_id=project_id, entry_id=entry_id)
    return {"message": "Time entry deleted"}


def _site_routes(key: str) -> None:
    """GET, POST and PUT of one content kind, each declaring that kind's body and answer (the kinds' fields differ)."""
    noun = site_admin.KINDS[key].noun.capitalize()

    def listing(user: StaffUser, s: SessionDep) -> dict[str, Any]:
        return {"data": site_admin.list_items(s, actor=user, kind=key)}

    def create(user: StaffUser, s: SessionDep, body: Any) -> dict[str, Any]:
        data = site_admin.create_item(s, actor=user, kind=key, data=body)
        return {"data": data, "message": f"{noun} created successfully"}

    def update(item_id: RowId, user: StaffUser, s: SessionDep, body: Any) -> dict[str, Any]:
        data = site_admin.update_item(s, actor=user, kind=key, item_id=item_id, data=body)
        return {"data": data, "message": f"{noun} updated successfully"}

    # The body's model is a value chosen per kind, so it is set as an object (annotations here are strings).
    create.__annotations__["body"], update.__annotations__["body"] = site_admin.CREATE[key], site_admin.UPDATE[key]
    listing.__doc__ = f"Every {site_admin.KINDS[key].noun} of the public site, in its order (content:read)."
    create.__doc__ = f"Add a {site_admin.KINDS[key].noun} to the public site (content:write)."
    update.__doc__ = f"Change a {site_admin.KINDS[key].noun} (partial; content:write)."
    answer: Any = Saved.__class_getitem__(site_admin.PUBLIC[key])
    item: Any = site_admin.PUBLIC[key]
    rows: Any = One[list[item]]  # the kind's model, chosen at import time
    router.get(f"/admin/site/{key}", response_model=rows, name=f"list_{key}")(listing)
    creating = permitted(Perm.content_write, doing="create site content")
    updating = permitted(Perm.content_write, doing="update site content")
    router.post(
        f"/admin/site/{key}", status_code=201, response_model=answer, name=f"create_{key}", dependencies=[creating]
    )(create)
    router.put(f"/admin/site/{key}/{{item_id}}", response_model=answer, name=f"update_{key}", dependencies=[updating])(
        update
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


@router.delete("/admin/site/{kind}/{item_id}")
def delete_site_content(kind: str, item_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Remove a row of public content (content:write)."""
    site_admin.delete_item(s, actor=user, kind=kind, item_id=item_id)
    return {"message": f"{site_admin.kind_of(kind).noun.capitalize()} deleted successfully"}


@router.get("/admin/products", response_model=Listed[ProductPublic])
def list_all_products(user: StaffUser, s: SessionDep, paged: Paged, sort: NameSort = "name") -> dict[str, Any]:
    """Every product with every price, searched (name, category) and paginated in SQL (products:read)."""
    return products.list_products(s, actor=user, sort=sort, **paged.args()).as_json()


@router.post(
    "/admin/products",
    status_code=201,
    response_model=Saved[ProductPublic],
    dependencies=[permitted(Perm.products_write, doing="create products")],
)
def create_product(user: StaffUser, s: SessionDep, body: ProductCreate) -> dict[str, Any]:
    """Create a product, optionally with prices (products:write)."""
    return {"data": products.create_product(s, actor=user, data=body), "message": "Product created successfully"}


@router.put("/admin/products/{product_id}", response_model=Saved[ProductPublic])
def update_product(product_id: RowId, user: StaffUser, s: SessionDep, body: ProductUpdate) -> dict[str, Any]:
    """Change a product (partial; products:write)."""
    data = products.update_product(s, actor=user, product_id=product_id, data=body)
    return {"data": data, "message": "Product updated successfully"}


@router.delete("/admin/products/{product_id}", response_model=Done)
def delete_product(product_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Delete a product that was never ordered (products:write)."""
    products.delete_product(s, actor=user, product_id=product_id)
    return {"message": "Product deleted successfully"}


@router.post(
    "/admin/products/{product_id}/prices",
    status_code=201,
    response_model=One[ProductPublic],
    dependencies=[permitted(Perm.products_write, doing="update products")],
)
def add_price(product_id: RowId, user: StaffUser, s: SessionDep, body: PriceCreate) -> dict[str, Any]:
    """Offer a product at another price (products:write)."""
    return {"data": products.add_price(s, actor=user, product_id=product_id, data=body)}


@router.put("/admin/prices/{price_id}", response_model=One[ProductPublic])
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
    return billing.list_invoices(s, actor=user, status=status, sort=sort, **paged.args()).as_json()


@router.post(
    "/admin/invoices",
    status_code=201,
    response_model=Saved[InvoicePublic],
    dependencies=[permitted(Perm.billing_write, doing="create invoices")],
)
def create_invoice(user: StaffUser, s: SessionDep, body: InvoiceCreate) -> dict[str, Any]:
    """Create a draft invoice with line items (billing:write)."""
    return {"data": billing.create_invoice(s, actor=user, data=body), "message": "Invoice created successfully"}


@router.post("/admin/invoices/{invoice_id}/issue", response_model=Saved[InvoicePublic])
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


@router.delete("/admin/invoices/{invoice_id}", response_model=Done)
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
    page = meetings_admin.list_all(
        s, actor=user, when=when, status=status, client_id=client_id, sort=sort, **paged.args()
    )
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


@router.put("/admin/meetings/{meeting_id}", response_model=One[MeetingPublic])
def update_meeting(
    meeting_id: RowId, user: StaffUser, s: SessionDep, body: meetings_admin.MeetingUpdate
) -> dict[str, Any]:
    """Change a scheduled meeting (meetings:write)."""
    return {"data": meetings_admin.update_meeting(s, actor=user, meeting_id=meeting_id, data=body)}


@router.post("/admin/meetings/{meeting_id}/complete", response_model=One[MeetingPublic])
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
    page = applications.list_applications(s, actor=user, job_code=job_code, status=status, sort=sort, **paged.args())
    return page.as_json()


@router.put("/admin/applications/{application_id}", response_model=Saved[ApplicationPublic])
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
