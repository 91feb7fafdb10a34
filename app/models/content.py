"""Public site content kept in the database so staff can change it without a deploy."""

from __future__ import annotations

import datetime as dt

from sqlmodel import Field

from app.models.base import Stamped, string_list, text


class Service(Stamped, table=True):
    __tablename__ = "services"

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(max_length=100, unique=True)
    icon: str = Field(default="layers", max_length=50)  # a lucide icon name
    title: str = Field(max_length=200)
    description: str = text(nullable=False)
    features: list[str] = string_list()
    popular: bool = False
    is_active: bool = True
    sort_order: int = 0


class PortfolioProject(Stamped, table=True):
    __tablename__ = "portfolio_projects"

    id: int | None = Field(default=None, primary_key=True)
    title: str = Field(max_length=200)
    description: str = text(nullable=False)
    image: str | None = Field(default=None, max_length=500)
    tags: list[str] = string_list()
    category: str = Field(max_length=50)  # one of the portfolio filter names
    link: str | None = Field(default=None, max_length=500)
    is_live: bool = False  # live sites get "Visit Site", others "Coming Soon"
    is_published: bool = True
    sort_order: int = 0


class Testimonial(Stamped, table=True):
    __tablename__ = "testimonials"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100)
    role: str | None = Field(default=None, max_length=100)
    company: str | None = Field(default=None, max_length=200)
    image: str | None = Field(default=None, max_length=500)
    rating: int = 5
    text: str = text(nullable=False)
    date: dt.date | None = None
    verified: bool = True
    featured: bool = False  # the fixed testimonials with role and company
    is_published: bool = True
    sort_order: int = 0


class TeamMember(Stamped, table=True):
    __tablename__ = "team_members"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100)
    role: str = Field(max_length=100)
    bio: str = text(nullable=False)
    skills: list[str] = string_list()
    is_published: bool = True
    sort_order: int = 0
