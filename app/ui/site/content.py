"""Database content for the public pages: the build-time snapshot that prerenders it, and the per-visit loaders.

The content vars start from a snapshot read when the app is imported (app.ui.prerender), which puts services,
portfolio, featured testimonials, team and jobs into the static HTML; each visit's `on_load` then reloads them
(through `app.ui.state.calls.call`, off the event loop), so staff edits show without a rebuild. Without a database at
build time (a clean CI checkout) the snapshot is empty and the sections show skeletons until their loader answers.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from sqlmodel import Session

from app.services.careers.careers import JobPublic
from app.services.platform import company
from app.services.platform.company import Company
from app.services.site import site_content
from app.services.site.site_content import PortfolioCard, ServiceCard, TeamCard, TestimonialCard
from app.ui.prerender import read_at_build


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """The public pages' database content as the build read it (empty lists without a database)."""

    services: list[ServiceCard] = dataclasses.field(default_factory=list)
    portfolio: list[PortfolioCard] = dataclasses.field(default_factory=list)
    featured: list[TestimonialCard] = dataclasses.field(default_factory=list)
    team: list[TeamCard] = dataclasses.field(default_factory=list)
    jobs: list[JobPublic] = dataclasses.field(default_factory=list)
    company: Company = dataclasses.field(default_factory=company.defaults)


def read_snapshot(s: Session) -> Snapshot:
    """The content as stored now (the build's snapshot, and app.ui.fresh_pages's rendering of the pages)."""
    return Snapshot(
        services=site_content.services(s),
        portfolio=site_content.portfolio_projects(s),
        featured=site_content.featured_testimonials(s),
        team=site_content.team_members(s),
        jobs=site_content.open_jobs(s),
        company=company.profile(s),
    )


SNAPSHOT = read_at_build(read_snapshot, Snapshot())


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
