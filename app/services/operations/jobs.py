"""Background work of each server process: deliver the mail outbox, prune old rate-limit events, release the
booking holds that were not confirmed in time, delete the stand-in accounts of registrations past any use, remind
meetings 24 hours and 1 hour ahead, mail digests of unread conversation messages, and once a business day send the
overdue invoices' reminders."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from datetime import date

from sqlmodel import Session

from app.core import metrics
from app.core.db import session_scope
from app.services.accounts import auth, sign_in
from app.services.billing import invoices, reminders
from app.services.platform import mail, ratelimit
from app.services.projects import message_digests
from app.services.scheduling import booking, meeting_reminders

log = logging.getLogger(__name__)

INTERVAL_S = 5.0
metrics.jobs_interval(INTERVAL_S)


def _attempt(what: str, task: Callable[[Session], object]) -> object:
    """Run one task in a session and transaction of its own; a failure is logged and leaves the other tasks be."""
    try:
        with session_scope() as s:
            return task(s)
    except Exception:
        log.exception("%s failed in this pass", what)
        metrics.job_failures.labels(task=what).inc()
        return None


def run_once() -> int:
    """One pass: deliver due mail, forget stale rate-limit events, release expired holds, delete old stand-ins;
    returns messages delivered.

    Each task has its own session and transaction, and a failure of one is logged and does not stop the others:
    a broken outbox must not let the rate-limit table grow without end, nor a pruning error hold back the mail.
    """
    sent = _attempt("Mail delivery", mail.deliver_pending)
    _attempt("Rate-limit pruning", ratelimit.prune)
    _attempt("Releasing expired booking holds", booking.release_expired)
    _attempt("Pruning stand-in accounts", auth.prune_stand_ins)
    _attempt("Pruning old sign-in steps", sign_in.prune)
    _attempt("Meeting reminders", meeting_reminders.send_due)
    _attempt("Message digests", message_digests.send_due)
    _daily_reminders()
    return sent if isinstance(sent, int) else 0


_reminded_on: date | None = None  # the business day this process last completed a reminder pass
_reminding = threading.Lock()


def _daily_reminders() -> None:
    """The overdue reminders' pass, once per business day per process (not every few seconds): a pass is
    idempotent within a day and safe beside another process's, so every process may run it; a failed pass is tried
    again on the next round."""
    global _reminded_on
    today = invoices.business_today()
    if _reminded_on == today or not _reminding.acquire(blocking=False):
        return
    try:
        done = _attempt("Sending invoice reminders", lambda s: reminders.send_reminders(s, today=today))
        if isinstance(done, list):
            _reminded_on = today
            if done:
                log.info("Sent %s overdue invoice reminder(s)", len(done))
    finally:
        _reminding.release()


async def background_loop() -> None:
    """Runs for the life of the server; a failing pass is logged and retried, never fatal."""
    while True:
        sent = 0
        started = time.time()
        try:
            sent = await asyncio.to_thread(run_once)
        except Exception:  # the loop must survive a database hiccup
            log.exception("Background pass failed")
        else:
            # The job lag on /metrics grows from here while no pass finishes (a hung SMTP server, a dead loop).
            metrics.job_pass_done(started, time.time())
        if sent < mail.BATCH_SIZE:  # a full batch means more are waiting (a backlog after an outage): go on at once
            await asyncio.sleep(INTERVAL_S)
