"""A project's conversation as a dialog: the messages, oldest first, and the form that posts one (for the staff on
the project, as an internal note if they tick it). Shared by the portal and the staff panel; their state mixes in
app/ui/state/conversation.py. Messages are text (React escapes them): never HTML.

Files travel outside the websocket (ADR 0101): conversation_files.js keeps the files chosen in the dialog, mirrors
their names and sizes into the state (`files_chosen`), and posts a message that has files as multipart to
POST /api/projects/{id}/messages, handing the answer to `files_sent`; a message without files goes as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import reflex as rx
from reflex.vars.object import ObjectVar

from app.services.platform import files
from app.services.projects.conversations import MAX_FILES
from app.ui.components.behaviour import Behaviour
from app.ui.components.file_link import file_link
from app.ui.components.ticker import ticker
from app.ui.portal import components as ui
from app.ui.state.conversation import REFRESH_SECONDS, ChosenFile, FileView, MessageView, TextPiece

# What the file picker offers: the names the server accepts (it checks each file's content again).
ACCEPT = ",".join(sorted(f".{e}" for e in files.ATTACHMENT.extensions))


class ConversationFiles(Behaviour):
    """Renders nothing; wires ``setupConversationFiles`` (conversation_files.js) to the page."""

    script: ClassVar[str] = Path(__file__).with_name("conversation_files.js").read_text(encoding="utf-8")

    def add_hooks(self) -> list[str | rx.Var]:
        return ["useEffect(() => setupConversationFiles(), []);"]


def _file(x: ObjectVar[FileView]) -> rx.Component:
    return rx.el.li(
        file_link(
            rx.icon("paperclip", size=14, aria_hidden="true", class_name="shrink-0"),
            rx.el.span(x.name, class_name="break-words"),
            href=x.url,
            class_name="inline-flex max-w-full items-start gap-1 text-sm font-medium text-blue-800 underline "
            "hover:text-blue-900 [&>svg]:mt-0.5",
            data_testid="message-file",
        ),
        rx.el.span(x.size, class_name="ml-2 text-xs whitespace-nowrap text-slate-500"),
    )


def _piece(p: ObjectVar[TextPiece]) -> rx.Component:
    """A web address in a message opens in a new tab, as a link someone else typed: no referrer, no ranking."""
    return rx.cond(
        p.link,
        rx.el.a(
            p.text,
            href=p.text,
            target="_blank",
            rel="noopener noreferrer nofollow ugc",
            class_name="text-blue-700 underline underline-offset-2 hover:text-blue-900",
        ),
        rx.el.span(p.text),
    )


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
        rx.cond(
            m.pieces.length() > 0,
            rx.el.p(
                rx.foreach(m.pieces, _piece), class_name="mt-1 text-sm break-words whitespace-pre-wrap text-slate-800"
            ),
        ),
        rx.cond(
            m.files.length() > 0,
            rx.el.ul(rx.foreach(m.files, _file), aria_label="Files", class_name="mt-2 flex flex-col gap-1"),
        ),
        class_name=rx.cond(
            m.internal,
            "rounded-lg border border-amber-200 bg-amber-50 p-3",
            rx.cond(m.mine, "rounded-lg bg-blue-50/60 p-3", "rounded-lg bg-slate-50 p-3"),
        ),
        data_testid="conversation-message",
    )


def unread_badge(count: Any, test_id: str = "unread-badge") -> rx.Component:
    """A small count of unread messages, read out as "3 unread messages"; nothing when there are none."""
    return rx.cond(
        count > 0,
        rx.el.span(
            rx.el.span(count, aria_hidden="true"),
            rx.el.span(count, rx.cond(count == 1, " unread message", " unread messages"), class_name="sr-only"),
            class_name="inline-flex min-w-5 items-center justify-center rounded-full bg-blue-600 px-1.5 text-xs "
            "font-semibold leading-5 text-white",
            data_testid=test_id,
        ),
    )


def conversation_button(state: Any, project_id: Any, unread: Any = 0) -> rx.Component:
    return rx.el.button(
        rx.icon("messages-square", size=16),
        "Messages",
        *([unread_badge(unread)] if isinstance(unread, rx.Var) else []),
        type="button",
        on_click=state.open_conversation(project_id),
        class_name=ui.BUTTON_SECONDARY,
        data_testid="open-conversation",
    )


def _chosen(state: Any, c: ObjectVar[ChosenFile], index: rx.Var[int]) -> rx.Component:
    return rx.el.li(
        rx.icon("paperclip", size=14, aria_hidden="true", class_name="mt-0.5 shrink-0 text-slate-500"),
        rx.el.div(
            rx.el.span(c.name, class_name="break-words text-slate-800"),
            rx.el.span(c.size, class_name="ml-2 text-xs whitespace-nowrap text-slate-500"),
            rx.cond(c.problem != "", rx.el.p(c.problem, class_name="text-xs text-red-700")),
            class_name="min-w-0 flex-1",
        ),
        rx.el.button(
            rx.icon("x", size=14, aria_hidden="true"),
            rx.el.span("Remove ", c.name, class_name="sr-only"),
            type="button",
            title="Remove",
            data_conversation_remove=index,  # conversation_files.js drops the file and mirrors the list again
            class_name="shrink-0 rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900",
            data_testid="remove-file",
        ),
        class_name="flex items-start gap-2 rounded-md border border-slate-200 px-2 py-1 text-sm",
        data_testid="chosen-file",
    )


def _attach(state: Any) -> rx.Component:
    return rx.el.div(
        rx.el.label(
            rx.icon("paperclip", size=16, aria_hidden="true"),
            "Attach files",
            rx.el.input(
                id="conversation-files",
                type="file",
                multiple=True,
                accept=ACCEPT,
                data_conversation_files=True,  # no name: the websocket's form data never carries a file
                class_name="sr-only",
            ),
            html_for="conversation-files",
            class_name=f"{ui.BUTTON_SECONDARY} cursor-pointer focus-within:outline-2 focus-within:outline-blue-600",
        ),
        rx.el.p(
            f"Up to {MAX_FILES} files, {files.max_bytes() // (1024 * 1024)} MB each: PDF, images, office documents, "
            "ZIP, text or CSV.",
            class_name="text-xs text-slate-600",
        ),
        rx.cond(
            state.attachments.length() > 0,
            rx.el.ul(
                rx.foreach(state.attachments, lambda c, i: _chosen(state, c, i)),
                aria_label="Files to send",
                class_name="flex w-full flex-col gap-1",
            ),
        ),
        class_name="flex flex-wrap items-center gap-2",
    )


def _reports(state: Any) -> rx.Component:
    """The hidden forms conversation_files.js hands its news to (public Reflex events; no eval)."""
    return rx.fragment(
        rx.el.form(
            rx.el.input(type="hidden", name="files"),
            id="conversation-chosen",
            hidden=True,
            on_submit=state.files_chosen,
        ),
        rx.el.form(
            rx.el.input(type="hidden", name="status"),
            rx.el.input(type="hidden", name="body"),
            id="conversation-sent",
            hidden=True,
            on_submit=state.files_sent,
        ),
    )


def conversation_dialog(state: Any) -> rx.Component:
    form = rx.el.form(
        rx.el.label("Your message", html_for="conversation-body", class_name="text-sm font-medium text-slate-800"),
        rx.el.textarea(
            id="conversation-body",
            name="body",
            rows=3,
            max_length=4000,
            class_name="w-full rounded-md border border-slate-300 p-2 text-sm focus:border-blue-600 focus:outline-none",
        ),
        _attach(state),
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
        id="conversation-form",
        data_conversation_form=True,  # with files chosen, conversation_files.js posts it instead of the websocket
        data_project_id=state.conversation_id,
        on_submit=state.send_message,
        reset_on_submit=False,
        class_name="flex flex-col gap-2",
        data_testid="conversation-form",
    )
    dialog = rx.dialog.root(
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
            rx.cond(state.conversation_can_post, rx.fragment(form, _reports(state))),
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
    return rx.fragment(dialog, ConversationFiles.create())
