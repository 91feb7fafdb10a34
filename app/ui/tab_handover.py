"""A browser tab that changes hands is emptied before the next person's first frame (ADR 0107).

Reflex keeps a tab's state in the state manager under the tab's token, which lives in the tab's sessionStorage, and on
every websocket (re)connect its hydrate event sends the browser the whole state tree, before any page's on-load guard
runs. Signing in or out is a form post: the cookie changes and the tab's state stays. So without this, the next person
in a tab received the previous one's lists in their first frames (a developer, the admin's User Management rows).

This middleware runs before the hydrate handler, under the tab's state lock and with the new handshake's cookie in
place. When the live session that cookie names is not the one the tab's states were last served to, every state of
ours is reset. A tab never served (a new one) is left alone: its states hold their defaults, and resetting them would
write every one of them back to Redis on each page's first load.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import reflex as rx
from reflex.state import BaseState, State
from reflex_base.constants import CompileVars
from reflex_base.event import Event
from reflex_base.utils.format import format_event_handler

from app.ui.state.session import SessionState, states_below

_HYDRATE_EVENTS = frozenset(
    format_event_handler(State.event_handlers[name]) for name in (CompileVars.HYDRATE, CompileVars.HYDRATE_AND_LOAD)
)


@cache
def _ours() -> tuple[type[BaseState], ...]:
    """Our states (Reflex's own hold no one's data), looked up once every page module has defined its states."""
    return tuple(cls for cls in states_below(State) if cls.__module__.startswith("app."))


class TabHandover(rx.Middleware):
    async def preprocess(self, app: Any, state: BaseState, event: Event) -> None:
        if event.name not in _HYDRATE_EVENTS:
            return
        session = await state.get_state(SessionState)
        # An ended session serves nobody: its cookie is still sent, but whoever is at the browser is signed out.
        live = await session._user(touch=False) is not None
        family = str(session._family() or "") if live else ""
        served = session._served_family
        if served == family:
            return  # the same person's reload or reconnect: nothing to write back
        if served:  # another live session's data (not a new tab's defaults, nor what a signed-out visitor typed)
            for cls in _ours():
                (await state.get_state(cls)).reset()
        session._served_family = family
