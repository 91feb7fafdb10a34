"""/about: hero with the four stats, mission and values, the team (from the database), our story, call to action."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.services.site import site_content
from app.services.site.site_content import TeamCard
from app.ui import routes
from app.ui.components.blocks import (
    band,
    card_grid,
    contact_cta,
    figures,
    icon_cards,
    initials_avatar,
    page_hero,
    section_heading,
    stat_tiles,
    tag_list,
)
from app.ui.layouts.site import site_layout
from app.ui.seo import public_page
from app.ui.site.content import SNAPSHOT
from app.ui.state.calls import call
from app.ui.state.company import AT_BUILD
from app.ui.styles import BUTTON_ACCENT, BUTTON_LG, CONTAINER, EYEBROW, HEADING_2, LEAD

STATS: list[tuple[str, str]] = [
    ("45+", "Projects Completed"),
    ("12+", "Happy Clients"),
    ("1+", "Years Experience"),
    ("5+", "Team Members"),
]
VALUES: list[tuple[str, str, str]] = [
    (
        "lightbulb",
        "Innovation First",
        "We bring proven modern tools to every project, so your business gets technology that lasts rather than "
        "yesterday's workarounds.",
    ),
    (
        "heart-handshake",
        "Client-Centric",
        "Your goals set the plan. We explain every choice in plain English and stay reachable long after launch.",
    ),
    (
        "award",
        "Quality Excellence",
        "Tested code, secure defaults and documented handovers: we build things we are proud to put our name on.",
    ),
    (
        "users",
        "Passionate Team",
        "A small local team that loves solving real business problems and treats every client like our only one.",
    ),
]


class AboutState(rx.State):
    """The published team members."""

    team: list[TeamCard] = SNAPSHOT.team
    loaded: bool = bool(SNAPSHOT.team)

    @rx.event
    async def load(self) -> None:
        self.team = await call(site_content.team_members)
        self.loaded = True


def _mission() -> rx.Component:
    return band(
        section_heading(
            "Our mission",
            "Technology that works as hard as you do",
            "We help small and growing businesses on the Treasure Coast use the same digital tools as the big "
            "players, without the big-company price tag or the jargon.",
            heading_id="mission-heading",
        ),
        icon_cards(VALUES),
        labelled_by="mission-heading",
    )


def _member(member: ObjectVar[TeamCard]) -> rx.Component:
    return rx.el.article(
        initials_avatar(member.initials.to(str)),
        rx.el.h3(member.name, class_name="mt-5 text-lg font-bold text-slate-900"),
        rx.el.p(member.role, class_name="text-sm font-semibold text-blue-800"),
        rx.el.p(member.bio, class_name="mt-3 flex-1 text-sm leading-relaxed text-slate-600"),
        tag_list(
            member.skills,
            label="Skills",
            tag_class="rounded-full bg-blue-50 px-2.5 py-1 text-xs font-semibold text-blue-800",
            class_name="mt-5 flex flex-wrap gap-1.5",
        ),
        data_team_member=True,
        class_name="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm",
    )


def _team() -> rx.Component:
    return band(
        section_heading(
            "Our people",
            "Meet Our Team",
            "Specialists in strategy, engineering, data and cloud, working together on every project.",
            heading_id="team-heading",
        ),
        rx.el.div(
            card_grid(
                AboutState.loaded,
                AboutState.team,
                _member,
                label="Loading team",
                class_name="grid gap-6 sm:grid-cols-2 lg:grid-cols-4",
            ),
            class_name="mt-14",
        ),
        labelled_by="team-heading",
        class_name="bg-slate-50 py-20 sm:py-24",
    )


def _story() -> rx.Component:
    facts = [
        ("2025", "Founded in Port St. Lucie"),
        ("4+", "Specialists on the team"),
        ("12+", "Businesses helped so far"),
    ]
    return band(
        rx.el.div(
            rx.el.p("Our story", class_name=EYEBROW),
            rx.el.h2(
                "Built on the Treasure Coast, for the Treasure Coast",
                id="story-heading",
                class_name=f"mt-3 {HEADING_2}",
            ),
            rx.el.div(
                rx.el.p(
                    f"{AT_BUILD.name} was founded in 2025 with a simple idea: local businesses deserve "
                    "the same quality of technology as national brands, delivered by people they can meet in "
                    "person."
                ),
                rx.el.p(
                    "What started as one consultant helping neighbours fix their websites has grown into a team of "
                    "4+ specialists in web development, cloud hosting, business intelligence and mobile apps."
                ),
                rx.el.p(
                    "In our first year we have helped over 12 businesses, from medical practices and marinas to "
                    "realtors and retailers, replace busywork with systems that save them time every day."
                ),
                class_name=f"mt-6 space-y-4 {LEAD}",
            ),
        ),
        figures(
            facts,
            label_class="text-sm font-medium text-slate-600",
            value_class="text-4xl font-extrabold tracking-tight text-blue-800",
            item_class="flex flex-col gap-1 border-l-4 border-amber-400 pl-5",
            class_name="grid content-center gap-8",
        ),
        labelled_by="story-heading",
        layout="grid gap-12 lg:grid-cols-[3fr_2fr] lg:items-center",
    )


def _cta() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(
                "Let's build something great together",
                id="cta-heading",
                class_name="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl",
            ),
            rx.el.p(
                "Tell us where your business is headed and we'll show you how technology can get it there faster.",
                class_name="mx-auto mt-4 max-w-2xl text-lg text-blue-100",
            ),
            contact_cta("Start Your Journey With Us", class_name=f"{BUTTON_ACCENT} {BUTTON_LG} mt-8"),
            class_name=(
                "flex flex-col items-center rounded-3xl bg-blue-900 bg-[radial-gradient(ellipse_at_top_right,"
                "_rgb(59_130_246/0.45),_transparent_60%)] px-6 py-14 text-center shadow-xl sm:px-12 sm:py-16"
            ),
        ),
        aria_labelledby="cta-heading",
        class_name=f"{CONTAINER} pb-20 sm:pb-24",
    )


@public_page(
    routes.ABOUT,
    f"About Us | {AT_BUILD.name}",
    f"Meet the team behind {AT_BUILD.name}: a Port St. Lucie IT consultancy founded in 2025 that has "
    "helped over 12 local businesses with web, cloud and data projects.",
    on_load=AboutState.load,
)
def about_page() -> rx.Component:
    return site_layout(
        page_hero(
            "About us",
            "Your local partner for digital transformation",
            "We're a Port St. Lucie team of engineers and consultants helping Treasure Coast businesses grow with "
            "modern websites, cloud hosting, data and automation.",
            stat_tiles(STATS, dark=True, class_name="mt-10 grid grid-cols-2 gap-4 lg:grid-cols-4"),
        ),
        _mission(),
        _team(),
        _story(),
        _cta(),
    )
