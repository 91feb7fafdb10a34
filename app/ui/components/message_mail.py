"""The "E-mail me about new messages" form (ADR 0102): a checkbox and Save, over a state that mixes in
app/ui/state/message_mail.py. The portal's Settings tab and the staff panel's Settings page put it in their own card."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.portal import components as ui

LEAD = "When a message waits unread for you for a while, we send one e-mail about all of them."


def message_mail_form(state: Any) -> rx.Component:
    return rx.el.form(
        rx.el.label(
            rx.el.input(
                type="checkbox",
                name="mail_new_messages",
                value="on",
                default_checked=state.mail_new_messages,
                key=state.mail_key,
                class_name="size-4",
            ),
            "E-mail me about new messages",
            class_name="flex items-center gap-2 text-sm font-medium text-slate-800",
        ),
        rx.el.div(
            ui.submit_button("Save", "Saving...", state.mail_saving, disabled=state.mail_saving | ~state.mail_loaded)
        ),
        on_submit=state.save_mail_choice,
        reset_on_submit=False,
        class_name="flex flex-col gap-3",
        data_testid="message-mail-form",
    )
