"""A timer in the page that sends an event every few seconds while the tab is shown (assets: ticker.js beside this
file): how an open page keeps its figures fresh without a reload. The timer stops with the page, so no server-side
loop outlives a closed tab; the server answers a tick with a delta only when a figure changed."""

from __future__ import annotations

import reflex as rx
from reflex_base.event import EventHandler, no_args_event_spec

TICKER_JS = rx.asset("ticker.js", shared=True)


class Ticker(rx.Component):
    """`on_tick` every `seconds` while the tab is visible, and at once when it is shown again."""

    library = TICKER_JS.importable_path
    tag = "Ticker"

    seconds: rx.Var[int]
    on_tick: EventHandler[no_args_event_spec]  # type: ignore[type-arg, valid-type]  # Reflex's own idiom


ticker = Ticker.create
