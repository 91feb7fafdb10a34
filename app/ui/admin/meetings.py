"""Meetings (/admin/meetings, meetings:read): every meeting with filters (upcoming/past/all, status, client); staff
with meetings:write schedule a meeting for a client, edit, cancel with a reason, mark completed, and manage the
meeting types of the booking view. Times are UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.services import meetings, meetings_admin
from app.ui.admin.common import (
    TEXTAREA,
    error_panel,
    form_alert,
    form_text,
    holds,
    label_of,
    load_clients,
    loading_text,
)
from app.ui.admin.state import AdminState, as_actor, error_text
from app.ui.admin.widgets import (
    BTN_DANGER,
    BTN_PRIMARY,
    BTN_SECONDARY,
    CARD,
    ICON_BTN,
    INPUT,
    TD,
    TH,
    badge,
    badge_by,
    dialog,
    dialog_actions,
    empty_row,
    field,
    page_header,
    select,
    submit_actions,
    text_input,
)

FEATURE = "Meetings"
WHEN_FILTERS = [("upcoming", "Upcoming"), ("past", "Past"), ("all", "All")]
STATUS_FILTERS = [
    ("", "All Statuses"),
    ("scheduled", "Scheduled"),
    ("completed", "Completed"),
    ("cancelled", "Cancelled"),
]
STATUS_COLORS = {"scheduled": "blue", "completed": "green", "cancelled": "red"}


def _when_text(value: str) -> str:
    try:
        t = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return str(value or "")
    return f"{t:%a} {t:%b} {t.day}, {t.year} · {t:%H:%M} UTC"


def _started(value: str) -> bool:
    try:
        t = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return t <= datetime.now(t.tzinfo or UTC)


def meeting_row(m: dict[str, Any], names: dict[str, str]) -> dict[str, str]:
    start = str(m["scheduled_at"])
    try:
        t = datetime.fromisoformat(start)
        day, clock = t.strftime("%Y-%m-%d"), t.strftime("%H:%M")
    except ValueError:
        day, clock = "", ""
    return {
        "id": str(m["id"]),
        "title": m["title"],
        "client": m.get("client_name") or names.get(str(m.get("client_id")), "") or "—",
        "client_id": str(m.get("client_id") or ""),
        "when": _when_text(start),
        "date": day,
        "time": clock,
        "duration": str(m.get("duration_minutes") or 30),
        "meeting_type": m.get("meeting_type") or "",
        "join_url": m.get("join_url") or "",
        "description": m.get("description") or "",
        "status": m["status"],
        "status_label": label_of(m["status"]),
        "cancel_reason": m.get("cancel_reason") or "",
        "started": "yes" if _started(start) else "",
    }


def type_row(t: dict[str, Any]) -> dict[str, str]:
    return {
        "id": str(t["id"]),
        "name": t["name"],
        "duration": str(t.get("duration_minutes") or 30),
        "host_name": t.get("host_name") or "",
        "description": t.get("description") or "",
        "scheduling_url": t.get("scheduling_url") or "",
        "active": "yes" if t.get("is_active") else "",
    }


class MeetingsState(AdminState):
    rows: list[dict[str, str]] = []
    types: list[dict[str, str]] = []
    clients: list[dict[str, str]] = []
    when: str = "upcoming"
    status_filter: str = ""
    client_filter: str = ""
    loading: bool = False
    load_error: str = ""

    form_open: bool = False
    editing: bool = False
    edit: dict[str, str] = {}
    form_error: str = ""
    form_errors: dict[str, str] = {}
    saving: bool = False
    _edit_id: int = 0

    cancel_open: bool = False
    cancel_title: str = ""
    _cancel_id: int = 0

    type_open: bool = False
    type_edit: dict[str, str] = {}
    _type_id: int = 0

    async def _reload(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.meetings_read, FEATURE, quiet=quiet)
        if actor is None:
            self.rows, self.types = [], []
            return
        self.loading = True
        if not self.clients:
            self.clients = await load_clients(actor)
        names = {c["id"]: c["name"] for c in self.clients}
        when, status, client = self.when, self.status_filter, self.client_filter
        try:
            data = await as_actor(
                actor, lambda s, a: meetings_admin.list_all(s, actor=a, when=when, status=status, client_id=client)
            )
            types = await as_actor(actor, lambda s, a: meetings_admin.list_types(s, actor=a))
            self.load_error = ""
        except Exception as exc:
            data, types = [], []
            self.load_error = error_text(exc, "There was an error loading the meetings.")
        self.rows = [meeting_row(m, names) for m in data]
        self.types = [type_row(t) for t in types]
        self.loading = False

    @rx.event
    async def load(self) -> None:
        self.form_open = self.cancel_open = self.type_open = False
        self.clients = []
        await self._reload(quiet=True)

    @rx.event
    async def retry(self) -> None:
        await self._reload()

    @rx.event
    async def set_when(self, value: str) -> None:
        self.when = value if value in dict(WHEN_FILTERS) else "upcoming"
        await self._reload()

    @rx.event
    async def set_status_filter(self, value: str) -> None:
        self.status_filter = value if value in STATUS_COLORS else ""
        await self._reload()

    @rx.event
    async def set_client_filter(self, value: str) -> None:
        self.client_filter = value if any(c["id"] == value for c in self.clients) else ""
        await self._reload()

    @rx.var
    def can_write(self) -> bool:
        return holds(self.user, Perm.meetings_write)

    @rx.var
    def type_names(self) -> list[str]:
        return [t["name"] for t in self.types if t["active"]]

    # --- create / edit ---------------------------------------------------------------------------------------

    @rx.event
    def open_create(self) -> None:
        self._edit_id, self.edit, self.editing = 0, {"duration": "30"}, False
        self.form_error, self.form_errors = "", {}
        self.form_open = True

    @rx.event
    def open_edit(self, meeting_id: str) -> None:
        row = next((r for r in self.rows if r["id"] == str(meeting_id)), None)
        if row is None:
            return
        self._edit_id, self.edit, self.editing = int(row["id"]), dict(row), True
        self.form_error, self.form_errors = "", {}
        self.form_open = True

    @rx.event
    def set_form_open(self, value: bool) -> None:
        self.form_open = bool(value) and self.form_open

    @rx.event
    async def submit_form(self, form: dict[str, Any]) -> None:
        actor = await self._actor(Perm.meetings_write, FEATURE)
        if actor is None:
            return
        day, clock = form_text(form, "date"), form_text(form, "time")
        data: dict[str, Any] = {
            "client_id": form_text(form, "client_id"),
            "title": form_text(form, "title", 200),
            "description": form_text(form, "description", 5000),
            "meeting_type": form_text(form, "meeting_type", 100),
            "meeting_url": form_text(form, "meeting_url", 500),
            "duration_minutes": form_text(form, "duration_minutes") or "30",
            "start_time": f"{day}T{clock}:00+00:00" if day and clock else "",
        }
        edit_id = self._edit_id
        verb = "update" if edit_id else "schedule"

        def call(s: Any, a: Any) -> Any:
            if edit_id:
                return meetings_admin.update_meeting(s, actor=a, meeting_id=edit_id, data=data)
            return meetings_admin.create_meeting(s, actor=a, data=data)

        ok, _ = await self._save(actor, call, f"Failed to {verb} meeting", toast=False)
        if not ok:
            return
        self.form_open = False
        self._notify(
            "success",
            "Meeting updated successfully" if edit_id else "Meeting scheduled",
            "The client has been e-mailed.",
        )
        await self._reload()

    # --- cancel / complete -----------------------------------------------------------------------------------

    @rx.event
    def ask_cancel(self, meeting_id: str, title: str) -> None:
        self._cancel_id, self.cancel_title = int(meeting_id), str(title)
        self.form_error = ""
        self.cancel_open = True

    @rx.event
    def set_cancel_open(self, value: bool) -> None:
        self.cancel_open = bool(value) and self.cancel_open

    @rx.event
    async def submit_cancel(self, form: dict[str, Any]) -> None:
        actor = await self._actor(Perm.meetings_write, FEATURE)
        if actor is None:
            return
        mid, reason = self._cancel_id, form_text(form, "reason", 500)
        try:
            await as_actor(actor, lambda s, a: meetings.cancel_meeting(s, actor=a, meeting_id=mid, reason=reason))
        except Exception as exc:
            self.form_error = error_text(exc, "Failed to cancel meeting")
            return
        self.cancel_open = False
        self._notify("success", "Meeting cancelled")
        await self._reload()

    @rx.event
    async def complete(self, meeting_id: str) -> None:
        actor = await self._actor(Perm.meetings_write, FEATURE)
        if actor is None:
            return
        mid = int(meeting_id)
        try:
            await as_actor(actor, lambda s, a: meetings_admin.complete_meeting(s, actor=a, meeting_id=mid))
        except Exception as exc:
            self._notify("error", "Failed to update meeting", error_text(exc, "Failed to update meeting"))
            return
        self._notify("success", "Meeting marked completed")
        await self._reload()

    # --- meeting types ---------------------------------------------------------------------------------------

    @rx.event
    def open_type(self, type_id: str) -> None:
        row = next((t for t in self.types if t["id"] == str(type_id)), None)
        self._type_id = int(row["id"]) if row else 0
        self.type_edit = dict(row) if row else {"duration": "30", "active": "yes"}
        self.form_error, self.form_errors = "", {}
        self.type_open = True

    @rx.event
    def set_type_open(self, value: bool) -> None:
        self.type_open = bool(value) and self.type_open

    async def _save_type(self, data: dict[str, Any], type_id: int | None) -> bool:
        actor = await self._actor(Perm.meetings_write, FEATURE)
        if actor is None:
            return False
        ok, _ = await self._save(
            actor,
            lambda s, a: meetings_admin.save_type(s, actor=a, data=data, type_id=type_id),
            "Failed to save meeting type",
        )
        if not ok:
            return False
        self._notify("success", "Meeting type saved")
        await self._reload()
        return True

    @rx.event
    async def submit_type(self, form: dict[str, Any]) -> None:
        data = {
            "name": form_text(form, "name", 200),
            "duration_minutes": form_text(form, "duration_minutes") or "30",
            "host_name": form_text(form, "host_name", 200),
            "description": form_text(form, "description", 2000),
            "scheduling_url": form_text(form, "scheduling_url", 500),
            "is_active": str(form.get("is_active") or "") in ("on", "true"),
        }
        if await self._save_type(data, self._type_id or None):
            self.type_open = False

    @rx.event
    async def toggle_type(self, type_id: str, active: bool) -> None:
        await self._save_type({"is_active": bool(active)}, int(type_id))


# --- UI ----------------------------------------------------------------------------------------------------------

S = MeetingsState


def _row(m: rx.Var) -> rx.Component:
    actions = rx.cond(
        S.can_write & (m["status"] == "scheduled"),
        rx.el.div(
            rx.el.button(
                rx.icon("pencil", size=16),
                on_click=S.open_edit(m["id"]),
                title="Edit",
                aria_label=f"Edit {m['title']}",
                class_name=ICON_BTN,
            ),
            rx.cond(
                m["started"] != "",
                rx.el.button(
                    rx.icon("circle-check", size=16),
                    on_click=S.complete(m["id"]),
                    title="Mark completed",
                    aria_label=f"Mark {m['title']} completed",
                    class_name=ICON_BTN,
                ),
                rx.el.button(
                    rx.icon("calendar-x", size=16),
                    on_click=S.ask_cancel(m["id"], m["title"]),
                    title="Cancel meeting",
                    aria_label=f"Cancel {m['title']}",
                    class_name=ICON_BTN,
                ),
            ),
            class_name="flex justify-end gap-1",
        ),
        rx.fragment(),
    )
    return rx.el.tr(
        rx.el.td(
            rx.el.p(m["title"], class_name="font-medium text-slate-900"),
            rx.el.p(m["client"], class_name="text-xs text-slate-500 md:hidden"),
            rx.el.p(m["when"], class_name="text-xs text-slate-500 lg:hidden"),
            rx.cond(
                m["join_url"] != "",
                rx.el.a(
                    "Join link",
                    href=m["join_url"],
                    target="_blank",
                    rel="noopener noreferrer",
                    class_name="text-xs text-blue-600 hover:underline",
                ),
                rx.fragment(),
            ),
            rx.cond(
                m["cancel_reason"] != "",
                rx.el.p("Reason: ", m["cancel_reason"], class_name="text-xs text-slate-500"),
                rx.fragment(),
            ),
            class_name=TD,
        ),
        rx.el.td(m["client"], class_name=f"{TD} hidden md:table-cell"),
        rx.el.td(m["when"], class_name=f"{TD} hidden lg:table-cell whitespace-nowrap"),
        rx.el.td(m["duration"], " min", class_name=f"{TD} hidden xl:table-cell whitespace-nowrap"),
        rx.el.td(rx.cond(m["meeting_type"] != "", m["meeting_type"], "—"), class_name=f"{TD} hidden xl:table-cell"),
        rx.el.td(badge_by(m["status"], STATUS_COLORS, m["status_label"]), class_name=TD),
        rx.el.td(actions, class_name=TD),
        class_name="border-t border-slate-100 hover:bg-slate-50/60",
        data_testid="meeting-row",
    )


def _table() -> rx.Component:
    headers = [
        ("Meeting", ""),
        ("Client", "hidden md:table-cell"),
        ("When (UTC)", "hidden lg:table-cell"),
        ("Duration", "hidden xl:table-cell"),
        ("Type", "hidden xl:table-cell"),
        ("Status", ""),
    ]
    return rx.el.div(
        rx.el.div(
            rx.el.table(
                rx.el.thead(
                    rx.el.tr(
                        *[rx.el.th(t, class_name=f"{TH} {extra}") for t, extra in headers],
                        rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=TH),
                    ),
                    class_name="bg-slate-50",
                ),
                rx.el.tbody(rx.cond(S.rows.length() > 0, rx.foreach(S.rows, _row), empty_row(7, "No meetings found."))),
                class_name="min-w-full",
            ),
            class_name="overflow-x-auto",
        ),
        class_name=f"{CARD} overflow-hidden",
    )


def _type_card(t: rx.Var) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.p(t["name"], class_name="font-medium text-slate-900"),
            rx.el.p(
                t["duration"],
                " min",
                rx.cond(t["host_name"] != "", rx.el.span(" · ", t["host_name"]), ""),
                class_name="text-xs text-slate-500",
            ),
            class_name="min-w-0",
        ),
        rx.el.div(
            rx.cond(t["active"] != "", badge("Active", "green"), badge("Inactive", "grey")),
            rx.cond(
                S.can_write,
                rx.fragment(
                    rx.el.button(
                        rx.cond(t["active"] != "", "Deactivate", "Activate"),
                        on_click=S.toggle_type(t["id"], t["active"] == ""),
                        class_name=f"{BTN_SECONDARY} !px-2.5 !py-1",
                    ),
                    rx.el.button(
                        rx.icon("pencil", size=16),
                        on_click=S.open_type(t["id"]),
                        aria_label=f"Edit {t['name']}",
                        class_name=ICON_BTN,
                    ),
                ),
                rx.fragment(),
            ),
            class_name="flex shrink-0 items-center gap-2",
        ),
        class_name="flex flex-col gap-2 border-t border-slate-100 px-4 py-3 sm:flex-row sm:items-center "
        "sm:justify-between",
    )


def _types_panel() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.h2("Meeting types", class_name="font-semibold text-slate-900"),
                rx.el.p(
                    "Shown in the booking view when no scheduling service is configured.",
                    class_name="text-xs text-slate-500",
                ),
            ),
            rx.cond(
                S.can_write,
                rx.el.button(rx.icon("plus", size=16), "New type", on_click=S.open_type(""), class_name=BTN_SECONDARY),
                rx.fragment(),
            ),
            class_name="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between",
        ),
        rx.foreach(S.types, _type_card),
        rx.cond(
            S.types.length() == 0,
            rx.el.p("No meeting types found.", class_name="px-4 pb-4 text-sm text-slate-500"),
            rx.fragment(),
        ),
        class_name=f"{CARD} mt-6 overflow-hidden",
    )


def _form_dialog() -> rx.Component:
    e, err = S.edit, S.form_errors
    form = rx.el.form(
        form_alert("Please check the form", S.form_error),
        rx.el.div(
            field(
                "Client",
                rx.el.select(
                    rx.el.option("Choose a client", value="", disabled=True),
                    rx.foreach(S.clients, lambda c: rx.el.option(c["label"], value=c["id"])),
                    name="client_id",
                    id="meeting-client",
                    default_value=e["client_id"],
                    required=True,
                    class_name=f"{INPUT} pr-8",
                ),
                err["client_id"],
                required=True,
            ),
            field(
                "Title",
                text_input("title", id="meeting-title", default_value=e["title"], required=True),
                err["title"],
                required=True,
            ),
            field(
                "Date (UTC)",
                text_input(
                    "date", id="meeting-date", type="date", min="1900-01-01", default_value=e["date"], required=True
                ),
                err["start_time"],
                required=True,
            ),
            field(
                "Start time (UTC)",
                text_input("time", id="meeting-time", type="time", default_value=e["time"], required=True),
                hint="Times are in UTC.",
                required=True,
            ),
            field(
                "Duration (minutes)",
                text_input(
                    "duration_minutes",
                    id="meeting-duration",
                    type="number",
                    min="5",
                    max="600",
                    step="5",
                    default_value=e["duration"],
                ),
                err["duration_minutes"],
            ),
            field(
                "Type",
                rx.el.input(
                    name="meeting_type",
                    id="meeting-type",
                    list="meeting-type-options",
                    default_value=e["meeting_type"],
                    class_name=INPUT,
                ),
                err["meeting_type"],
            ),
            rx.el.datalist(rx.foreach(S.type_names, lambda n: rx.el.option(value=n)), id="meeting-type-options"),
            rx.el.div(
                field(
                    "Join link",
                    text_input(
                        "meeting_url", id="meeting-url", type="url", placeholder="https://", default_value=e["join_url"]
                    ),
                    err["meeting_url"],
                ),
                class_name="sm:col-span-2",
            ),
            rx.el.div(
                field(
                    "Description",
                    rx.el.textarea(
                        name="description",
                        id="meeting-description",
                        rows=2,
                        default_value=e["description"],
                        class_name=TEXTAREA,
                    ),
                    err["description"],
                ),
                class_name="sm:col-span-2",
            ),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        submit_actions(S.set_form_open(False), S.saving, test_id="meeting-save"),
        on_submit=S.submit_form,
        reset_on_submit=False,
    )
    return dialog(
        rx.cond(S.editing, "Edit Meeting", "Schedule Meeting"),
        "The client sees the meeting in the portal and gets an e-mail. Times are UTC.",
        form,
        open=S.form_open,
        on_open_change=S.set_form_open,
        max_width="40rem",
    )


def _cancel_dialog() -> rx.Component:
    form = rx.el.form(
        form_alert("Failed to cancel meeting", S.form_error),
        field("Reason", text_input("reason", id="cancel-reason", placeholder="Cancelled by staff")),
        dialog_actions(
            rx.el.button("Keep meeting", type="button", on_click=S.set_cancel_open(False), class_name=BTN_SECONDARY),
            rx.el.button("Cancel meeting", type="submit", class_name=BTN_DANGER),
        ),
        on_submit=S.submit_cancel,
        reset_on_submit=False,
    )
    return dialog(
        "Cancel Meeting",
        rx.el.span('Cancel "', S.cancel_title, '"? The client sees the reason.'),
        form,
        open=S.cancel_open,
        on_open_change=S.set_cancel_open,
    )


def _type_dialog() -> rx.Component:
    e, err = S.type_edit, S.form_errors
    form = rx.el.form(
        form_alert("Failed to save meeting type", S.form_error),
        rx.el.div(
            field(
                "Name",
                text_input("name", id="type-name", default_value=e["name"], required=True),
                err["name"],
                required=True,
            ),
            field(
                "Duration (minutes)",
                text_input(
                    "duration_minutes",
                    id="type-duration",
                    type="number",
                    min="5",
                    max="600",
                    default_value=e["duration"],
                ),
                err["duration_minutes"],
            ),
            field("Host", text_input("host_name", id="type-host", default_value=e["host_name"]), err["host_name"]),
            field(
                "Booking link",
                text_input("scheduling_url", id="type-url", default_value=e["scheduling_url"]),
                err["scheduling_url"],
            ),
            rx.el.div(
                field(
                    "Description",
                    rx.el.textarea(
                        name="description",
                        id="type-description",
                        rows=2,
                        default_value=e["description"],
                        class_name=TEXTAREA,
                    ),
                ),
                class_name="sm:col-span-2",
            ),
            rx.el.label(
                rx.el.input(
                    type="checkbox",
                    name="is_active",
                    id="type-active",
                    default_checked=e["active"] != "",
                    class_name="h-4 w-4",
                ),
                rx.el.span("Active", class_name="text-sm text-slate-700"),
                class_name="flex items-center gap-2",
            ),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        submit_actions(S.set_type_open(False), S.saving),
        on_submit=S.submit_type,
        reset_on_submit=False,
    )
    return dialog(
        "Meeting Type",
        "Shown to clients when they book a meeting.",
        form,
        open=S.type_open,
        on_open_change=S.set_type_open,
    )


def meetings_content() -> rx.Component:
    return rx.el.div(
        page_header(
            "Meetings",
            "All client meetings. Times are shown in UTC.",
            rx.cond(
                S.can_write,
                rx.el.button(
                    rx.icon("calendar-plus", size=16),
                    "Schedule Meeting",
                    on_click=S.open_create,
                    class_name=BTN_PRIMARY,
                    data_testid="create-meeting",
                ),
                rx.fragment(),
            ),
        ),
        rx.el.div(
            rx.el.div(
                select(WHEN_FILTERS, value=S.when, on_change=S.set_when, aria_label="When"), class_name="w-full sm:w-40"
            ),
            rx.el.div(
                select(STATUS_FILTERS, value=S.status_filter, on_change=S.set_status_filter, aria_label="Status"),
                class_name="w-full sm:w-44",
            ),
            rx.el.div(
                rx.el.select(
                    rx.el.option("All Clients", value=""),
                    rx.foreach(S.clients, lambda c: rx.el.option(c["label"], value=c["id"])),
                    value=S.client_filter,
                    on_change=S.set_client_filter,
                    aria_label="Client",
                    class_name=f"{INPUT} pr-8",
                ),
                class_name="w-full sm:w-64",
            ),
            class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center",
        ),
        rx.cond(
            S.load_error != "",
            error_panel("Failed to load meetings", "There was an error loading the meetings.", S.retry),
            rx.cond(S.loading & (S.rows.length() == 0), loading_text("Loading meetings…"), _table()),
        ),
        _types_panel(),
        _form_dialog(),
        _cancel_dialog(),
        _type_dialog(),
    )
