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


def test_dev_allows_loopback_origins_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REFLEX_FRONTEND_PORT", raising=False)
    s = make(app_env="dev", port="3000", secret_key=DEV_SECRET)
    assert s.allowed_origins == ["http://127.0.0.1:3000", "http://localhost:3000"]


@pytest.mark.parametrize(
    "value", ["a@example.com, b@example.com", "Staff <staff@example.com>", "staff@example.com\nBcc: x@example.com"]
)
def test_staff_notify_email_must_be_one_address(value: str) -> None:
    # Every contact form and application mails it: a bad value must stop the start, not every submission.
    with pytest.raises(ValidationError, match="STAFF_NOTIFY_EMAIL"):
        make(staff_notify_email=value)


@pytest.mark.parametrize(
    "value", ["a@example.com, b@example.com", "no address", "Us <us@example.com>\u2028Bcc: x@example.com"]
)
def test_mail_from_must_be_one_address(value: str) -> None:
    # It heads every message: a bad value would fail them all.
    with pytest.raises(ValidationError, match="MAIL_FROM"):
        make(mail_from=value)


def test_mail_addresses_in_their_usual_forms_are_accepted() -> None:
    s = make(mail_from="Coastline IT <no-reply@example.com>", staff_notify_email=" Team@Example.com ")
    assert s.staff_notify_email == "Team@example.com"
    assert make(mail_from="no-reply@example.com").mail_from == "no-reply@example.com"


def test_dev_server_frontend_port_is_an_allowed_origin(monkeypatch: pytest.MonkeyPatch) -> None:
    # `reflex run --frontend-port 3107` serves the pages from Vite on 3107 and tells its processes so after start-up.
    s = make(app_env="dev", port="3000", secret_key=DEV_SECRET)
    monkeypatch.setenv("REFLEX_FRONTEND_PORT", "3107")
    assert s.allowed_origins == [
        "http://127.0.0.1:3000",
        "http://localhost:3000",
        "http://127.0.0.1:3107",
        "http://localhost:3107",
    ]
    prod = make(app_env="prod", secret_key="k" * 40, public_url="https://www.example.com")
    assert prod.allowed_origins == ["https://www.example.com"]
