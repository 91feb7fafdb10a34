"""Optional error reports (`SENTRY_DSN`): unhandled errors and error log lines go to Sentry or a service that speaks
its protocol, with the personal data taken out first (ADR 0095).

What leaves the server is what a developer needs to find the bug (the exception, its stack without local variables,
the route, the request id) and nothing a person typed or carries: no cookies, no Authorization header, no request
body, no query string (manage links carry their token there), no client address, no e-mail address anywhere in the
text.
"""

from __future__ import annotations

import re
from typing import Any

from app.core import logs
from app.core.config import Settings

EMAIL = re.compile(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
EMAIL_MASK = "[email]"
FILTERED = "[Filtered]"
# Request headers that identify or authenticate the person (or their address); the rest (user agent, content type,
# the request id) help with a bug and say nothing about who sent it.
_PERSONAL_HEADERS = frozenset(
    {"cookie", "set-cookie", "authorization", "proxy-authorization", "x-forwarded-for", "x-real-ip", "forwarded"}
)


def _mask_emails(value: Any) -> Any:
    """`value` with every e-mail address in every string replaced, at any depth of dicts, lists and tuples."""
    if isinstance(value, str):
        return EMAIL.sub(EMAIL_MASK, value)
    if isinstance(value, dict):
        return {key: _mask_emails(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_mask_emails(item) for item in value]
    return value


def scrub_event(event: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """Sentry's `before_send`: the event without personal data (see the module's docstring)."""
    request = event.get("request")
    if isinstance(request, dict):
        for key in ("cookies", "data", "query_string", "env"):
            request.pop(key, None)
        headers = request.get("headers")
        if isinstance(headers, dict):
            request["headers"] = {
                name: (FILTERED if name.lower() in _PERSONAL_HEADERS else value) for name, value in headers.items()
            }
        url = request.get("url")
        if isinstance(url, str):
            request["url"] = url.split("?", 1)[0]
    user = event.get("user")
    if isinstance(user, dict):
        # An id is enough to find the account in the admin; its address and e-mail are not sent.
        event["user"] = {"id": user["id"]} if "id" in user else {}
    # Called in the request's (or event's) context: its id finds the same request's lines in the logs.
    if (rid := logs.request_id.get()) is not None:
        event.setdefault("tags", {})["request_id"] = rid
    return _mask_emails(event)


def scrub_breadcrumb(crumb: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """Sentry's `before_breadcrumb`: log lines and HTTP calls recorded before an error, without e-mail addresses
    (and without the query strings of outgoing calls)."""
    data = crumb.get("data")
    if isinstance(data, dict):
        data.pop("http.query", None)
    return _mask_emails(crumb)


def init_error_reports(cfg: Settings, **options: Any) -> bool:
    """Start reporting errors when SENTRY_DSN is set; returns whether it did. `options` reach `sentry_sdk.init`
    (tests pass a transport that keeps the events)."""
    if cfg.sentry_dsn is None:
        return False
    import sentry_sdk  # only a process that reports imports it

    sentry_sdk.init(
        dsn=cfg.sentry_dsn.get_secret_value(),
        environment=cfg.app_env,
        send_default_pii=False,
        # Frames' local variables hold passwords and tokens in the auth code: the stack's lines are enough.
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrub_event,  # type: ignore[arg-type]
        before_breadcrumb=scrub_breadcrumb,
        traces_sample_rate=0.0,  # errors only; latency is Prometheus' job
        **options,
    )
    return True
