"""The Applications page: search, opening and status filters, one page of applications with the pager under it, and
the details dialog (CV and cover letter through authenticated, audited links; the workflow and notes)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.applications.state import STATUSES, ApplicationListState, ApplicationRow
from app.ui.admin.common import info, option_select
from app.ui.admin.dialog_views import notes_form
from app.ui.admin.dialogs import shown
from app.ui.admin.section import filter_select, section_page
from app.ui.admin.tables import Column, data_table, lead, note
from app.ui.admin.widgets import BTN_SECONDARY, choice_badge, dialog, external_link, icon_button
from app.ui.components.file_link import file_link
from app.ui.rows import label_of

STATUS_COLORS = {"new": "blue", "reviewing": "yellow", "interview": "purple", "offer": "green", "rejected": "red"}

S = ApplicationListState


def _document(label: str, name: Any, url: Any, **props: Any) -> rx.Component:
    """A download link to an uploaded document (the CV, the cover letter)."""
    return file_link(
        rx.icon("file-down", size=16),
        label,
        name,
        href=url,
        class_name="inline-flex items-center gap-1.5 text-sm font-medium text-blue-600 hover:underline",
        **props,
    )


COLUMNS: list[Column[ApplicationRow]] = [
    Column("Applicant", lambda a: lead(a.name, note(a.email, "break-all"), note(a.opening, "md:hidden"))),
    Column("Opening", lambda a: a.opening, "hidden md:table-cell"),
    Column("Status", lambda a: choice_badge(a.status, STATUS_COLORS, data_testid="application-status")),
    Column("Applied", lambda a: a.date, "hidden lg:table-cell", "whitespace-nowrap"),
]


def _actions(a: ObjectVar[ApplicationRow]) -> rx.Component:
    return icon_button("eye", "View application", f"View application of {a.name}", S.open_detail(a.id))


def _detail_dialog() -> rx.Component:
    d = S.detail
    body = rx.el.div(
        rx.el.dl(
            info("Opening", d.opening),
            info("Status", choice_badge(d.status, STATUS_COLORS)),
            info("Email", rx.el.a(d.email, href=f"mailto:{d.email}", class_name="text-blue-600 underline")),
            info("Phone", rx.cond(d.phone != "", d.phone, "Not provided")),
            info(
                "LinkedIn",
                rx.cond(
                    d.linkedin != "",
                    external_link(d.linkedin, href=d.linkedin, class_name="text-blue-600 underline"),
                    "Not provided",
                ),
            ),
            info("Applied", d.date),
            class_name="grid grid-cols-1 gap-3 sm:grid-cols-2",
        ),
        rx.el.div(
            _document("CV: ", d.resume_name, d.resume_url, data_testid="cv-link"),
            rx.cond(d.cover_name != "", _document("Cover letter: ", d.cover_name, d.cover_url), rx.fragment()),
            class_name="mt-4 flex flex-col gap-2 rounded-lg bg-slate-50 p-3",
        ),
        rx.cond(
            S.can_write,
            rx.el.div(
                rx.el.p("Move to", class_name="mb-1 text-sm font-medium text-slate-700"),
                rx.el.div(
                    rx.foreach(
                        d.next_statuses,
                        lambda n: rx.el.button(
                            n.label,
                            on_click=S.move_to(n.value),
                            disabled=S.saving,
                            class_name=BTN_SECONDARY,
                            data_testid=f"move-{n['value']}",
                        ),
                    ),
                    rx.cond(
                        d.next_statuses.length() == 0,
                        rx.el.p("This application is closed.", class_name="text-sm text-slate-500"),
                        rx.fragment(),
                    ),
                    class_name="flex flex-wrap gap-2",
                ),
                class_name="mt-4",
            ),
            rx.fragment(),
        ),
        notes_form(S, "Notes", d.notes, "application-notes", editable=S.can_write),
    )
    return dialog(
        rx.el.span("Application: ", d.name),
        "Documents open through an authenticated, audited link.",
        body,
        **shown(S, "detail"),
        max_width="40rem",
    )


def applications_content() -> rx.Component:
    empty = rx.cond(S.filtered, "No applications found matching your search.", "No applications found.")
    openings = rx.el.div(
        option_select(S.openings, "All Openings", value=S.job_filter, on_change=S.set_job_filter, aria_label="Opening"),
        class_name="w-full sm:w-64",
    )
    statuses = [("", "All Statuses"), *[(s, label_of(s)) for s in STATUSES]]
    return section_page(
        S,
        data_table(S, COLUMNS, row_test_id="application-row", empty=empty, actions=_actions),
        search="Search applicants…",
        title=rx.el.span("Job Applications (", S.total, ")"),
        subtitle="Applications per opening.",
        filters=[openings, filter_select(statuses, S.status_filter, S.set_status_filter, "Status")],
        export=S.export_url,
        dialogs=[_detail_dialog()],
    )
