"""The company's details (issue 12, point 12): name, e-mails, phone, address, social links, the hero's client badges
and the business time zone, edited in Settings by holders of settings:manage.

They live in one row of `company_settings`; until staff save it, the environment's values (`COMPANY_*`,
`BUSINESS_TIMEZONE`) apply. Everything that prints them reads them here: e-mails, invoice PDFs, the booking calendar's
time zone, and the public pages (their footer, contact details and badges follow a change on the next visit).

Readers with a session call `profile(s)` (always the stored row). Readers without one (the business time zone deep in
the booking code, the public pages' per-visit loader) call `cached()`, which re-reads at most every `CACHE_S`
seconds; a save refreshes this process's copy at once, another process's within `CACHE_S`.
"""

from __future__ import annotations

import threading
import time
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from app.core.config import settings
from app.core.db import session_scope
from app.core.errors import Conflict
from app.core.permissions import Perm
from app.core.text import INVALID_CHARACTER, storable
from app.models.base import utcnow
from app.models.system import CompanySettings
from app.models.user import User
from app.services.platform import audit, zones
from app.services.platform.access import require
from app.services.platform.rules import phone_problem
from app.services.platform.schema import Body, Email, Text, parse, problem

CACHE_S = 10.0
BADGES_MAX = 8
BADGE_LIMIT = 60
BANK_LIMIT = 1000  # the column's width
INVALID_EMAIL = "Please enter a valid email address"
SAVED_MEANWHILE = "Someone else saved the company settings at the same moment. Please reload and try again."


class Company(BaseModel):
    """The details as stored (or the environment's); also the REST answer's shape."""

    model_config = ConfigDict(frozen=True)

    name: str
    email: str
    sales_email: str
    phone: str
    address: str
    linkedin_url: str | None
    twitter_url: str | None
    github_url: str | None
    client_badges: tuple[str, ...]
    business_timezone: str
    bank_instructions: str | None = None  # how to pay by bank transfer, several lines; None: invoices say nothing

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def defaults() -> Company:
    """The environment's values: what applies until staff save the settings."""
    return Company(
        name=settings.company_name,
        email=settings.company_email,
        sales_email=settings.company_sales_email,
        phone=settings.company_phone,
        address=settings.company_address,
        linkedin_url=settings.company_linkedin_url or None,
        twitter_url=settings.company_twitter_url or None,
        github_url=settings.company_github_url or None,
        client_badges=tuple(settings.company_client_badges),
        business_timezone=settings.business_timezone,
        bank_instructions=None,
    )


def _of(row: CompanySettings | None) -> Company:
    if row is None:
        return defaults()
    stored = {name: getattr(row, name) for name in Company.model_fields}  # the row's columns have the same names
    return Company(**{**stored, "client_badges": tuple(row.client_badges or ())})


_lock = threading.Lock()
_copy: tuple[float, Company] | None = None


def _keep(company: Company) -> Company:
    global _copy
    with _lock:
        _copy = (time.monotonic() + CACHE_S, company)
    return company


def forget() -> None:
    """Drop this process's copy (tests; a restore from backup)."""
    global _copy
    with _lock:
        _copy = None


def profile(s: Session) -> Company:
    """The company's details as stored (or the environment's until saved)."""
    return _keep(_of(s.get(CompanySettings, 1)))


def cached() -> Company:
    """The details at most `CACHE_S` seconds old, for readers without a session; the defaults if the database cannot
    be read (the pages and the calendar keep working on the environment's values)."""
    with _lock:
        copy = _copy
    if copy is not None and copy[0] > time.monotonic():
        return copy[1]
    try:
        with session_scope() as s:
            return profile(s)
    except Exception:
        return copy[1] if copy is not None else defaults()


def zone() -> ZoneInfo:
    """The business time zone: meeting types' weekly hours and the letters' times are read in it."""
    name = cached().business_timezone
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(settings.business_timezone)


# --- editing (settings:manage) ----------------------------------------------------------------------------------------


def _phone(value: str | None) -> str | None:
    if why := phone_problem(value or "", required=True):
        raise problem(why)
    return value


