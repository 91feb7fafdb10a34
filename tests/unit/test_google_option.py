"""The Google button shows only where Google sign-in is configured (otherwise it would open a 503 page)."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from app.core.config import settings
from app.ui.auth.components import google_option


def test_no_google_button_without_google(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "google_client_id", None)
    assert "/api/auth/google" not in str(google_option("Sign in with Google"))


def test_the_google_button_when_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "google_client_id", "client-123")
    monkeypatch.setattr(settings, "google_client_secret", SecretStr("secret-456"))
    rendered = str(google_option("Sign in with Google"))
    assert "/api/auth/google" in rendered and "Sign in with Google" in rendered
