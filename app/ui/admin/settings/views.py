"""Settings: the page content: the account card, the company card (app.ui.admin.company) and the audit log."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui import routes
from app.ui.admin.company.state import CompanySettingsState
from app.ui.admin.company.views import company_card
from app.ui.admin.settings.state import AUDIT_LIMIT, SettingsState
from app.ui.admin.widgets import CARD, TD, TH, badge, empty_row, page_header
from app.ui.components.message_mail import LEAD, message_mail_form
from app.ui.components.second_factor import second_factor_card


def _item(label: str, value: Any) -> rx.Component:
    return rx.el.div(
        rx.el.dt(label, class_name="text-xs font-medium uppercase tracking-wide text-slate-500"),
        rx.el.dd(value, class_name="mt-0.5 break-words text-sm text-slate-900"),
    )


def _account_card() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Your Account", class_name="text-lg font-semibold text-slate-900"),
        rx.el.dl(
            _item("Full name", SettingsState.full_name),
            _item("Username", SettingsState.username),
            _item("Email", SettingsState.email),
            _item("Role", SettingsState.role_name),
            _item(
                "Employee type",
                rx.cond(SettingsState.employee_type_label != "", SettingsState.employee_type_label, "—"),
            ),
            _item("Member since", SettingsState.member_since),
            class_name="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3",
        ),
        rx.el.div(
            rx.el.p(
                SettingsState.permission_count, " active permissions", class_name="text-sm font-medium text-slate-700"
            ),
            rx.el.div(
                rx.foreach(SettingsState.permission_list, lambda p: badge(p, "grey")),
                class_name="mt-2 flex flex-wrap gap-1.5",
            ),
            class_name="mt-6",
        ),
        rx.el.p(
            "To change your name, phone or password, use ",
            rx.link("your profile page", href=routes.PROFILE, class_name="text-blue-600 underline"),
            ".",
            class_name="mt-6 text-xs text-slate-500",
        ),
        class_name=f"{CARD} p-5 sm:p-6",
        data_testid="account-summary",
    )


def _message_mail_card() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Notifications", class_name="text-lg font-semibold text-slate-900"),
        rx.el.p(LEAD, class_name="mt-1 mb-4 text-sm text-slate-500"),
        message_mail_form(SettingsState),
        class_name=f"{CARD} mt-6 p-5 sm:p-6",
        data_testid="message-mail",
    )


def _audit_row(row: Any) -> rx.Component:  # a Var of AuditRow
    return rx.el.tr(
        rx.el.td(row.when, class_name=f"{TD} min-w-[8rem] text-xs sm:text-sm md:whitespace-nowrap"),
        rx.el.td(row.who, class_name=f"{TD} hidden sm:table-cell"),
        rx.el.td(
            rx.el.p(row.who, class_name="mb-1 text-xs font-medium text-slate-700 sm:hidden"),
            # Words now ("Signed in"), so set as text rather than as code.
            rx.el.span(row.action, class_name="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800"),
            rx.cond(
                row.summary != "",
                rx.el.p(row.summary, class_name="mt-1 break-words text-xs text-slate-500"),
                rx.fragment(),
            ),
            class_name=TD,
        ),
        rx.el.td(row.record, class_name=f"{TD} hidden md:table-cell whitespace-nowrap"),
        rx.el.td(row.where, class_name=f"{TD} hidden md:table-cell whitespace-nowrap"),
        class_name="border-t border-slate-100",
        data_testid="audit-row",
    )


def _audit_card() -> rx.Component:
    s = SettingsState
    return rx.el.section(
        rx.el.div(
            rx.el.h2("Audit Log", class_name="text-lg font-semibold text-slate-900"),
            rx.el.p(f"The latest {AUDIT_LIMIT} staff actions and sign-ins.", class_name="text-sm text-slate-500"),
            class_name="p-5 sm:px-6",
        ),
        rx.cond(
            s.audit_error != "",
            rx.el.p(s.audit_error, class_name="px-6 pb-6 text-sm text-red-700", role="alert"),
            rx.el.div(
                rx.el.table(
                    rx.el.thead(
                        rx.el.tr(
                            rx.el.th("When", class_name=TH),
                            rx.el.th("Who", class_name=f"{TH} hidden sm:table-cell"),
                            rx.el.th("Action", class_name=TH),
                            rx.el.th("Record", class_name=f"{TH} hidden md:table-cell"),
                            rx.el.th("From", class_name=f"{TH} hidden md:table-cell"),
                        ),
                        class_name="bg-slate-50",
                    ),
                    rx.el.tbody(
                        rx.cond(
                            s.audit_rows.length() > 0,
                            rx.foreach(s.audit_rows, _audit_row),
                            empty_row(5, rx.cond(s.audit_loaded, "No audit entries yet", "Loading…")),
                        ),
                    ),
                    class_name="min-w-full",
                ),
                # A region that may scroll sideways holds no buttons, so it takes the keyboard focus itself (axe:
                # scrollable-region-focusable): keyboard users can scroll it too.
                class_name="overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500",
                tab_index=0,
                role="region",
                aria_label="Audit log entries",
            ),
        ),
        class_name=f"{CARD} mt-6 overflow-hidden",
        data_testid="audit-log",
    )


def settings_content() -> rx.Component:
    return rx.el.div(
        page_header("Settings", "Your account, the company's details and, for auditors, the record of staff actions."),
        _account_card(),
        rx.el.div(second_factor_card(SettingsState), class_name="mt-6"),
        _message_mail_card(),
        rx.cond(CompanySettingsState.can_manage, company_card(), rx.fragment()),
        rx.cond(SettingsState.can_audit, _audit_card(), rx.fragment()),
    )
