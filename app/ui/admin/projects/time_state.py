"""Time on a project, in the Projects tab: a dialog with one page of its entries, the form that logs hours, and the
inline confirmation that deletes an entry.

Mixed into ProjectListState, so a logged or deleted entry updates the project's card at once. Every handler checks
the session and content:read again, because any browser can call any handler with any payload; the service decides
who logs and deletes (the project's manager or content:write; an entry's author or an admin) and when (open projects).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.models.user import UserPublic
from app.services.projects import time_entries
from app.services.projects.time_entries import ENTRIES_PAGE_SIZE, business_today
from app.services.scheduling import booking_settings
from app.ui.admin.business_time import day_text
from app.ui.admin.cards import FEATURE
from app.ui.admin.common import form_text, row_id
from app.ui.admin.dialogs import Dialogs
from app.ui.admin.state import as_actor, error_text, field_errors
from app.ui.rows import Choice, Row
from app.ui.state.calls import call


@dataclasses.dataclass
class TimeRow(Row):
    day: str = ""  # "November 24, 2026"
    hours: str = ""
    note: str = ""
    author: str = ""
    can_delete: bool = False


@dataclasses.dataclass
class TeamPick:
    """A staff member the team editor offers, and whether they are on the project's team now."""

    value: str = ""
    label: str = ""
    on_team: bool = False


def _hours(value: Any) -> str:
    return str(time_entries.hours_number(value)) if value is not None else ""


