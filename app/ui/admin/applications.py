"""Applications (/admin/applications, applications:read): job applications per opening, filtered by job code,
status and name/e-mail; the details dialog links the CV and cover letter (authenticated, audited downloads) and moves
the application to one of its allowed next statuses, with notes (applications:write)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.services import applications
from app.ui.admin.common import TEXTAREA, day_text, error_panel, form_text, holds, info, label_of, search_input
from app.ui.admin.state import AdminState, as_actor, error_text
from app.ui.admin.widgets import (
    BTN_PRIMARY,
    BTN_SECONDARY,
    CARD,
    ICON_BTN,
    INPUT,
    TD,
    TH,
    badge_by,
    dialog,
    empty_row,
    page_header,
    select,
)

FEATURE = "Applications"
STATUSES = ["new", "reviewing", "interview", "offer", "rejected"]
STATUS_COLORS = {"new": "blue", "reviewing": "yellow", "interview": "purple", "offer": "green", "rejected": "red"}


def application_row(a: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(a["id"]),
        "name": f"{a['first_name']} {a['last_name']}".strip(),
        "email": a["email"],
        "phone": a.get("phone") or "",
        "linkedin": a.get("linkedin_url") or "",
        "job_code": a.get("job_code") or "",
        "opening": a.get("job_title") or a.get("job_code") or "General application",
        "status": a["status"],
        "status_label": label_of(a["status"]),
        "next_statuses": [{"value": s, "label": label_of(s)} for s in a.get("next_statuses") or []],
        "notes": a.get("notes") or "",
        "resume_name": a.get("resume_filename") or "CV",
        "cover_name": a.get("cover_letter_filename") or "",
        "resume_url": f"/api/admin/applications/{a['id']}/resume",
        "cover_url": f"/api/admin/applications/{a['id']}/cover-letter",
        "date": day_text(a.get("created_at")),
    }


class ApplicationsState(AdminState):
    rows: list[dict[str, Any]] = []
    openings: list[dict[str, str]] = []
    job_filter: str = ""
    status_filter: str = ""
    search: str = ""
    load_error: str = ""
    detail_open: bool = False
    detail: dict[str, Any] = {}
    saving: bool = False
    _detail_id: int = 0

    async def _reload(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.applications_read, FEATURE, quiet=quiet)
        if actor is None:
            self.rows = []
            return
        job, status, search = self.job_filter, self.status_filter, self.search
        try:
            data = await as_actor(
                actor,
                lambda s, a: applications.list_applications(s, actor=a, job_code=job, status=status, search=search),
            )
            if not job and not status and not search:
                seen: dict[str, str] = {}
                for row in data:
                    if row.get("job_code"):
                        seen.setdefault(row["job_code"], row.get("job_title") or row["job_code"])
                self.openings = [{"code": k, "label": f"{v} ({k})" if v != k else k} for k, v in sorted(seen.items())]
            self.load_error = ""
        except Exception as exc:
            data = []
            self.load_error = error_text(exc, "There was an error loading the applications.")
        self.rows = [application_row(a) for a in data]

    @rx.event
    async def load(self) -> None:
        self.detail_open = False
        self.job_filter = self.status_filter = self.search = ""
        await self._reload(quiet=True)

    @rx.event
    async def retry(self) -> None:
        await self._reload()

    @rx.event
    async def set_job_filter(self, value: str) -> None:
        self.job_filter = str(value)[:50]
        await self._reload()

    @rx.event
    async def set_status_filter(self, value: str) -> None:
        self.status_filter = value if value in STATUSES else ""
        await self._reload()

    @rx.event
    async def set_search(self, value: str) -> None:
        self.search = str(value)[:100]
        await self._reload()

    @rx.var
    def can_write(self) -> bool:
        return holds(self.user, Perm.applications_write)

    @rx.event
    def open_detail(self, application_id: str) -> None:
        row = next((r for r in self.rows if r["id"] == str(application_id)), None)
        if row is None:
            return
        self._detail_id, self.detail = int(row["id"]), dict(row)
        self.detail_open = True

    @rx.event
    def set_detail_open(self, value: bool) -> None:
        self.detail_open = bool(value) and self.detail_open

    async def _update(self, status: str | None, notes: str | None) -> None:
        actor = await self._actor(Perm.applications_write, FEATURE)
        if actor is None:
            return
        aid = self._detail_id
        self.saving = True
        try:
            dto = await as_actor(
                actor,
                lambda s, a: applications.update_application(
                    s, actor=a, application_id=aid, status=status, notes=notes
                ),
            )
        except Exception as exc:
            self._notify("error", "Update Failed", error_text(exc, "Failed to update application"))
            return
        finally:
            self.saving = False
        self.detail = application_row(dto)
        self._notify("success", "Application updated successfully")
        await self._reload()

    @rx.event
    async def move_to(self, status: str) -> None:
        await self._update(str(status), None)

    @rx.event
    async def save_notes(self, form: dict[str, Any]) -> None:
        await self._update(None, form_text(form, "notes", 5000))


S = ApplicationsState


def _row(a: rx.Var) -> rx.Component:
    return rx.el.tr(
        rx.el.td(
            rx.el.p(a["name"], class_name="font-medium text-slate-900"),
            rx.el.p(a["email"], class_name="text-xs text-slate-500 break-all"),
            rx.el.p(a["opening"], class_name="text-xs text-slate-500 md:hidden"),
            class_name=TD,
        ),
        rx.el.td(a["opening"], class_name=f"{TD} hidden md:table-cell"),
        rx.el.td(
            badge_by(a["status"], STATUS_COLORS, a["status_label"], data_testid="application-status"), class_name=TD
        ),
        rx.el.td(a["date"], class_name=f"{TD} hidden lg:table-cell whitespace-nowrap"),
        rx.el.td(
            rx.el.button(
                rx.icon("eye", size=16),
                on_click=S.open_detail(a["id"]),
                title="View application",
                aria_label=f"View application of {a['name']}",
                class_name=ICON_BTN,
            ),
            class_name=f"{TD} text-right",
        ),
        class_name="border-t border-slate-100 hover:bg-slate-50/60",
        data_testid="application-row",
    )


def _detail_dialog() -> rx.Component:
    d = S.detail
    doc_link = "inline-flex items-center gap-1.5 text-sm font-medium text-blue-600 hover:underline"
    body = rx.el.div(
        rx.el.dl(
            info("Opening", d["opening"]),
            info("Status", badge_by(d["status"], STATUS_COLORS, d["status_label"])),
            info("Email", rx.el.a(d["email"], href=f"mailto:{d['email']}", class_name="text-blue-600 underline")),
            info("Phone", rx.cond(d["phone"] != "", d["phone"], "Not provided")),
            info(
                "LinkedIn",
                rx.cond(
                    d["linkedin"] != "",
                    rx.el.a(
                        d["linkedin"],
                        href=d["linkedin"],
                        target="_blank",
                        rel="noopener noreferrer",
                        class_name="text-blue-600 underline",
                    ),
                    "Not provided",
                ),
            ),
            info("Applied", d["date"]),
            class_name="grid grid-cols-1 gap-3 sm:grid-cols-2",
        ),
        rx.el.div(
            rx.el.a(
                rx.icon("file-down", size=16),
                "CV: ",
                d["resume_name"],
                href=d["resume_url"],
                class_name=doc_link,
                data_testid="cv-link",
            ),
            rx.cond(
                d["cover_name"] != "",
                rx.el.a(
                    rx.icon("file-down", size=16),
                    "Cover letter: ",
                    d["cover_name"],
                    href=d["cover_url"],
                    class_name=doc_link,
                ),
                rx.fragment(),
            ),
            class_name="mt-4 flex flex-col gap-2 rounded-lg bg-slate-50 p-3",
        ),
        rx.cond(
            S.can_write,
            rx.el.div(
                rx.el.p("Move to", class_name="mb-1 text-sm font-medium text-slate-700"),
                rx.el.div(
                    rx.foreach(
                        d["next_statuses"].to(list[dict[str, str]]),
                        lambda n: rx.el.button(
                            n["label"],
                            on_click=S.move_to(n["value"]),
                            disabled=S.saving,
                            class_name=BTN_SECONDARY,
                            data_testid=f"move-{n['value']}",
                        ),
                    ),
                    rx.cond(
                        d["next_statuses"].to(list).length() == 0,
                        rx.el.p("This application is closed.", class_name="text-sm text-slate-500"),
                        rx.fragment(),
                    ),
                    class_name="flex flex-wrap gap-2",
                ),
                class_name="mt-4",
            ),
            rx.fragment(),
        ),
        rx.el.form(
            rx.el.label(
                rx.el.span("Notes", class_name="mb-1 block text-sm font-medium text-slate-700"),
                rx.el.textarea(
                    name="notes",
                    id="application-notes",
                    default_value=d["notes"].to(str),
                    rows=3,
                    read_only=~S.can_write,
                    class_name=TEXTAREA,
                ),
                class_name="block",
            ),
            rx.el.div(
                rx.el.button("Close", type="button", on_click=S.set_detail_open(False), class_name=BTN_SECONDARY),
                rx.cond(
                    S.can_write,
                    rx.el.button("Save Notes", type="submit", disabled=S.saving, class_name=BTN_PRIMARY),
                    rx.fragment(),
                ),
                class_name="mt-3 flex justify-end gap-2",
            ),
            on_submit=S.save_notes,
            reset_on_submit=False,
            class_name="mt-4",
        ),
    )
    return dialog(
        rx.el.span("Application: ", d["name"]),
        "Documents open through an authenticated, audited link.",
        body,
        open=S.detail_open,
        on_open_change=S.set_detail_open,
        max_width="40rem",
    )


def applications_content() -> rx.Component:
    return rx.el.div(
        page_header(rx.el.span("Job Applications (", S.rows.length(), ")"), "Applications per opening."),
        rx.el.div(
            search_input(S.search, S.set_search, "Search applicants…"),
            rx.el.div(
                rx.el.select(
                    rx.el.option("All Openings", value=""),
                    rx.foreach(S.openings, lambda o: rx.el.option(o["label"], value=o["code"])),
                    value=S.job_filter,
                    on_change=S.set_job_filter,
                    aria_label="Opening",
                    class_name=f"{INPUT} pr-8",
                ),
                class_name="w-full sm:w-64",
            ),
            rx.el.div(
                select(
                    [("", "All Statuses"), *[(s, label_of(s)) for s in STATUSES]],
                    value=S.status_filter,
                    on_change=S.set_status_filter,
                    aria_label="Status",
                ),
                class_name="w-full sm:w-44",
            ),
            class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center",
        ),
        rx.cond(
            S.load_error != "",
            error_panel("Failed to load applications", "There was an error loading the applications.", S.retry),
            rx.el.div(
                rx.el.div(
                    rx.el.table(
                        rx.el.thead(
                            rx.el.tr(
                                rx.el.th("Applicant", class_name=TH),
                                rx.el.th("Opening", class_name=f"{TH} hidden md:table-cell"),
                                rx.el.th("Status", class_name=TH),
                                rx.el.th("Applied", class_name=f"{TH} hidden lg:table-cell"),
                                rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=TH),
                            ),
                            class_name="bg-slate-50",
                        ),
                        rx.el.tbody(
                            rx.cond(
                                S.rows.length() > 0,
                                rx.foreach(S.rows, _row),
                                empty_row(
                                    5,
                                    rx.cond(
                                        (S.search != "") | (S.job_filter != "") | (S.status_filter != ""),
                                        "No applications found matching your search.",
                                        "No applications found.",
                                    ),
                                ),
                            )
                        ),
                        class_name="min-w-full",
                    ),
                    class_name="overflow-x-auto",
                ),
                class_name=f"{CARD} overflow-hidden",
            ),
        ),
        _detail_dialog(),
    )
