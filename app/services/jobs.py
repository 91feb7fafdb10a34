"""Background work of each server process: deliver the mail outbox, prune old rate-limit events, release the
booking holds that were not confirmed in time and delete the stand-in accounts of registrations past any use."""

from __future__ import annotations

import asyncio
import logging

from app.core.db import session_scope
from app.services import auth, booking, mail, ratelimit

log = logging.getLogger(__name__)

INTERVAL_S = 5.0


def run_once() -> int:
    """One pass: deliver due mail, forget stale rate-limit events, release expired holds, delete old stand-ins;
    returns messages delivered.

    Each task has its own session and transaction, and a failure of one is logged and does not stop the other:
    a broken outbox must not let the rate-limit table grow without end, nor a pruning error hold back the mail.
    """
    sent = 0
    try:
        with session_scope() as s:
            sent = mail.deliver_pending(s)
    except Exception:
        log.exception("Mail delivery failed in this pass")
    try:
        with session_scope() as s:
            ratelimit.prune(s)
    except Exception:
        log.exception("Rate-limit pruning failed in this pass")
    try:
        with session_scope() as s:
            booking.release_expired(s)
    except Exception:
        log.exception("Releasing expired booking holds failed in this pass")
    try:
        with session_scope() as s:
            auth.prune_stand_ins(s)
    except Exception:
        log.exception("Pruning stand-in accounts failed in this pass")
    return sent


async def background_loop() -> None:
    """Runs for the life of the server; a failing pass is logged and retried, never fatal."""
    while True:
        sent = 0
        try:
            sent = await asyncio.to_thread(run_once)
        except Exception:  # the loop must survive a database hiccup
            log.exception("Background pass failed")
        if sent < mail.BATCH_SIZE:  # a full batch means more are waiting (a backlog after an outage): go on at once
            await asyncio.sleep(INTERVAL_S)
