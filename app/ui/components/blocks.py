"""Building blocks shared by the public pages: the page title band, section bands and headings, card grids, figures,
skeletons, stars, badges, the forms' send button."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.ui import routes
from app.ui.styles import BUTTON_PRIMARY, CONTAINER, EYEBROW, HEADING_2, LEAD

# The dark surface of the home hero and of every inner page's title band.
HERO_SURFACE = (
    "relative overflow-hidden bg-blue-950 bg-[radial-gradient(ellipse_at_top_right,_rgb(37_99_235/0.45),"
    "_transparent_60%)]"
)


def page_hero(
    eyebrow: str, title: str, lead: str, *extra: rx.Component, heading_id: str = "page-heading"
) -> rx.Component:
    """The dark title band at the top of every inner page (same surface as the home hero)."""
    return band(
        rx.el.p(eyebrow, class_name="text-sm font-semibold tracking-wider text-amber-300 uppercase"),
        rx.el.h1(
            title,
            id=heading_id,
            class_name="mt-3 text-4xl font-extrabold tracking-tight text-balance text-white sm:text-5xl",
        ),
        rx.el.p(lead, class_name="mt-5 max-w-2xl text-lg leading-relaxed text-pretty text-blue-100"),
        *extra,
        labelled_by=heading_id,
        layout="py-16 sm:py-20",
        class_name=HERO_SURFACE,
    )


def section_heading(eyebrow: str, title: str, lead: str, *, heading_id: str) -> rx.Component:
    """Centred eyebrow, h2 and lead paragraph above a section's content."""
    return rx.el.div(
        rx.el.p(eyebrow, class_name=EYEBROW),
        rx.el.h2(title, id=heading_id, class_name=f"mt-3 {HEADING_2}"),
        rx.el.p(lead, class_name=f"mx-auto mt-4 max-w-2xl {LEAD}"),
        class_name="mx-auto max-w-3xl text-center",
    )


def band(
    *children: rx.Component,
    labelled_by: str,
    class_name: str = "bg-white py-20 sm:py-24",
    layout: str = "",
    **props: Any,
) -> rx.Component:
    """A full-width section of a page, named by its heading (`labelled_by`), its content in the page container
    (`layout`: more classes for that container, e.g. a grid)."""
    return rx.el.section(
        rx.el.div(*children, class_name=f"{CONTAINER} {layout}" if layout else CONTAINER),
        aria_labelledby=labelled_by,
        class_name=class_name,
        **props,
    )


def home_section(
    body: rx.Component,
    *,
    name: str,
    heading: tuple[str, str, str],
    with_title: bool,
    hidden_title: str,
    spacing: str,
    class_name: str,
) -> rx.Component:
    """A section of the home page (`heading`: eyebrow, title, lead) that is also the body of a page of its own
    (`with_title=False`): there the page's h1 names it, and an h2 only screen readers see (`hidden_title`) keeps the
    heading order above the cards' h3. `spacing` is the gap under the visible heading."""
    heading_id = f"{name}-heading"
    return band(
        section_heading(*heading, heading_id=heading_id)
        if with_title
        else rx.el.h2(hidden_title, class_name="sr-only"),
        rx.el.div(body, class_name=spacing if with_title else ""),
        id=name,
        labelled_by=heading_id if with_title else "page-heading",
        class_name=class_name,
    )


def icon_cards(items: list[tuple[str, str, str]]) -> rx.Component:
    """Cards of an icon, a title and a line of text (icon, title, text), four to a row on wide screens."""
    return rx.el.ul(
        *[
            rx.el.li(
                rx.el.div(
                    rx.icon(icon, size=24, aria_hidden="true"),
                    class_name="flex size-12 items-center justify-center rounded-xl bg-blue-50 text-blue-800",
                ),
                rx.el.h3(title, class_name="mt-5 text-lg font-bold text-slate-900"),
                rx.el.p(text, class_name="mt-2 text-sm leading-relaxed text-slate-600"),
                class_name="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm",
            )
            for icon, title, text in items
        ],
        class_name="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4",
    )


