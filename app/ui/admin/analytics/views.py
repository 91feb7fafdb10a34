"""Analytics: the page content: the period picker, the headline figures and the plain CSS bar charts."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.analytics.state import STATUS_BAR, AnalyticsState
from app.ui.admin.common import error_panel
from app.ui.admin.widgets import BTN_PRIMARY, CARD, field, page_header, text_input
from app.ui.rows import label_of

S = AnalyticsState


def _figure(title: str, value: rx.Var[str], note: Any, test_id: str) -> rx.Component:
    return rx.el.div(
        rx.el.p(title, class_name="text-sm font-medium text-slate-500"),
        rx.el.p(value, class_name="mt-1 text-2xl font-bold text-slate-900", data_testid=test_id),
        rx.el.p(note, class_name="mt-1 text-xs text-slate-500"),
        class_name=f"{CARD} p-4",
    )


def _panel(title: str, body: rx.Component, empty: rx.Var) -> rx.Component:
    return rx.el.section(
        rx.el.h2(title, class_name="mb-3 font-semibold text-slate-900"),
        rx.cond(empty, rx.el.p("No data for this period.", class_name="text-sm text-slate-500"), body),
        class_name=f"{CARD} min-w-0 p-5",
    )


def _bar_list(rows: rx.Var) -> rx.Component:  # of Bar
    return rx.el.ul(
        rx.foreach(
            rows,
            lambda r: rx.el.li(
                rx.el.span(r.label, class_name="w-32 shrink-0 truncate text-sm text-slate-600 sm:w-40"),
                rx.el.span(
                    rx.el.span(class_name=f"block h-3 rounded {r.color}", style={"width": r.width}),
                    class_name="flex-1",
                ),
                rx.el.span(r.value, class_name="w-20 shrink-0 text-right text-sm font-medium text-slate-900"),
                class_name="flex items-center gap-3",
            ),
        ),
        class_name="space-y-2",
    )


def _weeks_chart() -> rx.Component:
    legend = rx.el.div(
        *[
            rx.el.span(
                rx.el.span(class_name=f"inline-block h-2.5 w-2.5 rounded-sm {c}"),
                label_of(k),
                class_name="flex items-center gap-1",
            )
            for k, c in STATUS_BAR.items()
        ],
        class_name="mb-3 flex flex-wrap gap-3 text-xs text-slate-600",
    )
    rows = rx.el.ul(
        rx.foreach(
            S.weeks,
            lambda w: rx.el.li(
                rx.el.span(w.label, class_name="w-16 shrink-0 text-sm text-slate-600"),
                rx.el.span(
                    rx.foreach(
                        w.segments,
                        lambda seg: rx.el.span(
                            class_name=f"block h-3 {seg.color}",
                            style={"width": seg.width},
                            title=f"{seg.label}: {seg.value}",
                        ),
                    ),
                    class_name="flex flex-1 overflow-hidden rounded",
                ),
                rx.el.span(w.total, class_name="w-10 shrink-0 text-right text-sm font-medium text-slate-900"),
                class_name="flex items-center gap-3",
            ),
        ),
        class_name="space-y-2",
    )
    return rx.el.div(legend, rows)


def _money_chart() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.span(
                rx.el.span(class_name="inline-block h-2.5 w-2.5 rounded-sm bg-blue-500"),
                "Invoiced",
                class_name="flex items-center gap-1",
            ),
            rx.el.span(
                rx.el.span(class_name="inline-block h-2.5 w-2.5 rounded-sm bg-emerald-500"),
                "Paid",
                class_name="flex items-center gap-1",
            ),
            class_name="mb-3 flex gap-3 text-xs text-slate-600",
        ),
        rx.el.ul(
            rx.foreach(
                S.months,
                lambda m: rx.el.li(
                    rx.el.span(m.label, class_name="w-20 shrink-0 text-sm text-slate-600"),
                    rx.el.span(
                        rx.el.span(
                            class_name="block h-2.5 rounded bg-blue-500",
                            style={"width": m.invoiced.width},
                            title=m.invoiced.value,
                        ),
                        rx.el.span(
                            class_name="mt-1 block h-2.5 rounded bg-emerald-500",
                            style={"width": m.paid.width},
                            title=m.paid.value,
                        ),
                        class_name="flex-1",
                    ),
                    rx.el.span(
                        rx.el.span(m.invoiced.value, class_name="block"),
                        rx.el.span(m.paid.value, class_name="block text-emerald-700"),
                        class_name="w-24 shrink-0 text-right text-xs font-medium text-slate-900",
                    ),
                    class_name="flex items-center gap-3",
                ),
            ),
            class_name="space-y-3",
        ),
    )


def analytics_content() -> rx.Component:
    f = S
    picker = rx.el.form(
        field(
            "From",
            text_input(
                "start", id="analytics-start", type="date", min="1900-01-01", default_value=S.start, key=S.start
            ),
        ),
        field(
            "To", text_input("end", id="analytics-end", type="date", min="1900-01-01", default_value=S.end, key=S.end)
        ),
        rx.el.button("Apply", type="submit", class_name=f"{BTN_PRIMARY} self-end"),
        on_submit=S.apply,
        reset_on_submit=False,
        class_name="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end",
    )
    body = rx.el.div(
        rx.el.div(
            _figure("Inquiries", f.inquiries, "In the period, spam excluded", "figure-inquiries"),
            _figure("Conversion rate", f.conversion, f.conversion_note, "figure-conversion"),
            _figure("Upcoming meetings", f.meetings, "Scheduled in the next 30 days", "figure-meetings"),
            _figure("Invoiced", f.invoiced, rx.el.span("Paid: ", f.paid), "figure-invoiced"),
            class_name="grid gap-4 sm:grid-cols-2 xl:grid-cols-4",
        ),
        rx.el.div(
            _panel("Inquiries per week by status", _weeks_chart(), S.weeks.length() == 0),
            _panel("Inquiries by service", _bar_list(S.services), S.services.length() == 0),
            _panel("Invoiced vs paid per month", _money_chart(), S.months.length() == 0),
            _panel("Projects by status", _bar_list(S.projects), S.projects.length() == 0),
            _panel("Applications per opening", _bar_list(S.applications), S.applications.length() == 0),
            class_name="mt-6 grid gap-4 lg:grid-cols-2",
        ),
    )
    return rx.el.div(
        page_header(
            "Analytics",
            rx.el.span("Business figures for the chosen period, counted in days of ", S.zone, "."),
        ),
        picker,
        rx.cond(
            S.load_error != "",
            rx.el.div(error_panel("Failed to load analytics", S.load_error, S.retry)),
            rx.cond(
                S.loaded, body, rx.el.p("Loading analytics…", class_name="py-12 text-center text-sm text-slate-500")
            ),
        ),
    )
