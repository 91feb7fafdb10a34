"""Form building blocks of the account pages: native form posts, labelled fields, password reveal, buttons, banners."""

from __future__ import annotations

import asyncio
from typing import Any, TypeAlias

import reflex as rx
from reflex.vars.object import ObjectVar
from reflex_base.vars.base import Var

from app.services.accounts import google
from app.ui.components.native_form import native_form
from app.ui.styles import FORM_PRIMARY, FORM_SECONDARY

REVEAL_SECONDS = 1.0  # the spec's password reveal time
MAX_REVEAL_FIELDS = 16


class RevealState(rx.State):
    """Which password fields are shown in clear; each masks itself again after a second."""

    shown: dict[str, bool] = {}
    _seq: dict[str, int] = {}

    @rx.event
    def toggle(self, field: str):
        if field not in self.shown and (len(self.shown) >= MAX_REVEAL_FIELDS or len(str(field)) > 64):
            return None  # any client may call this: keep its state small
        visible = not self.shown.get(field, False)
        self.shown = {**self.shown, field: visible}
        if visible:
            seq = self._seq.get(field, 0) + 1
            self._seq = {**self._seq, field: seq}
            return RevealState.remask(field, seq)
        return None

    @rx.event(background=True)
    async def remask(self, field: str, seq: int) -> None:
        await asyncio.sleep(REVEAL_SECONDS)
        async with self:
            if self._seq.get(field) == seq:
                self.shown = {**self.shown, field: False}


INPUT = (
    "block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 "
    "focus:outline-none focus:ring-2 focus:ring-blue-500/30 disabled:cursor-not-allowed disabled:bg-slate-100 "
    "disabled:text-slate-500"
)
INPUT_OK = "border-slate-300 focus:border-blue-500"
INPUT_BAD = "border-red-500 focus:border-red-500 focus:ring-red-500/30"
LABEL = "mb-1.5 block text-sm font-medium text-slate-700"
PRIMARY = FORM_PRIMARY
SECONDARY = FORM_SECONDARY
USERNAME_HINT = "3-30 characters: letters, numbers and underscores."
LINK = "font-medium text-blue-700 underline-offset-2 hover:underline focus:outline-none focus-visible:underline"
# A form's field errors: a state's dict var, an ObjectVar to Reflex but the plain dict to mypy.
FieldErrors: TypeAlias = ObjectVar[dict[str, str]] | dict[str, str]


def _error_of(errors: FieldErrors | None, name: str) -> Var | str:
    return errors.get(name, "") if errors is not None else ""


def _required_mark(required: bool) -> list[rx.Component]:
    return [rx.el.span(" *", class_name="text-red-600", aria_hidden="true")] if required else []


def _hint(hint: str | None, hint_id: str) -> list[rx.Component]:
    return [rx.el.p(hint, id=hint_id, class_name="mt-1.5 text-xs text-slate-500")] if hint else []


def field_error(error: Var | str, error_id: str) -> rx.Component:
    return rx.cond(
        error != "",
        rx.el.p(
            rx.icon("circle_alert", size=14, class_name="mt-0.5 shrink-0"),
            rx.el.span(error),
            id=error_id,
            class_name="mt-1.5 flex items-start gap-1 text-sm text-red-600",
        ),
    )


def text_field(
    name: str,
    label: str,
    *,
    form_id: str,
    errors: FieldErrors | None = None,
    type: str = "text",
    required: bool = False,
    hint: str | None = None,
    **input_props: Any,
) -> rx.Component:
    """A labelled input whose server-side error shows underneath with a red border."""
    input_id, error_id = f"{form_id}-{name}", f"{form_id}-{name}-error"
    error = _error_of(errors, name)
    return rx.el.div(
        rx.el.label(
            label,
            *_required_mark(required),
            html_for=input_id,
            class_name=LABEL,
        ),
        rx.el.input(
            id=input_id,
            name=name,
            type=type,
            required=required,
            class_name=rx.cond(error != "", f"{INPUT} {INPUT_BAD}", f"{INPUT} {INPUT_OK}"),
            aria_invalid=rx.cond(error != "", "true", "false"),
            aria_describedby=f"{error_id} {input_id}-hint" if hint else error_id,
            **input_props,
        ),
        *_hint(hint, f"{input_id}-hint"),
        field_error(error, error_id),
    )


def username_field(
    form_id: str,
    errors: FieldErrors | None = None,
    *,
    name: str = "username",
    label: str = "Username",
    **input_props: Any,
) -> rx.Component:
    """A required field that takes a username: the browser neither capitalises nor spell-checks it."""
    return text_field(
        name,
        label,
        form_id=form_id,
        errors=errors,
        required=True,
        auto_complete="username",
        auto_capitalize="none",
        spell_check=False,
        **input_props,
    )


