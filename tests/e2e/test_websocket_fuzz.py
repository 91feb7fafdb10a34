"""The served app's websocket, spoken to as a hostile browser would: every event handler of every state, by name,
with malformed, oversized and wrong-typed payloads, signed out, as a client, and with a token whose session ended.

tests/ui/test_event_fuzz.py drives the same handlers in-process and checks each state after each call; this one goes
through the real socket.io connection (Reflex's event protocol: the client token in the query, events as
`{"name", "payload", "router_data"}`), so the event processor, the deltas the server sends back and the server's
survival are what is checked:
- no message the server sends ever carries a row of staff or of another client (each carries a marker);
- the tables only staff may change are unchanged;
- the server answers afterwards: a health check and a fresh socket's page load.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import socketio
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.models.enums import InvoiceStatus, Role
from app.models.inquiry import ContactInquiry
from app.models.project import Project, ProjectMessage
from app.services.accounts import sessions
from app.ui.portal.projects import ProjectsState
from tests import factories as f
from tests.e2e.conftest import Server
from tests.ui.harness import GUARDED, PAYLOADS, app_states, row_counts

pytestmark = pytest.mark.e2e

MARKER = f"WS-SECRET-{uuid.uuid4().hex[:8]}"
# The in-process sweep's payloads (tests/ui/test_event_fuzz.py) but text with a lone surrogate: a state holding one
# cannot be sent back as JSON, so the server closes that tab's own connection, and the rest of a sweep over it would
# never arrive. Handlers given such text are covered in-process.
SOCKET_PAYLOADS = [p for p in PAYLOADS if not (isinstance(p, str) and any("\ud800" <= c <= "\udfff" for c in p))]
ROOT_STATE = "reflex___state____state"
NAMESPACE = "/_event"


class _BrowserJson:
    """JSON as a browser writes it: JSON.stringify escapes a lone surrogate (\\ud800) instead of failing, so the
    hostile payloads reach the server as a hostile page's would."""

    loads = staticmethod(json.loads)

    @staticmethod
    def dumps(obj: Any, **kwargs: Any) -> str:
        return json.dumps(obj, **{**kwargs, "ensure_ascii": True})


class Browser:
    """One browser tab's websocket: a token of its own, the session cookie (if any) in the handshake."""

    def __init__(self, server: Server, access_token: str | None = None) -> None:
        self.token = str(uuid.uuid4())
        self.received: list[str] = []
        self.sio = socketio.Client(reconnection=False, json=_BrowserJson)
        # Reflex's namespace is its endpoint's path, as the browser's socket.io client derives it from the URL.
        self.sio.on("event", lambda data: self.received.append(json.dumps(data, default=str)), namespace=NAMESPACE)
        headers = {}  # the websocket client sends the site's own Origin, as a browser on the site does
        if access_token:
            headers["Cookie"] = f"access_token={access_token}"
        self.sio.connect(
            f"{server.url}/?token={self.token}",
            socketio_path="/_event",
            transports=["websocket"],
            headers=headers,
            namespaces=[NAMESPACE],
            wait_timeout=20,
        )

    def send(self, name: str, payload: Any, path: str = "/") -> None:
        router_data = {"pathname": path, "query": {}, "asPath": path}
        self.sio.emit("event", {"name": name, "payload": payload, "router_data": router_data}, namespace=NAMESPACE)

    def hydrate(self, path: str) -> None:
        self.send(f"{ROOT_STATE}.hydrate_and_load", {}, path)

    def settle(self, quiet_s: float = 3.0, limit_s: float = 240.0) -> None:
        """Wait until the server has sent nothing for `quiet_s` (every event processed)."""
        deadline = time.monotonic() + limit_s
        seen, last_change = len(self.received), time.monotonic()
        while time.monotonic() < deadline and time.monotonic() - last_change < quiet_s:
            time.sleep(0.25)
            if len(self.received) != seen:
                seen, last_change = len(self.received), time.monotonic()

    def close(self) -> None:
        self.sio.disconnect()


