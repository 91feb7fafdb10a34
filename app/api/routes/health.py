"""Public liveness for load balancers and uptime monitors; staff read the details on /api/admin/dashboard."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.services.operations import health as health_service

router = APIRouter(tags=["health"])


@router.get("/health")
async def health() -> JSONResponse:
    """Whether the app can serve: 200 `{"status": "ok"}`, or 503 when its database does not answer."""
    status = await health_service.public_status()
    return JSONResponse({"status": status}, status_code=200 if status == "ok" else 503)
