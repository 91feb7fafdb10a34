"""The portal's first screen (issue 26, point 10; ADR 0086): above the tabs, what the client owes and pays next, their
next meeting and their active projects, from `reporting.client_summary` as the signed-in client."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import reflex as rx
from reflex.vars.object import ObjectVar
from reflex_base.vars.function import FunctionStringVar, ReflexCallable

from app.core.errors import Unauthorized
from app.services.reporting.client_summary import ClientSummary, client_summary
from app.ui import routes
from app.ui.format import long_date, usd
from app.ui.portal import components as ui
from app.ui.portal.state import Badge, ListTab, PortalState


@dataclasses.dataclass
class InvoiceDue:
    id: int = 0  # 0: nothing to pay
    number: str = ""
    balance: str = ""
    due: str = ""  # "" when the invoice has no due date
    overdue: bool = False


@dataclasses.dataclass
class MeetingNext:
    id: int = 0  # 0: no upcoming meeting
    title: str = ""
    scheduled_at: str = ""  # ISO UTC: the browser shows it in the client's zone, as the Meetings tab does
    join_url: str = ""


@dataclasses.dataclass
class ProjectLine:
    id: int = 0
    name: str = ""
    status: Badge = dataclasses.field(default_factory=Badge)
    progress: int = 0


def invoice_anchor(invoice_id: int) -> str:
    """The id of an invoice's card in the Invoices tab (the summary's button scrolls to it)."""
    return f"invoice-{invoice_id}"


class SummaryState(ListTab, PortalState):
    # Its answer is what the screen shows first: loaded before the tabs, each of which is an event of its own.
    load_first: ClassVar[bool] = True
    balance: str = ""  # "" while nothing is due
    unpaid: int = 0
    next_invoice: InvoiceDue = InvoiceDue()
    next_meeting: MeetingNext = MeetingNext()
    projects: rx.Field[list[ProjectLine]] = rx.field(default_factory=list)
    scroll_target: str = ""  # the id of the invoice card "View invoice" asked for, until the browser scrolled to it

    @rx.event
    async def load(self) -> None:
        found = await self._fetch(lambda s, actor: client_summary(s, actor=actor), "Failed to load your summary")
        if found is not None:
            self._show(found)

    def _show(self, found: ClientSummary) -> None:
        self.balance = usd(found.balance_due) if found.unpaid_invoices else ""
        self.unpaid = found.unpaid_invoices
        inv, meeting = found.next_invoice, found.next_meeting
        self.next_invoice = (
            InvoiceDue(inv.id, inv.invoice_number, usd(inv.balance_due), long_date(inv.due_date), inv.overdue)
            if inv
            else InvoiceDue()
        )
        self.next_meeting = (
            MeetingNext(meeting.id, meeting.title, meeting.scheduled_at, meeting.join_url or "")
            if meeting
            else MeetingNext()
        )
        self.projects = [
            ProjectLine(p.id, p.name, Badge.of(p.status), max(0, min(100, p.progress_percentage)))
            for p in found.active_projects
        ]

    @rx.event
    async def open_invoice(self, invoice_id: int) -> None:
        """The Invoices tab, scrolled to the invoice to pay (after checking the session, as every tab does)."""
        try:
            await self._require_user()
        except Unauthorized:
            await self._signed_out()
            return
        self.active_tab = "invoices"
        # `_scroller` mounts once the tab shows and scrolls the browser there (compiled code: the CSP refuses eval).
        self.scroll_target = invoice_anchor(int(invoice_id))

    @rx.event
    def scrolled(self) -> None:
        self.scroll_target = ""


def _event(handler: Any, arg: Any) -> Any:
    """The event of `handler` with `arg` (Reflex's event namespaces are callable, which mypy cannot see)."""
    return handler(arg)


def _box(title: str, icon: str, *children: rx.Component, test_id: str) -> rx.Component:
    return ui.card(
        rx.el.h3(
            rx.icon(icon, size=16, class_name="text-slate-500"),
            title,
            class_name="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-slate-600",
        ),
        *children,
        class_name="flex min-w-0 flex-col gap-3",
        data_testid=test_id,
    )


def _pending(*bars: str) -> rx.Component:
    """Grey bars the size of what a box will show, so nothing below it moves when the figures arrive."""
    return rx.el.div(
        *[rx.skeleton(rx.el.div(class_name=bar), loading=True) for bar in bars],
        class_name="flex flex-col gap-3",
        aria_hidden="true",
    )


def _muted(text: str) -> rx.Component:
    return rx.el.p(text, class_name="text-sm text-slate-600")


def _money_box() -> rx.Component:
    inv = SummaryState.next_invoice
    return _box(
        "Balance due",
        "receipt",
        rx.cond(
            SummaryState.loading,
            _pending("h-8 w-32", "h-5 w-full", "h-10 w-36"),
            _money(inv),
        ),
        test_id="summary-invoices",
    )


def _money(inv: Any) -> rx.Component:
    return rx.cond(
        inv.id != 0,
        rx.fragment(
            rx.el.p(SummaryState.balance, class_name="text-2xl font-bold text-slate-900", data_testid="balance"),
            rx.el.p(
                "Next to pay: ",
                rx.el.span(inv.number, class_name="font-medium text-slate-900"),
                " · ",
                inv.balance,
                rx.cond(inv.due != "", rx.fragment(" · due ", inv.due)),
                class_name="break-words text-sm text-slate-700",
            ),
            rx.cond(
                inv.overdue,
                rx.el.div(
                    rx.badge(
                        "Overdue", color_scheme="red", variant="soft", high_contrast=True, radius="full", size="2"
                    ),
                    data_testid="summary-overdue",
                ),
            ),
            rx.el.div(
                ui.action_button(
                    "arrow-right",
                    "View invoice",
                    _event(SummaryState.open_invoice, inv.id),
                    ui.BUTTON_PRIMARY,
                    aria_label=f"View invoice {inv.number}",
                ),
            ),
        ),
        rx.fragment(
            rx.el.p("$0.00", class_name="text-2xl font-bold text-slate-900", data_testid="balance"),
            _muted("Nothing to pay. Thank you!"),
        ),
    )


def _meeting_box() -> rx.Component:
    m = SummaryState.next_meeting
    return _box(
        "Next meeting",
        "calendar",
        rx.cond(SummaryState.loading, _pending("h-5 w-3/4", "h-5 w-2/3", "h-10 w-40"), _meeting(m)),
        test_id="summary-meeting",
    )


def _meeting(m: Any) -> rx.Component:
    return rx.cond(
        m.id != 0,
        rx.fragment(
            rx.el.p(m.title, class_name="break-words font-medium text-slate-900"),
            rx.el.p(ui.local_date_time(m.scheduled_at), class_name="text-sm text-slate-700"),
            rx.cond(
                m.join_url != "",
                rx.el.div(ui.link_button("video", "Join meeting", m.join_url, ui.BUTTON_PRIMARY)),
            ),
        ),
        rx.fragment(
            _muted("No meeting booked yet."),
            rx.el.div(
                ui.action_button(
                    "calendar-plus", "See meetings", _event(PortalState.set_tab, "meetings"), ui.BUTTON_SECONDARY
                )
            ),
        ),
    )


def _project_line(p: ObjectVar[ProjectLine]) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.span(p.name, class_name="min-w-0 break-words text-sm font-medium text-slate-900"),
            ui.status_badge(p.status),
            class_name="flex items-start justify-between gap-2",
        ),
        rx.el.div(
            rx.progress(value=p.progress, max=100, size="1", aria_label=f"Progress of {p.name}"),
            rx.el.span(p.progress, "%", class_name="w-10 shrink-0 text-right text-xs text-slate-600"),
            class_name="flex items-center gap-2",
        ),
        class_name="flex flex-col gap-1",
    )


