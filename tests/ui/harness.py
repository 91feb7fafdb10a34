"""The Reflex handler harness: the app's event handlers called in-process, as any browser can call them (websocket).

A test builds the real state tree with the router data a websocket handshake carries (the session cookie, the
client's address), calls a handler the way Reflex's event processor would, and checks the database. Handlers run
their services over their own connections, so the rows they write are committed: the UI tier has a database of its
own (tests/ui/conftest.py), and tests name their rows with a tag of their own.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

from reflex import constants
from reflex.istate.data import RouterData
from reflex.state import BaseState, State
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

from app.models.enums import EmployeeType, Role
from app.models.user import User
from app.services.accounts import sessions
from app.ui.state.notice import NoticeState
from tests import factories as f

# --- signing in and building the state tree -------------------------------------------------------------------------


def sign_in(db: Session | Engine, user: User) -> str:
    """A new session's access token for `user`: what the browser's `access_token` cookie would hold."""
    if isinstance(db, Session):
        return sessions.start(db, user).access_token
    with Session(db) as s:
        fresh = s.get(User, user.id)
        assert fresh is not None
        return sessions.start(s, fresh).access_token


def handler_state(cls: type[BaseState], token: str | None, path: str = "/admin/users", query: str = "") -> Any:
    """The `cls` state of a fresh tree whose handshake carried `token` as the session cookie (or no cookie), on the
    page `path` opened with `query` (e.g. "status=new")."""
    root = State(_reflex_internal_init=True)
    router_data = {
        constants.RouteVar.HEADERS: {"cookie": f"access_token={token}" if token else ""},
        constants.RouteVar.PATH: path,
        constants.RouteVar.CLIENT_IP: "203.0.113.7",
    }
    if query:
        router_data[constants.RouteVar.ORIGIN] = f"{path}?{query}"
    root._update_router_vars(router_data, {})
    return root.get_substate(cls.get_full_name().split("."))


def root_state(token: str | None) -> State:
    """A fresh state tree whose websocket handshake carried `token` as the session cookie (or no cookie)."""
    root = State(_reflex_internal_init=True)
    headers = {"cookie": f"access_token={token}"} if token else {}
    root.router = RouterData.from_router_data({"headers": headers})
    return root


def new_tag() -> str:
    """A tag for the names of a test's rows: the tier's database keeps every test's rows."""
    return uuid.uuid4().hex[:10]


def staff(db: Session, etype: EmployeeType | None, role: Role | None = None, **fields: Any) -> User:
    """A committed user: an employee of type `etype`, an admin when `etype` is None, or `role` when given."""
    role = role or (Role.admin if etype is None else Role.employee)
    return f.user(db, f"staff_{new_tag()}", role=role, employee_type=etype, **fields)


# --- calling handlers -----------------------------------------------------------------------------------------------


async def drain(result: Any) -> Any:
    """Run a handler to its end (generator handlers yield intermediate updates); the last value it gave."""
    last = None
    if isinstance(result, AsyncIterator):
        async for item in result:
            last = item
        return last
    if inspect.isgenerator(result):
        for item in result:
            last = item
        return last
    return await result if inspect.isawaitable(result) else result


def call_returning(state: Any, handler: str, *args: Any) -> Any:
    """Run the handler's function to completion, as the event processor would; what it returned (the events it
    chains) or, for a generator handler, the last update it yielded."""
    return asyncio.run(drain(type(state).event_handlers[handler].fn(state, *args)))


def call(state: Any, handler: str, *args: Any) -> None:
    """Run the handler's function to completion, as the event processor would."""
    call_returning(state, handler, *args)


def in_own_loop(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """An async test, run on an event loop of its own (the suite has no async test plugin)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


def notice(state: Any) -> dict[str, str]:
    """The latest toast of `state`'s tab (app.ui.state.notice holds it): level, title and description ("" if none)."""
    root = state
    while root.parent_state is not None:
        root = root.parent_state
    raised = root.get_substate(NoticeState.get_full_name().split(".")).notice
    return {"level": "", "title": "", "description": "", **raised}


# --- what a hostile browser sends, and what it must leave alone (test_event_fuzz and e2e/test_websocket_fuzz) -------

PAYLOADS: list[Any] = [
    None,
    "",
    "x" * 100_000,
    -1,
    2**63,
    {"id": 1, "email": "a@example.com", "password": "p", "role": "admin"},
    ["1", "2"],
    "1 OR 1=1",
    "\x00\ud800",
    "../../etc/passwd",
    True,
    3.5,
]
# Tables whose rows an attempt may add whoever calls: the throttles count attempts, that is their purpose.
COUNTERS = {"rate_limit_events"}
# What staff (or an account's owner) alone may change: a signed-out visitor or another client must leave these as
# they were. Public forms may add rows elsewhere (an inquiry, a subscription, an application, a registration, a
# booking, their mails), which is what they are for.
GUARDED = (
    "services", "portfolio_projects", "testimonials", "team_members", "job_openings", "products", "prices",
    "organizations", "projects", "project_milestones", "invoices", "invoice_items", "payments", "meeting_types",
    "refresh_tokens", "password_reset_tokens", "known_sign_in_addresses",
)  # fmt: skip


def app_states() -> list[type[BaseState]]:
    """Every state class of the app (not Reflex's own), by full name."""
    found: list[type[BaseState]] = []
    pending = list(State.get_substates())
    while pending:
        cls = pending.pop()
        pending.extend(cls.get_substates())
        if cls.__module__.startswith("app."):
            found.append(cls)
    return sorted(found, key=lambda c: c.get_full_name())


def row_counts(s: Session) -> dict[str, int]:
    """Rows per table, the attempt counters aside."""
    s.expire_all()
    return {
        t.name: s.exec(select(func.count()).select_from(t)).one()
        for t in SQLModel.metadata.sorted_tables
        if t.name not in COUNTERS
    }
