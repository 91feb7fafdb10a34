"""Toast notices raised by event handlers.

`rx.toast` sent from a handler reaches the browser as a JavaScript *string* that Reflex runs with `eval`, which the
site's CSP forbids. So handlers set this state instead and the layout renders it: same-looking toasts, no eval. A notice
stays 5 s (the spec's banner time) or until dismissed, and survives client-side redirects (it lives per tab).

The staff panel and the public site use the other mechanism, `app.ui.state.notice` (Sonner toasts through the compiled
`toast_bridge`). The account pages and the portal keep this one because it looks different on purpose: the spec's
5-second banner with its own dismiss button, below the header on desktop and along the bottom on phones. Moving them
to Sonner would change what their users see; the distinct class name keeps the two from being mistaken for each other.
"""

from __future__ import annotations

import asyncio
from typing import Literal

import reflex as rx
from reflex_base.event import EventSpec

NOTICE_SECONDS = 5.0
Kind = Literal["success", "error", "info"]


class AccountNoticeState(rx.State):
    title: str = ""
    text: str = ""
    kind: str = "info"
    _seq: int = 0

    def _show(self, kind: Kind, title: str, text: str = "") -> EventSpec:
        """Show a notice now; return the event the handler must hand back so it hides itself later."""
        self._seq += 1
        self.kind, self.title, self.text = kind, title, text
        return AccountNoticeState.expire(self._seq)

    @rx.event
    def dismiss(self) -> None:
        self.title, self.text = "", ""

    @rx.event(background=True)
    async def expire(self, seq: int) -> None:
        await asyncio.sleep(NOTICE_SECONDS)
        async with self:
            if self._seq == seq:  # a newer notice keeps its own full time
                self.title, self.text = "", ""


async def notify(state: rx.State, kind: Kind, title: str, text: str = "") -> EventSpec:
    """From any handler: `yield await notify(self, "error", "Login Failed", message)`."""
    notice = await state.get_state(AccountNoticeState)
    return notice._show(kind, title, text)


_KIND_STYLE = {
    "success": ("circle_check", "border-emerald-200 bg-emerald-50 text-emerald-900", "text-emerald-600"),
    "error": ("circle_alert", "border-red-200 bg-red-50 text-red-900", "text-red-600"),
    "info": ("info", "border-blue-200 bg-blue-50 text-blue-900", "text-blue-600"),
}


def _icon(kind: str) -> rx.Component:
    return rx.match(
        kind,
        *[
            (k, rx.icon(icon, size=20, class_name=f"mt-0.5 shrink-0 {color}"))
            for k, (icon, _, color) in _KIND_STYLE.items()
        ],
        rx.icon("info", size=20, class_name="mt-0.5 shrink-0 text-blue-600"),
    )


def notice_region() -> rx.Component:
    """The live region the notices appear in (top right; along the bottom on phones, clear of the heading)."""
    box = "pointer-events-auto flex items-start gap-3 rounded-xl border p-4 shadow-lg"
    return rx.el.div(
        rx.cond(
            AccountNoticeState.title != "",
            rx.el.div(
                _icon(AccountNoticeState.kind),
                rx.el.div(
                    rx.el.p(AccountNoticeState.title, class_name="text-sm font-semibold"),
                    rx.cond(
                        AccountNoticeState.text != "", rx.el.p(AccountNoticeState.text, class_name="mt-0.5 text-sm")
                    ),
                    class_name="min-w-0 flex-1",
                ),
                rx.el.button(
                    rx.icon("x", size=16),
                    type="button",
                    on_click=AccountNoticeState.dismiss,
                    aria_label="Dismiss notification",
                    class_name="shrink-0 rounded p-1 opacity-70 hover:opacity-100 focus:outline-none "
                    "focus-visible:ring-2 focus-visible:ring-current",
                ),
                class_name=rx.match(
                    AccountNoticeState.kind,
                    *[(k, f"{box} {style}") for k, (_, style, _) in _KIND_STYLE.items()],
                    f"{box} {_KIND_STYLE['info'][1]}",
                ),
                data_testid="notice",
            ),
        ),
        role="status",
        aria_live="polite",
        class_name="pointer-events-none fixed inset-x-4 bottom-4 z-50 "
        "sm:bottom-auto sm:left-auto sm:right-6 sm:top-20 sm:w-96",
    )
