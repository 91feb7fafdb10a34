"""Building blocks shared by the public pages: the page title band, section headings, skeletons, stars, badges."""

from __future__ import annotations

import reflex as rx

from app.ui.styles import CONTAINER, EYEBROW, HEADING_2, LEAD


def page_hero(
    eyebrow: str, title: str, lead: str, *extra: rx.Component, heading_id: str = "page-heading"
) -> rx.Component:
    """The dark title band at the top of every inner page (same surface as the home hero)."""
    return rx.el.section(
        rx.el.div(
            rx.el.p(eyebrow, class_name="text-sm font-semibold tracking-wider text-amber-300 uppercase"),
            rx.el.h1(
                title,
                id=heading_id,
                class_name="mt-3 text-4xl font-extrabold tracking-tight text-balance text-white sm:text-5xl",
            ),
            rx.el.p(lead, class_name="mt-5 max-w-2xl text-lg leading-relaxed text-pretty text-blue-100"),
            *extra,
            class_name=f"{CONTAINER} py-16 sm:py-20",
        ),
        aria_labelledby=heading_id,
        class_name=(
            "relative overflow-hidden bg-blue-950 bg-[radial-gradient(ellipse_at_top_right,_rgb(37_99_235/0.45),"
            "_transparent_60%)]"
        ),
    )


def section_heading(eyebrow: str, title: str, lead: str, *, heading_id: str) -> rx.Component:
    """Centred eyebrow, h2 and lead paragraph above a section's content."""
    return rx.el.div(
        rx.el.p(eyebrow, class_name=EYEBROW),
        rx.el.h2(title, id=heading_id, class_name=f"mt-3 {HEADING_2}"),
        rx.el.p(lead, class_name=f"mx-auto mt-4 max-w-2xl {LEAD}"),
        class_name="mx-auto max-w-3xl text-center",
    )


def skeleton_card(*, lines: int = 3) -> rx.Component:
    """A grey placeholder card with a pulsing shimmer (hidden from assistive technology but one label)."""
    return rx.el.div(
        rx.el.div(class_name="size-12 rounded-xl bg-slate-200"),
        rx.el.div(class_name="mt-5 h-5 w-2/3 rounded bg-slate-200"),
        *[rx.el.div(class_name="mt-3 h-3.5 w-full rounded bg-slate-100") for _ in range(lines)],
        rx.el.div(class_name="mt-3 h-3.5 w-1/2 rounded bg-slate-100"),
        aria_hidden="true",
        data_skeleton=True,
        class_name="animate-pulse rounded-2xl border border-slate-200 bg-white p-6 motion-reduce:animate-none",
    )


def skeleton_grid(count: int = 3, *, label: str, class_name: str = "grid gap-6 md:grid-cols-3") -> rx.Component:
    """`count` skeleton cards in a grid, announced once as busy to screen readers."""
    return rx.el.div(
        rx.el.span(label, class_name="sr-only"),
        *[skeleton_card() for _ in range(count)],
        role="status",
        aria_busy="true",
        class_name=class_name,
    )


def stars(rating: rx.Var | int, *, size: int = 16) -> rx.Component:
    """Five stars, `rating` of them filled, with a text alternative."""
    rating_var = rx.Var.create(rating).to(int)
    return rx.el.div(
        *[
            rx.icon(
                "star",
                size=size,
                class_name=rx.cond(rating_var >= i, "fill-amber-400 text-amber-400", "fill-slate-200 text-slate-200"),
                aria_hidden="true",
            )
            for i in range(1, 6)
        ],
        role="img",
        aria_label=f"Rated {rating_var} out of 5",
        class_name="flex items-center gap-0.5",
    )


def badge(text: str | rx.Var, *, tone: str = "blue", icon: str | None = None) -> rx.Component:
    """A small pill. Tones: blue, green, amber, slate (class strings written out for Tailwind's scanner)."""
    tones = {
        "blue": "bg-blue-50 text-blue-800 ring-blue-200",
        "green": "bg-emerald-50 text-emerald-800 ring-emerald-200",
        "amber": "bg-amber-100 text-amber-900 ring-amber-300",
        "slate": "bg-slate-100 text-slate-700 ring-slate-200",
    }
    return rx.el.span(
        *([rx.icon(icon, size=12, aria_hidden="true")] if icon else []),
        text,
        class_name=(
            "inline-flex shrink-0 items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold "
            f"whitespace-nowrap ring-1 ring-inset {tones[tone]}"
        ),
    )


def initials_avatar(initials: rx.Var | str, *, size: str = "size-16 text-xl") -> rx.Component:
    """A round avatar with initials (decorative: the name is always next to it)."""
    return rx.el.div(
        initials,
        aria_hidden="true",
        class_name=(
            f"flex shrink-0 items-center justify-center rounded-full bg-linear-to-br from-blue-700 to-blue-950 "
            f"font-bold text-white {size}"
        ),
    )
