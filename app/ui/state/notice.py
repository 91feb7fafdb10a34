"""Toasts raised by event handlers, shown without eval.

Reflex sends a toast *returned* from a handler as code the browser evaluates, which this site's CSP forbids. Instead
a handler stores the toast in `NoticeState.notice` (`await notify(self, ...)`), and `toast_bridge()` in the site
layout shows it from compiled code when the value changes (app/ui/components/toast_bridge.py).
"""

from __future__ import annotations

import secrets
from typing import Literal

import reflex as rx

Level = Literal["success", "error", "info", "warning"]


class NoticeState(rx.State):
    """The latest toast: ``{"id", "level", "title", "description"}`` (a new random id per toast)."""

    notice: dict[str, str] = {}


async def notify(state: rx.State, level: Level, title: str, description: str = "") -> None:
    """Show a toast in the browser of `state`'s client (from any event handler)."""
    notices = await state.get_state(NoticeState)
    notices.notice = {"id": secrets.token_hex(8), "level": level, "title": title, "description": description}
