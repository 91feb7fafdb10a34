"""A project's conversation as a dialog: the messages, oldest first, and the form that posts one (for the staff on
the project, as an internal note if they tick it). Shared by the portal and the staff panel; their state mixes in
app/ui/state/conversation.py. Messages are text (React escapes them): never HTML."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.components.ticker import ticker
from app.ui.portal import components as ui
from app.ui.state.conversation import REFRESH_SECONDS, MessageView


def _message(m: ObjectVar[MessageView]) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.span(m.author, class_name="font-medium text-slate-900"),
            rx.cond(m.from_staff, rx.el.span("Team", class_name="rounded bg-blue-50 px-1.5 text-xs text-blue-800")),
            rx.cond(
                m.internal,
                rx.el.span(
                    "Internal note", class_name="rounded bg-amber-100 px-1.5 text-xs font-medium text-amber-900"
                ),
            ),
            rx.el.time(ui.local_date_time(m.at), date_time=m.at, class_name="text-xs text-slate-500"),
            class_name="flex flex-wrap items-center gap-2",
        ),
        rx.el.p(m.body, class_name="mt-1 text-sm break-words whitespace-pre-wrap text-slate-800"),
        class_name=rx.cond(
            m.internal,
            "rounded-lg border border-amber-200 bg-amber-50 p-3",
            rx.cond(m.mine, "rounded-lg bg-blue-50/60 p-3", "rounded-lg bg-slate-50 p-3"),
        ),
        data_testid="conversation-message",
    )


def conversation_button(state: Any, project_id: Any) -> rx.Component:
    return rx.el.button(
        rx.icon("messages-square", size=16),
        "Messages",
        type="button",
        on_click=state.open_conversation(project_id),
        class_name=ui.BUTTON_SECONDARY,
        data_testid="open-conversation",
    )


def conversation_dialog(state: Any) -> rx.Component:
    form = rx.el.form(
        rx.el.label("Your message", html_for="conversation-body", class_name="text-sm font-medium text-slate-800"),
        rx.el.textarea(
            id="conversation-body",
            name="body",
            rows=3,
            max_length=4000,
            required=True,
            class_name="w-full rounded-md border border-slate-300 p-2 text-sm focus:border-blue-600 focus:outline-none",
        ),
        ui.error_text(state.message_error),
        rx.el.div(
            rx.cond(
                state.conversation_can_note,
                rx.el.label(
                    rx.el.input(type="checkbox", name="internal", value="on", class_name="size-4"),
                    "Internal note (the client never sees it)",
                    class_name="flex items-center gap-2 text-sm text-slate-700",
                ),
                rx.el.span(),
            ),
            ui.submit_button("Send", "Sending...", state.message_sending),
            class_name="flex flex-wrap items-center justify-between gap-3",
        ),
        key=state.message_key,
        on_submit=state.send_message,
        reset_on_submit=False,
        class_name="flex flex-col gap-2",
        data_testid="conversation-form",
    )
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(state.conversation_name, " - Messages"),
            rx.dialog.description(
                "Questions and answers about this project, kept with it.", class_name="text-sm text-slate-600"
            ),
            ui.error_text(state.conversation_error),
            rx.cond(
                state.conversation.length() > 0,
                rx.el.ol(
                    rx.foreach(state.conversation, _message),
                    class_name="my-3 flex max-h-[50vh] flex-col gap-2 overflow-y-auto",
                    aria_label="Messages",
                    aria_live="polite",
                ),
                rx.el.p("No messages yet.", class_name="my-3 text-sm text-slate-600"),
            ),
            rx.cond(state.conversation_can_post, form),
            rx.el.div(
                rx.dialog.close(rx.el.button("Close", type="button", class_name=ui.BUTTON_SECONDARY)),
                class_name="mt-3 flex justify-end",
            ),
            ticker(seconds=REFRESH_SECONDS, on_tick=state.refresh_conversation),
            data_testid="conversation",
            class_name="max-w-xl",
        ),
        open=state.conversation_id > 0,
        on_open_change=state.conversation_open_change,
    )