def _payloads(handler: Any, n: int) -> list[dict[str, Any]]:
    """Three payloads per handler: each argument given a hostile value, an oversized one, and unexpected keys."""
    import inspect

    names = [p for p in inspect.signature(handler.fn).parameters if p != "self"]
    return [
        {name: SOCKET_PAYLOADS[(n + i) % len(SOCKET_PAYLOADS)] for i, name in enumerate(names)},
        # 60 KB per event, far past any field's limit; a message over 1 MB closes the connection (its own test
        # below), and a sweep of several hundred MB would only measure how long the socket takes to carry it.
        dict.fromkeys(names, "x" * (60_000 // max(1, len(names)))),
        {"unexpected": {"role": "admin"}, **{name: [[["deep"]]] for name in names}},
    ]


def _sweep(browser: Browser, path: str) -> int:
    sent = 0
    browser.hydrate(path)
    for n, cls in enumerate(app_states()):
        for name, handler in sorted(cls.event_handlers.items()):
            for payload in _payloads(handler, n):
                browser.send(f"{cls.get_full_name()}.{name}", payload, path)
                sent += 1
            assert browser.sio.connected, f"the connection closed at {cls.__name__}.{name}"
    browser.settle()
    # Every event went out (the socket's writer never died on a payload) and the server still answers this tab.
    assert browser.sio.connected
    before = len(browser.received)
    browser.hydrate(path)
    browser.settle(quiet_s=1.0, limit_s=60)
    assert len(browser.received) > before, "the tab's last event was answered"
    return sent


@pytest.fixture
def world(db_engine: Engine) -> Iterator[dict[str, Any]]:
    with Session(db_engine, expire_on_commit=False) as s:
        other = f.user(s, f"ws_other_{uuid.uuid4().hex[:6]}", first_name=MARKER)
        f.project(s, other, name=f"{MARKER} project")
        f.invoice(s, other, status=InvoiceStatus.pending)
        s.add(ContactInquiry(name=MARKER, email="ws-secret@example.com", message=f"{MARKER} message"))
        me = f.user(s, f"ws_me_{uuid.uuid4().hex[:6]}")
        mine = f"MINE-{uuid.uuid4().hex[:8]}"
        f.project(s, me, name=mine)
        s.commit()
        yield {"session": s, "me": me, "mine": mine, "other": other}


def _states_answered(browser: Browser) -> set[str]:
    """The states whose changes the server sent back."""
    return {name for m in browser.received for name in (json.loads(m).get("delta") or {})}


def _alive(server: Server) -> None:
    assert httpx.get(f"{server.url}/api/health", timeout=30).json() == {"status": "ok"}
    fresh = Browser(server)
    try:
        fresh.hydrate("/")
        fresh.settle(quiet_s=1.0, limit_s=30)
        assert fresh.received, "a new tab's page load is answered"
    finally:
        fresh.close()


def test_the_sweep_would_see_a_leak(server: Server, world: dict[str, Any]) -> None:
    """Not vacuous: the same connection as an administrator on the inquiries page, who may read the marked inquiry,
    receives it in a delta; and the sweep's events reach handlers of many states (their deltas come back)."""
    s: Session = world["session"]
    admin = f.user(s, f"ws_admin_{uuid.uuid4().hex[:6]}", role=Role.admin)
    browser = Browser(server, sessions.start(s, admin).access_token)
    try:
        _sweep(browser, "/admin/inquiries")
    finally:
        browser.close()
    assert any(MARKER in m for m in browser.received)
    assert len(_states_answered(browser)) >= 30


@pytest.mark.parametrize("caller", ["signed out", "client"])
def test_every_handler_over_the_websocket_reveals_and_changes_nothing(
    server: Server, world: dict[str, Any], caller: str
) -> None:
    s: Session = world["session"]
    token = sessions.start(s, world["me"]).access_token if caller == "client" else None
    before = {t: n for t, n in row_counts(s).items() if t in GUARDED}
    browser = Browser(server, token)
    try:
        sent = _sweep(browser, "/client-portal" if token else "/")
    finally:
        browser.close()
    assert sent > 900  # every handler of every state, three times
    assert len(_states_answered(browser)) >= 20, "the events reached the handlers of many states"
    leaked = [m[:300] for m in browser.received if MARKER in m]
    assert leaked == []
    assert {t: n for t, n in row_counts(s).items() if t in GUARDED} == before
    _alive(server)


def test_a_token_whose_session_ended_gets_no_data(server: Server, world: dict[str, Any]) -> None:
    """Signed out elsewhere (the session ended in the database): the old cookie opens no portal data."""
    s: Session = world["session"]
    token = sessions.start(s, world["me"]).access_token
    live = Browser(server, token)
    try:
        live.hydrate("/client-portal")
        live.settle(quiet_s=2.0, limit_s=60)
        assert any(world["mine"] in m for m in live.received), "the live session sees its own project"
    finally:
        live.close()
    sessions.end(s, access_token=token, refresh_token=None)
    stale = Browser(server, token)
    try:
        stale.hydrate("/client-portal")
        stale.settle(quiet_s=2.0, limit_s=60)
        assert stale.received
        assert [m[:200] for m in stale.received if world["mine"] in m] == []
    finally:
        stale.close()


def test_conversations_send_a_client_only_its_own_projects_messages_and_never_a_note(
    server: Server, world: dict[str, Any]
) -> None:
    """Issue 28: a client's tab asks, by id, for its own project's conversation and for another client's; only its
    own messages come back, never an internal note of its own project, nothing of the other's (nor its name)."""
    s: Session = world["session"]
    me, other = world["me"], world["other"]
    mine = s.exec(select(Project).where(Project.client_id == me.id)).one()
    theirs = s.exec(select(Project).where(Project.client_id == other.id)).one()
    staff = f.user(s, f"ws_staff_{uuid.uuid4().hex[:6]}", role=Role.admin)
    said = f"SAID-{uuid.uuid4().hex[:8]}"
    s.add(ProjectMessage(project_id=mine.id or 0, author_id=staff.id, body=f"{said} to the client"))
    s.add(ProjectMessage(project_id=mine.id or 0, author_id=staff.id, body=f"{MARKER} note", internal=True))
    s.add(ProjectMessage(project_id=theirs.id or 0, author_id=other.id, body=f"{MARKER} their question"))
    s.commit()
    browser = Browser(server, sessions.start(s, me).access_token)
    state = ProjectsState.get_full_name()
    try:
        browser.hydrate("/client-portal")
        for project_id in (theirs.id, mine.id, str(theirs.id), -1, theirs.id):
            browser.send(f"{state}.open_conversation", {"project_id": project_id}, "/client-portal")
            browser.send(f"{state}.refresh_conversation", {}, "/client-portal")
        browser.settle(quiet_s=2.0, limit_s=60)
    finally:
        browser.close()
    assert any(said in m for m in browser.received), "the client's own conversation reached its tab"
    assert [m[:300] for m in browser.received if MARKER in m] == []


def test_a_message_over_the_size_limit_closes_only_that_connection(server: Server) -> None:
    """A browser sending more than 1 MB in one event is cut off (Reflex's socket limit); the server goes on."""
    browser = Browser(server)
    try:
        browser.hydrate("/")
        browser.settle(quiet_s=1.0, limit_s=30)
        browser.send(f"{ROOT_STATE}.hydrate_and_load", {"vars": {"x": "y" * 2_000_000}}, "/")
        deadline = time.monotonic() + 20
        while browser.sio.connected and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not browser.sio.connected
    finally:
        browser.close()
    _alive(server)
