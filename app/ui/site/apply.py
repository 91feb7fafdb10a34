"""/apply?jobId=...: the job application form.

filled → validated (ApplyState.review, the spec's texts) → confirm dialog (Cancel / Final Submit) → submitting →
success (toast, back to /careers after 2 s) or error (the form keeps everything typed and chosen).

The files travel as a native multipart POST to /api/applications/submit (apply_form.js), not through the websocket
or Reflex's upload endpoint: see docs/adr/0038-job-applications.md.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.core.config import settings
from app.services.careers import careers
from app.services.careers.careers import JobPublic
from app.services.platform import files
from app.ui import routes
from app.ui.components.behaviour import Behaviour
from app.ui.components.blocks import required_note, send_button
from app.ui.layouts.site import site_layout
from app.ui.seo import public_page
from app.ui.state.calls import call
from app.ui.state.company import AT_BUILD
from app.ui.state.notice import notify
from app.ui.styles import BUTTON_OUTLINE, BUTTON_PRIMARY, CONTAINER, TEXT_LINK

MISSING_TITLE = "Missing Required Fields"
REQUIRED = "This field is required"
MISSING = careers.MISSING  # "Please fill in all required fields and upload your resume."
INVALID_EMAIL_TITLE = "Invalid Email"
INVALID_EMAIL = careers.INVALID_EMAIL  # "Please enter a valid email address."
INVALID_FILE_TITLE = "Invalid File Type"
INVALID_FILE = files.WRONG_TYPE  # "Please upload only PDF, DOC, or DOCX files."
TOO_LARGE_TITLE = "File Too Large"
SUBMITTED_TITLE = careers.SUBMITTED  # "Application Submitted!"
SUBMITTED_TEXT = "Thank you for applying. We'll review your application and get back to you soon."
ERROR_TITLE = "Submission Error"
ERROR_TEXT = "There was an error submitting your application. Please try again."
REDIRECT_SECONDS = 2  # spec: back to /careers after 2 s

TEXT_FIELDS = ("firstName", "lastName", "phone", "email", "linkedinProfile")
FILE_FIELDS = ("resume", "coverLetter")
ACCEPT = ",".join([".pdf", ".doc", ".docx", files.PDF.content_type, files.DOC.content_type, files.DOCX.content_type])
_EMAIL = re.compile(r"^[^\s@]+@[^\s@]+\.[^\s@]+$")
_SERVER_TITLES = {MISSING: MISSING_TITLE, INVALID_EMAIL: INVALID_EMAIL_TITLE, INVALID_FILE: INVALID_FILE_TITLE}


def _text(form: dict[str, Any], key: str) -> str:
    value = form.get(key)
    return value.strip() if isinstance(value, str) else ""


def _wrong_type(name: str) -> bool:
    return bool(name) and ("." not in name or name.rsplit(".", 1)[-1].lower() not in files.ALLOWED_EXTENSIONS)


def validate(form: dict[str, Any], max_bytes: int | None = None) -> tuple[dict[str, str], str, str]:
    """The spec's checks before the confirmation: (field errors, toast title, toast text); no errors means valid.

    `form` holds the text fields and, for each file field, `<field>Name` and `<field>Size` (mirrored by the page).
    """
    limit = max_bytes if max_bytes is not None else files.max_bytes()
    missing = [f for f in ("firstName", "lastName", "phone", "email") if not _text(form, f)]
    if not _text(form, "resumeName"):
        missing.append("resume")
    if missing:
        return dict.fromkeys(missing, REQUIRED), MISSING_TITLE, MISSING
    if not _EMAIL.match(_text(form, "email")):
        return {"email": INVALID_EMAIL}, INVALID_EMAIL_TITLE, INVALID_EMAIL
    wrong = [f for f in FILE_FIELDS if _wrong_type(_text(form, f"{f}Name"))]
    if wrong:
        return dict.fromkeys(wrong, INVALID_FILE), INVALID_FILE_TITLE, INVALID_FILE
    big = [f for f in FILE_FIELDS if _text(form, f"{f}Size").isdigit() and int(_text(form, f"{f}Size")) > limit]
    if big:
        message = files.too_large_message()
        return dict.fromkeys(big, message), TOO_LARGE_TITLE, message
    return {}, "", ""


def server_outcome(status: int, body: str) -> tuple[str, str, dict[str, str]]:
    """Toast title, text and field errors for a failed POST /api/applications/submit."""
    try:
        data = json.loads(body) if body else {}
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) else {}
    message = data.get("message") if isinstance(data.get("message"), str) else ""
    raw_errors = data.get("errors")
    if not isinstance(raw_errors, dict):
        raw_errors = {}
    errors = {k: str(v) for k, v in raw_errors.items() if k in TEXT_FIELDS + FILE_FIELDS}
    # A 503's message is written for the visitor (the file store or the database is down: nothing was sent, try again
    # later); any other server failure's text is not, so it gets the spec's words.
    if not message or status == 0 or (status >= 500 and status != 503):
        return ERROR_TITLE, ERROR_TEXT, errors
    return _SERVER_TITLES.get(message, ERROR_TITLE), message, errors


# What the page shows without an opening (no jobId, or one that is not open): the general application.
NO_JOB = JobPublic(
    id="", title="", department="", location="", type="", salary=None, description=None, requirements=[], benefits=[]
)


class ApplyState(rx.State):
    job_id: str = ""
    job: JobPublic = NO_JOB
    job_loaded: bool = False
    confirm_open: bool = False
    submitting: bool = False
    submitted: bool = False
    errors: dict[str, str] = {}
    applicant: str = ""

    @rx.var
    def has_job(self) -> bool:
        return self.job.id != ""

    @rx.event
    async def load(self) -> None:
        self.confirm_open = self.submitting = self.submitted = False
        self.errors = {}
        code = (self.router.url.query_parameters.get("jobId") or "").strip()[:20]
        self.job_id = code
        job = await call(careers.get_job, code) if code else None
        self.job = job or NO_JOB
        self.job_loaded = True

    @rx.event
    def field_left(self, name: str, value: str) -> None:
        """A required field filled after a refused submit loses its "This field is required" at once (issue 26: it
        stayed red until the next submit); any other message waits for the next check."""
        if self.errors.get(str(name)) == REQUIRED and isinstance(value, str) and value.strip():
            self.errors = {k: v for k, v in self.errors.items() if k != name}

    @rx.event
    async def review(self, form: dict[str, Any]) -> None:
        if self.submitting or self.submitted:
            return
        errors, title, text = validate(form)
        self.errors = errors
        if errors:
            await notify(self, "error", title, text)
            return
        self.applicant = f"{_text(form, 'firstName')} {_text(form, 'lastName')}"
        self.confirm_open = True

    @rx.event
    def set_confirm_open(self, open_: bool) -> None:
        if not self.submitting:
            self.confirm_open = open_

    @rx.event
    def begin_submit(self) -> None:
        # apply_form.js starts the upload on the same click.
        self.submitting = True

    @rx.event
    async def finish(self, result: dict[str, Any]):
        """The upload's outcome, handed over by apply_form.js through the hidden #apply-result form."""
        try:
            status = int(str(result.get("status") or "0"))
        except ValueError:
            status = 0
        body = result.get("body")
        self.confirm_open = False
        if status == 201:
            self.submitted = True
            await notify(self, "success", SUBMITTED_TITLE, SUBMITTED_TEXT)
            yield ApplyState.back_to_careers
            return
        self.submitting = False
        title, text, errors = server_outcome(status, body if isinstance(body, str) else "")
        self.errors = errors
        await notify(self, "error", title, text)

    @rx.event(background=True)
    async def back_to_careers(self):
        await asyncio.sleep(REDIRECT_SECONDS)
        async with self:
            if not self.submitted:
                return
        yield rx.redirect(routes.CAREERS)


