"""The testimonials section (home): three random reviews per visit, the featured three, the satisfaction line."""

from __future__ import annotations

import asyncio
import dataclasses

import reflex as rx
from reflex.vars.object import ObjectVar
from reflex_components_core.react_router import ReactRouterLink

from app.services.site import site_content
from app.services.site.site_content import TestimonialCard
from app.ui import routes
from app.ui.components.blocks import badge, band, card_grid, initials_avatar, section_heading, stars
from app.ui.format import long_date
from app.ui.site.content import SNAPSHOT, relative_date
from app.ui.state.calls import call
from app.ui.state.company import CompanyState
from app.ui.styles import BUTTON_PRIMARY, TEXT_LINK

RANDOM_COUNT = 3  # spec: 3 random of 10
SERVICE_AREA = "Port St. Lucie and Treasure Coast"


@dataclasses.dataclass
class TestimonialRow:
    """A testimonial as its card shows it: the service's fields, the avatar's initials and the date in words."""

    name: str = ""
    role: str = ""
    company: str = ""
    rating: int = 0
    text: str = ""
    verified: bool = False
    initials: str = ""
    date: str = ""  # ISO day ("" when none)
    ago: str = ""  # "2 weeks ago"
    date_label: str = ""  # "March 5, 2026"


def testimonial_row(t: TestimonialCard) -> TestimonialRow:
    return TestimonialRow(
        name=t.name,
        role=t.role or "",
        company=t.company or "",
        rating=t.rating,
        text=t.text,
        verified=t.verified,
        initials="".join(p[0] for p in t.name.split()[:2]).upper(),
        date=t.date or "",
        ago=relative_date(t.date),
        date_label=long_date(t.date),
    )


class TestimonialsState(rx.State):
    """Three reviews picked at random by the server on each page load, and the fixed featured ones."""

    reviews: list[TestimonialRow] = []
    reviews_loaded: bool = False
    featured: list[TestimonialRow] = [testimonial_row(t) for t in SNAPSHOT.featured]

    @rx.event
    async def load(self) -> None:
        reviews, featured = await asyncio.gather(
            call(site_content.random_testimonials, RANDOM_COUNT), call(site_content.featured_testimonials)
        )
        self.reviews = [testimonial_row(t) for t in reviews]
        self.featured = [testimonial_row(t) for t in featured]
        self.reviews_loaded = True


def _review_card(review: ObjectVar[TestimonialRow]) -> rx.Component:
    return rx.el.article(
        rx.el.div(
            stars(review.rating.to(int)),
            badge("Client", tone="blue"),
            class_name="flex items-center justify-between gap-3",
        ),
        rx.el.blockquote(
            rx.el.p("\u201c", review.text, "\u201d"),
            class_name="mt-4 flex-1 leading-relaxed text-slate-700",
        ),
        rx.el.footer(
            rx.el.div(
                rx.el.p(review.name, class_name="font-semibold text-slate-900"),
                rx.el.time(
                    review.ago,
                    date_time=review.date.to(str),
                    title=review.date_label.to(str),
                    class_name="text-sm text-slate-600",
                ),
            ),
            rx.cond(review.verified.bool(), badge("Verified", tone="green", icon="badge-check")),
            class_name="mt-6 flex items-end justify-between gap-3 border-t border-slate-100 pt-4",
        ),
        data_review_card=True,
        class_name="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm",
    )


def _featured_card(item: ObjectVar[TestimonialRow]) -> rx.Component:
    return rx.el.figure(
        rx.icon("quote", size=28, class_name="text-amber-300", aria_hidden="true"),
        rx.el.blockquote(
            rx.el.p(item.text),
            class_name="mt-4 flex-1 text-lg leading-relaxed text-white",
        ),
        rx.el.figcaption(
            initials_avatar(item.initials, size="size-12 text-base"),
            rx.el.div(
                rx.el.p(item.name, class_name="font-semibold text-white"),
                rx.el.p(item.role, ", ", item.company, class_name="text-sm text-blue-200"),
                stars(item.rating.to(int), size=14),
                class_name="space-y-1",
            ),
            class_name="mt-6 flex items-center gap-4",
        ),
        data_featured_testimonial=True,
        class_name="flex flex-col rounded-2xl border border-white/10 bg-white/5 p-6",
    )


def _summary() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.p("5.0", class_name="text-5xl font-extrabold tracking-tight text-slate-900"),
            rx.el.div(
                stars(5, size=20),
                rx.el.p("Average client satisfaction rating", class_name="mt-1 text-sm text-slate-600"),
            ),
            class_name="flex items-center gap-4",
        ),
        rx.el.div(
            rx.el.p(
                rx.icon("map-pin", size=16, class_name="shrink-0 text-blue-800", aria_hidden="true"),
                rx.el.span("Proudly serving ", rx.el.strong(SERVICE_AREA, class_name="text-slate-900")),
                class_name="flex items-center gap-2",
            ),
            rx.el.address(
                rx.icon("building-2", size=16, class_name="shrink-0 text-blue-800", aria_hidden="true"),
                CompanyState.address,
                class_name="flex items-center gap-2 not-italic",
            ),
            class_name="space-y-2 text-sm text-slate-700",
        ),
        rx.el.div(
            ReactRouterLink.create(
                "Become Our Next Success Story", to=routes.CONTACT, class_name=f"{BUTTON_PRIMARY} h-11 px-5 text-sm"
            ),
            ReactRouterLink.create("Share your project", to=routes.CONTACT, class_name=f"{TEXT_LINK} text-sm"),
            class_name="flex flex-wrap items-center gap-4 lg:shrink-0",
        ),
        class_name=(
            "mt-12 flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 "
            "lg:flex-row lg:items-center lg:justify-between"
        ),
    )


def testimonials_section() -> rx.Component:
    return rx.fragment(
        band(
            section_heading(
                "Testimonials",
                "What our clients say",
                "Real reviews from businesses we've helped across the Treasure Coast.",
                heading_id="testimonials-heading",
            ),
            rx.el.div(
                card_grid(
                    TestimonialsState.reviews_loaded,
                    TestimonialsState.reviews,
                    _review_card,
                    label="Loading reviews",
                    class_name="grid gap-6 md:grid-cols-3",
                    count=RANDOM_COUNT,
                ),
                class_name="mt-14",
            ),
            _summary(),
            id="testimonials",
            labelled_by="testimonials-heading",
            class_name="bg-slate-50 py-20 sm:py-24",
        ),
        band(
            rx.el.h2(
                "Trusted by businesses like yours",
                id="featured-heading",
                class_name="text-center text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl",
            ),
            rx.el.div(
                rx.foreach(TestimonialsState.featured, _featured_card),
                class_name="mt-12 grid gap-6 lg:grid-cols-3",
            ),
            labelled_by="featured-heading",
            class_name="bg-blue-950 py-20 sm:py-24",
        ),
    )
