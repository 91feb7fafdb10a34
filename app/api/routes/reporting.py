"""The staff analytics report."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter

from app.api.deps import (
    CurrentUser,
    SessionDep,
)
from app.services.reporting import analytics
from app.services.reporting.analytics import AnalyticsReport

router = APIRouter(tags=["content"])


@router.get("/admin/analytics", response_model=AnalyticsReport)
def analytics_report(
    user: CurrentUser, s: SessionDep, start: date | None = None, end: date | None = None
) -> dict[str, Any]:
    """The analytics figures for a period (default: the last 90 days; analytics:read)."""
    return analytics.report(s, actor=user, start=start, end=end)
