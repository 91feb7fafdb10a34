"""The contact / quote form (home and /contact), submitted in-process to `contact.submit_inquiry`."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import reflex as rx

from app.core.db import session_scope
from app.core.errors import DomainError, Invalid
from app.services.crm import contact
from app.services.crm.contact import ContactCreate
from app.services.platform.schema import parse
from app.services.scheduling import meeting_types
from app.services.scheduling.meeting_types import EventType
from app.ui.components.blocks import required_note, send_button
from app.ui.state.notice import notify
from app.ui.styles import FOCUS_RING

log = logging.getLogger(__name__)

SUCCESS_TITLE = "Message Sent Successfully!"
SUCCESS_TEXT = contact.THANK_YOU  # "Thank you for your inquiry. We'll get back to you within 24 hours."
FAILED = "Failed to submit your inquiry. Please try again."
FORM_ID = "contact-form"
TEXT_FIELDS = ("name", "email", "company", "phone", "service_type", "budget", "message", "website")

_FIELD = "text-sm font-medium text-slate-800"
_INPUT = (
    "block w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-xs placeholder:text-slate-400 "
    "focus:outline-2 focus:outline-offset-0 disabled:bg-slate-50 sm:text-sm"
)
_INPUT_OK = f"{_INPUT} border-slate-300 focus:border-blue-700 focus:outline-blue-600"
_INPUT_ERROR = f"{_INPUT} border-red-600 focus:border-red-600 focus:outline-red-600"


def _checked(value: Any) -> bool:
    return str(value or "").strip().lower() in {"on", "true", "1", "yes"}


def _submit(form: dict[str, Any], ip: str | None) -> None:
    # A browser's form sends text; anything else a forged event carries counts as not filled in.
    fields = {key: value for key in TEXT_FIELDS if isinstance(value := form.get(key), str)}
    data = parse(ContactCreate, {**fields, "newsletter": _checked(form.get("newsletter"))})
    with session_scope() as s:
        contact.submit_inquiry(s, data=data, ip=ip)


def _meeting_request(slug: str) -> EventType | None:
    """The active meeting type a booking link named (/contact?meeting=<slug>), if any."""
    with session_scope() as s:
        return next((t for t in meeting_types.list_active(s) if t.slug == slug), None)


class ContactFormState(rx.State):
    """idle → submitting → success (cleared, toast) or error (field errors and a general message)."""

    submitting: bool = False
    errors: dict[str, str] = {}
    general_error: str = ""
    # Changing the key remounts the (uncontrolled) form: that is how it is cleared after a success.
    form_key: int = 0
    prefill: str = ""
    meeting: str = ""

    @rx.event
    def reset_form(self) -> None:
        """On page load: no errors left over from another page."""
        self.errors = {}
        self.general_error = ""
        self.submitting = False

    @rx.event
    async def load_contact_page(self) -> None:
        """/contact: also honour a booking link's ?meeting=<slug> by naming the meeting in the message."""
        self.reset_form()
        slug = (self.router.url.query_parameters.get("meeting") or "").strip()[:80]
        meeting, prefill = "", ""
        if slug:
            try:
                found = await asyncio.to_thread(_meeting_request, slug)
            except DomainError:
                found = None
            if found:
                meeting = found.name
                prefill = f"I'd like to book a {meeting} ({found.duration} minutes). Times that suit me: "
        if (meeting, prefill) != (self.meeting, self.prefill):
            self.meeting, self.prefill = meeting, prefill
            self.form_key += 1

    @rx.event
    async def submit(self, form: dict[str, Any]):
        if self.submitting:
            return
        self.submitting = True
        self.errors = {}
        self.general_error = ""
        yield
        try:
            await asyncio.to_thread(_submit, dict(form), self.router.session.client_ip or None)
        except Invalid as exc:
            self.errors = dict(exc.errors)
            self.general_error = exc.message or FAILED
            if not exc.errors:
                await notify(self, "error", self.general_error)
        except DomainError as exc:  # 429 and friends: the service's own words
            self.general_error = exc.message or FAILED
            await notify(self, "error", self.general_error)
        except Exception:
            log.exception("Contact form submission failed")
            self.general_error = FAILED
            await notify(self, "error", FAILED)
        else:
            self.form_key += 1
            self.prefill = ""
            self.meeting = ""
            await notify(self, "success", SUCCESS_TITLE, SUCCESS_TEXT)
        finally:
            self.submitting = False


def _error_id(name: str) -> str:
    return f"contact-{name}-error"


def _error(name: str) -> rx.Component:
    message = ContactFormState.errors[name].to(str)
    return rx.cond(
        message,
        rx.el.p(
            rx.icon("circle-alert", size=14, class_name="mt-0.5 shrink-0", aria_hidden="true"),
            message,
            id=_error_id(name),
            class_name="mt-1.5 flex items-start gap-1 text-sm text-red-700",
        ),
    )


