"""Analytics: state: the report of analytics.report for the chosen period, shaped into display rows."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.services.crm import contact
from app.services.reporting import analytics
from app.services.reporting.analytics import AnalyticsReport
from app.ui.admin.business_time import zone_label
from app.ui.admin.common import dollars, form_text
from app.ui.admin.state import AdminState
from app.ui.rows import label_of

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
    """A bar of a chart: what, how much, the bar's width (a CSS percentage) and its colour class. A row of a bar
    chart, a status's part of a week's stacked bar, a month's invoiced or paid amount."""

    label: str = ""
    value: str = ""
    width: str = "0%"
    color: str = "bg-blue-500"


@dataclasses.dataclass
class Week:
    label: str = ""
    total: str = ""
    segments: list[Bar] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Month:
    label: str = ""
    invoiced: Bar = dataclasses.field(default_factory=Bar)
    paid: Bar = dataclasses.field(default_factory=Bar)


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


def shape(report: AnalyticsReport) -> Shaped:
    """The report as display rows (every value a string)."""
    weeks: dict[str, dict[str, int]] = {}
    for row in report.inquiries_by_week_status:
        weeks.setdefault(row.week, {})[row.status] = row.count
    top = max((sum(v.values()) for v in weeks.values()), default=0)
    week_rows = [
        Week(
            label=date.fromisoformat(w).strftime("%b %-d"),
            total=str(sum(counts.values())),
            segments=[
                Bar(label_of(st), str(n), _pct(n, top), STATUS_BAR.get(st, "bg-slate-400"))
                for st, n in sorted(counts.items())
            ],
        )
        for w, counts in sorted(weeks.items())
    ]
    services: dict[str, int] = {}
    for svc in report.inquiries_by_week_service:
        name = contact.SERVICE_OPTIONS.get(svc.service, label_of(svc.service))
        services[name] = services.get(name, 0) + svc.count
    money = report.billing_by_month
    top_money = max((max(Decimal(m.invoiced), Decimal(m.paid)) for m in money), default=Decimal(0))
    months = [
        Month(
            label=date.fromisoformat(m.month).strftime("%b %Y"),
            invoiced=Bar(value=dollars(m.invoiced), width=_pct(float(m.invoiced), float(top_money))),
            paid=Bar(value=dollars(m.paid), width=_pct(float(m.paid), float(top_money))),
        )
        for m in money
    ]
    conv = report.conversion
    projects = report.projects_by_status
    return Shaped(
        figures=Figures(
            inquiries=str(report.inquiries_total),
            conversion=f"{conv.rate * 100:.1f}%",
            conversion_note=f"{conv.became_clients} of {conv.senders} senders became clients",
            meetings=str(report.upcoming_meetings_30_days),
            invoiced=dollars(sum((Decimal(m.invoiced) for m in money), Decimal(0))),
            paid=dollars(sum((Decimal(m.paid) for m in money), Decimal(0))),
        ),
        weeks=week_rows,
        services=_bars(sorted(services.items(), key=lambda kv: -kv[1])),
        months=months,
        projects=_bars([(k, projects.get(k, 0)) for k in PROJECT_BAR], PROJECT_BAR),
        applications=_bars(sorted(report.applications_by_opening.items())),
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
    zone: str = ""  # "New York (EST)": the business zone whose days the period counts

    async def _reload(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.analytics_read, FEATURE, quiet=quiet)
        if actor is None:
            return
        start, end = self.start, self.end  # a date the browser garbled fails as the read does
        self.load_error, report = await self._read(
            actor,
            lambda s, a: analytics.report(s, actor=a, start=date.fromisoformat(start), end=date.fromisoformat(end)),
            "There was an error loading the analytics.",
        )
        if report is None:
            return
        data = shape(report)
        f = data.figures
        self.inquiries, self.conversion, self.conversion_note = f.inquiries, f.conversion, f.conversion_note
        self.meetings, self.invoiced, self.paid = f.meetings, f.invoiced, f.paid
        self.weeks, self.services, self.months = data.weeks, data.services, data.months
        self.projects, self.applications = data.projects, data.applications
        self.loaded = True

    @rx.event
    async def load(self) -> None:
        today = analytics.business_today()
        self.zone = await asyncio.to_thread(zone_label)
        self.start, self.end = (today - timedelta(days=DEFAULT_DAYS)).isoformat(), today.isoformat()
        await self._reload(quiet=True)

    @rx.event
    async def apply(self, form: dict[str, Any]) -> None:
        self.start, self.end = form_text(form, "start", 10), form_text(form, "end", 10)
        await self._reload()

    @rx.event
    async def retry(self) -> None:
        await self._reload()
