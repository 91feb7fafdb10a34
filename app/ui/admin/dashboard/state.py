"""Dashboard home: state: the figures the user may see, the system checks, the clients' recent cancellations."""

from __future__ import annotations

import dataclasses

import reflex as rx

from app.core.permissions import Perm, Role
from app.models.user import UserPublic
from app.services.billing.billing import OwedFigures
from app.services.operations import health
from app.services.operations.health import HealthReport
from app.services.platform.client_cancellations import CancellationPublic
from app.services.projects.conversation_reads import WaitingConversation
from app.services.reporting import dashboard
from app.services.reporting.dashboard import Waiting
from app.services.scheduling.meetings import StaffMeeting
from app.ui import routes
from app.ui.admin.business_time import clock, day_text, local, timestamp_text
from app.ui.admin.common import dollars, holds
from app.ui.admin.state import AdminState, as_actor

CHECK_NAMES = {"database": "Database", "mail": "Mail queue"}
REFRESH_SECONDS = 15  # how often an open dashboard asks for fresh "needs doing" figures (see Ticker)


@dataclasses.dataclass
class Check:
    """A line of the system card: a dependency's health and what it says."""

    name: str = ""
    status: str = ""
    ok: bool = False
    detail: str = ""


@dataclasses.dataclass
class Cancellation:
    """A client's cancellation of a meeting or project (the dashboard's last two weeks)."""

    kind: str = ""
    name: str = ""
    client: str = ""
    reason: str = ""
    when: str = ""

    @classmethod
    def of(cls, row: CancellationPublic) -> Cancellation:
        """From client_cancellations.recent's row; the time as a long date."""
        return cls(row.kind, row.name, row.client, row.reason, day_text(row.when))


@dataclasses.dataclass
class Todo:
    """A card of "Needs doing": how many, what it is, a line about it, and the filtered list it opens."""

    key: str = ""
    count: str = ""
    label: str = ""
    note: str = ""
    href: str = ""
    urgent: bool = False  # shown in red while there is any (overdue invoices)


@dataclasses.dataclass
class AgendaItem:
    """A meeting of today's or tomorrow's agenda: its time in the business zone, title, client and host."""

    id: int = 0
    time: str = ""
    title: str = ""
    who: str = ""
    unconfirmed: bool = False

    @classmethod
    def of(cls, m: StaffMeeting) -> AgendaItem:
        start, end = local(m.scheduled_at), local(m.end_time)
        span = f"{clock(start, with_zone=False)} \u2013 {clock(end)}" if start and end else ""
        people = [p for p in (m.client_name, m.organizer_name and f"with {m.organizer_name}") if p]
        return cls(m.id, span, m.title, " · ".join(people), m.status == "unconfirmed")


@dataclasses.dataclass
class WaitingRow:
    """A conversation whose client waits for a reply: the project, the client, since when, and the link opening it."""

    id: int = 0
    project: str = ""
    client: str = ""
    since: str = ""
    messages: str = ""
    href: str = ""

    @classmethod
    def of(cls, w: WaitingConversation) -> WaitingRow:
        noun = "message" if w.messages == 1 else "messages"
        href = f"{routes.ADMIN_CONTENT}?tab=projects&conversation={w.project_id}"
        return cls(w.project_id, w.project_name, w.client, timestamp_text(w.since), f"{w.messages} {noun}", href)


# The cards of "needs doing": the figure of `Waiting`, its label (one, many), the line under it (for money: with an
# amount|with none), the list it opens.
TODO_CARDS = [
    ("new_inquiries", "New inquiry", "New inquiries", "Waiting for a first answer",
     routes.ADMIN_INQUIRIES + "?status=new"),
    ("unpaid", "Unpaid invoice", "Unpaid invoices", "{amount} outstanding|Nothing outstanding",
     routes.ADMIN_BILLING + "?status=pending"),
    ("overdue", "Overdue invoice", "Overdue invoices", "{amount} past due|Nothing past due",
     routes.ADMIN_BILLING + "?due=overdue"),
    ("unconfirmed_bookings", "Unconfirmed booking", "Unconfirmed bookings", "Waiting for the booker to confirm",
     routes.ADMIN_MEETINGS + "?when=upcoming&status=unconfirmed"),
    ("new_applications", "New application", "New applications", "Not reviewed yet",
     routes.ADMIN_APPLICATIONS + "?status=new"),
]  # fmt: skip


# The permission that shows each card (as `dashboard.waiting` computes it): the cards are laid out before the figures
# arrive, so nothing moves when they do.
CARD_PERMS = {
    "new_inquiries": Perm.inquiries_read,
    "unpaid": Perm.billing_read,
    "overdue": Perm.billing_read,
    "unconfirmed_bookings": Perm.meetings_read,
    "new_applications": Perm.applications_read,
}


def pending_cards(user: UserPublic | None) -> list[Todo]:
    """The cards `user` will see, with "…" for the figure, until the figures are loaded."""
    return [
        Todo(key, "…", many, note.split("|")[-1].format(amount=""), href)
        for key, _one, many, note, href in TODO_CARDS
        if holds(user, CARD_PERMS[key])
    ]


