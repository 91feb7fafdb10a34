"""The Projects tab: search, the card grid with status, type, progress, budget and hours, its pager, the create/edit
dialog (with the milestones editor), the delete confirmation and the time log (`time_views`)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.models.enums import MilestoneStatus, ProjectStatus, ProjectType
from app.ui.admin.cards import CARD_BOX, card_actions, card_form, card_page, card_title
from app.ui.admin.common import (
    INPUT_INLINE,
    add_row_button,
    option_select,
    row_button,
    row_input,
    search_input,
    wide,
)
from app.ui.admin.dialog_views import area_field, delete_dialog, number_field, select_field, text_field
from app.ui.admin.pickers import client_picker
from app.ui.admin.projects.state import MilestoneRow, ProjectListState, ProjectRow
from app.ui.admin.projects.time_views import time_button, time_dialog
from app.ui.admin.widgets import INPUT, badge, choice_badge, field
from app.ui.components.conversation import conversation_button, conversation_dialog
from app.ui.rows import label_of

S = ProjectListState
STATUS_COLORS = {
    "planning": "blue",
    "in_progress": "yellow",
    "review": "purple",
    "completed": "green",
    "cancelled": "red",
}
EARLIEST = "1900-01-01"


def _figure(label: str, value: rx.Component | rx.Var | str) -> rx.Component:
    return rx.el.div(
        rx.el.dt(label, class_name="text-slate-500"),
        rx.el.dd(value, class_name="font-medium"),
    )


def _card(p: ObjectVar[ProjectRow]) -> rx.Component:
    return rx.el.div(
        card_title(p.name, card_actions(S.can_write, p.name, S.open_edit(p.id), S.ask_delete(p.id, p.name))),
        rx.el.div(
            choice_badge(p.status, STATUS_COLORS, data_testid="project-status"),
            badge(p.project_type.label, "grey"),
            class_name="flex flex-wrap gap-1.5",
        ),
        rx.cond(p.client != "", rx.el.p("Client: ", p.client, class_name="text-xs text-slate-500"), rx.fragment()),
        rx.cond(p.manager != "", rx.el.p("Manager: ", p.manager, class_name="text-xs text-slate-500"), rx.fragment()),
        rx.el.p(p.description, class_name="line-clamp-2 text-sm text-slate-600"),
        rx.el.div(
            rx.el.div(
                rx.el.div(class_name="h-full rounded-full bg-blue-600", style={"width": p.progress_width}),
                class_name="h-2 flex-1 overflow-hidden rounded-full bg-slate-100",
            ),
            rx.el.span(p.progress, "%", class_name="text-xs font-medium text-slate-600"),
            class_name="flex w-full items-center gap-2",
            data_testid="project-progress",
        ),
        rx.el.dl(
            _figure("Budget", rx.cond(p.budget_text != "", p.budget_text, "—")),
            _figure("Start", rx.cond(p.start_text != "", p.start_text, "—")),
            _figure("Estimated", rx.cond(p.estimated_hours != "", rx.el.span(p.estimated_hours, "h estimated"), "—")),
            _figure("Actual", rx.el.span(p.actual_hours, "h actual")),
            class_name="grid w-full grid-cols-2 gap-2 text-xs text-slate-700",
        ),
        rx.el.div(
            rx.el.p(p.milestone_count, " milestones", class_name="text-xs text-slate-500"),
            rx.el.div(conversation_button(S, p.id), time_button(p), class_name="flex flex-wrap justify-end gap-2"),
            class_name="mt-auto flex w-full items-center justify-between gap-2 pt-1",
        ),
        class_name=CARD_BOX,
        data_testid="project-card",
    )


def _milestone_row(m: ObjectVar[MilestoneRow], i: rx.Var) -> rx.Component:
    def edit(key: str) -> Any:
        return lambda v: S.set_milestone(i, key, v)

    return rx.el.div(
        row_input(
            m.title,
            "Milestone title",
            edit("title"),
            "w-full sm:w-auto sm:flex-1",
            placeholder="Milestone title",
            data_testid="milestone-title",
        ),
        rx.el.div(
            row_input(
                m.due_date,
                "Due date",
                edit("due_date"),
                "min-w-0 flex-1 sm:w-40 sm:flex-none",
                type="date",
                min=EARLIEST,
            ),
            rx.el.select(
                *[rx.el.option(label_of(x.value), value=x.value) for x in MilestoneStatus],
                default_value=m.status,
                aria_label="Milestone status",
                on_change=edit("status"),
                class_name=f"{INPUT_INLINE} w-32 shrink-0",
            ),
            row_button("arrow-up", "Move up", S.move_milestone(i, -1)),
            row_button("arrow-down", "Move down", S.move_milestone(i, 1)),
            row_button("x", "Remove milestone", S.remove_milestone(i)),
            class_name="flex items-center gap-1",
        ),
        key=m.key,
        class_name="flex flex-col gap-2 rounded-lg border border-slate-200 p-2 sm:flex-row sm:items-center",
        data_testid="milestone-row",
    )


def _milestones() -> rx.Component:
    return rx.el.fieldset(
        rx.el.legend("Milestones", class_name="mb-2 text-sm font-medium text-slate-700"),
        rx.el.div(
            rx.foreach(S.milestones, _milestone_row),
            rx.cond(
                S.milestones.length() == 0,
                rx.el.p("No milestones yet.", class_name="text-sm text-slate-500"),
                rx.fragment(),
            ),
            class_name="flex flex-col gap-2",
        ),
        add_row_button("Add milestone", S.add_milestone, data_testid="add-milestone"),
        class_name="sm:col-span-2",
    )


def _organization_picker() -> rx.Component:
    # Organizations are offered by name, at most organizations.CHOICES_MAX at once: with more, a search narrows them.
    select_org = option_select(
        S.org_choices,
        "None",
        name="organization_id",
        id="project-organization",
        value=S.form_org,
        on_change=S.set_form_org,
    )
    return rx.el.div(
        field("Organization", select_org, S.form_errors["organization_id"]),
        rx.cond(
            S.org_more,
            rx.el.div(
                search_input(S.org_search, S.search_orgs, "Search organizations…", "project-organization-search"),
                class_name="mt-2",
            ),
            rx.fragment(),
        ),
    )


def _date(label: str, name: str, id_: str, value: rx.Var | str) -> rx.Component:
    return text_field(S, label, name, value, id=id_, type="date", min=EARLIEST)


def _fields() -> rx.Component:
    e, err = S.edit, S.form_errors
    status_opts = [(x.value, label_of(x.value)) for x in ProjectStatus]
    type_opts = [(x.value, label_of(x.value)) for x in ProjectType]
    return rx.el.div(
        wide(text_field(S, "Project name", "name", e.name, id="project-name", required=True)),
        client_picker(
            S,
            select_id="project-client",
            search_test_id="project-client-search",
            required=True,
            error=err["client_id"],
        ),
        _organization_picker(),
        field(
            "Project manager",
            option_select(
                S.managers,
                "Nobody (the team address hears of cancellations)",
                name="manager_id",
                id="project-manager",
                default_value=e.manager_id,
            ),
            err["manager_id"],
        ),
        select_field(S, "Status", "status", status_opts, e.status.value, id="project-status", required=True),
        select_field(S, "Type", "project_type", type_opts, e.project_type.value, id="project-type", required=True),
        number_field(S, "Budget (USD)", "budget", e.budget, "0", step="0.01", id="project-budget"),
        number_field(S, "Progress (%)", "progress_percentage", e.progress, "0", "100", step="1", id="project-progress"),
        _date("Start date", "start_date", "project-start", e.start_date),
        _date("End date", "end_date", "project-end", e.end_date),
        _date("Deadline", "deadline", "project-deadline", e.deadline),
        number_field(S, "Estimated hours", "estimated_hours", e.estimated_hours, "0", step="1", id="project-estimated"),
        field(
            "Actual hours",
            rx.el.input(
                value=rx.cond(e.actual_hours != "", e.actual_hours, "0"),
                read_only=True,
                aria_label="Actual hours",
                class_name=f"{INPUT} bg-slate-50 text-slate-500",
            ),
            hint="From time tracking; read-only.",
        ),
        area_field(S, "Description", "description", e.description, id="project-description"),
        _milestones(),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def projects_panel() -> rx.Component:
    dialogs = [card_form(S, _fields()), delete_dialog(S, "Delete Project"), time_dialog(), conversation_dialog(S)]
    return card_page(S, _card, dialogs)
