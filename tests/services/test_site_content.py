"""Public page content read from the database: only published rows, display order, JSON-safe values."""

from __future__ import annotations

import json
from datetime import date

from sqlmodel import Session

from app.models import content as models  # a module-level name starting with "Test" would be collected
from app.models.careers import JobOpening
from app.models.content import PortfolioProject, Service, TeamMember
from app.services.site import site_content


def test_services_in_order_without_inactive_ones(session: Session) -> None:
    session.add(
        Service(slug="b", title="Web Development", description="d", features=["React"], popular=True, sort_order=2)
    )
    session.add(Service(slug="a", title="BI Reports", description="d", features=["Power BI"], sort_order=1))
    session.add(Service(slug="c", title="Hidden", description="d", is_active=False))
    session.commit()
    cards = site_content.services(session)
    assert [c.title for c in cards] == ["BI Reports", "Web Development"]
    assert cards[1].popular is True and cards[0].features == ["Power BI"]


def test_portfolio_filter_and_publication(session: Session) -> None:
    session.add(
        PortfolioProject(title="Clinic", description="d", category="Healthcare", is_live=True, link="https://x")
    )
    session.add(PortfolioProject(title="Shop", description="d", category="Web Development"))
    session.add(PortfolioProject(title="Draft", description="d", category="Healthcare", is_published=False))
    session.commit()
    assert [p.title for p in site_content.portfolio_projects(session)] == ["Clinic", "Shop"]
    healthcare = site_content.portfolio_projects(session, category="Healthcare")
    assert [p.title for p in healthcare] == ["Clinic"] and healthcare[0].live is True
    assert site_content.portfolio_projects(session, category="IoT") == []  # the page shows "Be Our First"


def test_random_testimonials_pick_k_of_the_published_ones(session: Session) -> None:
    for n in range(10):
        session.add(models.Testimonial(name=f"Client {n}", text="Great", rating=5, date=date(2025, 3, n + 1)))
    session.add(models.Testimonial(name="Unpublished", text="x", is_published=False))
    session.add(models.Testimonial(name="Fixed", role="CEO", company="Acme", text="x", featured=True))
    session.commit()
    seen: set[str] = set()
    for _ in range(20):
        picked = site_content.random_testimonials(session)
        assert len(picked) == 3 and len({t.name for t in picked}) == 3
        seen.update(t.name for t in picked)
    assert seen <= {f"Client {n}" for n in range(10)}
    assert len(seen) > 3  # a different pick per visit
    json.dumps([t.model_dump() for t in picked])  # JSON-safe: dates are ISO strings
    assert (picked[0].date or "").startswith("2025-03-")
    featured = site_content.featured_testimonials(session)
    assert [(t.name, t.role, t.company) for t in featured] == [("Fixed", "CEO", "Acme")]


def test_team_members_and_open_jobs(session: Session) -> None:
    session.add(TeamMember(name="Elena Vasquez", role="CTO", bio="b", skills=["Python"], sort_order=2))
    session.add(TeamMember(name="Marcus Reed", role="Founder", bio="b", sort_order=1))
    session.add(TeamMember(name="Former", role="x", bio="b", is_published=False))
    session.add(JobOpening(code="JOB-002", title="UI/UX Designer", department="Design", location="Remote"))
    session.commit()
    team = site_content.team_members(session)
    assert [(m.name, m.initials) for m in team] == [("Marcus Reed", "MR"), ("Elena Vasquez", "EV")]
    assert [j.id for j in site_content.open_jobs(session)] == ["JOB-002"]
