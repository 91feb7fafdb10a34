"""The legal pages (/privacy, /terms), registered alike: title band, effective date, contents and sections."""

from __future__ import annotations

import reflex as rx

from app.ui.components.blocks import page_hero
from app.ui.layouts.site import site_layout
from app.ui.seo import public_page
from app.ui.state.company import AT_BUILD
from app.ui.styles import CONTAINER, FOCUS_RING

EFFECTIVE_DATE = "October 16, 2025"  # spec section 9

# A section: (anchor id, heading, paragraphs; a paragraph given as a list is rendered as bullet points, one given as
# a component, e.g. one that shows the company's current contact details, as it is).
Section = tuple[str, str, list[str | list[str] | rx.Component]]


def _paragraph(p: str | list[str] | rx.Component) -> rx.Component:
    if isinstance(p, rx.Component):
        return p
    if isinstance(p, list):
        return rx.el.ul(*[rx.el.li(item) for item in p], class_name="list-disc space-y-2 pl-6")
    return rx.el.p(p)


def _legal_page(title: str, lead: str, sections: list[Section]) -> rx.Component:
    toc = rx.el.nav(
        rx.el.h2(
            "Contents", id="toc-heading", class_name="text-sm font-semibold tracking-wider text-slate-900 uppercase"
        ),
        rx.el.ol(
            *[
                rx.el.li(
                    rx.el.a(
                        f"{i}. {heading}",
                        href=f"#{anchor}",
                        class_name=f"rounded-sm text-sm text-slate-600 hover:text-blue-800 {FOCUS_RING}",
                    )
                )
                for i, (anchor, heading, _) in enumerate(sections, start=1)
            ],
            class_name="mt-4 space-y-2",
        ),
        aria_labelledby="toc-heading",
        class_name="self-start rounded-2xl border border-slate-200 bg-white p-6 lg:sticky lg:top-24",
    )
    body = rx.el.div(
        *[
            rx.el.section(
                rx.el.h2(f"{i}. {heading}", id=anchor, class_name="scroll-mt-24 text-2xl font-bold text-slate-900"),
                rx.el.div(*[_paragraph(p) for p in paragraphs], class_name="mt-4 space-y-4 leading-relaxed"),
                aria_labelledby=anchor,
            )
            for i, (anchor, heading, paragraphs) in enumerate(sections, start=1)
        ],
        class_name="min-w-0 max-w-3xl space-y-12 text-slate-700",
    )
    return site_layout(
        page_hero(
            "Legal",
            title,
            lead,
            rx.el.p(
                rx.icon("calendar", size=16, aria_hidden="true"),
                f"Effective {EFFECTIVE_DATE}",
                data_effective_date=True,
                class_name="mt-6 inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 "
                "py-1 text-sm font-medium text-blue-100",
            ),
        ),
        rx.el.div(
            rx.el.div(toc, body, class_name=f"{CONTAINER} grid gap-10 lg:grid-cols-[16rem_1fr] lg:gap-16"),
            class_name="bg-slate-50 py-16 sm:py-20",
        ),
    )


def legal_page(route: str, title: str, summary: str, lead: str, sections: list[Section]) -> None:
    """Registers a legal page: `title` heads it and names it in search results, whose description is `summary` and
    the effective date."""

    def page() -> rx.Component:
        return _legal_page(title, lead, sections)

    public_page(route, f"{title} | {AT_BUILD.name}", f"{summary} Effective {EFFECTIVE_DATE}.")(page)
