"""The REST adapter: a FastAPI app (built by a factory) mounted into Reflex for `/api`.

Every error answers one JSON shape, `{"message": ..., "errors": {...}}`, and no stack trace reaches a client.
"""

from __future__ import annotations

import logging

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.api.deps import same_origin_writes, storable_text
from app.api.routes import (
    account,
    admin,
    auth,
    billing,
    booking,
    calendly,
    careers,
    catalogue,
    contact,
    conversations,
    forms,
    google,
    health,
    metrics,
    newsletter,
    newsletter_admin,
    portal,
    projects,
    reporting,
    scheduling,
    second_factor,
    seo,
    site,
    webhooks,
)
from app.core.config import settings
from app.core.errors import DomainError
from app.services.platform.schema import report

log = logging.getLogger(__name__)

DATABASE_UNAVAILABLE = "The service is briefly unavailable. Nothing was saved; please try again in a minute."


def error_body(message: str, errors: dict[str, str] | None = None, **extra: object) -> dict[str, object]:
    return {"message": message, "errors": errors or {}, **extra}


def install_error_handlers(api: FastAPI) -> None:
    @api.exception_handler(DomainError)
    async def _domain(_: Request, exc: DomainError) -> JSONResponse:
        return JSONResponse(error_body(exc.message, exc.errors, **exc.extra), status_code=exc.status_code)

    @api.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        # Named as the services name nested fields ("items.0.quantity"); "body": the body itself.
        message, errors = report(exc.errors(), strip=("body", "query", "path", "header", "cookie"))
        return JSONResponse(error_body(message, errors), status_code=422)

    @api.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "Request failed"
        return JSONResponse(error_body(message), status_code=exc.status_code, headers=exc.headers)

    @api.exception_handler(OperationalError)
    @api.exception_handler(InterfaceError)
    @api.exception_handler(PoolTimeout)
    async def _database_unavailable(request: Request, exc: Exception) -> JSONResponse:
        # The database is restarting, unreachable or out of connections: a moment's fault, not a bug. Say so fast
        # and let the client retry; nothing was written (the transaction did not commit).
        log.warning("Database unavailable on %s %s: %s", request.method, request.url.path, exc.__class__.__name__)
        return JSONResponse(error_body(DATABASE_UNAVAILABLE), status_code=503, headers={"Retry-After": "30"})

    @api.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("Unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse(error_body("Internal server error"), status_code=500)


def create_api() -> FastAPI:
    """Build a fresh FastAPI app; Reflex may build the app twice in one process, so never reuse one."""
    api = FastAPI(
        title=f"{settings.company_name} API",
        docs_url="/api/docs" if settings.app_env != "prod" else None,
        swagger_ui_oauth2_redirect_url="/api/docs/oauth2-redirect",  # under /api with the docs (FastAPI: /docs/...)
        redoc_url=None,
        openapi_url="/api/openapi.json" if settings.app_env != "prod" else None,
        # On every route, before any other check: text no database can store is a 422 naming the field.
        dependencies=[Depends(storable_text)],
    )
    install_error_handlers(api)
    api.include_router(health.router, prefix="/api")
    # /robots.txt (outside /api: crawlers look for it at the root).
    api.include_router(seo.router)
    # /metrics, for the operator's Prometheus (a bearer token; 404 without one configured).
    api.include_router(metrics.router)
    # Every route below is a cookie-authenticated write candidate: refuse foreign origins.
    guarded = [Depends(same_origin_writes)]
    api.include_router(auth.router, prefix="/api", dependencies=guarded)
    api.include_router(account.router, prefix="/api", dependencies=guarded)
    api.include_router(forms.router, prefix="/api", dependencies=guarded)
    api.include_router(second_factor.router, prefix="/api", dependencies=guarded)
    api.include_router(google.router, prefix="/api")
    api.include_router(portal.router, prefix="/api", dependencies=guarded)
    api.include_router(admin.router, prefix="/api", dependencies=guarded)
    api.include_router(projects.router, prefix="/api", dependencies=guarded)
    api.include_router(conversations.router, prefix="/api", dependencies=guarded)
    api.include_router(site.router, prefix="/api", dependencies=guarded)
    api.include_router(catalogue.router, prefix="/api", dependencies=guarded)
    api.include_router(billing.router, prefix="/api", dependencies=guarded)
    api.include_router(scheduling.router, prefix="/api", dependencies=guarded)
    api.include_router(careers.staff, prefix="/api", dependencies=guarded)
    api.include_router(reporting.router, prefix="/api", dependencies=guarded)
    api.include_router(newsletter_admin.router, prefix="/api", dependencies=guarded)
    api.include_router(catalogue.public, prefix="/api")
    # Public site calls: no sign-in, but their writes are still refused from foreign origins.
    api.include_router(contact.router, prefix="/api", dependencies=guarded)
    api.include_router(newsletter.router, prefix="/api", dependencies=guarded)
    api.include_router(careers.router, prefix="/api", dependencies=guarded)
    api.include_router(calendly.router, prefix="/api")
    api.include_router(booking.router, prefix="/api", dependencies=guarded)
    # Server-to-server: authenticated by its signature, not by a browser origin.
    api.include_router(webhooks.router, prefix="/api")

    # Registered last: any other /api path is a JSON 404, never the site's HTML page.
    @api.api_route("/api/{path:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
    async def _api_not_found(path: str) -> JSONResponse:
        return JSONResponse(error_body("Not found"), status_code=404)

    return api