class ApplyFormBehaviour(Behaviour):
    """Renders nothing; wires ``setupApplyForm`` (apply_form.js) to the page."""

    script = (Path(__file__).with_name("apply_form.js")).read_text(encoding="utf-8")

    def add_hooks(self) -> list[str | rx.Var]:
        return ["useEffect(() => setupApplyForm(), []);"]


_INPUT = (
    "block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-xs placeholder:text-slate-400 "
    "focus:outline-2 focus:outline-offset-0 sm:text-sm"
)
_FILE = (
    "block w-full rounded-lg border border-dashed bg-slate-50 p-2 text-sm text-slate-700 file:mr-3 file:rounded-md "
    "file:border-0 file:bg-blue-800 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-white "
    "hover:file:bg-blue-900 focus:outline-2 focus:outline-offset-2 focus:outline-blue-600"
)


_apply: Any = ApplyState  # its handlers called with arguments: event specs to Reflex, namespaces to mypy


def _has_error(name: str) -> rx.Var:
    return ApplyState.errors[name].to(str).bool()


def _error(name: str) -> rx.Component:
    return rx.cond(
        _has_error(name),
        rx.el.p(
            rx.icon("circle-alert", size=14, class_name="mt-0.5 shrink-0", aria_hidden="true"),
            ApplyState.errors[name].to(str),
            id=f"apply-{name}-error",
            class_name="mt-1.5 flex items-start gap-1 text-sm text-red-700",
        ),
    )


