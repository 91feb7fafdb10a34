"""Projects tab: the client's projects with progress and milestones, and cancelling one (after confirmation)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any, ClassVar

import reflex as rx
from reflex.vars.object import ObjectVar

from app.core.errors import DomainError, Unauthorized
from app.models.user import UserPublic
from app.services.projects import conversation_reads, projects
from app.services.projects.projects import ClientProject
from app.ui import routes
from app.ui.components.conversation import conversation_button, conversation_dialog
from app.ui.format import long_date, usd
from app.ui.portal import components as ui
from app.ui.portal.cancelling import CancelConfirm, cancel_dialog
from app.ui.portal.state import Badge, ListTab, PortalState
from app.ui.rows import Row
from app.ui.state.calls import as_actor
from app.ui.state.conversation import ConversationMixin


@dataclasses.dataclass
class MilestoneView:
    title: str = ""
    status: Badge = dataclasses.field(default_factory=Badge)
    due: str = ""


@dataclasses.dataclass
class ProjectView(Row):
    name: str = ""
    status: Badge = dataclasses.field(default_factory=Badge)
    progress: int = 0
    deadline: str = ""
    budget: str = ""
    hours: str = ""  # "12.5 of 220 hours" (actual of estimated)
    description: str = ""
    can_cancel: bool = False
    unread: int = 0  # messages in its conversation the client has not read
    milestones: list[MilestoneView] = dataclasses.field(default_factory=list)


def hours_text(actual: Any, estimated: Any) -> str:
    """Hours worked against the estimate, as the client reads them: "12.5 of 220 hours", "3 hours (no estimate)"."""
    done = _number(actual)
    if estimated is None:
        return f"{done} hours (no estimate)"
    return f"{done} of {_number(estimated)} hours"


def _number(value: Any) -> str:
    return f"{Decimal(str(value or 0)).quantize(Decimal('0.01')).normalize():f}"


def project_view(p: ClientProject) -> ProjectView:
    return ProjectView(
        id=p.id,
        name=p.name,
        status=Badge.of(p.status),
        progress=max(0, min(100, p.progress_percentage)),
        deadline=long_date(p.deadline),
        budget=usd(p.budget),
        hours=hours_text(p.actual_hours, p.estimated_hours),
        description=p.description or "",
        can_cancel=p.can_cancel,
        milestones=[
            MilestoneView(title=m.title, status=Badge.of(m.status), due=long_date(m.due_date)) for m in p.milestones
        ],
    )


class ProjectsState(ConversationMixin, CancelConfirm, ListTab, PortalState):
    projects: list[ProjectView] = []
    unread_total: int = 0  # the Projects tab's badge: unread messages in all the client's conversations

    @rx.event
    async def load(self) -> Any:
        rows = await self._fetch(lambda s, actor: projects.list_projects(s, actor=actor), "Failed to load projects")
        if rows is None:
            return None
        self.projects = [project_view(p) for p in rows]
        await self._show_unread()
        # A digest mail's link (?tab=projects&conversation=ID) opens that conversation on arrival.
        wanted = str(self.router.url.query_parameters.get("conversation") or "")
        if wanted.isdigit() and any(p.id == int(wanted) for p in self.projects):
            return ProjectsState.open_conversation(int(wanted))  # type: ignore[operator]
        return None

    async def _show_unread(self, *, touch: bool = True) -> None:
        """The unread counts, assigned only when they changed: an unchanged tick sends the tab nothing."""
        try:
            user = await self._require_user(touch=touch)
            counts = await as_actor(user, lambda s, a: conversation_reads.unread_counts(s, actor=a))
        except (Unauthorized, DomainError):
            return  # the next page action says why; the counts stay as shown
        total = sum(counts.values())
        if total != self.unread_total:
            self.unread_total = total
        if any(p.unread != counts.get(p.id, 0) for p in self.projects):
            self.projects = [dataclasses.replace(p, unread=counts.get(p.id, 0)) for p in self.projects]

    @rx.event
    async def refresh_unread(self) -> None:
        """The portal's ticker: new messages counted without a reload (ADR 0102)."""
        if self.session_checked and self.is_client:
            await self._show_unread(touch=False)  # a timer, not the person: the idle clock runs on

    async def _conversation_read(self, *, touch: bool = True) -> None:
        await self._show_unread(touch=touch)

    cancel_noun: ClassVar[str] = "project"

    async def _conversation_user(self, *, touch: bool = True) -> UserPublic | None:
        try:
            return await self._require_user(touch=touch)
        except Unauthorized:
            await self._signed_out()
            return None

    @rx.event
    def ask_cancel(self, project_id: int, name: str) -> None:
        self._ask(project_id, name)

    async def _cancel(self, user: UserPublic, record_id: int) -> str:
        updated = await as_actor(user, lambda s, actor: projects.cancel_project(s, actor=actor, project_id=record_id))
        view = project_view(updated)
        self.projects = [view if p.id == view.id else p for p in self.projects]
        return f"{view.name} has been cancelled."