class ProjectTimeMixin(Dialogs, mixin=True):
    """The dialog called "time" (Dialogs: the project is its row, the log form's error and saving are its form's)."""

    time_project: rx.Field[str] = rx.field("")
    time_rows: rx.Field[list[TimeRow]] = rx.field(default_factory=list)
    time_total: rx.Field[int] = rx.field(0)
    time_page: rx.Field[int] = rx.field(1)
    time_pages: rx.Field[int] = rx.field(1)
    time_actual: rx.Field[str] = rx.field("0")
    time_estimated: rx.Field[str] = rx.field("")
    time_today: rx.Field[str] = rx.field("")  # the latest day the date picker offers (the business zone's today)
    time_loading: rx.Field[bool] = rx.field(False)
    time_can_log: rx.Field[bool] = rx.field(False)  # the form shows: the caller may log time on this project now
    time_closed: rx.Field[str] = rx.field("")  # why nobody may (the project is completed or cancelled)
    time_error: rx.Field[str] = rx.field("")  # the list could not be loaded
    # The form's field errors, one var each (a dict var reads as a list to mypy).
    time_date_error: rx.Field[str] = rx.field("")
    time_hours_error: rx.Field[str] = rx.field("")
    time_note_error: rx.Field[str] = rx.field("")
    time_form_key: rx.Field[int] = rx.field(0)  # changes after a save, so the form's fields start empty again
    time_confirm: rx.Field[int] = rx.field(0)  # the entry awaiting the confirmation of its deletion (0: none)
    # The project's team (issue 26): its members log their own hours; its manager (or content:write) anyone's.
    time_can_log_for_others: rx.Field[bool] = rx.field(False)
    time_team: rx.Field[list[Choice]] = rx.field(default_factory=list)  # manager first, by name
    time_whose: rx.Field[list[Choice]] = rx.field(default_factory=list)  # the log form's "whose hours": you first
    time_manager_id: rx.Field[str] = rx.field("")
    time_team_open: rx.Field[bool] = rx.field(False)  # the team editor shows
    time_team_picks: rx.Field[list[TeamPick]] = rx.field(default_factory=list)
    time_team_error: rx.Field[str] = rx.field("")

    def _form_errors(self, message: str, fields: dict[str, str]) -> None:
        self.form_error = message
        self.time_date_error = fields.get("work_date", "")
        self.time_hours_error = fields.get("hours", "")
        self.time_note_error = fields.get("note", "")

    def _hours_changed(self, project_id: int, actual: str) -> None:
        """The project's card shows the new total (ProjectListState's rows)."""
        rows = getattr(self, "rows", [])
        for row in rows:
            if row.id == project_id:
                row.actual_hours = actual
        self.rows = list(rows)  # reassigned, so Reflex sends the change

    async def _load_time(self, actor: UserPublic, page: int) -> None:
        project_id = self._dialog_row()
        self.time_loading = True
        self.time_error, result = await self._read(
            actor,
            lambda s, a: time_entries.list_time_entries(
                s, actor=a, project_id=project_id, page=page, page_size=ENTRIES_PAGE_SIZE
            ),
            "There was an error loading the time entries.",
        )
        self.time_loading = False
        if result is None:
            self.time_rows, self.time_total, self.time_can_log, self.time_closed = [], 0, False, ""
            return
        self.time_project = result.project_name
        self.time_rows = [
            TimeRow(
                id=e.id,
                day=day_text(e.work_date),
                hours=_hours(e.hours),
                note=e.note or "",
                author=e.author,
                can_delete=e.can_delete,
            )
            for e in result.data
        ]
        self.time_total, self.time_page, self.time_pages = result.total, result.page, result.pages
        self.time_actual = _hours(result.actual_hours)
        self.time_estimated = _hours(result.estimated_hours)
        self.time_can_log, self.time_closed = result.can_log, result.closed or ""
        self.time_can_log_for_others = result.can_log_for_others
        self.time_team = [Choice(m.user_id, f"{m.name} (manager)" if m.manager else m.name) for m in result.team]
        self.time_manager_id = next((m.user_id for m in result.team if m.manager), "")
        me = str(actor.id)
        self.time_whose = [Choice(me, "You"), *(c for c in self.time_team if c.value != me)]
        self._hours_changed(project_id, self.time_actual)

    @rx.var
    def time_first(self) -> int:
        return 0 if self.time_total == 0 else (self.time_page - 1) * ENTRIES_PAGE_SIZE + 1

    @rx.var
    def time_last(self) -> int:
        return min(self.time_total, self.time_page * ENTRIES_PAGE_SIZE)

    @rx.event
    async def open_time(self, value: int) -> None:
        """Show a project's time entries (staff who read projects)."""
        actor = await self._actor(Perm.content_read, FEATURE)
        if actor is None:
            return
        self._open_dialog("time", row_id(value) or "")
        self._form_errors("", {})
        self.time_confirm = 0
        self.time_team_open, self.time_team_error = False, ""
        self.time_today = business_today().isoformat()
        self.time_form_key += 1
        await self._load_time(actor, 1)

    @rx.event
    async def time_prev_page(self) -> None:
        actor = await self._actor(Perm.content_read, FEATURE)
        if actor is not None and self.dialog == "time":
            await self._load_time(actor, max(1, self.time_page - 1))

    @rx.event
    async def time_next_page(self) -> None:
        actor = await self._actor(Perm.content_read, FEATURE)
        if actor is not None and self.dialog == "time":
            await self._load_time(actor, min(self.time_pages, self.time_page + 1))

    @rx.event
    async def log_time(self, form: dict[str, Any]) -> None:
        """Log hours on the open project (the service checks who and when, and judges the entry)."""
        actor = await self._actor(Perm.content_read, FEATURE)
        if actor is None or self.dialog != "time":
            return
        project_id = self._dialog_row()
        data = {k: form_text(form, k, 1000) for k in ("work_date", "hours", "note", "user_id")}
        self.saving = True
        try:
            await as_actor(actor, lambda s, a: time_entries.log_time(s, actor=a, project_id=project_id, data=data))
        except Exception as exc:
            self._form_errors(error_text(exc, "Failed to log time"), field_errors(exc))
            return
        finally:
            self.saving = False
        self._form_errors("", {})
        self.time_form_key += 1
        whose = next((c.label for c in self.time_whose if c.value == data["user_id"] != str(actor.id)), "")
        await self._notify(
            "success", "Time logged", f"{data['hours']} h on {self.time_project}" + (f" for {whose}" if whose else "")
        )
        await self._load_time(actor, 1)

    @rx.event
    async def open_team(self) -> None:
        """Show the team editor: every staff member, ticked when on the team (the manager is always on it)."""
        actor = await self._actor(Perm.content_read, FEATURE)
        if actor is None or self.dialog != "time" or not self.time_can_log_for_others:
            return
        on_team = {c.value for c in self.time_team}
        self.time_team_picks = [
            TeamPick(uid, name, uid in on_team)
            for uid, name in await call(booking_settings.staff_choices)
            if uid != self.time_manager_id
        ]
        self.time_team_open, self.time_team_error = True, ""

    @rx.event
    def close_team(self) -> None:
        self.time_team_open, self.time_team_error = False, ""

    @rx.event
    async def save_team(self, form: dict[str, Any]) -> None:
        """Replace the team with the ticked staff (the service checks the caller manages the project, and each one)."""
        actor = await self._actor(Perm.content_read, FEATURE)
        if actor is None or self.dialog != "time":
            return
        project_id = self._dialog_row()
        members = [key.removeprefix("member-") for key, on in form.items() if key.startswith("member-") and on]
        self.saving = True
        try:
            await as_actor(
                actor, lambda s, a: time_entries.set_team(s, actor=a, project_id=project_id, members=members[:500])
            )
        except Exception as exc:
            self.time_team_error = error_text(exc, "Failed to save the team")
            return
        finally:
            self.saving = False
        self.time_team_open, self.time_team_error = False, ""
        await self._notify("success", "Team saved", self.time_project)
        await self._load_time(actor, self.time_page)

    @rx.event
    def ask_delete_time(self, value: int) -> None:
        """Ask to confirm deleting an entry (nothing changes until confirmed; the confirm re-checks everything)."""
        self.time_confirm = row_id(value)

    @rx.event
    def keep_time(self) -> None:
        self.time_confirm = 0

    @rx.event
    async def confirm_delete_time(self) -> None:
        """Delete the entry awaiting confirmation (the service checks: its author or an admin, on an open project)."""
        actor = await self._actor(Perm.content_read, FEATURE)
        entry_id, project_id = self.time_confirm, self._dialog_row()
        self.time_confirm = 0
        if actor is None or not entry_id or self.dialog != "time":
            return
        ok, _ = await self._attempt(
            actor,
            lambda s, a: time_entries.delete_time_entry(s, actor=a, project_id=project_id, entry_id=entry_id),
            "Failed to delete the time entry",
            "Please try again.",
        )
        if not ok:
            return
        await self._notify("success", "Time entry deleted")
        await self._load_time(actor, self.time_page)
