"""The time zones offered to people who pick one (the booking page): each country's zones from the tz database's
zone.tab, named by city with its current UTC offset, the common ones first, searchable by city, country, region,
abbreviation or offset.

zone.tab lists the zones people live in, one or more per country, under the names the tz database keeps current:
no legacy aliases ("US/Eastern", "Asia/Calcutta", "America/Buenos_Aires"), no "Etc/GMT+5", no "EST5EDT". A browser
that still reports an alias is mapped to the zone it links to (tzdata.zi's link lines). Read from the `tzdata`
package when installed, else from the system's zoneinfo directory; both ship the two files.
"""

from __future__ import annotations

import functools
import re
import unicodedata
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from zoneinfo import ZoneInfo

UTC_NAME = "UTC"
# Offered first, after the visitor's own zone (west to east): where most of the business's visitors book from.
COMMON = (
    "Pacific/Honolulu",
    "America/Anchorage",
    "America/Los_Angeles",
    "America/Phoenix",
    "America/Denver",
    "America/Chicago",
    "America/Mexico_City",
    "America/New_York",
    "America/Toronto",
    "America/Sao_Paulo",
    "Europe/London",
    "Europe/Lisbon",
    "Europe/Madrid",
    "Europe/Paris",
    "Europe/Berlin",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Asia/Tokyo",
    "Australia/Sydney",
)
# Words people search the US zones by, which neither the city nor the abbreviation carries.
EXTRA_WORDS = {
    "America/New_York": "eastern time et florida",
    "America/Chicago": "central time ct texas",
    "America/Denver": "mountain time mt colorado",
    "America/Phoenix": "mountain time mt arizona",
    "America/Los_Angeles": "pacific time pt california",
    "America/Anchorage": "alaska",
    "Pacific/Honolulu": "hawaii",
}
_OFFSET = re.compile(r"^(?:utc|gmt)?\s*([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?$")


@dataclass(frozen=True)
class Zone:
    """One zone as the tables list it: its IANA name, the city it is named by and where it is."""

    name: str
    city: str  # "New York"
    country: str  # "United States"
    words: str  # what a search matches besides the offset: city, country, region, zone.tab's comment, extra words


@dataclass(frozen=True)
class ZoneChoice:
    """A zone as a picker shows it now: "New York (UTC-05:00)" (with a real minus sign), where it is, its offset."""

    name: str
    label: str
    country: str
    minutes: int


def _read(file: str) -> str:
    try:
        return resources.files("tzdata").joinpath("zoneinfo", file).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        for root in zoneinfo.TZPATH:
            path = Path(root) / file
            if path.is_file():
                return path.read_text(encoding="utf-8")
    raise RuntimeError(f"No tz database table {file}: install the tzdata package")


def _rows(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def city(name: str) -> str:
    """'America/Argentina/Buenos_Aires' -> 'Buenos Aires'."""
    return name.rsplit("/", 1)[-1].replace("_", " ")


def _fold(text: str) -> str:
    """Lower case without accents, so "São Paulo" finds "Sao Paulo"."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


@functools.cache
def zones() -> dict[str, Zone]:
    """Every zone of zone.tab by name, and UTC."""
    countries = {code: country for code, country, *_ in _rows(_read("iso3166.tab"))}
    found = {UTC_NAME: Zone(UTC_NAME, UTC_NAME, "", "utc gmt coordinated universal time")}
    for code, _coords, name, *comment in _rows(_read("zone.tab")):
        country = countries.get(code, code)
        words = " ".join([city(name), country, name.split("/")[0], *comment, EXTRA_WORDS.get(name, "")])
        found[name] = Zone(name, city(name), country, _fold(words))
    return found


@functools.cache
def _links() -> dict[str, str]:
    """Alias -> the zone it links to, from tzdata.zi's "L target alias" lines."""
    links: dict[str, str] = {}
    for line in _read("tzdata.zi").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "L":
            links[parts[2]] = parts[1]
    return links


def canonical(name: object) -> str | None:
    """The listed zone a name stands for: itself, the zone an alias links to ("US/Eastern" -> "America/New_York"),
    UTC for UTC's aliases, or None for an unknown name."""
    if not isinstance(name, str) or len(name) > 64:
        return None
    listed = zones()
    if name in listed:
        return name
    target = _links().get(name)
    if target in listed:
        return target
    if target in ("Etc/UTC", "Etc/GMT") or name in ("Etc/UTC", "Etc/GMT"):
        return UTC_NAME
    return None


def offset_label(minutes: int) -> str:
    """'UTC-05:00', 'UTC+05:30', 'UTC+00:00' (with a real minus sign, as typography wants)."""
    sign = "\u2212" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{mins:02d}"


def choice(name: str, now: datetime | None = None) -> ZoneChoice:
    """A listed zone as shown at `now` (its offset then: a daylight-saving zone's changes with the season)."""
    zone = zones()[name]
    offset = (now or datetime.now(UTC)).astimezone(ZoneInfo(name)).utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    return ZoneChoice(name, f"{zone.city} ({offset_label(minutes)})", zone.country, minutes)


def _wanted_offset(query: str) -> int | None:
    """The offset a query such as "+5:30", "UTC-5" or "gmt+01" asks for, in minutes; None if it asks none."""
    found = _OFFSET.match(query.replace(" ", ""))
    if not found:
        return None
    sign = -1 if found[1] in "-\u2212" else 1
    return sign * (int(found[2]) * 60 + int(found[3] or 0))


@functools.lru_cache(maxsize=4)
def _catalogue(at: datetime) -> tuple[list[ZoneChoice], dict[str, ZoneChoice], dict[str, str]]:
    """Every zone as shown at `at` (sorted by offset then city), by name, and each one's abbreviation then (folded).
    Kept per quarter hour: offsets change on the hour or half hour, and a search runs it at each keystroke."""
    listed = zones()
    shown = {name: choice(name, at) for name in listed}
    ordered = sorted(shown.values(), key=lambda c: (c.minutes, listed[c.name].city))
    abbreviations = {name: _fold(at.astimezone(ZoneInfo(name)).tzname() or "") for name in listed}
    return ordered, shown, abbreviations


def choices(*, first: str | None = None, query: str = "", now: datetime | None = None) -> list[ZoneChoice]:
    """The picker's list. Without a query: `first` (the visitor's zone), then the common zones, then every zone, each
    sorted by offset then city (a zone shown among the first ones is not repeated below). With a query: the zones it
    matches by offset ("+5:30", "UTC-5"), else by every word (city, country, region, abbreviation such as "CET")."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    ordered, shown, abbreviations = _catalogue(
        now.replace(minute=now.minute - now.minute % 15, second=0, microsecond=0)
    )
    listed = zones()
    query = _fold(query.strip())[:60]
    if query:
        wanted = _wanted_offset(query)
        if wanted is not None:
            return [c for c in ordered if c.minutes == wanted]
        words = query.split()
        return [c for c in ordered if all(w in listed[c.name].words or w == abbreviations[c.name] for w in words)]
    named = canonical(first)
    top = [named] if named else []
    top += sorted((n for n in COMMON if n not in top), key=lambda n: (shown[n].minutes, listed[n].city))
    return [shown[n] for n in top] + [c for c in ordered if c.name not in top]


def common_count(first: str | None) -> int:
    """How many of `choices(first=first)` are the zones offered first."""
    named = canonical(first)
    return len(COMMON) + (1 if named and named not in COMMON else 0)
