"""Analytics (/admin/analytics, analytics:read): the figures of analytics.report for a chosen period (default the last
90 days), with plain CSS bar charts: inquiries per week by status, by service, invoiced vs paid per month, projects by
status, applications per opening, conversion and upcoming meetings."""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.services import analytics
from app.ui.admin.common import dollars, error_panel, form_text, label_of
from app.ui.admin.inquiries.state import SERVICE_LABELS
from app.ui.admin.state import AdminState, as_actor, error_text
from app.ui.admin.widgets import BTN_PRIMARY, CARD, field, page_header, text_input

FEATURE = "Analytics"
DEFAULT_DAYS = 90
STATUS_BAR = {
    "new": "bg-blue-500",
    "in_progress": "bg-amber-400",
    "resolved": "bg-emerald-500",
    "closed": "bg-slate-400",
}
PROJECT_BAR = {
    "planning": "bg-blue-500",
    "in_progress": "bg-amber-400",
    "review": "bg-violet-500",
    "completed": "bg-emerald-500",
    "cancelled": "bg-red-500",
}


@dataclasses.dataclass
class Bar:
    """A row of a bar chart: what, how much, the bar's width (a CSS percentage) and its colour class."""

    label: str = ""
    value: str = ""
    width: str = "0%"
    color: str = "bg-blue-500"


@dataclasses.dataclass
class Segment:
    """A status's part of a week's stacked bar."""

    color: str = ""
    width: str = "0%"
    title: str = ""


@dataclasses.dataclass
class Week:
    label: str = ""
    total: str = ""
    segments: list[Segment] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Month:
    label: str = ""
    invoiced: str = ""
    paid: str = ""
    invoiced_width: str = "0%"
    paid_width: str = "0%"


@dataclasses.dataclass
class Figures:
    inquiries: str = ""
    conversion: str = ""
    conversion_note: str = ""
    meetings: str = ""
    invoiced: str = ""
    paid: str = ""


@dataclasses.dataclass
class Shaped:
    """The report as display rows (every value a string)."""

    figures: Figures
    weeks: list[Week]
    services: list[Bar]
    months: list[Month]
    projects: list[Bar]
    applications: list[Bar]


def _pct(value: float, top: float) -> str:
    return f"{(100 * value / top) if top else 0:.1f}%"


def _bars(pairs: list[tuple[str, float]], colors: dict[str, str] | None = None) -> list[Bar]:
    top = max((v for _, v in pairs), default=0)
    return [
        Bar(
            label=label_of(k) if colors is not None else k,
            value=str(v),
            width=_pct(v, top),
            color=(colors or {}).get(k, "bg-blue-500"),
        )
        for k, v in pairs
    ]


def shape(report: dict[str, Any]) -> Shaped:
    """The report as display rows (every value a string)."""
    weeks: dict[str, dict[str, int]] = {}
    for row in report["inquiries_by_week_status"]:
        weeks.setdefault(row["week"], {})[row["status"]] = int(row["count"])
    top = max((sum(v.values()) for v in weeks.values()), default=0)
    week_rows = [
        Week(
            label=date.fromisoformat(w).strftime("%b %-d"),
            total=str(sum(counts.values())),
            segments=[
                Segment(STATUS_BAR.get(st, "bg-slate-400"), _pct(n, top), f"{label_of(st)}: {n}")
                for st, n in sorted(counts.items())
            ],
        )
        for w, counts in sorted(weeks.items())
    ]
    services: dict[str, int] = {}
    for row in report["inquiries_by_week_service"]:
        name = SERVICE_LABELS.get(row["service"], label_of(row["service"]))
        services[name] = services.get(name, 0) + int(row["count"])
    money = report["billing_by_month"]
    top_money = max((max(Decimal(m["invoiced"]), Decimal(m["paid"])) for m in money), default=Decimal(0))
    months = [
        Month(
            label=date.fromisoformat(m["month"]).strftime("%b %Y"),
            invoiced=dollars(m["invoiced"]),
            paid=dollars(m["paid"]),
            invoiced_width=_pct(float(m["invoiced"]), float(top_money)),
            paid_width=_pct(float(m["paid"]), float(top_money)),
        )
        for m in money
    ]
    conv = report["conversion"]
    projects = report["projects_by_status"]
    return Shaped(
        figures=Figures(
            inquiries=str(report["inquiries_total"]),
            conversion=f"{conv['rate'] * 100:.1f}%",
            conversion_note=f"{conv['became_clients']} of {conv['senders']} senders became clients",
            meetings=str(report["upcoming_meetings_30_days"]),
            invoiced=dollars(sum((Decimal(m["invoiced"]) for m in money), Decimal(0))),
            paid=dollars(sum((Decimal(m["paid"]) for m in money), Decimal(0))),
        ),
        weeks=week_rows,
        services=_bars(sorted(services.items(), key=lambda kv: -kv[1])),
        months=months,
        projects=_bars([(k, projects.get(k, 0)) for k in PROJECT_BAR], PROJECT_BAR),
        applications=_bars(sorted(report["applications_by_opening"].items())),
    )


