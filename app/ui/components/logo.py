"""The company logo: the mark (assets/favicon.svg) and the company name, linking home."""

from typing import Literal

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.ui import routes
from app.ui.state.company import CompanyState
from app.ui.styles import FOCUS_RING, FOCUS_RING_ON_DARK

LOGO_MARK_SRC = "/favicon.svg"


def logo_link(*, tone: Literal["light", "dark"] = "light", compact_on_tablet: bool = False) -> rx.Component:
    """The logo as a link to "/"; on "/" itself it scrolls smoothly to the top (see site_shell.js).

    Args:
        tone: "light" for light backgrounds (dark text), "dark" for dark backgrounds (white text).
        compact_on_tablet: show only the mark between 768 and 1024 px, where the header row is tight.
    """
    text = "text-slate-900" if tone == "light" else "text-white"
    if compact_on_tablet:
        text += " md:max-lg:sr-only"
    focus = FOCUS_RING if tone == "light" else FOCUS_RING_ON_DARK
    return ReactRouterLink.create(
        rx.el.img(src=LOGO_MARK_SRC, alt="", width=36, height=36, class_name="size-9 shrink-0"),
        rx.el.span(CompanyState.name, class_name=f"text-lg leading-tight font-bold tracking-tight {text}"),
        to=routes.HOME,
        data_home_link=True,
        aria_label=f"{CompanyState.name}, home",
        class_name=f"inline-flex items-center gap-2.5 rounded-md {focus}",
    )