def password_field(
    name: str,
    label: str,
    *,
    form_id: str,
    errors: FieldErrors | None = None,
    required: bool = True,
    auto_complete: str = "current-password",
    hint: str | None = None,
    label_extra: rx.Component | None = None,
) -> rx.Component:
    """A password input with a show/hide button; shown passwords are masked again after a second."""
    input_id, error_id = f"{form_id}-{name}", f"{form_id}-{name}-error"
    key = f"{form_id}-{name}"
    shown = RevealState.shown.get(key, False)
    error = _error_of(errors, name)
    return rx.el.div(
        rx.el.div(
            rx.el.label(
                label,
                *_required_mark(required),
                html_for=input_id,
                class_name="block text-sm font-medium text-slate-700",
            ),
            label_extra if label_extra is not None else rx.fragment(),
            class_name="mb-1.5 flex items-center justify-between gap-2",
        ),
        rx.el.div(
            rx.el.input(
                id=input_id,
                name=name,
                type=rx.cond(shown, "text", "password"),
                required=required,
                auto_complete=auto_complete,
                class_name=rx.cond(error != "", f"{INPUT} {INPUT_BAD} pr-11", f"{INPUT} {INPUT_OK} pr-11"),
                aria_invalid=rx.cond(error != "", "true", "false"),
                aria_describedby=f"{error_id} {input_id}-hint" if hint else error_id,
            ),
            rx.el.button(
                rx.cond(shown, rx.icon("eye_off", size=18), rx.icon("eye", size=18)),
                type="button",
                on_click=RevealState.toggle(key),
                aria_label=rx.cond(shown, "Hide password", "Show password"),
                aria_pressed=rx.cond(shown, "true", "false"),
                aria_controls=input_id,
                class_name="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg "
                "text-slate-500 hover:text-slate-800 focus:outline-none focus-visible:ring-2 "
                "focus-visible:ring-blue-500",
            ),
            class_name="relative",
        ),
        *_hint(hint, f"{input_id}-hint"),
        field_error(error, error_id),
    )


def submit_button(label: Any, *, busy: Var | bool = False, busy_label: str | None = None, **props: Any) -> rx.Component:
    return rx.el.button(
        rx.cond(busy, rx.icon("loader_circle", size=16, class_name="animate-spin")),
        rx.cond(busy, busy_label, label) if busy_label else label,
        type="submit",
        disabled=busy,
        class_name=PRIMARY,
        **props,
    )


def account_form(*children: rx.Component, on_submit: Any, **props: Any) -> rx.Component:
    """A form of the account pages, sent over the websocket: the browser's own checks are off, because the server's
    messages show under the fields, in the spec's words."""
    return rx.form(*children, on_submit=on_submit, no_validate=True, class_name="space-y-5", **props)


def banner(text: Var | str, kind: str = "error", **props: Any) -> rx.Component:
    """An inline message box (errors are announced to screen readers)."""
    styles = {
        "error": ("circle_alert", "border-red-200 bg-red-50 text-red-800", "alert"),
        "success": ("circle_check", "border-emerald-200 bg-emerald-50 text-emerald-800", "status"),
        "info": ("info", "border-blue-200 bg-blue-50 text-blue-800", "status"),
    }
    icon, style, role = styles[kind]
    return rx.cond(
        text != "",
        rx.el.div(
            rx.icon(icon, size=18, class_name="mt-0.5 shrink-0"),
            rx.el.p(text, class_name="text-sm"),
            role=role,
            class_name=f"flex items-start gap-2 rounded-lg border p-3 {style}",
            **props,
        ),
    )


def logout_form(label: str = "Logout", *, class_name: str = SECONDARY) -> rx.Component:
    """Sign out with a real form post (the server ends the session and answers with a redirect)."""
    return native_form(
        rx.el.button(rx.icon("log_out", size=16), label, type="submit", class_name=class_name),
        method="post",
        action="/api/auth/form/logout",
    )


def google_option(label: str) -> rx.Component:
    """ "or" and the Google button, only where Google sign-in is configured (pages are built with the settings they
    serve with: `reflex run --env prod` builds at every start). Without it the button would open a 503 page."""
    if not google.is_configured():
        return rx.fragment()
    return rx.fragment(divider("or"), google_link(label))


def google_link(label: str) -> rx.Component:
    """Google sign-in in a new tab, as the spec has it."""
    return rx.el.a(
        _google_mark(),
        label,
        rx.el.span(" (opens in a new tab)", class_name="sr-only"),
        href="/api/auth/google",
        target="_blank",
        rel="noopener noreferrer",
        class_name=f"{SECONDARY} w-full",
    )


def _google_mark() -> rx.Component:
    paths = [
        ("#4285F4", "M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.8z"),
        ("#34A853", "M12 24c3.2 0 6-1.1 8-2.9l-3.9-3a7.2 7.2 0 0 1-10.8-3.8h-4v3.1A12 12 0 0 0 12 24z"),
        ("#FBBC05", "M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1z"),
        ("#EA4335", "M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1A7.2 7.2 0 0 1 12 4.8z"),
    ]
    return rx.el.svg(
        *[rx.el.svg.path(d=d, fill=fill) for fill, d in paths],
        view_box="0 0 24 24",
        width="18",
        height="18",
        aria_hidden="true",
    )


def divider(text: str) -> rx.Component:
    return rx.el.div(
        rx.el.div(class_name="h-px flex-1 bg-slate-200"),
        rx.el.span(text, class_name="text-xs uppercase tracking-wide text-slate-500"),
        rx.el.div(class_name="h-px flex-1 bg-slate-200"),
        class_name="flex items-center gap-3",
    )


def loading(text: str = "Loading...") -> rx.Component:
    return rx.el.div(
        rx.icon("loader_circle", size=20, class_name="animate-spin text-blue-600"),
        rx.el.span(text),
        role="status",
        class_name="flex items-center justify-center gap-2 py-10 text-sm text-slate-600",
    )