def _milestone(m: ObjectVar[MilestoneView]) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.span(m.title, class_name="font-medium text-slate-800"),
            rx.cond(m.due != "", rx.el.span("Due ", m.due, class_name="text-xs text-slate-500")),
            class_name="flex min-w-0 flex-col",
        ),
        ui.status_badge(m.status),
        class_name="flex items-center justify-between gap-3 py-2",
    )


def _fact(icon: str, label: str, value: Any) -> rx.Component:
    return rx.el.div(
        rx.icon(icon, size=16, class_name="mt-0.5 shrink-0 text-slate-400"),
        ui.fact(label, value),
        class_name="flex items-start gap-2",
    )


def _project_card(p: ObjectVar[ProjectView]) -> rx.Component:
    return ui.card(
        ui.card_header(
            rx.el.h3(p.name, class_name="text-lg font-semibold text-slate-900 break-words"),
            rx.el.p("Project #", p.id, class_name="text-xs text-slate-500"),
            status=p.status,
        ),
        rx.el.div(
            rx.el.div(
                rx.el.span("Progress", class_name="text-sm text-slate-600"),
                rx.el.span(p.progress, "%", class_name="text-sm font-medium text-slate-900"),
                class_name="flex justify-between",
            ),
            rx.progress(value=p.progress, max=100, size="2", aria_label="Progress"),
            class_name="flex flex-col gap-1",
        ),
        rx.el.div(
            _fact("calendar", "Deadline", rx.cond(p.deadline != "", p.deadline, "No deadline set")),
            _fact("dollar-sign", "Budget", rx.cond(p.budget != "", p.budget, "Not specified")),
            _fact("clock", "Hours worked", rx.el.span(p.hours, data_testid="project-hours")),
            class_name="grid grid-cols-1 gap-3 sm:grid-cols-3",
        ),
        rx.el.p(
            rx.cond(p.description != "", p.description, "No description provided"),
            class_name="text-sm text-slate-700",
        ),
        rx.cond(
            p.milestones.length() > 0,
            rx.el.div(
                rx.el.h4("Milestones", class_name="text-sm font-semibold text-slate-900"),
                rx.el.ol(rx.foreach(p.milestones, _milestone), class_name="divide-y divide-slate-100"),
                class_name="flex flex-col gap-1",
            ),
        ),
        rx.el.div(
            conversation_button(ProjectsState, p.id, p.unread),
            rx.cond(
                p.can_cancel,
                ui.action_button(
                    "circle-x", "Cancel Project", ProjectsState.ask_cancel(p.id, p.name), ui.BUTTON_DANGER
                ),
            ),
            class_name="flex flex-wrap justify-end gap-2",
        ),
        class_name="flex flex-col gap-4",
        data_testid="project-card",
    )


def projects_tab() -> rx.Component:
    return ui.tab_section(
        "Your Projects",
        ui.success_text(ProjectsState.notice),
        ui.loaded(
            ProjectsState.loading,
            ProjectsState.error,
            ui.cards_or_empty(
                ProjectsState.projects,
                _project_card,
                ui.empty_state(
                    "No projects found.",
                    rx.el.a(
                        "Contact us to start your first project", href=routes.CONTACT, class_name=ui.BUTTON_PRIMARY
                    ),
                    icon="folder",
                ),
            ),
        ),
        conversation_dialog(ProjectsState),
        cancel_dialog(
            ProjectsState,
            rx.fragment(
                "Are you sure you want to cancel ",
                rx.el.strong(ProjectsState.cancel_name),
                "? Work on it will stop. This action cannot be undone.",
            ),
        ),
    )
