"""The contact details cards beside the contact form: e-mails, phone, business hours, Book a Meeting."""

from __future__ import annotations

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.ui import routes
from app.ui.state.company import CompanyState as C
from app.ui.styles import BUTTON_OUTLINE, TEXT_LINK

BUSINESS_HOURS: list[tuple[str, str]] = [
    ("Mon-Fri", "9:00 AM to 6:00 PM EST"),
    ("Sat", "10:00 AM to 4:00 PM EST"),
    ("Sun", "Closed"),
]


def _card(icon: str, title: str, *body: rx.Component) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.icon(icon, size=20, aria_hidden="true"),
            class_name="flex size-10 shrink-0 items-center justify-center rounded-lg bg-blue-50 text-blue-800",
        ),
        rx.el.div(
            rx.el.h3(title, class_name="font-semibold text-slate-900"),
            *body,
            class_name="min-w-0 space-y-1",
        ),
        class_name="flex gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm",
    )


def _mail(label: str, address: rx.Var | str) -> rx.Component:
    return rx.el.p(
        rx.el.span(label, class_name="block text-sm text-slate-600"),
        rx.el.a(address, href=f"mailto:{address}", class_name=f"{TEXT_LINK} text-sm break-all"),
    )


def contact_info() -> rx.Component:
    return rx.el.div(
        _card(
            "mail",
            "Email Us",
            _mail("General inquiries", C.email),
            _mail("Sales and partnerships", C.sales_email),
        ),
        _card(
            "phone",
            "Call Us",
            rx.el.a(C.phone, href=C.phone_href, class_name=f"{TEXT_LINK} text-sm"),
        ),
        _card(
            "clock",
            "Business Hours",
            rx.el.dl(
                *[
                    rx.el.div(
                        rx.el.dt(day, class_name="font-medium text-slate-800"),
                        rx.el.dd(hours, class_name="text-slate-600"),
                        class_name="grid grid-cols-[4rem_1fr] gap-2",
                    )
                    for day, hours in BUSINESS_HOURS
                ],
                class_name="space-y-1 text-sm",
            ),
        ),
        _card(
            "calendar-clock",
            "Prefer to talk it through?",
            rx.el.p("Pick a time for a free consultation with our team.", class_name="text-sm text-slate-600"),
            ReactRouterLink.create(
                rx.icon("calendar-plus", size=16, aria_hidden="true"),
                "Book a Meeting",
                to=routes.BOOK_MEETING,
                class_name=f"{BUTTON_OUTLINE} mt-2 h-10 px-4 text-sm",
            ),
        ),
        class_name="space-y-4",
    )


def _summary_row(icon: str, *content: rx.Component | str) -> rx.Component:
    return rx.el.li(
        rx.el.span(
            rx.icon(icon, size=18, aria_hidden="true"),
            class_name="flex size-9 shrink-0 items-center justify-center rounded-lg bg-blue-50 text-blue-800",
        ),
        rx.el.div(*content, class_name="min-w-0 pt-1.5 text-sm text-slate-700"),
        class_name="flex items-start gap-3",
    )


def contact_summary() -> rx.Component:
    """A compact version of the cards, beside the home page's form."""
    return rx.el.ul(
        _summary_row("mail", rx.el.a(C.email, href=f"mailto:{C.email}", class_name=f"{TEXT_LINK} break-all")),
        _summary_row("phone", rx.el.a(C.phone, href=C.phone_href, class_name=TEXT_LINK)),
        _summary_row("clock", "Mon-Fri 9:00 AM to 6:00 PM EST, Sat 10:00 AM to 4:00 PM EST, Sun closed"),
        _summary_row(
            "calendar-clock",
            "Prefer to talk? ",
            ReactRouterLink.create("Book a Meeting", to=routes.BOOK_MEETING, class_name=TEXT_LINK),
        ),
        class_name="space-y-4",
    )
