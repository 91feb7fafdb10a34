"""A websocket event's log lines carry the request id of its tab's handshake: an event run through Reflex's own event
processor, with the app's middleware, as the server runs it after a handshake (app.ui.observability)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from reflex.app_mixins.middleware import MiddlewareMixin
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.token import BaseStateToken
from reflex.state import State
from reflex_base.event import Event
from reflex_base.event.processor.base_state_processor import BaseStateEventProcessor

from app.core import logs, metrics
from app.ui.components import footer
from app.ui.observability import EventObservability, handshake_request_id

SUBSCRIBE = f"{footer.NewsletterState.get_full_name()}.subscribe"


class Middlewares(MiddlewareMixin):
    """What the event processor asks of the app: its middleware list (the App is one of these)."""


def handshake(rid: str, ip: str = "203.0.113.7") -> dict[str, object]:
    """The router data Reflex gives each event of a tab: the handshake's headers (with the id the ASGI middleware
    wrote there), the client's address, the page."""
    return {"headers": {"x-request-id": rid, "user-agent": "test"}, "ip": ip, "pathname": "/", "sid": "sid-" + rid}


async def run_events(*events: tuple[str, Event]) -> None:
    chain = Middlewares()
    chain.add_middleware(EventObservability())
    processor = BaseStateEventProcessor(middleware=chain, backend_exception_handler=None)  # type: ignore[arg-type]
    manager = StateManagerMemory()
    processor.configure(state_manager=manager)
    for token, event in events:
        # A tab that has hydrated already (its page's router data is on its state), as after the handshake's first
        # event: the events under test are processed as they are, without a page load around them.
        async with manager.modify_state(BaseStateToken(ident=token, cls=State)) as root:
            root.router_data = dict(event.router_data)
            root.is_hydrated = True
    async with processor:
        futures = [await processor.enqueue(token, event) for token, event in events]
        await asyncio.wait_for(asyncio.gather(*futures), timeout=30)


def test_each_events_lines_carry_its_tabs_request_id(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def failing_subscribe(email: str, ip: str | None) -> str:
        # Runs on a worker thread (asyncio.to_thread), as the service would.
        logging.getLogger("app.services.test").warning("subscribing %s", email)
        raise RuntimeError("the mail server is down")

    monkeypatch.setattr(footer, "_subscribe", failing_subscribe)
    caplog.set_level(logging.DEBUG)
    caplog.handler.addFilter(logs.RequestContext())  # what the server's log handler has (app.core.logs)
    tab_one, tab_two = "tab-one-handshake-0001", "tab-two-handshake-0002"
    before = metrics.event_duration.labels(handler=SUBSCRIBE)._sum.get()
    started = time.perf_counter()
    asyncio.run(
        run_events(
            (
                "token-one",
                Event(name=SUBSCRIBE, payload={"form": {"email": "one@example.com"}}, router_data=handshake(tab_one)),
            ),
            (
                "token-two",
                Event(name=SUBSCRIBE, payload={"form": {"email": "two@example.com"}}, router_data=handshake(tab_two)),
            ),
        )
    )
    elapsed = time.perf_counter() - started

    def ids_of(message: str) -> dict[str, str | None]:
        return {r.getMessage(): getattr(r, "request_id", None) for r in caplog.records if message in r.getMessage()}

    # The service's line (from a worker thread) and the handler's own error line, each with its own tab's id.
    assert ids_of("subscribing") == {"subscribing one@example.com": tab_one, "subscribing two@example.com": tab_two}
    failed = [r for r in caplog.records if r.getMessage() == "Newsletter subscription failed"]
    assert sorted(getattr(r, "request_id", None) for r in failed) == [tab_one, tab_two]
    assert all(getattr(r, "route", None) == SUBSCRIBE for r in failed)
    # The event's closing line (LOG_LEVEL=DEBUG), from the task's done callback, too.
    done = [r for r in caplog.records if r.getMessage().startswith(f"event {SUBSCRIBE} done in")]
    assert sorted(getattr(r, "request_id", None) for r in done) == [tab_one, tab_two]
    # Both events were timed.
    spent = metrics.event_duration.labels(handler=SUBSCRIBE)._sum.get() - before
    assert 0 < spent <= 2 * elapsed
    # Nothing leaks out of the events' tasks into the caller's context.
    assert logs.request_id.get() is None


def test_the_id_is_read_from_the_handshake_headers() -> None:
    assert handshake_request_id(handshake("abc-0123456789")) == "abc-0123456789"
    assert handshake_request_id({"headers": {}}) is None
    assert handshake_request_id(None) is None
