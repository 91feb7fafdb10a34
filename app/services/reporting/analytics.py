"""Business figures for the analytics section, computed in SQL over a chosen period (PostgreSQL and SQLite)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from pydantic import BaseModel
from sqlalchemy import and_, func, literal_column
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, col, select

from app.core.errors import Invalid
from app.core.permissions import Perm
from app.models.billing import Invoice
from app.models.careers import JobApplication
from app.models.enums import InvoiceStatus, MeetingStatus, Role
from app.models.inquiry import ContactInquiry
from app.models.meeting import Meeting
from app.models.project import Project
from app.models.user import User
from app.services.platform import company
from app.services.platform import validation as v
from app.services.platform.access import require

MAX_DAYS = 800
ZONE_NAME = re.compile(r"[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+)*")
DEFAULT_DAYS = 90


def _zone_literal() -> ColumnElement[Any]:
    """The business time zone's name as an SQL literal (not a bound parameter: PostgreSQL must see one expression in
    SELECT and GROUP BY). Names come from the tz database; anything else is refused rather than quoted."""
    name = company.zone().key
    if not ZONE_NAME.fullmatch(name):
        raise ValueError(f"unexpected time zone name {name!r}")
    return literal_column(f"'{name}'")


def _bucket(s: Session, column: Any, unit: str, *, moment: bool = False) -> ColumnElement[Any]:
    """The first day of the week (Monday) or month of a date column, or of a stored moment's day in the business time
    zone (`moment`), as text YYYY-MM-DD."""
    postgres = s.get_bind().dialect.name == "postgresql"
    if moment:  # the business's wall clock: an inquiry sent at 10 PM in Florida is that day's
        column = func.timezone(_zone_literal(), column) if postgres else func.local_time(column, _zone_literal())
    if postgres:
        return func.to_char(func.date_trunc(literal_column(f"'{unit}'"), column), literal_column("'YYYY-MM-DD'"))
    if unit == "month":
        return func.strftime("%Y-%m-01", column)
    # SQLite: step back to Monday (strftime %w: Sunday = 0).
    return func.date(column, func.printf("-%d days", (func.strftime("%w", column) + 6) % 7))


def _window(start: date, end: date) -> tuple[datetime, datetime]:
    errors = {f: p for f, d in (("start", start), ("end", end)) if (p := v.date_problem(d, f.capitalize()))}
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    if end < start:
        raise Invalid("The period's end is before its start", errors={"end": "End is before start"})
    if (end - start).days > MAX_DAYS:
        raise Invalid("Choose a period of at most about two years", errors={"start": "Period too long"})
    # The days are the business's: from its midnight at the start to its midnight after the end.
    zone = company.zone()
    since, until = datetime.combine(start, time.min, zone), datetime.combine(end + timedelta(days=1), time.min, zone)
    return since.astimezone(UTC), until.astimezone(UTC)


class Period(BaseModel):
    start: str
    end: str


class WeekStatusCount(BaseModel):
    week: str  # the Monday the week starts on (ISO date)
    status: str
    count: int


class WeekServiceCount(BaseModel):
    week: str
    service: str  # "unspecified" when the form named none
    count: int


class Conversion(BaseModel):
    """Of the distinct addresses that sent an inquiry in the period, how many belong to a client account."""

    senders: int
    became_clients: int
    rate: float


class MonthMoney(BaseModel):
    month: str  # the first day of the month (ISO date)
    invoiced: str
    paid: str


class AnalyticsReport(BaseModel):
    """The analytics page's figures for a period (inclusive days). Money is text with two decimals."""

    period: Period
    inquiries_total: int
    inquiries_by_week_status: list[WeekStatusCount]
    inquiries_by_week_service: list[WeekServiceCount]
    conversion: Conversion
    projects_by_status: dict[str, int]
    billing_by_month: list[MonthMoney]
    upcoming_meetings_30_days: int
    applications_by_opening: dict[str, int]