def _described(name: str, hint: str | None = None) -> rx.Var | str:
    hint_id = f"apply-{name}-hint" if hint else ""
    return rx.cond(_has_error(name), f"{hint_id} apply-{name}-error".strip(), hint_id)


def _label(text: str, name: str, required: bool) -> rx.Component:
    return rx.el.label(
        text,
        rx.el.span(" *", class_name="text-red-700", aria_hidden="true") if required else rx.fragment(),
        html_for=f"apply-{name}",
        class_name="text-sm font-medium text-slate-800",
    )


def _text_field(label: str, name: str, *, required: bool = False, **props: Any) -> rx.Component:
    return rx.el.div(
        _label(label, name, required),
        rx.el.input(
            id=f"apply-{name}",
            name=name,
            aria_required="true" if required else "false",
            aria_invalid=rx.cond(_has_error(name), "true", "false"),
            aria_describedby=_described(name),
            on_blur=lambda value: _apply.field_left(name, value),
            class_name=rx.cond(
                _has_error(name),
                f"{_INPUT} border-red-600 focus:outline-red-600",
                f"{_INPUT} border-slate-300 focus:border-blue-700 focus:outline-blue-600",
            ),
            **props,
        ),
        _error(name),
        class_name="space-y-1.5",
    )


def _file_field(label: str, name: str, *, required: bool) -> rx.Component:
    hint = f"PDF, DOC or DOCX, up to {settings.max_upload_mb} MB."
    return rx.el.div(
        _label(label, name, required),
        rx.el.p(hint, id=f"apply-{name}-hint", class_name="text-xs text-slate-600"),
        # No `name`, and outside the Reflex form: apply_form.js sends the file and mirrors its name and size.
        rx.el.input(
            id=f"apply-{name}",
            type="file",
            accept=ACCEPT,
            data_apply_file=name,
            aria_required="true" if required else "false",
            aria_invalid=rx.cond(_has_error(name), "true", "false"),
            aria_describedby=_described(name, hint),
            class_name=rx.cond(_has_error(name), f"{_FILE} border-red-600", f"{_FILE} border-slate-300"),
        ),
        _error(name),
        class_name="space-y-1.5",
    )