def figures(
    items: list[tuple[str, str]], *, label_class: str, value_class: str, item_class: str, class_name: str
) -> rx.Component:
    """Key figures (value, label): each label is the term and its value the description, shown above it."""
    return rx.el.dl(
        *[
            rx.el.div(
                rx.el.dt(label, class_name=label_class),
                rx.el.dd(value, class_name=f"order-first {value_class}"),
                class_name=item_class,
            )
            for value, label in items
        ],
        class_name=class_name,
    )


def stat_tiles(items: list[tuple[str, str]], *, dark: bool, class_name: str) -> rx.Component:
    """Key figures (value, label) as tiles: on the dark title surface, or raised white tiles on a light page."""
    label_tone, value_tone, surface = (
        ("text-blue-100", "text-white", "border border-white/10 bg-white/5 p-5")
        if dark
        else ("text-slate-600", "text-blue-800", "bg-white p-5 shadow-xl ring-1 ring-slate-900/5")
    )
    return figures(
        items,
        label_class=f"mt-1 text-sm font-medium {label_tone}",
        value_class=f"text-3xl font-extrabold tracking-tight {value_tone} sm:text-4xl",
        item_class=f"flex flex-col rounded-xl {surface}",
        class_name=class_name,
    )


def tag_list(tags: rx.Var, *, label: str, tag_class: str, class_name: str) -> rx.Component:
    """A named list of short tags (skills, technologies)."""
    return rx.el.ul(
        rx.foreach(tags.to(list[str]), lambda tag: rx.el.li(tag, class_name=tag_class)),
        aria_label=label,
        class_name=class_name,
    )


def contact_cta(label: str, *, class_name: str, icon_size: int = 18) -> rx.Component:
    """A call-to-action button, with an arrow, that leads to the contact page (and its free quote)."""
    return ReactRouterLink.create(
        label, rx.icon("arrow-right", size=icon_size), to=routes.CONTACT, class_name=class_name
    )


def new_tab_link(
    *content: Any,
    announced: tuple[Any, ...],
    href: Any,
    class_name: str,
    rel: str = "noopener noreferrer",
    **props: Any,
) -> rx.Component:
    """A link that opens in a new tab: after its visible `content`, screen readers also hear `announced` (what it is
    about) and that it opens a new tab."""
    return rx.el.a(
        *content,
        rx.el.span(*announced, " (opens in a new tab)", class_name="sr-only"),
        href=href,
        target="_blank",
        rel=rel,
        class_name=class_name,
        **props,
    )


def send_button(label: str, busy_label: str, *, busy: Any, disabled: Any, **props: Any) -> rx.Component:
    """A public form's submit button: a spinner and `busy_label` while it is sent."""
    return rx.el.button(
        rx.cond(
            busy,
            rx.fragment(rx.icon("loader-circle", size=18, class_name="animate-spin"), busy_label),
            rx.fragment(rx.icon("send", size=18), label),
        ),
        type="submit",
        disabled=disabled,
        class_name=f"{BUTTON_PRIMARY} h-12 w-full px-6 text-base sm:w-auto",
        **props,
    )


def required_note(lead: str) -> rx.Component:
    """'Fields marked * are required.' after a public form's send button (`lead` goes first)."""
    return rx.el.p(
        f"{lead}Fields marked ",
        rx.el.span("*", class_name="text-red-700"),
        " are required.",
        class_name="text-sm text-slate-600",
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


def card_grid(
    loaded: Any,
    items: Any,
    card: Any,
    *,
    label: str,
    class_name: str,
    skeleton_class: str = "grid gap-6 md:grid-cols-3",
    count: int = 3,
) -> rx.Component:
    """A card per item once `loaded`; until then `count` skeleton cards, announced once as `label`."""
    return rx.cond(
        loaded,
        rx.el.div(rx.foreach(items, card), class_name=class_name),
        skeleton_grid(count, label=label, class_name=skeleton_class),
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
