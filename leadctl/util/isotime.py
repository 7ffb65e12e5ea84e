"""ISO 8601 timestamps as services write them, read into aware datetimes.

Two grammars over the same pieces: :func:`parse_timestamp` reads leniently what a service
sends (seconds, fraction and offset optional, no offset meaning UTC) for showing it to
people; :func:`parse_rfc3339` accepts only the RFC 3339 ``date-time`` a schema asks for
(the sandbox validates with it). The offset and fraction rules are shared with the command
line's own grammar in :mod:`leadctl.inputs.datetimes` through :func:`offset_zone` and
:func:`fraction_microseconds`.

Parsed by regular expression rather than ``datetime.fromisoformat``: on Python 3.10 that
takes neither ``Z`` nor more than six fraction digits (.NET services send seven).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

# Microseconds are all a datetime holds; further digits are cut, not rounded, so a value
# never moves into the next second.
MAX_FRACTION_DIGITS = 6

_DATE = r"(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})"
# Patterns, not compiled objects: re compiles each on first use and keeps it, so a command
# that never reads a time (an -o json read) does not pay for compiling them at import.
_LENIENT = (
    _DATE + r"(?:[T ](?P<hour>\d{2}):(?P<minute>\d{2})"
    r"(?::(?P<second>\d{2})(?:[.,](?P<fraction>\d+))?)?)?"
    r"\s*(?P<offset>[Zz]|[+-]\d{2}(?::?\d{2})?)?"
)
_RFC3339 = (
    _DATE + r"[Tt ](?P<hour>\d{2}):(?P<minute>\d{2}):(?P<second>\d{2})(?:\.(?P<fraction>\d+))?"
    r"(?P<offset>[Zz]|[+-]\d{2}:\d{2})"
)


def offset_zone(offset: str | None) -> timezone:
    """The zone of an offset ``Z``, ``±HH``, ``±HHMM`` or ``±HH:MM``; none at all is UTC.

    ValueError when the hours pass 23 or the minutes 59.
    """
    if offset is None or offset in ("Z", "z"):
        return timezone.utc
    sign = -1 if offset[0] == "-" else 1
    digits = offset[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 23 or minutes > 59:
        raise ValueError(f"offset {offset} is out of range")
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def fraction_microseconds(digits: str | None) -> int:
    """The microseconds of a fraction's digits (``"5"`` is 500000), cut after six."""
    return int((digits or "")[:MAX_FRACTION_DIGITS].ljust(MAX_FRACTION_DIGITS, "0"))


def parse_timestamp(text: str, *, time_required: bool = False) -> datetime | None:
    """An aware datetime from a service's timestamp, or None when ``text`` is not one.

    Accepted: ``YYYY-MM-DD``, then optionally ``T`` or a space and ``HH:MM[:SS[.fraction]]``
    (a date alone is midnight unless ``time_required``), then optionally an offset (none:
    UTC), with white space around tolerated.
    """
    match = re.fullmatch(_LENIENT, text.strip())
    if match is None or (time_required and match["hour"] is None):
        return None
    return _moment(match)


def parse_rfc3339(text: str) -> datetime | None:
    """An aware datetime from an RFC 3339 ``date-time`` (seconds and offset required, the
    offset with a colon), or None; it may be one UTC cannot represent (year 1, +01:00)."""
    match = re.fullmatch(_RFC3339, text)
    return None if match is None else _moment(match)


def _moment(match: re.Match[str]) -> datetime | None:
    try:
        return datetime(
            int(match["year"]),
            int(match["month"]),
            int(match["day"]),
            int(match["hour"] or 0),
            int(match["minute"] or 0),
            int(match["second"] or 0),
            fraction_microseconds(match["fraction"]),
            tzinfo=offset_zone(match["offset"]),
        )
    except ValueError:
        return None