def _job_header() -> rx.Component:
    job = ApplyState.job
    facts = [("briefcase", "department"), ("map-pin", "location"), ("clock", "type")]
    return rx.cond(
        ApplyState.job_loaded,
        rx.cond(
            ApplyState.has_job,
            rx.el.div(
                rx.el.p("Apply for", class_name="text-sm font-semibold tracking-wider text-amber-300 uppercase"),
                rx.el.h1(
                    job.title,
                    id="page-heading",
                    class_name="mt-2 text-3xl font-extrabold text-white sm:text-4xl",
                ),
                rx.el.ul(
                    *[
                        rx.el.li(
                            rx.icon(icon, size=16, class_name="text-amber-300", aria_hidden="true"),
                            getattr(job, key),
                            class_name="flex items-center gap-1.5",
                        )
                        for icon, key in facts
                    ],
                    aria_label="Position details",
                    class_name="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-blue-100",
                ),
            ),
            rx.el.div(
                rx.el.p("Careers", class_name="text-sm font-semibold tracking-wider text-amber-300 uppercase"),
                rx.el.h1(
                    "Submit Your Application",
                    id="page-heading",
                    class_name="mt-2 text-3xl font-extrabold text-white sm:text-4xl",
                ),
                rx.el.p(
                    "Don't see the exact role you're looking for? Tell us about yourself and we'll keep you in mind "
                    "for current and future openings.",
                    class_name="mt-4 max-w-2xl text-blue-100",
                ),
            ),
        ),
        rx.el.div(
            rx.el.h1("Loading position", id="page-heading", class_name="sr-only"),
            rx.el.div(class_name="h-4 w-24 rounded bg-white/20"),
            rx.el.div(class_name="mt-3 h-9 w-2/3 rounded bg-white/20"),
            rx.el.div(class_name="mt-4 h-4 w-1/2 rounded bg-white/10"),
            role="status",
            class_name="animate-pulse motion-reduce:animate-none",
        ),
    )


def _nav_links() -> rx.Component:
    link = "inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-blue-100 hover:text-white"
    return rx.el.nav(
        ReactRouterLink.create(rx.icon("house", size=16, aria_hidden="true"), "Home", to=routes.HOME, class_name=link),
        rx.el.span("/", aria_hidden="true", class_name="text-blue-300"),
        ReactRouterLink.create(
            rx.icon("arrow-left", size=16, aria_hidden="true"), "Back to All Jobs", to=routes.CAREERS, class_name=link
        ),
        aria_label="Breadcrumb",
        class_name="mb-8 flex items-center gap-3",
    )


def _form() -> rx.Component:
    # The file inputs sit outside the Reflex form, so its submit (which travels over the websocket) never sees them;
    # the hidden <field>Name/<field>Size inputs carry what validation needs, and the button joins by `form=`.
    mirrors = [rx.el.input(type="hidden", name=f"{f}{part}") for f in FILE_FIELDS for part in ("Name", "Size")]
    return rx.el.div(
        rx.el.form(
            rx.el.fieldset(
                rx.el.legend("Your details", class_name="text-lg font-bold text-slate-900"),
                rx.el.div(
                    _text_field("First Name", "firstName", required=True, auto_complete="given-name", max_length=100),
                    _text_field("Last Name", "lastName", required=True, auto_complete="family-name", max_length=100),
                    _text_field("Phone", "phone", required=True, type="tel", auto_complete="tel", max_length=30),
                    _text_field("Email", "email", required=True, type="email", auto_complete="email"),
                    rx.el.div(
                        _text_field(
                            "LinkedIn Profile",
                            "linkedinProfile",
                            type="url",
                            placeholder="https://www.linkedin.com/in/your-name",
                            max_length=500,
                        ),
                        class_name="sm:col-span-2",
                    ),
                    class_name="mt-4 grid gap-5 sm:grid-cols-2",
                ),
            ),
            *mirrors,
            rx.el.input(type="hidden", name="jobId", value=ApplyState.job_id),
            id="apply-form",
            no_validate=True,
            on_submit=ApplyState.review,
            aria_label="Job application",
        ),
        rx.el.fieldset(
            rx.el.legend("Documents", class_name="text-lg font-bold text-slate-900"),
            rx.el.div(
                _file_field("Resume", "resume", required=True),
                _file_field("Cover Letter", "coverLetter", required=False),
                class_name="mt-4 grid gap-5 sm:grid-cols-2",
            ),
        ),
        rx.el.div(
            send_button(
                "Submit Application",
                "Submitting...",
                busy=ApplyState.submitting,
                disabled=ApplyState.submitting | ApplyState.submitted | ~rx.State.is_hydrated,
                form="apply-form",
            ),
            required_note(""),
            class_name=(
                "flex flex-col gap-3 border-t border-slate-100 pt-6 sm:flex-row sm:items-center sm:justify-between"
            ),
        ),
        class_name="space-y-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8",
    )


