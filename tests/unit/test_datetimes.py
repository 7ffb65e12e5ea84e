"""ISO 8601 date-times from the command line, sent as UTC with a Z."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from leadctl.errors import UsageError
from leadctl.inputs.datetimes import InvalidDateTime, datetime_option, parse_instant, resolve_zone

NEW_YORK = ZoneInfo("America/New_York")
BERLIN = ZoneInfo("Europe/Berlin")


def utc_text(value: str, zone: ZoneInfo | None = NEW_YORK) -> str:
    return parse_instant(value, zone=zone).isoformat()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-11-21T14:00:00Z", "2026-11-21T14:00:00Z"),
        ("2026-11-21t14:00:00z", "2026-11-21T14:00:00Z"),
        ("2026-11-21 14:00:00Z", "2026-11-21T14:00:00Z"),
        ("2026-11-21T09:00:00-05:00", "2026-11-21T14:00:00Z"),
        ("2026-11-21T15:30+0130", "2026-11-21T14:00:00Z"),
        ("2026-11-21T16+02", "2026-11-21T14:00:00Z"),
        ("2026-11-21T14:00:00-00:00", "2026-11-21T14:00:00Z"),
        # Offsets that cross midnight move the date.
        ("2026-11-21T23:30:00-05:00", "2026-11-22T04:30:00Z"),
        # Basic form, which datetime.fromisoformat does not read on Python 3.10.
        ("20261121T140000Z", "2026-11-21T14:00:00Z"),
        ("20261121T0900-0500", "2026-11-21T14:00:00Z"),
        # Seconds are always sent; a fraction only when one was given, at its precision.
        ("2026-11-21T14:00Z", "2026-11-21T14:00:00Z"),
        ("2026-11-21T14Z", "2026-11-21T14:00:00Z"),
        ("2026-11-21T14:00:00.5Z", "2026-11-21T14:00:00.5Z"),
        ("2026-11-21T14:00:00.250Z", "2026-11-21T14:00:00.250Z"),
        ("2026-11-21T14:00:00,123456Z", "2026-11-21T14:00:00.123456Z"),
        # More than microseconds: cut, never rounded into the next second.
        ("2026-11-21T14:00:00.9999999Z", "2026-11-21T14:00:00.999999Z"),
        ("  2026-11-21T14:00:00Z  ", "2026-11-21T14:00:00Z"),
    ],
)
def test_values_with_an_offset_become_utc(value: str, expected: str) -> None:
    assert utc_text(value) == expected
    # The zone only matters without an offset.
    assert utc_text(value, BERLIN) == expected


@pytest.mark.parametrize(
    ("value", "zone", "expected"),
    [
        ("2026-11-21T09:00", NEW_YORK, "2026-11-21T14:00:00Z"),
        ("2026-11-21T09:00", BERLIN, "2026-11-21T08:00:00Z"),
        # Summer time in the zone's rules for that date, not today's offset.
        ("2026-07-01T09:00:00", NEW_YORK, "2026-07-01T13:00:00Z"),
        ("2026-07-01T09:00:00", BERLIN, "2026-07-01T07:00:00Z"),
        # A date alone is midnight local time.
        ("2026-11-21", NEW_YORK, "2026-11-21T05:00:00Z"),
        ("20261121", BERLIN, "2026-11-20T23:00:00Z"),
        # Clocks going back: the first of the two 01:30s (still daylight time).
        ("2026-11-01T01:30", NEW_YORK, "2026-11-01T05:30:00Z"),
    ],
)
def test_values_without_an_offset_are_local_time(value: str, zone: ZoneInfo, expected: str) -> None:
    assert utc_text(value, zone) == expected


def test_a_local_time_the_clocks_skip_is_refused() -> None:
    with pytest.raises(InvalidDateTime, match="does not exist in America/New_York"):
        parse_instant("2026-03-08T02:30", zone=NEW_YORK)


@pytest.fixture
def system_zone_new_york(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if not hasattr(time, "tzset"):
        pytest.skip("the system zone can only be switched where time.tzset exists")
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("system_zone_new_york")
def test_without_a_profile_zone_the_system_zone_applies() -> None:
    assert resolve_zone(None) is None
    assert utc_text("2026-11-21T09:00", None) == "2026-11-21T14:00:00Z"
    assert utc_text("2026-07-01T09:00", None) == "2026-07-01T13:00:00Z"
    assert utc_text("2026-11-21", None) == "2026-11-21T05:00:00Z"
    with pytest.raises(InvalidDateTime, match="does not exist in the local time zone"):
        parse_instant("2026-03-08T02:30", zone=None)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("next week", "expected an ISO 8601 date-time"),
        ("", "expected an ISO 8601 date-time"),
        ("2026-11-21T", "expected an ISO 8601 date-time"),
        ("2026-11-21T14:00:00+25:00", "offset +25:00 is out of range"),
        ("2026-11-21T14:00:00+05:75", "offset +05:75 is out of range"),
        ("2026-13-01T00:00Z", "month must be in 1..12"),
        ("2026-02-30", "day is out of range for month"),
        ("2026-11-21T25:00Z", "hour must be in 0..23"),
        ("2026-11-21T14:60Z", "minute must be in 0..59"),
        ("0000-01-01", "year 0 is out of range"),
        ("0001-01-01T00:00+01:00", "out of the supported range"),
        ("11/21/2026", "expected an ISO 8601 date-time"),
        ("2026-11-21T14:00:00.Z", "expected an ISO 8601 date-time"),
        ("2026-1121", "expected an ISO 8601 date-time"),
    ],
)
def test_bad_values_say_why(value: str, reason: str) -> None:
    with pytest.raises(InvalidDateTime) as caught:
        parse_instant(value, zone=NEW_YORK)
    assert reason in str(caught.value)


def test_a_flag_error_names_the_flag_and_the_value() -> None:
    with pytest.raises(UsageError) as caught:
        datetime_option("--callback-at", "2026-13-01", zone=NEW_YORK)
    assert caught.value.message == "--callback-at '2026-13-01': month must be in 1..12"
    assert caught.value.hint is not None
    assert "2026-11-21T14:00:00Z" in caught.value.hint


def test_resolve_zone_reads_iana_names_and_refuses_unknown_ones() -> None:
    assert resolve_zone("Europe/Berlin") == BERLIN
    with pytest.raises(UsageError, match="'Mars/Olympus' is not a known IANA time zone"):
        resolve_zone("Mars/Olympus")


# -- relative forms and the display zone ----------------------------------------------

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("text", "zone", "utc"),
    [
        ("now", "UTC", "2026-11-21T12:00:00Z"),
        ("-7d", "UTC", "2026-11-14T12:00:00Z"),
        ("-2h", "America/Chicago", "2026-11-21T10:00:00Z"),
        ("+30m", "UTC", "2026-11-21T12:30:00Z"),
        ("-1w", "UTC", "2026-11-14T12:00:00Z"),
        ("today", "America/Chicago", "2026-11-21T06:00:00Z"),
        ("Yesterday", "Asia/Tokyo", "2026-11-19T15:00:00Z"),
        ("tomorrow", "UTC", "2026-11-22T00:00:00Z"),
        # A day and a time of day, as people type them (issue 21.10).
        ("yesterday 09:00", "America/Chicago", "2026-11-20T15:00:00Z"),
        ("tomorrow 9am", "America/Chicago", "2026-11-22T15:00:00Z"),
        ("today 17:00", "Europe/Berlin", "2026-11-21T16:00:00Z"),
        ("today 5:30 pm", "UTC", "2026-11-21T17:30:00Z"),
        ("Today at 12am", "UTC", "2026-11-21T00:00:00Z"),
        ("today 12pm", "UTC", "2026-11-21T12:00:00Z"),
        ("yesterday 23:59:30", "UTC", "2026-11-20T23:59:30Z"),
    ],
)
def test_relative_forms_count_from_now_in_the_zone(text: str, zone: str, utc: str) -> None:

    assert parse_instant(text, zone=ZoneInfo(zone), now=NOW).isoformat() == utc


def test_a_day_whose_midnight_is_skipped_starts_at_the_first_hour() -> None:

    # Chile moved its clocks from 00:00 to 01:00 on 2026-09-06.
    now = datetime(2026, 9, 6, 15, 0, tzinfo=timezone.utc)
    start = parse_instant("today", zone=ZoneInfo("America/Santiago"), now=now)
    assert start.isoformat() == "2026-09-06T04:00:00Z"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-21", True),
        ("2026-02-30", True),  # date-shaped: refused later, never sent as text
        ("2026-11-21T09:30", True),
        ("-7d", True),
        ("today", True),
        ("yesterday 09:00", True),
        ("tomorrow 9am", True),
        ("today 25:00", True),  # time-shaped: refused later, never sent as text
        ("today's news", False),
        ("20261121", False),
        ("42", False),
        ("smith", False),
    ],
)
def test_which_query_values_are_times(text: str, expected: bool) -> None:
    from leadctl.inputs.datetimes import looks_like_datetime

    assert looks_like_datetime(text) is expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [("today 25:00", "has no such time of day"), ("tomorrow 13pm", "1-12 before am/pm")],
)
def test_a_time_of_day_the_clock_has_not_is_refused(text: str, reason: str) -> None:
    with pytest.raises(InvalidDateTime, match=reason):
        parse_instant(text, zone=ZoneInfo("UTC"), now=NOW)


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("today", "2026-11-21"),
        ("yesterday", "2026-11-20"),
        ("-7d", "2026-11-14"),
        ("2026-01-02", "2026-01-02"),
        ("next week", "next week"),  # not a form leadctl reads: the schema judges it
    ],
)
def test_a_date_fields_relative_forms(text: str, date: str) -> None:
    from leadctl.inputs.datetimes import local_date

    # 12:00 UTC is 21:00 in Tokyo: still the 21st there.
    assert local_date(text, zone=ZoneInfo("Asia/Tokyo"), now=NOW) == date


def test_the_display_zone() -> None:
    from leadctl.inputs.datetimes import display_zone

    assert display_zone(utc=True, profile_zone="Asia/Tokyo", env={"TZ": "Europe/Paris"}) == (
        timezone.utc
    )
    assert str(display_zone(utc=False, profile_zone="Asia/Tokyo", env={"TZ": "UTC"})) == (
        "Asia/Tokyo"
    )
    assert str(display_zone(utc=False, profile_zone=None, env={"TZ": ":Europe/Paris"})) == (
        "Europe/Paris"
    )
    assert display_zone(utc=False, profile_zone=None, env={}) is None  # the C library's
