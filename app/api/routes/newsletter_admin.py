"""/api/admin/newsletter: the staff side of the newsletter (list, CSV export, unsubscribe on request).

The public double opt-in is app/api/routes/newsletter.py; the rules and permission checks are the service's
(app/services/crm/newsletter_admin.py), so these routes only translate HTTP.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from app.api.deps import DownloadUser, Paged, RowId, Search, SessionDep, StaffUser, permitted
from app.api.downloads import csv_file
from app.api.schemas import Listed, Saved
from app.core.permissions import Perm
from app.services.crm import newsletter_admin
from app.services.crm.newsletter_admin import SubscriberPublic

router = APIRouter(prefix="/admin/newsletter", tags=["content"])

Status = Annotated[str, Query(description="Only subscribers in this status: pending, confirmed or unsubscribed.")]
Sort = Annotated[str, Query(description="newest (default), oldest or email.")]


# Before any route with a path parameter, so "export" is never read as one.
@router.get("/subscribers/export", response_class=StreamingResponse)
def export_subscribers(
    user: DownloadUser, s: SessionDep, status: Status = "", search: Search = "", sort: Sort = ""
) -> StreamingResponse:
    """Every subscriber the list shows with these filters, as a CSV file streamed row by row (content:read)."""
    pieces = newsletter_admin.export_subscribers(s, actor=user, status=status, search=search, sort=sort)
    return csv_file("newsletter-subscribers", pieces)


@router.get("/subscribers", response_model=Listed[SubscriberPublic])
def list_subscribers(
    user: StaffUser, s: SessionDep, paged: Paged, status: Status = "", sort: Sort = "newest"
) -> dict[str, Any]:
    """Newsletter subscribers by status, searched in the e-mail address and paginated in SQL (content:read)."""
    return newsletter_admin.list_subscribers(s, actor=user, status=status, sort=sort, **paged).as_json()


@router.post(
    "/subscribers/{subscriber_id}/unsubscribe",
    response_model=Saved[SubscriberPublic],
    dependencies=[permitted(Perm.content_write, doing=newsletter_admin.CHANGING)],
)
def unsubscribe_subscriber(subscriber_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, Any]:
    """Stop sending to a subscriber who asked staff to; final and audited (content:write)."""
    data = newsletter_admin.unsubscribe_subscriber(s, actor=user, subscriber_id=subscriber_id)
    return {"data": data, "message": "Subscriber unsubscribed"}