def _result_form() -> rx.Component:
    """Hidden: apply_form.js fills it with the upload's status and answer and submits it to ApplyState.finish."""
    return rx.el.form(
        rx.el.input(type="hidden", name="status"),
        rx.el.input(type="hidden", name="body"),
        id="apply-result",
        hidden=True,
        on_submit=ApplyState.finish,
    )


def _confirm_dialog() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Submit your application?"),
            rx.alert_dialog.description(
                rx.el.span(
                    ApplyState.applicant,
                    ", you're applying for ",
                    rx.el.strong(rx.cond(ApplyState.has_job, ApplyState.job.title, "a general position")),
                    ". Please check your details and documents: once submitted, the application can't be changed.",
                ),
            ),
            rx.el.div(
                rx.alert_dialog.cancel(
                    rx.el.button(
                        "Cancel",
                        type="button",
                        disabled=ApplyState.submitting,
                        class_name=f"{BUTTON_OUTLINE} h-11 px-5 text-sm",
                    ),
                ),
                rx.el.button(
                    rx.cond(
                        ApplyState.submitting,
                        rx.fragment(rx.icon("loader-circle", size=18, class_name="animate-spin"), "Submitting..."),
                        "Final Submit",
                    ),
                    type="button",
                    data_apply_send=True,
                    on_click=ApplyState.begin_submit,
                    disabled=ApplyState.submitting,
                    class_name=f"{BUTTON_PRIMARY} h-11 px-5 text-sm",
                ),
                class_name="mt-6 flex flex-wrap justify-end gap-3",
            ),
            max_width="28rem",
        ),
        open=ApplyState.confirm_open,
        on_open_change=ApplyState.set_confirm_open,
    )


@public_page(
    routes.APPLY,
    f"Apply | Careers at {AT_BUILD.name}",
    f"Apply for an open position at {AT_BUILD.name}: send your details, resume and cover letter.",
    on_load=ApplyState.load,
)
def apply_page() -> rx.Component:
    return site_layout(
        rx.el.section(
            rx.el.div(
                rx.el.div(_nav_links(), _job_header(), class_name="mx-auto max-w-4xl"),
                class_name=f"{CONTAINER} py-12 sm:py-16",
            ),
            aria_labelledby="page-heading",
            class_name="bg-blue-950",
        ),
        rx.el.section(
            rx.el.div(
                _form(),
                rx.el.p(
                    "We use your details only to assess your application. See our ",
                    ReactRouterLink.create("Privacy Policy", to=routes.PRIVACY, class_name=TEXT_LINK),
                    ".",
                    class_name="mt-6 text-center text-sm text-slate-600",
                ),
                class_name=f"{CONTAINER} [&>*]:mx-auto [&>*]:max-w-4xl",
            ),
            aria_label="Application form",
            class_name="bg-slate-50 py-12 sm:py-16",
        ),
        _result_form(),
        _confirm_dialog(),
        ApplyFormBehaviour.create(),
    )
