"""The layout of every public page: skip link, sticky header, main content, footer."""

import reflex as rx

from app.ui.components.footer import site_footer
from app.ui.components.header import site_header
from app.ui.components.logo import LOGO_MARK_SRC
from app.ui.components.page_content import page_content
from app.ui.components.site_shell import site_shell_behaviour
from app.ui.components.toast_bridge import toast_bridge

MAIN_ID = "main-content"


def site_layout(*children: rx.Component) -> rx.Component:
    """Wraps a public page's sections in the site shell; sections bring their own container and spacing."""
    return rx.el.div(
        # React hoists <link> into <head>.
        rx.el.link(rel="icon", href=LOGO_MARK_SRC, type="image/svg+xml"),
        rx.el.a(
            "Skip to main content",
            href=f"#{MAIN_ID}",
            class_name=(
                "sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-lg "
                "focus:bg-white focus:px-4 focus:py-2 focus:font-semibold focus:text-blue-800 focus:shadow-lg "
                "focus:outline-2 focus:outline-blue-600"
            ),
        ),
        site_header(),
        rx.el.main(*children, id=MAIN_ID, tab_index=-1, class_name="flex-1 focus:outline-none"),
        site_footer(),
        site_shell_behaviour(),
        page_content(),
        toast_bridge(),
        # "true" once the websocket has hydrated the page and its on_load handlers ran (tests and forms wait for it).
        data_hydrated=rx.State.is_hydrated,
        class_name="flex min-h-dvh flex-col bg-white font-sans text-slate-700 antialiased",
    )


def section_page(hero: rx.Component, section: rx.Component) -> rx.Component:
    """A page that is its title band over one of the home page's sections (/services, /portfolio): opening it
    scrolls to the top (spec; site_shell.js reads the attribute)."""
    return site_layout(rx.el.div(hero, section, data_scroll_top_on_open=True))
