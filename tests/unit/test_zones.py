"""The booking page's time-zone list (app/services/platform/zones.py): each country's zones and UTC, none of the tz
database's aliases, the visitor's and the common zones first, named by city and their offset now, searchable."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from app.services.platform import zones

WINTER = datetime(2027, 1, 15, 12, tzinfo=UTC)
SUMMER = datetime(2027, 7, 15, 12, tzinfo=UTC)
REGIONS = {"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"}


def names(found: list[zones.ZoneChoice]) -> list[str]:
    return [c.name for c in found]


def test_the_list_holds_canonical_zones_only() -> None:
    listed = zones.zones()
    assert 350 < len(listed) < 500
    for name in listed:
        ZoneInfo(name)  # every one loads
        assert name == zones.UTC_NAME or name.split("/")[0] in REGIONS, name
    for alias in ("US/Eastern", "US/Pacific", "Asia/Calcutta", "America/Buenos_Aires", "Europe/Kiev", "EST5EDT",
                  "Etc/GMT+5", "Etc/UTC", "GMT", "Canada/Eastern", "Japan"):  # fmt: skip
        assert alias not in listed, alias
    assert not [n for n in listed if n.startswith("Etc/")]
    for city in ("America/New_York", "Europe/London", "Asia/Kolkata", "America/Argentina/Buenos_Aires", "Europe/Kyiv"):
        assert city in listed


def test_a_browsers_alias_stands_for_its_zone() -> None:
    assert zones.canonical("US/Eastern") == "America/New_York"
    assert zones.canonical("Asia/Calcutta") == "Asia/Kolkata"
    assert zones.canonical("America/Buenos_Aires") == "America/Argentina/Buenos_Aires"
    assert zones.canonical("Etc/UTC") == zones.canonical("UTC") == "UTC"
    assert zones.canonical("Europe/Paris") == "Europe/Paris"
    for bad in ("Mars/Olympus", "", None, 5, "x" * 100, "../../etc/passwd"):
        assert zones.canonical(bad) is None


def test_the_visitors_zone_then_the_common_ones_come_first_and_every_zone_once() -> None:
    found = zones.choices(first="Asia/Calcutta", now=WINTER)  # an old browser's alias
    assert found[0].name == "Asia/Kolkata"
    first = zones.common_count("Asia/Calcutta")
    assert first == len(zones.COMMON)  # Kolkata is one of the common ones: offered once, first
    assert set(names(found[:first])) == set(zones.COMMON)
    assert len(names(found)) == len(set(names(found))) == len(zones.zones())
    rest = found[first:]
    assert [c.minutes for c in rest] == sorted(c.minutes for c in rest)  # west to east
    # A zone that is not a common one comes first, before all the common ones.
    found = zones.choices(first="Europe/Copenhagen", now=WINTER)
    common = names([c for c in found if c.name in zones.COMMON])
    assert names(found)[: zones.common_count("Europe/Copenhagen")] == ["Europe/Copenhagen", *common]
    assert zones.common_count("Europe/Copenhagen") == len(zones.COMMON) + 1
    assert names(found).count("Europe/Copenhagen") == 1


def test_zones_are_named_by_city_and_their_offset_now() -> None:
    assert zones.choice("America/New_York", WINTER).label == "New York (UTC\u221205:00)"
    assert zones.choice("America/New_York", SUMMER).label == "New York (UTC\u221204:00)"  # daylight saving
    assert zones.choice("Australia/Sydney", WINTER).label == "Sydney (UTC+11:00)"  # its summer
    assert zones.choice("Australia/Sydney", SUMMER).label == "Sydney (UTC+10:00)"
    assert zones.choice("Asia/Kolkata", SUMMER).label == "Kolkata (UTC+05:30)"
    assert zones.choice("America/Argentina/Buenos_Aires", WINTER).label == "Buenos Aires (UTC\u221203:00)"
    assert zones.choice("UTC", WINTER).label == "UTC (UTC+00:00)"
    assert zones.choice("Europe/Berlin", WINTER).country == "Germany"


def test_search_by_city_country_region_abbreviation_or_offset() -> None:
    assert names(zones.choices(query="new york", now=WINTER)) == ["America/New_York"]
    assert names(zones.choices(query="  São Paulo ", now=WINTER)) == ["America/Sao_Paulo"]
    assert "Europe/Berlin" in names(zones.choices(query="germany", now=WINTER))
    assert "America/New_York" in names(zones.choices(query="florida", now=WINTER))
    assert set(names(zones.choices(query="+5:30", now=WINTER))) == {"Asia/Kolkata", "Asia/Colombo"}
    minus_five = names(zones.choices(query="UTC-5", now=WINTER))
    assert "America/New_York" in minus_five and "America/Chicago" not in minus_five
    assert "America/New_York" not in names(zones.choices(query="utc-05:00", now=SUMMER))  # EDT is -4 then
    assert "America/New_York" in names(zones.choices(query="\u22124", now=SUMMER))
    central = names(zones.choices(query="cet", now=WINTER))
    assert "Europe/Paris" in central and "Europe/London" not in central
    assert "Europe/Paris" in names(zones.choices(query="europe paris", now=WINTER))
    assert zones.choices(query="nowhere at all", now=WINTER) == []
