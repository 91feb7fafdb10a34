"""Two-step sign-in on the page (ADR 0103): a new authenticator's QR code and key, the recovery codes shown once,
and the settings card over a state that mixes in app/ui/state/second_factor.py (the portal's Settings tab and the
staff panel's Settings page). The sign-in's own step (app/ui/auth/second_step.py) uses the first two."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.components.passkeys import passkey_button
from app.ui.portal import components as ui

LEAD = "A code from an app on your phone at each sign-in, so a stolen password alone does not open your account."
APPS = "Google Authenticator, Microsoft Authenticator, 1Password, Authy, or any app that supports TOTP"


def _step(number: str, text: str) -> rx.Component:
    return rx.el.li(
        rx.el.span(
            number,
            class_name="flex size-6 shrink-0 items-center justify-center rounded-full bg-blue-100 text-xs "
            "font-semibold text-blue-800",
        ),
        rx.el.span(text),
        class_name="flex items-start gap-2 text-sm text-slate-700",
    )


def enrol_panel(qr: Any, secret: Any) -> rx.Component:
    """The QR code and the key of a new authenticator, with the steps."""
    return rx.el.div(
        rx.el.ol(
            _step("1", f"Install an authenticator app on your phone ({APPS})."),
            _step("2", "Scan this QR code with it, or type the key below."),
            _step("3", "Type the 6-digit code the app shows."),
            class_name="space-y-2",
        ),
        rx.el.div(
            rx.el.img(
                src=qr,
                alt="QR code that adds this account to an authenticator app",
                width="176",
                height="176",
                class_name="size-44",
            ),
            class_name="flex justify-center",
        ),
        rx.el.div(
            rx.el.p("Key for typing in by hand", class_name="text-xs font-medium text-slate-600"),
            rx.el.code(secret, class_name="block font-mono text-sm break-all text-slate-900", data_testid="totp-key"),
            class_name="rounded-lg bg-slate-50 p-3",
        ),
        class_name="space-y-4",
    )


def recovery_list(codes: Any) -> rx.Component:
    """The recovery codes, shown once, with what they are for."""
    return rx.el.div(
        rx.el.p(
            "Save these recovery codes somewhere safe (a password manager, or printed). If you lose your phone, each "
            "one signs you in once. They will not be shown again.",
            class_name="text-sm text-slate-700",
        ),
        rx.el.ul(
            rx.foreach(codes, lambda c: rx.el.li(c, class_name="font-mono text-sm text-slate-900")),
            class_name="grid grid-cols-2 gap-x-6 gap-y-1 rounded-lg bg-slate-50 p-4",
            data_testid="recovery-codes",
        ),
        class_name="space-y-3",
    )


def code_field(label: str = "Code from your authenticator app") -> rx.Component:
    return ui.text_input(
        label,
        error="",
        name="code",
        auto_complete="one-time-code",
        max_length=20,
        spell_check=False,
        required=True,
    )


def _code_form(state: Any, on_submit: Any, label: str, busy_label: str, hint: str) -> rx.Component:
    return rx.el.form(
        code_field(),
        rx.el.p(hint, class_name="text-xs text-slate-600"),
        ui.error_text(state.factor_error),
        rx.el.div(
            ui.submit_button(label, busy_label, state.factor_busy),
            rx.el.button("Cancel", type="button", on_click=state.factor_show(""), class_name=ui.BUTTON_SECONDARY),
            class_name="flex flex-wrap gap-2",
        ),
        on_submit=on_submit,
        reset_on_submit=False,
        class_name="flex max-w-md flex-col gap-3",
    )


def _on(state: Any) -> rx.Component:
    return rx.el.div(
        rx.el.p(
            rx.icon("shield-check", size=16, class_name="text-emerald-700"),
            "On. Each sign-in asks for a code from your app.",
            class_name="flex items-center gap-2 text-sm font-medium text-emerald-800",
        ),
        rx.el.p(
            "Recovery codes left: ",
            rx.el.span(state.factor_recovery_left, class_name="font-medium"),
            rx.cond(state.factor_recovery_left < 3, " (make new ones before they run out)", ""),
            class_name="text-sm text-slate-700",
        ),
        rx.cond(
            state.factor_trusted > 0,
            rx.el.div(
                rx.el.p(
                    "Browsers trusted for 30 days: ",
                    rx.el.span(state.factor_trusted, class_name="font-medium"),
                    class_name="text-sm text-slate-700",
                ),
                rx.el.button(
                    "Forget them", type="button", on_click=state.factor_forget_browsers, class_name=ui.BUTTON_SECONDARY
                ),
                class_name="flex flex-wrap items-center gap-3",
            ),
        ),
        rx.el.div(
            rx.el.button(
                "New recovery codes", type="button", on_click=state.factor_show("renew"), class_name=ui.BUTTON_SECONDARY
            ),
            rx.cond(
                state.factor_required,
                rx.el.p("Your role requires two-step sign-in.", class_name="self-center text-sm text-slate-600"),
                rx.el.button("Turn off", type="button", on_click=state.factor_show("off"), class_name=ui.BUTTON_DANGER),
            ),
            class_name="flex flex-wrap gap-2",
        ),
        class_name="flex flex-col gap-3",
    )


def _off(state: Any) -> rx.Component:
    return rx.el.div(
        rx.el.p(
            rx.cond(
                state.factor_required,
                "Off, but your role requires it: you will set it up at your next sign-in, or now.",
                "Off. Signing in needs only your password.",
            ),
            class_name="text-sm text-slate-700",
        ),
        ui.error_text(state.factor_error),
        rx.el.div(
            rx.el.button(
                rx.cond(state.factor_busy, "Starting...", "Set up"),
                type="button",
                on_click=state.factor_start,
                disabled=state.factor_busy,
                class_name=ui.BUTTON_PRIMARY,
            )
        ),
        class_name="flex flex-col gap-3",
    )


def _passkey_row(state: Any, p: Any) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.p(p.name, class_name="text-sm font-medium text-slate-900"),
            rx.el.p(
                "Added ",
                ui.local_date(p.added),
                rx.cond(p.used != "", rx.el.span(", last used ", ui.local_date(p.used)), ""),
                class_name="text-xs text-slate-600",
            ),
            class_name="min-w-0",
        ),
        rx.el.button(
            "Remove",
            type="button",
            on_click=state.passkey_remove(p.id),
            aria_label="Remove passkey " + p.name,
            class_name=ui.BUTTON_DANGER,
        ),
        class_name="flex items-center justify-between gap-3 rounded-lg border border-slate-200 p-3",
        data_testid="passkey-row",
    )


def _passkeys(state: Any) -> rx.Component:
    return rx.el.div(
        rx.el.h4("Passkeys", class_name="text-sm font-semibold text-slate-900"),
        rx.el.p(
            "Sign in with your fingerprint, face or screen lock instead of a password and a code.",
            class_name="text-sm text-slate-600",
        ),
        rx.cond(
            state.passkey_rows.length() > 0,
            rx.el.ul(
                rx.foreach(state.passkey_rows, lambda p: _passkey_row(state, p)), class_name="flex flex-col gap-2"
            ),
        ),
        passkey_button(
            "add",
            "Add a passkey",
            "passkey-add-status",
            ui.BUTTON_SECONDARY,
            data={"data-passkey-done": "passkeys-reload"},
        ),
        rx.el.button(id="passkeys-reload", type="button", on_click=state.passkeys_reload, hidden=True, tab_index=-1),
        class_name="flex flex-col gap-3 border-t border-slate-200 pt-4",
    )


def second_factor_card(state: Any) -> rx.Component:
    """The "Two-step sign-in" card of a settings page."""
    card = ui.titled_card(
        "Two-step sign-in",
        LEAD,
        rx.match(
            state.factor_view,
            (
                "enrol",
                rx.el.div(
                    enrol_panel(state.factor_qr, state.factor_secret),
                    _code_form(
                        state,
                        state.factor_confirm,
                        "Turn on",
                        "Checking...",
                        "The code changes every 30 seconds.",
                    ),
                    class_name="flex flex-col gap-4",
                ),
            ),
            (
                "codes",
                rx.el.div(
                    recovery_list(state.factor_codes),
                    rx.el.div(
                        rx.el.button(
                            "I have saved them",
                            type="button",
                            on_click=state.factor_show(""),
                            class_name=ui.BUTTON_PRIMARY,
                        ),
                    ),
                    class_name="flex flex-col gap-4",
                ),
            ),
            (
                "off",
                _code_form(
                    state,
                    state.factor_turn_off,
                    "Turn off",
                    "Turning off...",
                    "A code from your app, or one of your recovery codes.",
                ),
            ),
            (
                "renew",
                _code_form(
                    state,
                    state.factor_renew,
                    "Make new codes",
                    "Making...",
                    "The old recovery codes stop working.",
                ),
            ),
            rx.cond(
                state.factor_loaded,
                rx.el.div(
                    rx.cond(state.factor_on, _on(state), _off(state)),
                    _passkeys(state),
                    class_name="flex flex-col gap-4",
                ),
            ),
        ),
    )
    return rx.el.div(card, data_testid="second-factor-card")
