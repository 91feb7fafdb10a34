"""Error reports: nothing starts without SENTRY_DSN, and what is sent carries no personal data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import sentry_sdk
from pydantic import SecretStr

from app.core import logs
from app.core.config import Settings
from app.core.error_reports import init_error_reports, scrub_breadcrumb, scrub_event

ROOT = Path(__file__).resolve().parents[2]


def an_event() -> dict[str, object]:
    """An event shaped as sentry-sdk's Starlette integration builds it for a failed sign-in."""
    return {
        "level": "error",
        "message": "Sign-in failed for jane.doe@example.com",
        "exception": {
            "values": [{"type": "ValueError", "value": "no account jane.doe@example.com", "stacktrace": {"frames": []}}]
        },
        "request": {
            "url": "https://www.example.com/api/booking/manage/abc?token=secret-token",
            "method": "POST",
            "query_string": "token=secret-token",
            "cookies": {"access_token": "jwt-value"},
            "data": {"identifier": "jane.doe@example.com", "password": "Correct-horse-1"},
            "env": {"REMOTE_ADDR": "203.0.113.7"},
            "headers": {
                "Cookie": "access_token=jwt-value",
                "Authorization": "Bearer abc",
                "X-Forwarded-For": "203.0.113.7",
                "User-Agent": "Mozilla/5.0",
                "X-Request-ID": "0123456789abcdef",
            },
        },
        "user": {"id": "42", "email": "jane.doe@example.com", "ip_address": "203.0.113.7"},
        "breadcrumbs": {"values": [{"message": "mail queued for john@example.org"}]},
        "extra": {"nested": [{"to": "Jane <jane.doe@example.com>"}]},
    }


def test_the_scrubbed_event_keeps_the_bug_and_drops_the_person() -> None:
    token = logs.request_id.set("0123456789abcdef")
    try:
        event = scrub_event(an_event(), {})
    finally:
        logs.request_id.reset(token)
    text = json.dumps(event)
    for personal in ("@example", "jwt-value", "Correct-horse-1", "203.0.113.7", "secret-token", "Bearer abc"):
        assert personal not in text, personal
    request = event["request"]
    assert set(request) == {"url", "method", "headers"}
    assert request["url"] == "https://www.example.com/api/booking/manage/abc"
    assert request["headers"]["Cookie"] == "[Filtered]"
    assert request["headers"]["Authorization"] == "[Filtered]"
    assert request["headers"]["User-Agent"] == "Mozilla/5.0"  # what helps with the bug stays
    assert event["user"] == {"id": "42"}
    assert event["message"] == "Sign-in failed for [email]"
    assert event["exception"]["values"][0]["value"] == "no account [email]"
    assert event["tags"] == {"request_id": "0123456789abcdef"}


def test_breadcrumbs_lose_addresses_and_query_strings() -> None:
    crumb = scrub_breadcrumb(
        {"category": "httplib", "message": "to a@b.example", "data": {"url": "https://x.example", "http.query": "k=v"}}
    )
    assert crumb == {"category": "httplib", "message": "to [email]", "data": {"url": "https://x.example"}}


def test_without_a_dsn_nothing_starts() -> None:
    assert init_error_reports(Settings(sentry_dsn=None)) is False
    assert not sentry_sdk.get_client().is_active()


def test_with_a_dsn_the_sent_event_is_scrubbed() -> None:
    """In a process of its own (sentry-sdk patches logging and threads for good): an error logged during a request
    is sent, through a transport that keeps it, without the person's data."""
    script = """
import json, logging, sys
from pydantic import SecretStr
from sentry_sdk.transport import Transport
from app.core import logs
from app.core.config import Settings
from app.core.error_reports import init_error_reports

sent = []
class Keep(Transport):
    def capture_envelope(self, envelope):
        sent.append(envelope.get_event())

assert init_error_reports(Settings(sentry_dsn=SecretStr("https://key@sentry.invalid/1")), transport=Keep)
logs.request_id.set("0123456789abcdef")
try:
    raise RuntimeError("cannot mail jane.doe@example.com")
except RuntimeError:
    logging.getLogger("app.test").exception("Mail to jane.doe@example.com failed")
import sentry_sdk
sentry_sdk.flush()
print(json.dumps(sent, default=str))
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    (event,) = json.loads(done.stdout.splitlines()[-1])
    text = json.dumps(event)
    assert "RuntimeError" in text
    assert "@example.com" not in text
    assert "[email]" in text
    assert event["tags"]["request_id"] == "0123456789abcdef"
    # No frame carries its local variables (the auth code's hold passwords).
    frames = event["exception"]["values"][0]["stacktrace"]["frames"]
    assert frames and all("vars" not in frame for frame in frames)


def test_a_dsn_setting_is_a_secret() -> None:
    cfg = Settings(sentry_dsn=SecretStr("https://key@sentry.invalid/1"))
    assert "key@" not in repr(cfg)
