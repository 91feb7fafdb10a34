"""The portal's first screen (issue 26, point 10; ADR 0086): what a client owes and pays next, their next meeting and
their active projects, in one call.

It reads through the same listings as the portal's tabs (so amounts, overdue and join links agree with them to the
cent) and keeps only records whose client is the caller: staff who call it see nothing of other clients'.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel
from sqlmodel import Session

from app.models.enums import PROJECT_FINAL_STATUSES
from app.models.user import User
from app.services.billing import invoices
from app.services.billing.invoices import ClientInvoice
from app.services.projects import projects
from app.services.scheduling import meetings


class NextInvoice(BaseModel):
    """The invoice to pay first. Amounts are text with two decimals, the due date ISO (None: no due date)."""

    id: int
    invoice_number: str
    balance_due: str
    due_date: str | None
    overdue: bool
    can_pay: bool  # card payment is set up and something is due (the Invoices tab's "Pay now")


class NextMeeting(BaseModel):
    """The soonest upcoming meeting; `scheduled_at` is an ISO UTC time the browser shows in the client's zone."""

    id: int
    title: str
    scheduled_at: str
    duration_minutes: int
    join_url: str | None  # only for a scheduled meeting with a link (as the Meetings tab offers it)


class ActiveProject(BaseModel):
    id: int
    name: str
    status: str
    progress_percentage: int


class ClientSummary(BaseModel):
    """What the client owes across their issued invoices (text, two decimals), how many invoices that is, the invoice
    to pay next, the next meeting, and the projects not yet completed or cancelled (newest first)."""

    balance_due: str
    unpaid_invoices: int
    next_invoice: NextInvoice | None
    next_meeting: NextMeeting | None
    active_projects: list[ActiveProject]


def _pay_order(inv: ClientInvoice) -> tuple[bool, str, str]:
    # Earliest due first (so an overdue invoice comes before one due later); one without a due date last.
    return (inv.due_date is None, inv.due_date or "", inv.invoice_number)


def client_summary(s: Session, *, actor: User) -> ClientSummary:
    """The signed-in client's summary: only records whose client is `actor`."""
    own = str(actor.id)
    owed = [i for i in invoices.list_invoices(s, actor=actor) if i.client_id == own and Decimal(i.balance_due) > 0]
    first = min(owed, key=_pay_order, default=None)
    upcoming = [m for m in meetings.list_meetings(s, actor=actor).upcoming if m.client_id == own]
    soonest = upcoming[0] if upcoming else None
    active = [
        p
        for p in projects.list_projects(s, actor=actor)
        if p.client_id == own and p.status not in PROJECT_FINAL_STATUSES
    ]
    return ClientSummary(
        balance_due=f"{sum((Decimal(i.balance_due) for i in owed), Decimal('0.00')):.2f}",
        unpaid_invoices=len(owed),
        next_invoice=NextInvoice(
            id=first.id,
            invoice_number=first.invoice_number,
            balance_due=first.balance_due,
            due_date=first.due_date,
            overdue=first.overdue,
            can_pay=first.can_pay,
        )
        if first
        else None,
        next_meeting=NextMeeting(
            id=soonest.id,
            title=soonest.title,
            scheduled_at=soonest.scheduled_at,
            duration_minutes=soonest.duration_minutes,
            join_url=soonest.join_url if soonest.can_join else None,
        )
        if soonest
        else None,
        active_projects=[
            ActiveProject(id=p.id, name=p.name, status=p.status, progress_percentage=p.progress_percentage)
            for p in active
        ],
    )
