"""Timestamps as the service writes them: ISO 8601 UTC with milliseconds and a Z."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone

from leadctl.util.isotime import parse_rfc3339

_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    """The canonical stored and emitted form; it sorts as text in time order."""
    utc = moment.astimezone(timezone.utc)
    # Not strftime: it drops the leading zeros of years before 1000 on some platforms.
    return (
        f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}T"
        f"{utc.hour:02d}:{utc.minute:02d}:{utc.second:02d}.{utc.microsecond // 1000:03d}Z"
    )


def is_datetime(text: str) -> bool:
    """Whether ``text`` is an RFC 3339 date-time (even one UTC cannot represent)."""
    return parse_rfc3339(text) is not None


def parse_datetime(text: str) -> datetime | None:
    """An RFC 3339 date-time in UTC, or None when ``text`` is not one or is out of range."""
    moment = parse_rfc3339(text)
    if moment is None:
        return None
    try:
        return moment.astimezone(timezone.utc)
    except OverflowError:
        return None


def parse_date(text: str) -> date | None:
    """A full-date (YYYY-MM-DD), or None."""
    if not _DATE.match(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def start_of_day(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def days(n: float) -> timedelta:
    return timedelta(days=n)