class AnalyticsState(AdminState):
    start: str = ""
    end: str = ""
    # rx.Field: the type checker then sees a Var on the class (the views) and the value on an instance (the handlers).
    # The headline figures, one field each (a dataclass field reads as an array to the type checker).
    inquiries: rx.Field[str] = rx.field("")
    conversion: rx.Field[str] = rx.field("")
    conversion_note: rx.Field[str] = rx.field("")
    meetings: rx.Field[str] = rx.field("")
    invoiced: rx.Field[str] = rx.field("")
    paid: rx.Field[str] = rx.field("")
    weeks: rx.Field[list[Week]] = rx.field(default_factory=list)
    services: rx.Field[list[Bar]] = rx.field(default_factory=list)
    months: rx.Field[list[Month]] = rx.field(default_factory=list)
    projects: rx.Field[list[Bar]] = rx.field(default_factory=list)
    applications: rx.Field[list[Bar]] = rx.field(default_factory=list)
    load_error: str = ""
    loaded: bool = False

    async def _reload(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.analytics_read, FEATURE, quiet=quiet)
        if actor is None:
            return
        try:
            start, end = date.fromisoformat(self.start), date.fromisoformat(self.end)
            report = await as_actor(actor, lambda s, a: analytics.report(s, actor=a, start=start, end=end))
        except Exception as exc:
            self.load_error = error_text(exc, "There was an error loading the analytics.")
            return
        data = shape(report)
        self.load_error = ""
        f = data.figures
        self.inquiries, self.conversion, self.conversion_note = f.inquiries, f.conversion, f.conversion_note
        self.meetings, self.invoiced, self.paid = f.meetings, f.invoiced, f.paid
        self.weeks, self.services, self.months = data.weeks, data.services, data.months
        self.projects, self.applications = data.projects, data.applications
        self.loaded = True

    @rx.event
    async def load(self) -> None:
        today = date.today()
        self.start, self.end = (today - timedelta(days=DEFAULT_DAYS)).isoformat(), today.isoformat()
        await self._reload(quiet=True)

    @rx.event
    async def apply(self, form: dict[str, Any]) -> None:
        self.start, self.end = form_text(form, "start", 10), form_text(form, "end", 10)
        await self._reload()

    @rx.event
    async def retry(self) -> None:
        await self._reload()


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
                            class_name=f"block h-3 {seg.color}", style={"width": seg.width}, title=seg.title
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
                            style={"width": m.invoiced_width},
                            title=m.invoiced,
                        ),
                        rx.el.span(
                            class_name="mt-1 block h-2.5 rounded bg-emerald-500",
                            style={"width": m.paid_width},
                            title=m.paid,
                        ),
                        class_name="flex-1",
                    ),
                    rx.el.span(
                        rx.el.span(m.invoiced, class_name="block"),
                        rx.el.span(m.paid, class_name="block text-emerald-700"),
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
        page_header("Analytics", "Business figures for the chosen period (UTC days)."),
        picker,
        rx.cond(
            S.load_error != "",
            rx.el.div(error_panel("Failed to load analytics", S.load_error, S.retry)),
            rx.cond(
                S.loaded, body, rx.el.p("Loading analytics…", class_name="py-12 text-center text-sm text-slate-500")
            ),
        ),
    )
