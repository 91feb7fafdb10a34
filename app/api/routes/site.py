"""Staff calls that edit the public site's content, one set of routes per kind (services, portfolio, ...)."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter

from app.api.crud import Write, writes
from app.api.deps import (
    RowId,
    SessionDep,
    StaffUser,
    permitted,
)
from app.api.schemas import One
from app.core.permissions import Perm
from app.services.site import site_admin

router = APIRouter(tags=["content"])


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
