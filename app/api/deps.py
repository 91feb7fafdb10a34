"""Dependencies shared by the API routes: the database session, the signed-in user, permissions, client address."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable
from typing import Annotated, Any, TypedDict

from fastapi import Depends, Query, Request
from pydantic import Field
from sqlmodel import Session
from starlette.datastructures import UploadFile

from app.core.config import settings
from app.core.cookies import ACCESS_COOKIE
from app.core.db import MAX_ID, get_session
from app.core.errors import Forbidden, Invalid
from app.core.net import client_address
from app.core.permissions import STAFF_ROLES, effective_permissions, has_perm
from app.core.text import INVALID_CHARACTER, unstorable_paths
from app.models.enums import Role
from app.models.user import User
from app.services.accounts import sessions
from app.services.platform import access
from app.services.platform.schema import CHECK_FIELDS

SessionDep = Annotated[Session, Depends(get_session)]
# Every integer id in a path or query: what an INTEGER primary key can hold, so a larger one is a 422, not a query
# PostgreSQL refuses (services treat such ids as not found too, for callers outside the API).
RowId = Annotated[int, Field(ge=1, le=MAX_ID)]

# The paging query parameters of every list: out-of-range values are clamped by the services, as they always were.
PageNo = Annotated[int, Query(description="The page, from 1 (clamped into range).")]
PageSize = Annotated[int, Query(description="Rows per page, 1 to 100 (clamped into range).")]
Search = Annotated[str, Query(description="Text to look for (case-insensitive; the first 100 characters are used).")]


class Paging(TypedDict):
    """A list's search box and pager, as every list route reads them beside its own filters and sort: the list
    services' keyword arguments of the same names."""

    search: str
    page: int
    page_size: int


def paging(search: Search = "", page: PageNo = 1, page_size: PageSize = 25) -> Paging:
    return Paging(search=search, page=page, page_size=page_size)


Paged = Annotated[Paging, Depends(paging)]


def client_ip(request: Request) -> str | None:
    """The client's address (behind TRUSTED_PROXY_HOPS proxies, the one the outermost of them saw)."""
    peer = request.client.host if request.client else None
    return client_address(peer, request.headers.get("x-forwarded-for"), settings.trusted_proxy_hops)


ClientIP = Annotated[str | None, Depends(client_ip)]


def same_origin_writes(request: Request) -> None:
    """CSRF defence on top of SameSite=Lax: a browser's cross-site write carries a foreign Origin; refuse it."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    origin = request.headers.get("origin")
    if origin and origin not in settings.allowed_origins:
        raise Forbidden("Cross-site request refused")


async def storable_text(request: Request) -> None:
    """Refuse NUL and lone surrogates in any path, query, JSON or form value, naming each field (422).

    Applied to every route, so no route can forget it; the engine refuses them again for callers outside the API.
    """
    values: list[tuple[str, object]] = [*request.path_params.items(), *request.query_params.multi_items()]
    route = request.scope.get("route")
    if getattr(route, "body_field", None) is not None:  # only a body the route reads; FastAPI has parsed it already
        if request.headers.get("content-type", "").startswith(("multipart/form-data", "application/x-www-form")):
            form = await request.form()
            values += [(k, v.filename or "" if isinstance(v, UploadFile) else v) for k, v in form.multi_items()]
        elif await request.body():
            with contextlib.suppress(ValueError):  # not JSON: FastAPI has answered or will answer that itself
                values.append(("", await request.json()))
    fields = [p or "body" for name, value in values for p in unstorable_paths(value, name)]
    if fields:
        raise Invalid(CHECK_FIELDS, errors=dict.fromkeys(fields, INVALID_CHARACTER))


def current_session(request: Request, s: SessionDep) -> tuple[User, uuid.UUID]:
    """The signed-in user and their session family, checked against the session store (cached per request)."""
    return sessions.authenticate(s, request.cookies.get(ACCESS_COOKIE))


CurrentSession = Annotated[tuple[User, uuid.UUID], Depends(current_session)]


def current_user(current: CurrentSession) -> User:
    return current[0]


def download_user(request: Request, s: SessionDep) -> User:
    """For file downloads the pages start: judged like the websocket, by the session family's server-side state.

    A page can sit open longer than the 15-minute access token while its session stays alive (idle limits are
    enforced on the family); the download must then work as the page's own buttons do.
    """
    user, _family = sessions.authenticate(s, request.cookies.get(ACCESS_COOKIE), allow_expired_jwt=True)
    return user


DownloadUser = Annotated[User, Depends(download_user)]


CurrentUser = Annotated[User, Depends(current_user)]


def permissions_of(user: User) -> frozenset[str]:
    return effective_permissions(user.role, user.employee_type, user.extra_permissions, user.revoked_permissions)


def require_staff(user: CurrentUser) -> User:
    if user.role not in STAFF_ROLES:
        raise Forbidden("Access Denied: Staff privileges required to access this panel.")
    return user


StaffUser = Annotated[User, Depends(require_staff)]


def require(perm: str, feature: str) -> Callable[[User], User]:
    """A dependency that admits only users holding `perm`; the message names the feature, as the UI does."""

    def dependency(user: StaffUser) -> User:
        if not has_perm(permissions_of(user), perm):
            raise Forbidden(
                f"Access Restricted: You don't have permission to access {feature}. "
                "Contact your administrator if you need access."
            )
        return user

    return dependency


def permitted(*perms: str, doing: str) -> Any:
    """A route's permission gate, run before FastAPI reads the body (`dependencies=[permitted(...)]`).

    Staff holding any of `perms` (and admins) pass on to the service, which checks again with the record in hand; the
    gate is never stricter than the service. Everyone else gets the service's own 403, so a caller without the
    permission is never told, by a 422, what a body they may not send would need."""

    def gate(user: StaffUser) -> None:
        if user.role != Role.admin and not any(access.staff_can(user, perm) for perm in perms):
            raise Forbidden(f"You don't have permission to {doing}")

    return Depends(gate)
