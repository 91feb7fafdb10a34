"""The account pages' own frame: a slim top bar with the company name, a centered card, and the toasts."""

from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.components.logo import logo_link
from app.ui.components.session_watch import session_watch
from app.ui.components.toast_bridge import toast_bridge
from app.ui.state.company import CompanyState


def _top_bar() -> rx.Component:
    return rx.el.header(
        rx.el.div(
            logo_link(),  # the site's own logo (issue 26: these pages had a letter in a square of their own)
            rx.el.a(
                rx.icon("arrow_left", size=16),
                rx.el.span("Back to site"),
                href=routes.HOME,
                class_name="flex shrink-0 items-center gap-1 text-sm text-slate-600 hover:text-blue-700",
            ),
            class_name="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6",
        ),
        class_name="border-b border-slate-200 bg-white",
    )


def card_header(title: str | rx.Var, subtitle: str | rx.Var | None = None) -> rx.Component:
    return rx.el.div(
        rx.el.h1(title, class_name="text-2xl font-bold tracking-tight text-slate-900"),
        *([rx.el.p(subtitle, class_name="mt-1.5 text-sm text-slate-600")] if subtitle is not None else []),
        class_name="mb-6",
    )


def auth_layout(*children: rx.Component, width: str = "max-w-md") -> rx.Component:
    """A page of the account area: `children` go into one centered card (`width` is a Tailwind max-width)."""
    return rx.el.div(
        _top_bar(),
        rx.el.main(
            rx.el.div(
                *children,
                class_name=f"w-full {width} rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8",
            ),
            class_name="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-12",
        ),
        rx.el.footer(
            "© ",
            CompanyState.name,
            class_name="py-6 text-center text-xs text-slate-500",
            on_mount=CompanyState.load,
        ),
        toast_bridge(),
        session_watch(),  # inert until someone is signed in
        class_name="flex min-h-screen flex-col bg-slate-50 font-sans",
    )
