"""The figures Prometheus scrapes from /metrics (docs/deploy.md, "Metrics, logs and alerts"; ADR 0095).

Each process keeps its own figures and is scraped on its own port (behind nginx every process has one), so
Prometheus adds them up with `sum`/`rate` over the `instance` label; nothing is shared between processes. Labels
never carry a raw path, an id or a name a client chose: routes are templates, handlers are names from the code, so
the number of series is fixed by the code, not by traffic.

The outbox figures are read from the database at each scrape: every process reports the same value, so the alert
rules take their `max`.
"""

from __future__ import annotations

import time

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

CONTENT_TYPE = CONTENT_TYPE_LATEST

# One registry of the app's own (not the library's global one), so importing the app twice in one process - as
# Reflex and the tests do - registers nothing twice. The process collectors (CPU, memory, open files) are included.
registry = CollectorRegistry(auto_describe=True)
registry.register(PROCESS_COLLECTOR)
registry.register(PLATFORM_COLLECTOR)

# Seconds; from a cached API answer (a few ms) to the 60 s proxy timeout.
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

http_request_duration = Histogram(
    "app_http_request_duration_seconds",
    "Time to answer an HTTP request, by route template, method and status class (2xx, 4xx, 5xx).",
    ["route", "method", "status"],
    buckets=_LATENCY_BUCKETS,
    registry=registry,
)
websocket_connections = Gauge(
    "app_websocket_connections",
    "Open websocket connections (one per open tab) on this process.",
    registry=registry,
)
event_duration = Histogram(
    "app_websocket_event_duration_seconds",
    "Time to process one websocket event, from its handler starting on the locked state to its last update sent.",
    ["handler"],
    buckets=_LATENCY_BUCKETS,
    registry=registry,
)
login_failures = Counter(
    "app_login_failures_total",
    "Sign-ins refused for a wrong identifier or password (not those stopped by the rate limit).",
    registry=registry,
)
outbox_pending = Gauge(
    "app_mail_outbox_pending",
    "Messages waiting in the mail outbox (read from the database at each scrape).",
    registry=registry,
)
outbox_failed = Gauge(
    "app_mail_outbox_failed",
    "Messages the outbox gave up on after its retries (read from the database at each scrape).",
    registry=registry,
)
outbox_oldest_age = Gauge(
    "app_mail_outbox_oldest_pending_age_seconds",
    "Age of the oldest message still waiting in the outbox; 0 when none waits.",
    registry=registry,
)
database_up = Gauge(
    "app_database_up",
    "Whether the last scrape could read the database (1) or not (0; the outbox figures are then NaN).",
    registry=registry,
)
job_pass_duration = Histogram(
    "app_jobs_pass_duration_seconds",
    "Time one pass of the background jobs (mail, pruning, holds, reminders) takes.",
    buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0),
    registry=registry,
)
job_failures = Counter(
    "app_jobs_failures_total",
    "Background tasks that failed in a pass (logged with their traceback), by task.",
    ["task"],
    registry=registry,
)
job_last_pass = Gauge(
    "app_jobs_last_pass_timestamp_seconds",
    "When this process last finished a pass of the background jobs (Unix time).",
    registry=registry,
)
job_lag = Gauge(
    "app_jobs_lag_seconds",
    "How late the background jobs run: time since the last finished pass beyond the loop's interval (0 on time).",
    registry=registry,
)

# The loop's interval (set by app.services.operations.jobs) and when this process started, for the lag of a process
# whose loop never finished a pass.
_interval_s = 5.0
_started = time.time()
_last_pass: float | None = None


def jobs_interval(seconds: float) -> None:
    global _interval_s
    _interval_s = seconds


def job_pass_done(started: float, finished: float) -> None:
    global _last_pass
    _last_pass = finished
    job_pass_duration.observe(max(0.0, finished - started))
    job_last_pass.set(finished)


def refresh_job_lag(now: float | None = None) -> float:
    """Set and return the lag: a loop stuck in a pass (or dead) shows as a lag that grows with every scrape."""
    now = time.time() if now is None else now
    last = _last_pass if _last_pass is not None else _started
    lag = max(0.0, now - last - _interval_s)
    job_lag.set(lag)
    return lag


def status_class(status: int) -> str:
    return f"{status // 100}xx"


def exposition() -> bytes:
    """The registry in Prometheus' text format."""
    refresh_job_lag()
    return generate_latest(registry)


__all__ = ["CONTENT_TYPE", "exposition", "registry"]
