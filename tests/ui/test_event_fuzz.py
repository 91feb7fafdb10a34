"""Every event handler of every state of the app, called the way a hostile browser can call it over the websocket:
signed out, and signed in as a client, with malformed, oversized and wrong-typed payloads.

The harness is tests/ui/harness.py's: the real state tree with the caller's cookie in the handshake headers. Checked:
- nothing is revealed: rows that only staff (or another client) may read carry a marker, and no state of the tree
  ever holds it after any call;
- nothing is changed: the signed-out sweep leaves every table as it was (rate-limit counters aside: counting an
  attempt is the point of them), and the client sweep changes no other account's rows and no staff-owned table;
- the server stays up: a handler may refuse, but the event processor survives every call (it catches what a handler
  raises); the calls that raised are listed when the test fails for another reason, and counted.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import uuid
from typing import Any

import pytest
from sqlmodel import Session, select

import app.app  # noqa: F401  (registers every page and state)
from app.models.enums import InvoiceStatus
from app.models.inquiry import ContactInquiry
from app.models.project import Project
from tests import factories as f
from tests.ui.harness import GUARDED, PAYLOADS, app_states, handler_state, row_counts, sign_in

MARKER = f"FUZZ-SECRET-{uuid.uuid4().hex[:8]}"
# Handlers that wait on purpose (a toast's lifetime, a debounce) before doing anything: called, not awaited in full.
CALL_SECONDS = 5


def _arguments(fn: Any, n: int) -> list[Any]:
    params = [p for p in inspect.signature(fn).parameters.values() if p.name != "self"]
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    return [PAYLOADS[(n + i) % len(PAYLOADS)] for i in range(len(positional))]


async def _run(fn: Any, state: Any, args: list[Any]) -> None:
    result = fn(state, *args)
    if inspect.isasyncgen(result):
        async for _ in result:
            pass
    elif inspect.isgenerator(result):
        for _ in result:
            pass
    elif inspect.isawaitable(result):
        await result


@pytest.fixture
def secrets(db: Session) -> dict[str, Any]:
    """Rows a signed-out visitor and the fuzzing client may not read, each carrying the marker."""
    other = f.user(db, f"fz_other_{uuid.uuid4().hex[:6]}", first_name=MARKER)
    f.project(db, other, name=f"{MARKER} project")
    f.invoice(db, other, status=InvoiceStatus.pending)
    db.add(ContactInquiry(name=MARKER, email="secret@example.com", message=f"{MARKER} message"))
    db.commit()
    me = f.user(db, f"fz_client_{uuid.uuid4().hex[:6]}")
    return {"other": other, "me": me}


def _forge(state: Any, forged: dict[str, Any]) -> None:
    """What `setvar` lets any browser do: point every id-like field of the state at someone else's records (the
    field's own entry in `forged`, else the other client's user id)."""
    for name in type(state).get_fields():
        if name.startswith(("_", "rx_")) or "id" not in name.split("_"):
            continue
        current = getattr(state, name)
        value = forged.get(name, forged["client_id"])
        try:
            setattr(state, name, type(current)(value) if current is not None else value)
        except (TypeError, ValueError):
            setattr(state, name, value)


def _sweep(token: str | None, forged: dict[str, str] | None = None) -> tuple[list[str], list[str]]:
    """Call every handler of every state with payloads (after forging its id fields, if `forged`); the calls that
    raised, and those after which a state of the tree held the marker."""
    raised, leaked = [], []
    for n, cls in enumerate(app_states()):
        for name, handler in sorted(cls.event_handlers.items()):
            state = handler_state(cls, token)  # type: ignore[arg-type]
            if forged:
                _forge(state, forged)
            args = _arguments(handler.fn, n)
            label = f"{cls.__name__}.{name}({', '.join(repr(a)[:20] for a in args)})"
            try:
                asyncio.run(asyncio.wait_for(_run(handler.fn, state, args), CALL_SECONDS))
            except TimeoutError:
                pass  # a deliberate wait (e.g. a toast's lifetime); what it did before waiting is checked below
            except Exception as exc:  # the event processor catches these; the browser gets an error toast
                raised.append(f"{label}: {type(exc).__name__}")
            root = state
            while root.parent_state is not None:
                root = root.parent_state
            try:
                dump = json.dumps(root.dict(), default=str)
            except Exception:
                dump = ""
            if MARKER in dump:
                leaked.append(label)
    return raised, leaked


def _guarded(counts: dict[str, int]) -> dict[str, int]:
    return {t: n for t, n in counts.items() if t in GUARDED}


def test_signed_out_callers_change_nothing_and_see_nothing(db: Session, secrets: dict[str, Any]) -> None:
    before = row_counts(db)
    raised, leaked = _sweep(None)
    assert leaked == []
    after = row_counts(db)
    assert _guarded(after) == _guarded(before), raised
    assert after["users"] == before["users"]  # no payload here is a valid registration
    print(f"signed out: {len(raised)} calls raised (caught by the event processor)")  # noqa: T201


def test_a_client_changes_and_sees_nothing_of_anyone_else(db: Session, secrets: dict[str, Any]) -> None:
    """Twice: with payloads, then with every id-like field of each state forged (setvar) to the other client's
    records before each handler."""
    other = secrets["other"]
    project = db.exec(select(Project).where(Project.client_id == other.id)).one()
    meeting = f.meeting(db, other, title=f"{MARKER} call")
    # The portal keeps the meeting or project awaiting confirmation in cancel_id; staff forms a client_id. Forged
    # once with the other client's meeting and once with their project.
    forged = {"client_id": str(other.id), "cancel_id": meeting.id}
    forged_project = {"client_id": str(other.id), "cancel_id": project.id}
    token = sign_in(db, secrets["me"])
    before = row_counts(db)
    db.refresh(other)
    other_before = other.model_dump()
    raised, leaked = _sweep(token)
    forged_raised, forged_leaked = _sweep(token, forged)
    project_raised, project_leaked = _sweep(token, forged_project)
    forged_raised += project_raised
    assert leaked == [] and forged_leaked == [] and project_leaked == []
    db.expire_all()
    db.refresh(other)
    assert other.model_dump() == other_before
    db.refresh(project)
    db.refresh(meeting)
    assert project.status == "planning" and project.name == f"{MARKER} project"
    assert meeting.status == "scheduled"
    assert _guarded(row_counts(db)) == _guarded(before), raised + forged_raised
    print(f"client: {len(raised) + len(forged_raised)} calls raised (caught by the event processor)")  # noqa: T201
