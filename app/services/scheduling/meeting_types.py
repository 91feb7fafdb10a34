"""Bookable meeting types for the Book a Meeting view: from Calendly when a token is set, else from the database.

Both sources answer the spec's shape: name, duration, active, profile.name, description_plain, scheduling_url,
booking_url and uri (whose last path segment is the booking button's id).
"""

from __future__ import annotations

import copy
import hashlib
import logging
import time
from typing import Any

import httpx
from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.core.config import Settings, settings
from app.core.errors import Unavailable
from app.models.meeting import MeetingType

log = logging.getLogger(__name__)

UNAVAILABLE = "Meeting types are temporarily unavailable. Please contact us directly to schedule a meeting."
TIMEOUT_S = 5.0  # the budget for the whole exchange; each request gets what is left, so the page never hangs
CACHE_TTL_S = 60.0
MAX_PAGES = 5
# After a failure Calendly is not asked again for this long: a slow service would otherwise hold every visitor for
# the whole TIMEOUT_S, one after another.
RETRY_AFTER_FAILURE_S = 30.0


class EventHost(BaseModel):
    name: str | None


class EventType(BaseModel):
    """One bookable meeting type in the spec's shape, from either source."""

    name: str
    duration: int
    active: bool
    profile: EventHost
    description_plain: str | None
    scheduling_url: str | None
    booking_url: str | None
    uri: str

    @property
    def slug(self) -> str:
        """The last path segment of its uri: the booking button's id and the booking link's ?type=/?meeting=."""
        return self.uri.rstrip("/").rsplit("/", 1)[-1]


# Public data only, so a per-worker cache is harmless: at worst each worker asks Calendly once a minute. An expired
# entry is kept: it is the answer while Calendly is down.
_cache: dict[str, tuple[float, list[dict[str, Any]]]] = {}
_down_until: dict[str, float] = {}


def clear_cache() -> None:
    _cache.clear()
    _down_until.clear()


def _from_database(s: Session, cfg: Settings) -> list[dict[str, Any]]:
    query = select(MeetingType).where(col(MeetingType.is_active).is_(True))
    rows = s.exec(query.order_by(col(MeetingType.sort_order), col(MeetingType.id))).all()
    return [
        {
            "name": t.name,
            "duration": t.duration_minutes,
            "active": True,
            "profile": {"name": t.host_name or cfg.company_name},
            "description_plain": t.description,
            "scheduling_url": t.scheduling_url,
            "booking_url": None,
            "uri": f"{cfg.public_url}/meeting-types/{t.slug}",
        }
        for t in rows
    ]


def _map(item: dict[str, Any]) -> dict[str, Any] | None:
    """One Calendly event type in the spec's shape; None for those that are not publicly bookable."""
    # Secret types are hidden from Calendly's own landing page, ad-hoc ones are one-off links: neither is offered.
    if not item.get("active") or item.get("secret") or item.get("type") == "AdhocEventType":
        return None
    profile = item.get("profile") or {}
    return {
        "name": str(item["name"]),
        "duration": int(item.get("duration") or 0),
        "active": True,
        "profile": {"name": profile.get("name")},
        "description_plain": item.get("description_plain"),
        "scheduling_url": item.get("scheduling_url"),
        "booking_url": item.get("booking_url"),
        "uri": str(item["uri"]),
    }


def _fetch(cfg: Settings, token: str) -> list[dict[str, Any]]:
    deadline = time.monotonic() + TIMEOUT_S
    base = cfg.calendly_api_url.rstrip("/")

    def get(client: httpx.Client, url: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise httpx.TimeoutException("Calendly did not answer in time")
        body = client.get(url, params=params, timeout=remaining).raise_for_status().json()
        if not isinstance(body, dict):
            raise ValueError("unexpected answer")
        return body

    with httpx.Client(headers={"Authorization": f"Bearer {token}", "Accept": "application/json"}) as client:
        me = get(client, f"{base}/users/me")["resource"]
        owner = {"organization": me["current_organization"]} if me.get("current_organization") else {"user": me["uri"]}
        url: str | None = f"{base}/event_types"
        params: dict[str, Any] | None = {**owner, "active": "true", "count": 100}
        items: list[dict[str, Any]] = []
        for _ in range(MAX_PAGES):
            if url is None:
                break
            page = get(client, url, params)
            items.extend(page.get("collection") or [])
            next_page = (page.get("pagination") or {}).get("next_page")
            # The bearer token goes only to the configured API, whatever a page link says.
            url = next_page if isinstance(next_page, str) and next_page.startswith(base + "/") else None
            params = None
    return [m for m in (_map(i) for i in items) if m is not None]


def _from_calendly(cfg: Settings) -> list[dict[str, Any]]:
    assert cfg.calendly_token is not None
    token = cfg.calendly_token.get_secret_value()
    key = f"{cfg.calendly_api_url}|{hashlib.sha256(token.encode()).hexdigest()}"
    cached = _cache.get(key)
    now = time.monotonic()
    if cached and cached[0] > now:
        return copy.deepcopy(cached[1])
    if _down_until.get(key, 0.0) > now:  # it failed moments ago: no visitor waits for it again meanwhile
        return _last_known(cached)
    try:
        types = _fetch(cfg, token)
    except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
        log.warning("Calendly event types unavailable: %s: %s", exc.__class__.__name__, exc)
        _down_until[key] = time.monotonic() + RETRY_AFTER_FAILURE_S
        return _last_known(cached, exc)
    _cache[key] = (time.monotonic() + CACHE_TTL_S, types)
    _down_until.pop(key, None)
    return copy.deepcopy(types)


def _last_known(cached: tuple[float, list[dict[str, Any]]] | None, cause: Exception | None = None) -> list[Any]:
    """While Calendly is slow or failing, the types it last gave (they change rarely); 503 only if it never answered."""
    if cached is not None:
        return copy.deepcopy(cached[1])
    raise Unavailable(UNAVAILABLE) from cause


def list_active(s: Session, cfg: Settings = settings) -> list[EventType]:
    """The active meeting types (public): Calendly's with a token configured, else the database's."""
    if cfg.calendly_token and cfg.calendly_token.get_secret_value():
        return [EventType.model_validate(item) for item in _from_calendly(cfg)]
    return [EventType.model_validate(item) for item in _from_database(s, cfg)]