def _projects_box() -> rx.Component:
    return _box(
        "Active projects",
        "folder-kanban",
        rx.cond(SummaryState.loading, _pending("h-5 w-full", "h-2 w-full", "h-5 w-full", "h-2 w-full"), _projects()),
        test_id="summary-projects",
    )


def _projects() -> rx.Component:
    return rx.cond(
        SummaryState.projects.length() > 0,
        rx.el.ul(rx.foreach(SummaryState.projects, _project_line), class_name="flex flex-col gap-3"),
        rx.el.p(
            "No active projects. ",
            rx.el.a("Contact us", href=routes.CONTACT, class_name="font-medium text-blue-700 underline"),
            " to start one.",
            class_name="text-sm text-slate-600",
        ),
    )


# Scrolls to the element of an id once it is in the page: the tab's content mounts a frame or two after the tab
# switches (Radix's Presence), so it looks again on the next frames (half a second at most).
_SCROLL_TO_WHEN_SHOWN: FunctionStringVar[ReflexCallable[[Any], None]] = FunctionStringVar.create(
    "((id) => { let left = 30; const look = () => { const el = document.getElementById(id); "
    "if (el) el.scrollIntoView({block: 'start'}); else if (left-- > 0) requestAnimationFrame(look); }; look(); })"
)


def _scroller() -> rx.Component:
    """Scrolls to the invoice "View invoice" opened, once the Invoices tab shows (code compiled into the page: the
    CSP refuses eval, so a handler cannot send it)."""
    return rx.cond(
        (SummaryState.scroll_target != "") & (PortalState.active_tab == "invoices"),
        rx.el.span(
            hidden=True,
            on_mount=[rx.run_script(_SCROLL_TO_WHEN_SHOWN.call(SummaryState.scroll_target)), SummaryState.scrolled],
        ),
    )


def summary_section(**props: Any) -> rx.Component:
    return rx.el.section(
        rx.el.h2("Summary", class_name="sr-only"),
        # The three boxes are there from the start, grey bars in them until the figures arrive: the tabs below do
        # not move when they do (Lighthouse's layout shift of the portal).
        rx.cond(
            SummaryState.error != "",
            ui.error_text(SummaryState.error),
            rx.el.div(
                _money_box(),
                _meeting_box(),
                _projects_box(),
                class_name="grid grid-cols-1 gap-4 md:grid-cols-3",
            ),
        ),
        _scroller(),
        aria_label="Summary",
        data_testid="portal-summary",
        **props,
    )
