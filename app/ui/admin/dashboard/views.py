"""Dashboard home: the page content (figures, system status, role, cancellations, quick actions)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.admin.dashboard.state import CHECK_NAMES, REFRESH_SECONDS, DashboardState
from app.ui.admin.state import AdminState
from app.ui.admin.widgets import CARD, badge, page_header
from app.ui.components.ticker import ticker

# Quick actions of the business sections, each shown with its section's permission.
BUSINESS_ACTIONS = [
    ("content", "Manage Content", "Organizations, projects, the website", routes.ADMIN_CONTENT, "folder-kanban"),
    ("billing", "Billing", "Invoices and payments", routes.ADMIN_BILLING, "receipt"),
    ("meetings", "Meetings", "Client meetings and types", routes.ADMIN_MEETINGS, "calendar"),
    ("applications", "Applications", "Job applications", routes.ADMIN_APPLICATIONS, "briefcase"),
    ("analytics", "Analytics", "Figures and charts", routes.ADMIN_ANALYTICS, "chart-column"),
    ("products", "Products & Services", "Catalogue and prices", routes.ADMIN_PRODUCTS, "package"),
]


def _stat_card(
    title: str, icon: str, value: Any, note: Any, test_id: str, value_class: str = "text-2xl"
) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.p(title, class_name="text-sm font-medium text-slate-500"),
            rx.icon(icon, size=18, class_name="text-slate-400"),
            class_name="flex items-center justify-between",
        ),
        rx.el.div(value, class_name=f"mt-2 {value_class} font-bold text-slate-900 break-words"),
        rx.el.div(note, class_name="mt-1 text-xs text-slate-500"),
        class_name=f"{CARD} p-5",
        data_testid=test_id,
    )


def _loading_value(value: rx.Var) -> rx.Component:
    return rx.cond(DashboardState.loaded, rx.el.span(value), rx.el.span("…", class_name="text-slate-500"))


def _system_card() -> rx.Component:
    status = rx.cond(
        DashboardState.system_status == "Healthy",
        rx.el.span("Healthy", class_name="text-emerald-600"),
        rx.el.span(DashboardState.system_status, class_name="text-amber-600"),
    )
    checks = rx.el.ul(
        rx.foreach(
            DashboardState.checks,
            lambda c: rx.el.li(
                rx.el.span(
                    rx.cond(
                        c.ok,
                        rx.icon("circle-check", size=14, class_name="text-emerald-500"),
                        rx.icon("triangle-alert", size=14, class_name="text-amber-500"),
                    ),
                    c.name,
                    class_name="flex items-center gap-1.5 font-medium text-slate-700",
                ),
                rx.el.span(c.status, " · ", c.detail, class_name="pl-5 text-slate-500"),
                class_name="flex flex-col",
            ),
        ),
        class_name="mt-2 space-y-1.5",
    )
    # Until the checks arrive, one placeholder row per check with the same two lines: the cards below do not move
    # when they load (the staff dashboard's only layout shift, CLS 0.026 on a phone).
    pending = rx.el.ul(
        *[
            rx.el.li(
                rx.el.span(name, class_name="pl-5 font-medium text-slate-500"),
                rx.el.span("…", class_name="pl-5 text-slate-500"),
                class_name="flex flex-col",
            )
            for name in CHECK_NAMES.values()
        ],
        class_name="mt-2 space-y-1.5",
        aria_hidden="true",
    )
    note = rx.el.div(
        rx.cond(DashboardState.system_problem != "", rx.el.p(DashboardState.system_problem), rx.fragment()),
        rx.cond(DashboardState.loaded, checks, pending),
    )
    return _stat_card("System Status", "activity", _loading_value(status), note, "card-system-status")


def _role_card() -> rx.Component:
    # The role is the card's figure; under it only what it does not say: an employee's type, and the permissions.
    note = rx.el.div(
        rx.cond(
            AdminState.employee_type_label != "",
            rx.el.p(AdminState.role_name, " · ", AdminState.employee_type_label),
            rx.fragment(),
        ),
        rx.el.p(AdminState.permission_count, " active permissions"),
    )
    return _stat_card("Your Role", "shield", AdminState.role_title, note, "card-your-role", "text-xl")


def _quick_action(label: str, text: str, href: str, icon: str) -> rx.Component:
    return rx.link(
        rx.el.span(
            rx.icon(icon, size=18),
            class_name="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-blue-50 text-blue-600",
        ),
        rx.el.span(
            rx.el.span(label, class_name="block text-sm font-semibold text-slate-900"),
            rx.el.span(text, class_name="block text-xs text-slate-500"),
            class_name="min-w-0",
        ),
        href=href,
        underline="none",
        class_name=f"{CARD} flex items-center gap-3 p-4 hover:border-blue-300 hover:bg-blue-50/40 transition-colors",
    )


def _todo_card(card: Any) -> rx.Component:  # a Var of Todo
    """A figure of what needs doing, as a link to the list that shows those rows."""
    return rx.link(
        rx.el.span(
            card.count,
            class_name=rx.cond(card.urgent, "text-2xl font-bold text-red-700", "text-2xl font-bold text-slate-900"),
        ),
        rx.el.span(card.label, class_name="block text-sm font-semibold text-slate-900"),
        rx.el.span(card.note, class_name="block text-xs text-slate-500"),
        href=card.href,
        underline="none",
        class_name=rx.cond(
            card.urgent,
            f"{CARD} block p-4 border-red-300 bg-red-50/60 hover:border-red-400 transition-colors",
            f"{CARD} block p-4 hover:border-blue-300 hover:bg-blue-50/40 transition-colors",
        ),
        data_testid=rx.Var.create("todo-") + card.key,
    )


def _agenda_item(item: Any) -> rx.Component:  # a Var of AgendaItem
    return rx.el.li(
        rx.el.span(item.time, class_name="w-40 shrink-0 text-sm font-medium text-slate-700"),
        rx.el.span(
            rx.el.span(item.title, class_name="block font-medium text-slate-900 break-words"),
            rx.el.span(item.who, class_name="block text-xs text-slate-500 break-words"),
            class_name="min-w-0 flex-1",
        ),
        rx.cond(item.unconfirmed, badge("Unconfirmed", "yellow"), rx.fragment()),
        class_name="flex flex-wrap items-start gap-x-3 gap-y-1 border-t border-slate-100 py-2 first:border-t-0",
    )


def _agenda_day(title: str, items: Any, empty: str, test_id: str) -> rx.Component:  # a Var of list[AgendaItem]
    return rx.el.div(
        rx.el.h3(title, class_name="text-sm font-semibold uppercase tracking-wide text-slate-500"),
        rx.cond(
            items.length() > 0,
            rx.el.ul(rx.foreach(items, _agenda_item), class_name="mt-1"),
            rx.el.p(rx.cond(DashboardState.loaded, empty, "…"), class_name="mt-2 text-sm text-slate-500"),
        ),
        data_testid=test_id,
    )


def _waiting_row(row: Any) -> rx.Component:  # a Var of WaitingRow
    return rx.el.li(
        rx.link(
            rx.el.span(
                rx.el.span(row.project, class_name="block font-medium text-slate-900 break-words"),
                rx.el.span(row.client, " · ", row.messages, class_name="block text-xs text-slate-500 break-words"),
                class_name="min-w-0 flex-1",
            ),
            rx.el.span("Waiting since ", row.since, class_name="text-xs text-slate-600 sm:text-right"),
            href=row.href,
            underline="none",
            class_name="flex flex-col gap-1 rounded-md px-2 py-2 hover:bg-blue-50/60 sm:flex-row sm:items-center "
            "sm:gap-3",
        ),
        class_name="border-t border-slate-100 first:border-t-0",
        data_testid="waiting-conversation",
    )


def _waiting_card() -> rx.Component:
    """Conversations whose client wrote last, the longest waiting first; each opens its conversation."""
    more = DashboardState.waiting_total - DashboardState.waiting.length()
    return rx.el.section(
        rx.el.h2("Conversations waiting for a reply", class_name="text-lg font-semibold text-slate-900"),
        rx.cond(
            DashboardState.waiting.length() > 0,
            rx.el.ul(rx.foreach(DashboardState.waiting, _waiting_row), class_name="mt-2"),
            rx.el.p(
                rx.cond(DashboardState.loaded, "No client is waiting for an answer.", "…"),
                class_name="mt-2 text-sm text-slate-500",
            ),
        ),
        rx.cond(more > 0, rx.el.p("And ", more, " more.", class_name="mt-2 text-xs text-slate-500"), rx.fragment()),
        class_name=f"{CARD} mt-4 p-5",
        data_testid="waiting-conversations",
    )


def _needs_doing() -> rx.Component:
    """What needs doing: the figures of the lists the user reads, and the meetings of today and tomorrow; kept fresh
    while the tab is open (the Ticker's refresh)."""
    agenda = rx.el.section(
        rx.el.div(
            rx.el.h2("Meetings", class_name="text-lg font-semibold text-slate-900"),
            rx.link("All upcoming", href=routes.ADMIN_MEETINGS + "?when=upcoming", class_name="text-sm"),
            class_name="flex items-center justify-between",
        ),
        rx.el.div(
            _agenda_day("Today", DashboardState.today, "No meetings today.", "agenda-today"),
            _agenda_day("Tomorrow", DashboardState.tomorrow, "No meetings tomorrow.", "agenda-tomorrow"),
            class_name="mt-3 grid gap-4 lg:grid-cols-2",
        ),
        class_name=f"{CARD} mt-4 p-5",
    )
    return rx.el.section(
        rx.el.h2("Needs doing", class_name="mb-3 text-lg font-semibold text-slate-900"),
        rx.el.div(
            rx.foreach(DashboardState.cards, _todo_card),
            class_name="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5",
            data_testid="needs-doing",
        ),
        rx.cond(DashboardState.agenda_shown, agenda, rx.fragment()),
        rx.cond(DashboardState.waiting_shown, _waiting_card(), rx.fragment()),
        rx.cond(DashboardState.loaded, ticker(seconds=REFRESH_SECONDS, on_tick=DashboardState.refresh), rx.fragment()),
        class_name="mb-8",
        aria_live="polite",
    )


def _cancellation(row: Any) -> rx.Component:  # a Var of Cancellation
    return rx.el.li(
        rx.el.div(
            rx.el.p(row.kind, " · ", rx.el.span(row.name, class_name="font-medium"), class_name="text-slate-900"),
            rx.el.p(
                "Cancelled by ",
                row.client,
                rx.cond(row.reason != "", rx.el.span(": ", row.reason), rx.fragment()),
                class_name="text-sm text-slate-600 break-words",
            ),
            class_name="min-w-0",
        ),
        rx.el.span(row.when, class_name="shrink-0 text-xs text-slate-500"),
        class_name="flex items-start justify-between gap-3 border-t border-slate-100 py-3 first:border-t-0",
    )


def _cancellations_card() -> rx.Component:
    return rx.cond(
        DashboardState.cancellations.length() > 0,
        rx.el.section(
            rx.el.h2(
                rx.icon("circle-x", size=18, class_name="text-red-600"),
                "Cancelled by clients (last 14 days)",
                class_name="flex items-center gap-2 text-lg font-semibold text-slate-900",
            ),
            rx.el.ul(rx.foreach(DashboardState.cancellations, _cancellation), class_name="mt-2"),
            class_name=f"{CARD} mt-8 p-5",
            data_testid="client-cancellations",
        ),
        rx.fragment(),
    )


def dashboard_content() -> rx.Component:
    sections = AdminState.visible_sections
    return rx.el.div(
        page_header(
            rx.el.span("Welcome back, ", AdminState.full_name),
            rx.el.span(badge(AdminState.role_title, "blue"), " Here is what is happening today."),
        ),
        rx.cond(DashboardState.cards.length() > 0, _needs_doing(), rx.fragment()),
        rx.el.div(
            rx.cond(
                DashboardState.shows_users,
                _stat_card(
                    "Total Users",
                    "users",
                    _loading_value(DashboardState.total_users),
                    "Accounts of staff and clients",
                    "card-total-users",
                ),
                rx.fragment(),
            ),
            rx.cond(
                DashboardState.shows_sessions,
                _stat_card(
                    "Active Sessions",
                    "activity",
                    _loading_value(DashboardState.active_sessions),
                    "Signed-in sessions in use now",
                    "card-active-sessions",
                ),
                rx.fragment(),
            ),
            _system_card(),
            _role_card(),
            class_name="grid gap-4 sm:grid-cols-2 xl:grid-cols-4",
        ),
        _cancellations_card(),
        rx.el.h2("Quick Actions", class_name="mb-3 mt-8 text-lg font-semibold text-slate-900"),
        rx.el.div(
            rx.cond(
                sections.contains("users"),
                _quick_action("Manage Users", "Staff and client accounts", routes.ADMIN_USERS, "users"),
                rx.fragment(),
            ),
            rx.cond(
                sections.contains("clients"),
                _quick_action("Manage Clients", "Client accounts and details", routes.ADMIN_CLIENTS, "building-2"),
                rx.fragment(),
            ),
            _quick_action("View Inquiries", "Contact form requests", routes.ADMIN_INQUIRIES, "inbox"),
            *[
                rx.cond(
                    sections.contains(key),
                    _quick_action(label, text, href, icon),
                    rx.fragment(),
                )
                for key, label, text, href, icon in BUSINESS_ACTIONS
            ],
            _quick_action("Settings", "Your account and activity", routes.ADMIN_SETTINGS, "settings"),
            class_name="grid gap-3 sm:grid-cols-2 xl:grid-cols-4",
        ),
    )