def _control_props(name: str) -> dict[str, Any]:
    has_error = ContactFormState.errors[name].to(str).bool()
    return {
        "id": f"contact-{name}",
        "name": name,
        "aria_invalid": rx.cond(has_error, "true", "false"),
        "aria_describedby": rx.cond(has_error, _error_id(name), ""),
        "class_name": rx.cond(has_error, _INPUT_ERROR, _INPUT_OK),
    }


def _label(text: str, name: str, *, required: bool = False) -> rx.Component:
    return rx.el.label(
        text,
        rx.el.span(" *", class_name="text-red-700", aria_hidden="true") if required else rx.fragment(),
        html_for=f"contact-{name}",
        class_name=_FIELD,
    )


def _text_field(label: str, name: str, *, required: bool = False, **props: Any) -> rx.Component:
    control = _control_props(name)
    control["class_name"] = rx.cond(
        ContactFormState.errors[name].to(str).bool(), f"{_INPUT_ERROR} h-11", f"{_INPUT_OK} h-11"
    )
    return rx.el.div(
        _label(label, name, required=required),
        rx.el.input(required=required, aria_required="true" if required else None, **control, **props),
        _error(name),
        class_name="space-y-1.5",
    )


def _select_field(label: str, name: str, placeholder: str, options: dict[str, str]) -> rx.Component:
    control = _control_props(name)
    control["class_name"] = rx.cond(
        ContactFormState.errors[name].to(str).bool(), f"{_INPUT_ERROR} h-11 pr-8", f"{_INPUT_OK} h-11 pr-8"
    )
    return rx.el.div(
        _label(label, name),
        rx.el.select(
            rx.el.option(placeholder, value=""),
            *[rx.el.option(text, value=value) for value, text in options.items()],
            default_value="",
            **control,
        ),
        _error(name),
        class_name="space-y-1.5",
    )


def _honeypot() -> rx.Component:
    # Bots fill every field; people never see this one. Filled, the inquiry is stored as spam and nothing is sent.
    return rx.el.div(
        rx.el.label("Website", html_for="contact-website"),
        rx.el.input(id="contact-website", name="website", type="text", tab_index=-1, auto_complete="off"),
        aria_hidden="true",
        class_name="absolute -left-[9999px] size-px overflow-hidden",
    )


def contact_form() -> rx.Component:
    """The form card (title and intro are the caller's)."""
    message_control = _control_props("message")
    message_control["class_name"] = rx.cond(
        ContactFormState.errors["message"].to(str).bool(), f"{_INPUT_ERROR} py-2.5", f"{_INPUT_OK} py-2.5"
    )
    return rx.el.form(
        rx.cond(
            ContactFormState.meeting,
            rx.el.p(
                rx.icon("calendar-clock", size=16, class_name="shrink-0", aria_hidden="true"),
                rx.el.span("Meeting request: ", rx.el.strong(ContactFormState.meeting)),
                class_name="flex items-center gap-2 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-900",
            ),
        ),
        rx.el.div(
            _text_field("Full Name", "name", required=True, auto_complete="name", max_length=100),
            _text_field("Email Address", "email", required=True, type="email", auto_complete="email"),
            _text_field("Company", "company", auto_complete="organization", max_length=200),
            _text_field("Phone", "phone", type="tel", auto_complete="tel", max_length=30),
            _select_field("Service", "service_type", "Select a service", contact.SERVICE_OPTIONS),
            _select_field("Budget", "budget", "Select a budget range", contact.BUDGET_OPTIONS),
            class_name="grid gap-5 sm:grid-cols-2",
        ),
        rx.el.div(
            _label("Project Details", "message", required=True),
            rx.el.textarea(
                required=True,
                aria_required="true",
                rows=5,
                max_length=5000,
                default_value=ContactFormState.prefill,
                placeholder="Tell us about your project, goals and timeline.",
                **message_control,
            ),
            _error("message"),
            class_name="space-y-1.5",
        ),
        rx.el.div(
            rx.el.input(
                id="contact-newsletter",
                name="newsletter",
                type="checkbox",
                class_name=f"mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-blue-800 {FOCUS_RING}",
            ),
            rx.el.label(
                "Send me occasional tips and company news by e-mail (you can unsubscribe at any time).",
                html_for="contact-newsletter",
                class_name="text-sm text-slate-700",
            ),
            class_name="flex items-start gap-3",
        ),
        _honeypot(),
        rx.el.div(
            rx.cond(
                ContactFormState.general_error,
                rx.el.p(
                    rx.icon("circle-alert", size=16, class_name="mt-0.5 shrink-0", aria_hidden="true"),
                    ContactFormState.general_error,
                    class_name="flex items-start gap-2 text-sm font-medium text-red-700",
                ),
            ),
            role="alert",
        ),
        rx.el.div(
            send_button(
                "Send Message",
                "Sending...",
                busy=ContactFormState.submitting,
                # Before hydration a click would submit natively (a GET with the details in the URL).
                disabled=ContactFormState.submitting | ~rx.State.is_hydrated,
            ),
            required_note("We reply within 24 hours. "),
            class_name="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between",
        ),
        id=FORM_ID,
        key=ContactFormState.form_key,
        on_submit=ContactFormState.submit,
        aria_label="Contact form",
        class_name="relative space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8",
    )
