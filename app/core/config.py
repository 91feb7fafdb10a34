"""All settings of the product, read once from the environment (and an optional `.env`).

Setting names are part of the product's interface: operators and tests rely on them, so rename none.
Nothing else in the code reads `os.environ`.
"""

from __future__ import annotations

import os
import re
from email.message import EmailMessage
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from email_validator import EmailNotValidError, validate_email
from pydantic import Field, SecretStr, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parents[2]
# The development secret is public (it is in this file), so `prod` refuses to start with it.
DEV_SECRET = "dev-only-insecure-secret-key-change-me"


class Settings(BaseSettings):
    # Empty variables count as unset, so a copied .env.example with blanks keeps the defaults.
    model_config = SettingsConfigDict(env_file=ROOT / ".env", extra="ignore", env_ignore_empty=True)

    app_env: Literal["dev", "test", "prod"] = "dev"
    port: int = 3000
    public_url: str = ""  # the site's origin; defaults to http://127.0.0.1:{port}
    secret_key: SecretStr = SecretStr(DEV_SECRET)
    database_url: str = ""  # defaults to the SQLite file data/app.db
    data_dir: Path = ROOT / "data"  # private files (CVs); never served as static files
    # Where the private files live (app.services.platform.storage): empty means DATA_DIR, as always; file:///path a
    # folder of its own; s3://bucket or s3://bucket/prefix an S3-compatible bucket that every machine of a cluster
    # reaches. The bucket's address and keys: S3_ENDPOINT_URL (unset: AWS itself), S3_REGION, and
    # AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (unset: boto3's own chain, e.g. an instance role).
    storage_url: str = ""
    s3_endpoint_url: str | None = None
    s3_region: str = "us-east-1"
    aws_access_key_id: str | None = None
    aws_secret_access_key: SecretStr | None = None
    redis_url: str | None = None
    # The folder the public pages are served from, which app.ui.fresh_pages keeps showing the content of now: unset,
    # the build this process mounts; a cluster's processes name the release folder nginx serves (its `current` link).
    pages_dir: Path | None = None

    # Company details: defaults of what staff with settings:manage edit in Settings (app.services.platform.company).
    company_name: str = "Coastline IT Solutions"
    company_address: str = "Port St. Lucie, FL 34952"  # printed on invoices; the spec withholds the street
    company_email: str = "hello@coastline-it.example"
    company_sales_email: str = "sales@coastline-it.example"
    company_phone: str = "(772) 555-0142"
    company_linkedin_url: str = "https://www.linkedin.com/company/coastline-it-solutions"
    company_twitter_url: str = "https://twitter.com/coastline_it"
    company_github_url: str = "https://github.com/coastline-it"
    # The hero's "Trusted by" badges (a JSON list in the environment).
    company_client_badges: list[str] = [
        "Palmetto Dental Studio",
        "Indian River Marine Supply",
        "Tradewinds Realty Group",
    ]

    smtp_host: str | None = None  # unset: mail is written to the server log instead
    smtp_port: int = 587
    smtp_user: str | None = None
    smtp_password: SecretStr | None = None
    smtp_tls: Literal["none", "starttls", "ssl"] = "starttls"
    mail_from: str = "Coastline IT Solutions <no-reply@coastline-it.example>"
    staff_notify_email: str | None = None
    # Mail that anyone can make us send (codes, resets, acknowledgements, booking invitations, and the staff copies
    # they cause): past these, the outbox drops it (logged), however many forms or links trigger it.
    public_mail_per_recipient_per_day: int = Field(default=10, ge=1)
    # The company's own inboxes (staff accounts, STAFF_NOTIFY_EMAIL, the company address): a busy day's inquiries,
    # applications and bookings must all reach them, so a much higher bound.
    public_mail_per_staff_inbox_per_day: int = Field(default=500, ge=1)
    public_mail_per_day: int = Field(default=2000, ge=1)

    # The company's time zone: meeting types' weekly hours and dates off are read in it.
    business_timezone: str = "America/New_York"
    # A join-link template for in-app bookings whose meeting type has none, e.g. https://meet.jit.si/{room}
    # ("{room}" becomes a random room name). Unset: the invitation says the organizer will send the link.
    meeting_room_url: str | None = None
    # A booking made signed out holds its slot this long unless the booker confirms it from the mailed link.
    booking_hold_minutes: int = 30
    # A message unread this long (and not in an earlier digest) is mailed to its reader in one digest (ADR 0102).
    message_digest_minutes: int = Field(default=10, ge=1, le=24 * 60)

    calendly_token: SecretStr | None = None
    calendly_api_url: str = "https://api.calendly.com"
    calendly_webhook_secret: SecretStr | None = None

    # Card payment of invoices through Stripe Checkout. Without a secret key nothing about card payment shows anywhere;
    # the webhook secret (whsec_...) verifies the events Stripe sends to /api/stripe/webhook. STRIPE_API_BASE points
    # the SDK elsewhere (tests and local runs: the stand-in, tools/dev/stripe_standin.py).
    stripe_secret_key: SecretStr | None = None
    stripe_webhook_secret: SecretStr | None = None
    stripe_api_base: str = "https://api.stripe.com"

    google_client_id: str | None = None
    google_client_secret: SecretStr | None = None
    google_discovery_url: str = "https://accounts.google.com/.well-known/openid-configuration"

    access_token_minutes: int = 15
    refresh_token_days: int = 7
    staff_idle_minutes: int = 10
    client_idle_minutes: int = 240
    max_upload_mb: int = 10
    # Reverse proxies in front of the app that append to X-Forwarded-For (0: none; the header is then ignored, since
    # any client can send it). With N, the client is the N-th address from the right: what the outermost trusted
    # proxy saw. Used by the API and, through rxconfig, by Reflex for the websocket.
    trusted_proxy_hops: int = Field(default=0, ge=0, le=10)

    # What the operator sees (docs/deploy.md, "Metrics, logs and alerts"). LOG_FORMAT=json: one JSON object per line
    # for a log collector; text (the default) for a person at a terminal.
    log_format: Literal["text", "json"] = "text"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # The bearer token Prometheus sends to /metrics. Unset: /metrics answers 404 (ADR 0095).
    metrics_token: SecretStr | None = None
    # Error reports to Sentry (or a compatible service), with personal data scrubbed. Unset: nothing is sent.
    sentry_dsn: SecretStr | None = None

    @field_validator("log_format", "log_level", mode="before")
    @classmethod
    def _case_of_names(cls, v: object, info: ValidationInfo) -> object:
        if not isinstance(v, str):
            return v
        return v.strip().upper() if info.field_name == "log_level" else v.strip().lower()

    @field_validator("metrics_token")
    @classmethod
    def _long_metrics_token(cls, v: SecretStr | None) -> SecretStr | None:
        # The token is all that stands between the figures and anyone who can reach a process: not guessable.
        if v is not None and len(v.get_secret_value()) < 24:
            raise ValueError("METRICS_TOKEN must be a random value of at least 24 characters")
        return v

    @field_validator("smtp_tls", mode="before")
    @classmethod
    def _tls_aliases(cls, v: object) -> object:
        aliases = {"true": "starttls", "1": "starttls", "yes": "starttls", "false": "none", "0": "none", "no": "none"}
        return aliases.get(str(v).strip().lower(), v) if v is not None else v

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, v: str) -> str:
        if not v:
            return f"sqlite:///{ROOT / 'data' / 'app.db'}"
        # psycopg 3 is the only PostgreSQL driver installed.
        for prefix in ("postgres://", "postgresql://"):
            if v.startswith(prefix):
                return "postgresql+psycopg://" + v.removeprefix(prefix)
        return v

    @field_validator("data_dir")
    @classmethod
    def _absolute_data_dir(cls, v: Path) -> Path:
        return v if v.is_absolute() else (ROOT / v)

    @field_validator("storage_url")
    @classmethod
    def _storage_url(cls, v: str) -> str:
        # Checked here, so a mistyped store stops the start instead of failing the first applicant's upload.
        v = v.strip()
        if not v:
            return v
        parts = urlsplit(v)
        if parts.scheme == "file" and not parts.netloc and parts.path.startswith("/"):
            return v
        if parts.scheme == "s3" and re.fullmatch(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]", parts.netloc):
            if parts.query or parts.fragment:
                raise ValueError("STORAGE_URL s3://bucket/prefix takes no query or fragment")
            return v.rstrip("/")
        raise ValueError(
            "STORAGE_URL must be empty (the DATA_DIR folder), file:///absolute/folder, or s3://bucket[/prefix] "
            "(a bucket name in lower case letters, digits, dots and hyphens)"
        )

    @field_validator("s3_endpoint_url")
    @classmethod
    def _endpoint(cls, v: str | None) -> str | None:
        if v is not None and urlsplit(v).scheme not in ("http", "https"):
            raise ValueError("S3_ENDPOINT_URL must be an http(s):// address, e.g. https://s3.eu-central-1.example.com")
        return v

    @field_validator("mail_from")
    @classmethod
    def _one_sender(cls, v: str) -> str:
        # It heads every message: refused here, it stops the start instead of failing every mail in the outbox.
        header = EmailMessage()
        try:
            header["From"] = v  # refuses line breaks
            parsed = header["From"]
        except ValueError:
            parsed = None
        if parsed is None or parsed.defects or len(parsed.addresses) != 1 or not parsed.addresses[0].domain:
            raise ValueError("MAIL_FROM must be one address, e.g. 'Company <no-reply@example.com>'")
        return v

    @field_validator("business_timezone")
    @classmethod
    def _known_zone(cls, v: str) -> str:
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError("BUSINESS_TIMEZONE must be an IANA time zone name, e.g. America/New_York") from None
        return v

    @field_validator("meeting_room_url")
    @classmethod
    def _room_template(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith("https://"):
            raise ValueError("MEETING_ROOM_URL must start with https://, e.g. https://meet.jit.si/{room}")
        return v

    @field_validator("staff_notify_email")
    @classmethod
    def _one_staff_address(cls, v: str | None) -> str | None:
        # Contact forms and applications mail it: refused here, it stops the start instead of every submission.
        if v is None:
            return v
        try:
            return validate_email(v.strip(), check_deliverability=False).normalized
        except EmailNotValidError:
            raise ValueError("STAFF_NOTIFY_EMAIL must be one plain e-mail address, e.g. team@example.com") from None

    @model_validator(mode="after")
    def _check(self) -> Settings:
        if not self.public_url:
            self.public_url = f"http://127.0.0.1:{self.port}"
        self.public_url = self.public_url.rstrip("/")
        secret = self.secret_key.get_secret_value()
        if self.app_env == "prod" and (secret == DEV_SECRET or len(secret) < 32):
            raise ValueError("SECRET_KEY must be set to a random value of at least 32 characters when APP_ENV=prod")
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def origin(self) -> str:
        parts = urlsplit(self.public_url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def allowed_origins(self) -> list[str]:
        """Origins allowed for CORS and the websocket: the site's own, plus loopback aliases outside prod.

        The aliases cover PORT and the port `reflex run --frontend-port N` serves the pages on in dev: Reflex passes
        that to its processes as REFLEX_FRONTEND_PORT, after this module was imported, so it is read at each call.
        """
        origins = [self.origin]
        if self.app_env != "prod":
            ports = dict.fromkeys([self.port, *_reflex_frontend_port()])
            for port in ports:
                for host in ("127.0.0.1", "localhost"):
                    o = f"http://{host}:{port}"
                    if o not in origins:
                        origins.append(o)
        return origins

    @property
    def secure_cookies(self) -> bool:
        return self.app_env == "prod"


def _reflex_frontend_port() -> list[int]:
    value = os.environ.get("REFLEX_FRONTEND_PORT", "")
    return [int(value)] if value.isdigit() else []


settings = Settings()
