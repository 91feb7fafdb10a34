"""Read-only content of the public pages, as typed rows (dates as ISO strings) for Reflex state and the API."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.models.content import PortfolioProject, Service, TeamMember, Testimonial
from app.services.careers import careers
from app.services.careers.careers import JobPublic

# The service card icons (lucide names). Icons are compiled into the bundle, so staff pick one of these.
SERVICE_ICONS = [
    "bar-chart-3",
    "chart-column",
    "code",
    "server",
    "smartphone",
    "database",
    "rocket",
    "cloud",
    "shield",
    "globe",
    "cpu",
    "settings",
]
PORTFOLIO_CATEGORIES = ["All", "Web Development", "Marketing", "Healthcare", "FinTech", "Education", "IoT"]


class ServiceCard(BaseModel):
    slug: str
    icon: str  # one of SERVICE_ICONS
    title: str
    description: str
    features: list[str]
    popular: bool


class PortfolioCard(BaseModel):
    id: int
    title: str
    description: str
    image: str | None
    tags: list[str]
    category: str
    link: str | None
    live: bool  # a live site ("Visit Site"); others say "Coming Soon"


class TestimonialCard(BaseModel):
    id: int
    name: str
    role: str | None
    company: str | None
    image: str | None
    rating: int
    text: str
    verified: bool
    date: str | None  # ISO day


class TeamCard(BaseModel):
    id: int
    name: str
    role: str
    bio: str
    skills: list[str]
    initials: str  # the avatar's letters


def _shown(model: Any, switch: Any) -> Any:
    """The rows of a public list that staff switched on (`switch`: published, active), in their display order."""
    return select(model).where(col(switch).is_(True)).order_by(col(model.sort_order), col(model.id))


def services(s: Session) -> list[ServiceCard]:
    """Active service cards in display order."""
    rows = s.exec(_shown(Service, Service.is_active)).all()
    return [ServiceCard.model_validate(r, from_attributes=True) for r in rows]


def portfolio_projects(s: Session, *, category: str = "All") -> list[PortfolioCard]:
    """Published projects, optionally of one filter category ("All" or empty: every one)."""
    query = _shown(PortfolioProject, PortfolioProject.is_published)
    if category and category != "All":
        query = query.where(PortfolioProject.category == category)
    rows = s.exec(query).all()
    fields = {"id", "title", "description", "image", "tags", "category", "link"}
    return [PortfolioCard(**r.model_dump(include=fields), live=r.is_live) for r in rows]


def _testimonial(r: Testimonial) -> TestimonialCard:
    fields = {"id", "name", "role", "company", "image", "rating", "text", "verified"}
    return TestimonialCard(**r.model_dump(include=fields), date=r.date.isoformat() if r.date else None)


def _published_testimonials(featured: bool) -> Any:
    return select(Testimonial).where(col(Testimonial.is_published).is_(True), col(Testimonial.featured).is_(featured))


def random_testimonials(s: Session, k: int = 3) -> list[TestimonialCard]:
    """`k` published, non-featured testimonials picked at random in SQL (a new pick per visit)."""
    rows = s.exec(_published_testimonials(False).order_by(func.random()).limit(max(0, k))).all()
    return [_testimonial(r) for r in rows]


def featured_testimonials(s: Session) -> list[TestimonialCard]:
    """The fixed testimonials with role and company, in display order."""
    query = _shown(Testimonial, Testimonial.is_published).where(col(Testimonial.featured).is_(True))
    return [_testimonial(r) for r in s.exec(query).all()]


def team_members(s: Session) -> list[TeamCard]:
    """Published team members in display order, with initials for the avatar."""
    rows = s.exec(_shown(TeamMember, TeamMember.is_published)).all()
    return [
        TeamCard(
            **r.model_dump(include={"id", "name", "role", "bio", "skills"}),
            initials="".join(part[0] for part in r.name.split()[:2]).upper(),
        )
        for r in rows
    ]


def open_jobs(s: Session) -> list[JobPublic]:
    """Open positions for /careers (the same list as GET /api/jobs)."""
    return careers.list_open_jobs(s)
