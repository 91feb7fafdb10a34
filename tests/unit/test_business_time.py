"""Staff times in the business time zone (app/ui/admin/business_time.py, issue 26), around a clock change."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from app.core.errors import Invalid
from app.ui.admin.business_time import day_text, form_moment, local, timestamp_text, when_text, zone_label

FLORIDA = ZoneInfo("America/New_York")  # the clocks go back on 2026-11-01 at 2:00 EDT and forward on 2026-03-08


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("2026-11-01T05:30:00+00:00", "November 1, 2026 at 1:30 AM EDT"),  # the first 1:30
        ("2026-11-01T06:30:00+00:00", "November 1, 2026 at 1:30 AM EST"),  # the second, an hour later
        ("2026-11-01T19:07:00", "November 1, 2026 at 2:07 PM EST"),  # naive text is UTC, as stored
        (datetime(2026, 7, 4, 16, 0, tzinfo=UTC), "July 4, 2026 at 12:00 PM EDT"),
    ],
)
def test_a_stored_moment_reads_in_the_business_zone_with_its_abbreviation(stored: object, shown: str) -> None:
    assert timestamp_text(stored, FLORIDA) == shown


def test_a_moments_day_is_the_business_zones_and_a_date_stays_as_it_is() -> None:
    late_evening = "2026-11-02T03:00:00+00:00"  # 10 PM on November 1 in Florida
    assert day_text(late_evening, FLORIDA) == "November 1, 2026"
    assert day_text("2026-11-02", FLORIDA) == "November 2, 2026"  # a calendar date has no zone
    assert day_text(date(2026, 11, 2), FLORIDA) == "November 2, 2026"
    assert day_text(None, FLORIDA) == "" and day_text("", FLORIDA) == ""
    assert timestamp_text("yesterday", FLORIDA) == "yesterday" and local("yesterday", FLORIDA) is None


def test_typed_times_are_read_in_the_business_zone_across_the_clock_change() -> None:
    assert form_moment("2026-10-30", "14:00", FLORIDA) == "2026-10-30T14:00:00-04:00"
    assert form_moment("2026-11-02", "14:00", FLORIDA) == "2026-11-02T14:00:00-05:00"
    # The hour that happens twice: the first (daylight) one is meant.
    assert datetime.fromisoformat(form_moment("2026-11-01", "01:30", FLORIDA)) == datetime(
        2026, 11, 1, 5, 30, tzinfo=UTC
    )
    with pytest.raises(Invalid) as skipped:
        form_moment("2026-03-08", "02:30", FLORIDA)
    message = "02:30 does not exist on March 8, 2026 in America/New_York: the clocks skip that hour"
    assert skipped.value.errors == {"start_time": message}
    assert form_moment("", "14:00", FLORIDA) == "" and form_moment("2026-11-02", "", FLORIDA) == ""
    assert form_moment("2026-13-40", "14:00", FLORIDA) == "2026-13-40T14:00"  # left for the service to refuse


def test_meeting_starts_and_the_zone_label() -> None:
    assert when_text("2026-11-02T19:00:00+00:00", FLORIDA) == "Mon Nov 2, 2026 · 2:00 PM EST"
    assert zone_label(FLORIDA, datetime(2026, 7, 1, tzinfo=UTC)) == "New York (EDT)"
    assert zone_label(FLORIDA, datetime(2026, 12, 1, tzinfo=UTC)) == "New York (EST)"
