"""The Stripe stand-in (tools/dev/stripe_standin.py) as a fixture: a real HTTP server on a free port that the real
SDK is pointed at (STRIPE_API_BASE), with the secret key and webhook secret set for the test.

Without a webhook URL it keeps the events it builds; tests deliver them to the app themselves (`deliver`), signed as
Stripe signs, which lets them replay, reorder, forge and race deliveries."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from app.core.config import settings
from tools.dev.stripe_standin import StandIn, sign

SECRET_KEY = "sk_test_standin"
WEBHOOK_SECRET = "whsec_test_standin"


@pytest.fixture
def standin(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:
    server = StandIn(webhook_secret=WEBHOOK_SECRET).start()
    monkeypatch.setattr(settings, "stripe_secret_key", SecretStr(SECRET_KEY))
    monkeypatch.setattr(settings, "stripe_webhook_secret", SecretStr(WEBHOOK_SECRET))
    monkeypatch.setattr(settings, "stripe_api_base", server.url)
    yield server
    server.stop()


def signed(event: dict[str, Any], *, secret: str = WEBHOOK_SECRET, age: int = 0) -> tuple[bytes, dict[str, str]]:
    """The body and headers Stripe sends for `event`, signed `age` seconds ago."""
    payload = json.dumps(event)
    header = sign(payload, secret, int(time.time()) - age)
    return payload.encode(), {"Stripe-Signature": header, "Content-Type": "application/json"}
