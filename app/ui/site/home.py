"""The home page: hero, services, portfolio, testimonials and the contact form (sections in app/ui/site/sections/)."""

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.ui import routes
from app.ui.components.blocks import HERO_SURFACE, band, contact_cta, stat_tiles
from app.ui.layouts.site import site_layout
from app.ui.seo import public_page
from app.ui.site.sections.contact_form import ContactFormState, contact_form
from app.ui.site.sections.contact_info import contact_summary
from app.ui.site.sections.portfolio import PortfolioState, portfolio_section
from app.ui.site.sections.services import ServicesState, services_section
from app.ui.site.sections.testimonials import TestimonialsState, testimonials_section
from app.ui.state.company import AT_BUILD, CompanyState
from app.ui.styles import (
    BUTTON_ACCENT,
    BUTTON_GHOST_ON_DARK,
    BUTTON_LG,
    EYEBROW,
    HEADING_2,
    LEAD,
)

STATS: list[tuple[str, str]] = [("98%", "Client Satisfaction"), ("20+", "Projects Delivered")]


def _hero_copy() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            rx.icon("map-pin", size=14, class_name="text-amber-300"),
            "IT services for Port St. Lucie & the Treasure Coast",
            class_name=(
                "inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-xs "
                "font-medium text-blue-100 sm:text-sm"
            ),
        ),
        rx.el.h1(
            "Digital transformation that ",
            rx.el.span("moves your business forward", class_name="text-amber-300"),
            id="hero-heading",
            class_name="mt-6 text-4xl leading-[1.1] font-extrabold tracking-tight text-balance text-white "
            "sm:text-5xl xl:text-[3.5rem]",
        ),
        rx.el.p(
            "From custom websites and reliable hosting to BI dashboards, mobile apps and automated workflows, we help "
            "local businesses replace busywork and outdated systems with technology that pays for itself.",
            class_name="mt-6 max-w-xl text-lg leading-relaxed text-pretty text-blue-100",
        ),
        rx.el.div(
            contact_cta("Get Started Today", class_name=f"{BUTTON_ACCENT} {BUTTON_LG}"),
            ReactRouterLink.create(
                "Explore Services", to=routes.SERVICES, class_name=f"{BUTTON_GHOST_ON_DARK} {BUTTON_LG}"
            ),
            class_name="mt-9 flex flex-wrap gap-3",
        ),
        _trust_line(),
    )


def _trust_line() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            "Trusted by ",
            rx.el.strong("12+ businesses", class_name="font-semibold text-white"),
            class_name="text-sm text-blue-200",
        ),
        rx.el.ul(
            rx.foreach(
                CompanyState.client_badges,
                lambda name: rx.el.li(
                    rx.icon("building-2", size=14, class_name="text-blue-300"),
                    name,
                    class_name=(
                        "inline-flex items-center gap-1.5 rounded-md border border-white/10 bg-white/10 px-2.5 py-1 "
                        "text-xs font-medium text-white sm:text-sm"
                    ),
                ),
            ),
            aria_label="Some of our clients",
            class_name="mt-3 flex flex-wrap gap-2",
        ),
        class_name="mt-10 border-t border-white/10 pt-6",
    )


def _dashboard_mock() -> rx.Component:
    """A decorative "reporting dashboard" drawn with boxes (hidden from assistive technology)."""
    bars = ["h-10", "h-16", "h-12", "h-20", "h-16", "h-24", "h-28"]
    return rx.el.div(
        rx.el.div(
            rx.el.span(class_name="size-2.5 rounded-full bg-red-400/80"),
            rx.el.span(class_name="size-2.5 rounded-full bg-amber-400/80"),
            rx.el.span(class_name="size-2.5 rounded-full bg-emerald-400/80"),
            rx.el.span(class_name="ml-3 h-2.5 w-40 rounded-full bg-white/10"),
            class_name="flex items-center gap-1.5 border-b border-white/10 px-4 py-3",
        ),
        rx.el.div(
            rx.el.div(
                rx.el.div(class_name="h-2.5 w-24 rounded-full bg-white/25"),
                rx.el.div(class_name="mt-2 h-2 w-16 rounded-full bg-white/10"),
            ),
            rx.el.div(
                *[
                    rx.el.div(class_name=f"{h} flex-1 rounded-t-md bg-linear-to-t from-blue-500 to-sky-300")
                    for h in bars
                ],
                class_name="mt-6 flex h-28 items-end gap-2",
            ),
            rx.el.div(
                rx.el.div(class_name="h-12 rounded-lg bg-white/5"),
                rx.el.div(class_name="h-12 rounded-lg bg-white/5"),
                rx.el.div(class_name="h-12 rounded-lg bg-white/5"),
                class_name="mt-5 grid grid-cols-3 gap-3",
            ),
            class_name="p-5",
        ),
        aria_hidden="true",
        class_name="overflow-hidden rounded-2xl border border-white/15 bg-blue-900/60 shadow-2xl shadow-blue-950/50",
    )


def _hero() -> rx.Component:
    return band(
        _hero_copy(),
        rx.el.div(
            _dashboard_mock(),
            stat_tiles(STATS, dark=False, class_name="relative -mt-10 grid grid-cols-2 gap-4 px-4 sm:px-8"),
            class_name="w-full max-w-xl justify-self-center lg:max-w-none",
        ),
        labelled_by="hero-heading",
        layout="grid items-center gap-14 py-16 sm:py-20 lg:grid-cols-[7fr_5fr] lg:gap-12 lg:py-28",
        class_name=HERO_SURFACE,
    )


def _contact() -> rx.Component:
    return band(
        rx.el.div(
            rx.el.p("Get in touch", class_name=EYEBROW),
            rx.el.h2("Ready to start your project?", id="contact-heading", class_name=f"mt-3 {HEADING_2}"),
            rx.el.p(
                "Tell us what you need and get a free, no-obligation quote. We reply within 24 hours.",
                class_name=f"mt-4 {LEAD}",
            ),
            rx.el.div(contact_summary(), class_name="mt-8"),
            class_name="lg:col-span-2",
        ),
        rx.el.div(contact_form(), class_name="lg:col-span-3"),
        id="contact",
        labelled_by="contact-heading",
        layout="grid gap-12 lg:grid-cols-5",
    )


@public_page(
    routes.HOME,
    f"{AT_BUILD.name} | Web, Cloud & Digital Transformation in Port St. Lucie",
    f"{AT_BUILD.name} builds websites, hosting, BI reports, mobile apps and databases for businesses in "
    "Port St. Lucie and the Treasure Coast.",
    on_load=[
        ServicesState.load,
        PortfolioState.load,
        TestimonialsState.load,
        ContactFormState.reset_form,
    ],
)
def home_page() -> rx.Component:
    """The home page."""
    return site_layout(
        _hero(),
        services_section(),
        portfolio_section(),
        testimonials_section(),
        _contact(),
    )
