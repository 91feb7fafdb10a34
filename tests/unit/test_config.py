"""Settings: the names operators rely on, the SQLite default, URL rewriting, and prod refusing dev secrets."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.core.config import DEV_SECRET, ROOT, Settings


def make(**env: str) -> Settings:
    return Settings(_env_file=None, **env)  # type: ignore[call-arg]


def test_defaults_serve_on_3000_with_sqlite_under_data(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "PORT", "APP_ENV", "PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)
    s = make()
    assert s.port == 3000
    assert s.app_env == "dev"
    assert s.database_url == f"sqlite:///{ROOT / 'data' / 'app.db'}"
    assert s.public_url == "http://127.0.0.1:3000"


def test_environment_variables_are_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "4123")
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@db:5432/site")
    monkeypatch.setenv("SMTP_TLS", "false")
    monkeypatch.setenv("STAFF_NOTIFY_EMAIL", "team@example.com")
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    s = make()
    assert s.port == 4123
    assert s.database_url == "postgresql+psycopg://u@db:5432/site"
    assert s.smtp_tls == "none"
    assert s.staff_notify_email == "team@example.com"
    assert s.public_url == "http://127.0.0.1:4123"


def test_prod_refuses_to_start_without_a_real_secret() -> None:
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        make(app_env="prod")
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        make(app_env="prod", secret_key="short")
    s = make(app_env="prod", secret_key="k" * 40, public_url="https://www.example.com/")
    assert s.secure_cookies
    assert s.allowed_origins == ["https://www.example.com"]


def test_dev_allows_loopback_origins_only() -> None:
    s = make(app_env="dev", port="3000", secret_key=DEV_SECRET)
    assert s.allowed_origins == ["http://127.0.0.1:3000", "http://localhost:3000"]
