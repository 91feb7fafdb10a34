"""Health of the app and its database (used by operators, load balancers and the admin dashboard)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.services import health as health_service

router = APIRouter(tags=["health"])


@router.get("/health")
async def health() -> JSONResponse:
    """Report app and database status."""
    report = await health_service.check()
    return JSONResponse(report, status_code=200 if report["status"] == "ok" else 503)
