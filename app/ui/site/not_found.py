"""The 404 page (registered in app/app.py as Reflex's "404" route): shown for every unknown path."""

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.ui import routes
from app.ui.layouts.site import site_layout
from app.ui.styles import BUTTON_LG, BUTTON_OUTLINE, BUTTON_PRIMARY, CONTAINER, LEAD


def not_found_page() -> rx.Component:
    """Page Not Found, with Go Home and Go Back."""
    return site_layout(
        rx.el.section(
            rx.el.div(
                rx.el.p("Error 404", class_name="text-sm font-semibold tracking-wider text-blue-800 uppercase"),
                rx.el.h1(
                    "Page Not Found",
                    class_name="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl",
                ),
                rx.el.p(
                    "Sorry, we couldn't find the page you're looking for. It may have been moved, or the address "
                    "may be mistyped.",
                    class_name=f"mt-5 max-w-xl {LEAD}",
                ),
                rx.el.div(
                    ReactRouterLink.create(
                        rx.icon("house", size=18),
                        "Go Home",
                        to=routes.HOME,
                        class_name=f"{BUTTON_PRIMARY} {BUTTON_LG}",
                    ),
                    # site_shell.js handles [data-history-back]: history.back() (home if there is no history).
                    # rx.call_script would not do: it evals its code, and the CSP forbids eval.
                    rx.el.button(
                        rx.icon("arrow-left", size=18),
                        "Go Back",
                        type="button",
                        data_history_back=True,
                        class_name=f"{BUTTON_OUTLINE} {BUTTON_LG}",
                    ),
                    class_name="mt-10 flex flex-wrap items-center justify-center gap-3",
                ),
                class_name=f"{CONTAINER} flex flex-col items-center text-center",
            ),
            class_name="bg-linear-to-b from-slate-50 to-white py-24 sm:py-32",
        ),
    )