def _https(label: str) -> AfterValidator:
    def check(value: str | None) -> str | None:
        if value and (not value.startswith("https://") or len(value) < 12 or any(c.isspace() for c in value)):
            raise problem(f"{label} must be a full https:// address")
        return value

    return AfterValidator(check)


def _badges(value: Any) -> list[str]:
    """A list of names, or text with one per line; blank lines dropped."""
    if value is None:
        return []
    items = value.splitlines() if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise ValueError("Must be a list of text")
    names = [" ".join(item.split()) for item in items]
    names = [n for n in names if n]
    if len(names) > BADGES_MAX:
        raise problem(f"At most {BADGES_MAX} client badges")
    if any(len(n) > BADGE_LIMIT for n in names):
        raise problem(f"A client badge must not exceed {BADGE_LIMIT} characters")
    if not all(storable(n) for n in names):
        raise problem(INVALID_CHARACTER)
    return names


def _zone(value: str | None) -> str | None:
    """A zone of the tz database's list (zones.py: the zones people live in, and UTC); an alias the browser or an
    older setting names ("US/Eastern") is kept as the zone it stands for."""
    if value is None:
        return None
    named = zones.canonical(value)
    if named is None:
        raise problem("Please choose a time zone from the list (e.g. New York)")
    return named


Link = Annotated[str | None, Text("Link", 300)]


class CompanyUpdate(Body):
    """The details sent change; the others stay. Text is trimmed; a social link left empty hides its icon."""

    name: Annotated[str | None, Text("Company name", 120, required=True, one_line=True)] = None
    email: Annotated[str | None, Email(INVALID_EMAIL)] = Field(None, description="The main e-mail address.")
    sales_email: Annotated[str | None, Email(INVALID_EMAIL)] = Field(None, description="The sales e-mail address.")
    phone: Annotated[str | None, Text("Phone", 40, required=True), AfterValidator(_phone)] = None
    # One line: the footer shows it in a line and the invoice PDF prints it in one cell.
    address: Annotated[str | None, Text("Address", 300, required=True, one_line=True)] = None
    linkedin_url: Annotated[Link, _https("LinkedIn link")] = None
    twitter_url: Annotated[Link, _https("Twitter link")] = None
    github_url: Annotated[Link, _https("GitHub link")] = None
    client_badges: Annotated[list[str] | None, BeforeValidator(_badges)] = Field(
        None, description=f"The hero's client names: a list, or text with one per line; at most {BADGES_MAX}."
    )
    business_timezone: Annotated[
        str | None, Text("Time zone", 64, required=True, one_line=True), AfterValidator(_zone)
    ] = Field(None, description="An IANA time zone name, e.g. America/New_York.")
    # Several lines kept as typed (bank, account, reference): the PDF and the mails print them line by line.
    bank_instructions: Annotated[str | None, Text("Bank transfer instructions", BANK_LIMIT)] = Field(
        None, description=f"How to pay by bank transfer, up to {BANK_LIMIT} characters; empty to show none."
    )


def read(s: Session, *, actor: User) -> Company:
    """The details for the Settings form (settings:manage)."""
    require(actor, Perm.settings_manage, "manage company settings")
    return profile(s)


def update(s: Session, *, actor: User, data: CompanyUpdate | dict[str, Any], ip: str | None = None) -> Company:
    """Change the details sent (settings:manage); audited with what changed from what; commits."""
    require(actor, Perm.settings_manage, "manage company settings")
    sent = parse(CompanyUpdate, data).sent()
    before = profile(s).as_json()
    after = {**before, **sent}
    changed = sorted(k for k in sent if sent[k] != before[k])
    row = s.get(CompanySettings, 1)
    if row is None:
        row = CompanySettings(id=1, **after)
    for key, value in after.items():
        setattr(row, key, value)
    row.updated_by, row.updated_at = actor.id, utcnow()
    s.add(row)
    if changed:
        details = {"fields": changed, "from": {k: before[k] for k in changed}, "to": {k: after[k] for k in changed}}
        audit.record(s, actor=actor, action="company.update", entity=row, details=details, ip=ip)
    try:
        s.commit()
    except IntegrityError:  # two first saves at once: the other one created the row
        s.rollback()
        raise Conflict(SAVED_MEANWHILE) from None
    return _keep(_of(row))