def todo_cards(w: Waiting) -> list[Todo]:
    """The cards of what needs doing that the user may see (a figure is None when its list is not theirs)."""
    cards: list[Todo] = []
    for key, one, many, note, href in TODO_CARDS:
        figure = getattr(w, key)
        if figure is None:
            continue
        count, amount = (figure.count, dollars(figure.amount)) if isinstance(figure, OwedFigures) else (figure, "")
        urgent = key == "overdue" and count > 0
        some, none = [*note.split("|"), note][:2]
        line = (some if count else none).format(amount=amount)
        cards.append(Todo(key, str(count), one if count == 1 else many, line, href, urgent))
    return cards


def _check_rows(report: HealthReport) -> list[Check]:
    db, queue = report.database, report.mail
    db_detail = f"{db.latency_ms} ms" if db.status == "ok" else (db.error or "unreachable")
    if queue.status in ("ok", "degraded"):
        mail_detail = f"{queue.pending or 0} pending, {queue.failed or 0} failed"
    else:
        mail_detail = queue.error or "not checked"
    return [
        Check(name=CHECK_NAMES["database"], status=db.status, ok=db.status == "ok", detail=db_detail),
        Check(name=CHECK_NAMES["mail"], status=queue.status, ok=queue.status == "ok", detail=mail_detail),
    ]


def login_greeting(role: str) -> str:
    """The spec's text under 'Login Successful' after a staff sign-in."""
    return "Redirecting to Admin Dashboard..." if role == Role.admin else "Redirecting to Employee Dashboard..."


class DashboardState(AdminState):
    total_users: rx.Field[str] = rx.field("")
    active_sessions: rx.Field[str] = rx.field("")
    system_status: str = ""
    system_problem: str = ""
    checks: rx.Field[list[Check]] = rx.field(default_factory=list)
    cancellations: rx.Field[list[Cancellation]] = rx.field(default_factory=list)  # of the last two weeks
    todo: rx.Field[list[Todo]] = rx.field(default_factory=list)  # what needs doing, as the user may see it
    today: rx.Field[list[AgendaItem]] = rx.field(default_factory=list)
    tomorrow: rx.Field[list[AgendaItem]] = rx.field(default_factory=list)
    shows_agenda: bool = False  # the user reads meetings
    waiting: rx.Field[list[WaitingRow]] = rx.field(default_factory=list)  # conversations waiting for a reply
    waiting_total: int = 0
    shows_waiting: bool = False  # the user reads projects
    loaded: bool = False

    @rx.event
    async def load(self):
        actor = await self._actor(quiet=True)
        if actor is None:
            return None
        if self.router.url.query_parameters.get("login") == "1":
            # Just signed in through the form (its 303 adds ?login=1): greet as the portal greets clients, and drop
            # the marker from the address so a reload does not greet again. The replace re-runs this page's on_load,
            # which then loads the figures.
            await self._notify("success", "Login Successful", login_greeting(actor.role))
            return rx.redirect(routes.ADMIN_DASHBOARD, replace=True)
        _, summary = await self._attempt(
            actor, lambda s, a: dashboard.summary(s, actor=a), "Dashboard", "Failed to load the dashboard figures."
        )
        shown = (summary.total_users, summary.active_sessions) if summary else (None, None)
        self.total_users, self.active_sessions = ("" if n is None else str(n) for n in shown)
        self.cancellations = [Cancellation.of(c) for c in summary.client_cancellations] if summary else []
        self._show_waiting(summary.waiting if summary else Waiting())
        report = await health.check()
        self.checks = _check_rows(report)
        healthy = report.status == "ok"
        self.system_status = "Healthy" if healthy else "Degraded"
        failing = [f"{c.name} {c.status}" for c in self.checks if not c.ok]
        self.system_problem = "" if healthy else ", ".join(failing)
        self.loaded = True
        return None

    def _show_waiting(self, w: Waiting) -> None:
        """Take the figures, assigning only what changed: a tick that finds nothing new sends the tab nothing."""
        shown = {
            "todo": todo_cards(w),
            "today": [AgendaItem.of(m) for m in w.today or []],
            "tomorrow": [AgendaItem.of(m) for m in w.tomorrow or []],
            "shows_agenda": w.today is not None,
            "waiting": [WaitingRow.of(c) for c in w.conversations.rows] if w.conversations else [],
            "waiting_total": w.conversations.total if w.conversations else 0,
            "shows_waiting": w.conversations is not None,
        }
        for name, value in shown.items():
            if getattr(self, name) != value:
                setattr(self, name, value)

    @rx.event
    async def refresh(self):
        """The open dashboard's tick (every REFRESH_SECONDS while the tab is shown): what needs doing, fresh. Quiet:
        a failed tick leaves the figures shown and the next one tries again; an ended session is the watcher's."""
        if not self.loaded:
            return
        actor = await self._actor(quiet=True, touch=False)
        if actor is None:
            return
        try:
            found = await as_actor(actor, lambda s, a: dashboard.waiting(s, actor=a))
        except Exception:
            return
        self._show_waiting(found)

    @rx.var
    def cards(self) -> list[Todo]:
        """What needs doing: the figures once loaded, and before, the same cards waiting for them."""
        return self.todo if self.loaded else pending_cards(self.user)

    @rx.var
    def agenda_shown(self) -> bool:
        return self.shows_agenda if self.loaded else holds(self.user, Perm.meetings_read)

    @rx.var
    def waiting_shown(self) -> bool:
        return self.shows_waiting if self.loaded else holds(self.user, Perm.content_read)

    @rx.var
    def shows_users(self) -> bool:
        return holds(self.user, Perm.users_read)

    @rx.var
    def shows_sessions(self) -> bool:
        return holds(self.user, Perm.analytics_read)