def report(s: Session, *, actor: User, start: date | None = None, end: date | None = None) -> AnalyticsReport:
    """Every figure of the analytics page for the period [start, end] (inclusive days of the business time zone;
    default the last 90)."""
    require(actor, Perm.analytics_read, "view analytics")
    end = end or business_today()
    if start is None:
        # The last 90 days up to `end`, never before the calendar; no arithmetic on an end outside it (_window says so).
        start = end if v.date_problem(end, "End") else max(v.EARLIEST_DATE, end - timedelta(days=DEFAULT_DAYS - 1))
    since, until = _window(start, end)
    real = and_(
        col(ContactInquiry.is_spam).is_(False),
        col(ContactInquiry.created_at) >= since,
        col(ContactInquiry.created_at) < until,
    )
    week = _bucket(s, ContactInquiry.created_at, "week", moment=True)
    by_status = s.exec(
        select(week, ContactInquiry.status, func.count())
        .where(real)
        .group_by(week, ContactInquiry.status)
        .order_by(week)
    ).all()
    # Literal (not bound) fallbacks, so PostgreSQL sees the same expression in SELECT and GROUP BY.
    service = func.coalesce(ContactInquiry.service_type, literal_column("'unspecified'"))
    by_service = s.exec(select(week, service, func.count()).where(real).group_by(week, service).order_by(week)).all()
    total_inquiries = int(s.exec(select(func.count()).select_from(ContactInquiry).where(real)).one())
    # An inquiry converted when its e-mail belongs to a client account.
    converted = int(
        s.exec(
            select(func.count(func.distinct(ContactInquiry.email)))
            .join(User, and_(col(User.email) == col(ContactInquiry.email), col(User.role) == Role.client))
            .where(real)
        ).one()
    )
    distinct_senders = int(s.exec(select(func.count(func.distinct(ContactInquiry.email))).where(real)).one())
    projects = s.exec(select(Project.status, func.count()).group_by(Project.status)).all()
    issued_month = _bucket(s, Invoice.issue_date, "month")
    invoiced = s.exec(
        select(issued_month, func.sum(Invoice.total_amount))
        .where(
            # Issued and not withdrawn: a draft was never sent, a void invoice was cancelled (ADR 0078).
            col(Invoice.status).not_in([InvoiceStatus.draft, InvoiceStatus.void]),
            col(Invoice.issue_date) >= start,
            col(Invoice.issue_date) <= end,
        )
        .group_by(issued_month)
    ).all()
    paid_month = _bucket(s, Invoice.paid_date, "month")
    paid = s.exec(
        select(paid_month, func.sum(Invoice.total_amount))
        .where(Invoice.status == InvoiceStatus.paid, col(Invoice.paid_date) >= start, col(Invoice.paid_date) <= end)
        .group_by(paid_month)
    ).all()
    now = datetime.now(UTC)
    upcoming = int(
        s.exec(
            select(func.count()).where(
                Meeting.status == MeetingStatus.scheduled,
                col(Meeting.start_time) >= now,
                col(Meeting.start_time) < now + timedelta(days=30),
            )
        ).one()
    )
    opening = func.coalesce(JobApplication.job_code, literal_column("'general'"))
    applications = s.exec(
        select(opening, func.count())
        .where(col(JobApplication.created_at) >= since, col(JobApplication.created_at) < until)
        .group_by(opening)
        .order_by(opening)
    ).all()
    months = sorted({m for m, _ in invoiced} | {m for m, _ in paid})
    invoiced_by, paid_by = dict(invoiced), dict(paid)
    return AnalyticsReport(
        period=Period(start=start.isoformat(), end=end.isoformat()),
        inquiries_total=total_inquiries,
        inquiries_by_week_status=[WeekStatusCount(week=w, status=str(st), count=n) for w, st, n in by_status],
        inquiries_by_week_service=[WeekServiceCount(week=w, service=sv, count=n) for w, sv, n in by_service],
        conversion=Conversion(
            senders=distinct_senders,
            became_clients=converted,
            rate=round(converted / distinct_senders, 4) if distinct_senders else 0.0,
        ),
        projects_by_status={str(st): n for st, n in projects},
        billing_by_month=[
            MonthMoney(
                month=m,
                invoiced=f"{Decimal(invoiced_by.get(m) or 0):.2f}",
                paid=f"{Decimal(paid_by.get(m) or 0):.2f}",
            )
            for m in months
        ],
        upcoming_meetings_30_days=upcoming,
        applications_by_opening=dict(applications),
    )


def business_today() -> date:
    """The date it is now in the business time zone (the default period ends on it)."""
    return datetime.now(UTC).astimezone(company.zone()).date()
