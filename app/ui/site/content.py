"""Database content for the public pages: the build-time snapshot that prerenders it, and the per-visit loaders.

The content vars start from a snapshot read when the app is imported (app.ui.prerender), which puts services,
portfolio, featured testimonials, team and jobs into the static HTML; each visit's `on_load` then reloads them
(through `app.ui.state.calls.call`, off the event loop), so staff edits show without a rebuild. Without a database at
build time (a clean CI checkout) the snapshot is empty and the sections show skeletons until their loader answers.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlmodel import Session

from app.services.site import site_content
from app.ui.prerender import read_at_build


def _snapshot(s: Session) -> dict[str, list[dict[str, Any]]]:
    return {
        "services": site_content.services(s),
        "portfolio": site_content.portfolio_projects(s),
        "featured": site_content.featured_testimonials(s),
        "team": site_content.team_members(s),
        "jobs": site_content.open_jobs(s),
    }


_EMPTY: dict[str, list[dict[str, Any]]] = {"services": [], "portfolio": [], "featured": [], "team": [], "jobs": []}
SNAPSHOT = read_at_build(_snapshot, _EMPTY)


def relative_date(iso: str | None, today: dt.date | None = None) -> str:
    """'today', 'yesterday', '5 days ago', '2 weeks ago', '3 months ago', '1 year ago' (future dates: 'recently')."""
    if not iso:
        return ""
    day = dt.date.fromisoformat(iso[:10])
    days = ((today or dt.date.today()) - day).days
    if days < 0:
        return "recently"
    if days == 0:
        return "today"
    if days == 1:
        return "yesterday"

    def ago(n: int, unit: str) -> str:
        return f"{n} {unit}{'' if n == 1 else 's'} ago"

    if days < 7:
        return ago(days, "day")
    if days < 30:
        return ago(days // 7, "week")
    if days < 365:
        return ago(max(1, days // 30), "month")
    return ago(days // 365, "year")
