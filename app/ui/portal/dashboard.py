"""The signed-in client's dashboard: header with the logo, the summary, the six tabs, and the welcome dialog."""

from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.auth.components import logout_form
from app.ui.components.conversation import unread_badge
from app.ui.components.logo import logo_link
from app.ui.components.ticker import ticker
from app.ui.portal import components as ui
from app.ui.portal.invoices import invoices_tab
from app.ui.portal.meetings import meetings_tab
from app.ui.portal.plans import plans_tab
from app.ui.portal.profile import profile_tab
from app.ui.portal.projects import ProjectsState, projects_tab
from app.ui.portal.settings import settings_tab
from app.ui.portal.state import PortalState
from app.ui.portal.summary import summary_section
from app.ui.state.company import CompanyState

UNREAD_SECONDS = 10  # how often an open portal counts unread messages again (one indexed query)

# The tabs in order: value (PortalState.active_tab), label, icon, content.
TAB_VIEWS = (
    ("projects", "Projects", "folder-kanban", projects_tab),
    ("invoices", "Invoices", "receipt", invoices_tab),
    ("plans", "Plans", "package", plans_tab),
    ("meetings", "Meetings", "calendar", meetings_tab),
    ("profile", "Profile", "user", profile_tab),
    ("settings", "Settings", "settings", settings_tab),
)


def _header() -> rx.Component:
    return rx.el.header(
        rx.el.div(
            rx.el.div(
                # The site's logo (the mark and the company name from company settings, ADR 0086).
                rx.el.div(logo_link(), class_name="mb-3", on_mount=CompanyState.load),
                rx.el.h1(
                    "Welcome back, ",
                    PortalState.display_name,
                    "!",
                    class_name="text-2xl font-bold text-slate-900 break-words sm:text-3xl",
                ),
                rx.el.p(
                    ui.icon_text("building-2", PortalState.company_label, data_testid="portal-company"),
                    ui.icon_text("calendar-days", "Member since ", PortalState.member_since),
                    class_name="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600",
                ),
                class_name="min-w-0",
            ),
            rx.el.div(
                rx.el.a(
                    rx.icon("house", size=16),
                    "Home",
                    href=routes.HOME,
                    target="_blank",
                    rel="noopener",
                    class_name=ui.BUTTON_SECONDARY,
                ),
                logout_form(class_name=ui.BUTTON_SECONDARY),
                class_name="flex shrink-0 items-center gap-2",
            ),
            class_name="mx-auto flex w-full max-w-5xl flex-col gap-4 px-4 py-5 sm:flex-row sm:items-center "
            "sm:justify-between sm:px-6",
        ),
        class_name="border-b border-slate-200 bg-white",
    )


def _welcome_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.el.div(
                rx.icon("party-popper", size=32, class_name="text-blue-600"),
                rx.dialog.title("Welcome to Your Account!", class_name="text-center"),
                rx.dialog.description(
                    "Your email has been verified successfully. You can now track your projects, invoices and "
                    "meetings here.",
                    class_name="text-center",
                ),
                rx.dialog.close(
                    rx.el.button(
                        "Get Started",
                        type="button",
                        on_click=PortalState.close_welcome,
                        class_name=ui.BUTTON_PRIMARY + " mt-2 w-full",
                    ),
                ),
                class_name="flex flex-col items-center gap-3",
            ),
            max_width="28rem",
        ),
        open=PortalState.welcome_open,
        on_open_change=PortalState.set_welcome_open,
    )


def portal_dashboard() -> rx.Component:
    return rx.el.div(
        _header(),
        rx.el.div(
            summary_section(class_name="mb-6"),
            rx.tabs.root(
                rx.tabs.list(
                    *[
                        rx.tabs.trigger(
                            # Icon above a small label on phones, so all six tabs fit without scrolling.
                            rx.el.span(
                                rx.icon(icon, size=16),
                                label,
                                *(
                                    [unread_badge(ProjectsState.unread_total, "projects-unread")]
                                    if value == "projects"
                                    else []
                                ),
                                class_name="flex flex-col items-center gap-0.5 text-xs sm:flex-row sm:gap-1.5 "
                                "sm:text-sm",
                            ),
                            value=value,
                            class_name="flex-1 px-0 sm:flex-none sm:px-3",
                        )
                        for value, label, icon, _view in TAB_VIEWS
                    ],
                    class_name="w-full",
                ),
                *[rx.tabs.content(view(), value=value, class_name="pt-6") for value, _label, _icon, view in TAB_VIEWS],
                value=PortalState.active_tab,
                on_change=PortalState.set_tab,
            ),
            class_name="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6",
        ),
        _welcome_dialog(),
        # Unread messages counted afresh while the portal is open: the Projects tab's badge and each card's (ADR 0102).
        ticker(seconds=UNREAD_SECONDS, on_tick=ProjectsState.refresh_unread),
        class_name="min-h-screen bg-slate-50",
        data_testid="portal-dashboard",
    )
