"""The one ISO 8601 reader of service timestamps (views, table cells, the sandbox)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from leadctl.util.isotime import (
    fraction_microseconds,
    offset_zone,
    parse_rfc3339,
    parse_timestamp,
)

UTC = timezone.utc


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-21T14:03:09Z", datetime(2026, 11, 21, 14, 3, 9, tzinfo=UTC)),
        ("2026-11-21t14:03:09z", None),  # a lower-case T is RFC 3339's, not the service's
        ("2026-11-21 14:03", datetime(2026, 11, 21, 14, 3, tzinfo=UTC)),  # no offset: UTC
        ("  2026-11-21T14:03:09 +0530 ", datetime(2026, 11, 21, 8, 33, 9, tzinfo=UTC)),
        ("2026-11-21T14:03:09-05", datetime(2026, 11, 21, 19, 3, 9, tzinfo=UTC)),
        # .NET sends seven digits: cut to microseconds, never rounded into the next second.
        ("2026-11-21T14:03:09.9999999Z", datetime(2026, 11, 21, 14, 3, 9, 999999, tzinfo=UTC)),
        ("2026-11-21T14:03:09,5Z", datetime(2026, 11, 21, 14, 3, 9, 500000, tzinfo=UTC)),
        ("2026-11-21", datetime(2026, 11, 21, tzinfo=UTC)),
        ("2026-02-30T10:00Z", None),
        ("2026-11-21T24:00Z", None),
        ("2026-11-21T10:00+24:00", None),
        ("2026-11-21T10:00+05:60", None),
        ("20261121T1000Z", None),
        ("yesterday", None),
    ],
)
def test_parse_timestamp_reads_what_services_send(text: str, expected: datetime | None) -> None:
    assert parse_timestamp(text) == expected


def test_parse_timestamp_keeps_the_offset_it_was_given() -> None:
    moment = parse_timestamp("2026-11-21T09:00:00-05:00")
    assert moment is not None
    assert moment.utcoffset() == timedelta(hours=-5)


def test_a_date_alone_is_not_a_timestamp_where_a_time_is_required() -> None:
    assert parse_timestamp("2026-11-21", time_required=True) is None
    assert parse_timestamp("2026-11-21T00:00", time_required=True) == datetime(
        2026, 11, 21, tzinfo=UTC
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-21T14:03:09.123Z", datetime(2026, 11, 21, 14, 3, 9, 123000, tzinfo=UTC)),
        ("2026-11-21t14:03:09z", datetime(2026, 11, 21, 14, 3, 9, tzinfo=UTC)),
        ("2026-11-21 14:03:09+01:00", datetime(2026, 11, 21, 13, 3, 9, tzinfo=UTC)),
        ("2026-11-21T14:03Z", None),  # seconds are required
        ("2026-11-21T14:03:09", None),  # so is the offset
        ("2026-11-21T14:03:09+0100", None),  # with its colon
        ("2026-11-21T14:03:09,5Z", None),
        ("2026-11-21T14:03:09Z\n", None),
        ("2026-11-21T14:03:09+23:60", None),
        ("2026-13-01T00:00:00Z", None),
    ],
)
def test_parse_rfc3339_accepts_only_the_schema_form(text: str, expected: datetime | None) -> None:
    assert parse_rfc3339(text) == expected


def test_parse_rfc3339_accepts_a_moment_utc_cannot_hold() -> None:
    moment = parse_rfc3339("0001-01-01T00:00:00+01:00")
    assert moment is not None
    with pytest.raises(OverflowError):
        moment.astimezone(UTC)


def test_offset_zone_and_fraction_rules() -> None:
    assert offset_zone(None) is UTC
    assert offset_zone("z") is UTC
    assert offset_zone("-0930").utcoffset(None) == -timedelta(hours=9, minutes=30)
    with pytest.raises(ValueError, match=r"offset \+24 is out of range"):
        offset_zone("+24")
    assert fraction_microseconds(None) == 0
    assert fraction_microseconds("5") == 500000
    assert fraction_microseconds("1234567") == 123456
