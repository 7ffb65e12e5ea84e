"""ISO 8601 date-times given on the command line, sent to the service as UTC with a ``Z``.

Accepted: calendar dates in extended (``2026-11-21``) or basic (``20261121``) form, alone
(midnight local time) or with a time ``HH[:MM[:SS[.fraction]]]`` (basic ``HH[MM[SS]]``)
after ``T``, ``t`` or a space, and an optional offset ``Z``, ``±HH:MM``, ``±HHMM`` or ``±HH``.
A value without an offset is local time: the profile's ``timezone`` (an IANA name) when set,
else the system's zone.

The grammar is parsed here rather than by ``datetime.fromisoformat`` because that function
accepts different forms on Python 3.10 and 3.11 (no ``Z`` and no basic form on 3.10), and
the same command line must mean the same instant on every supported Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo

from leadctl.errors import UsageError

_DATE = r"(?P<year>\d{4})(?:-(?P<month>\d{2})-(?P<day>\d{2})|(?P<bmonth>\d{2})(?P<bday>\d{2}))"
_TIME = (
    r"(?P<hour>\d{2})"
    r"(?::(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,](?P<fraction>\d+))?)?"
    r"|(?P<bminute>\d{2})(?:(?P<bsecond>\d{2})(?:[.,](?P<bfraction>\d+))?)?)?"
)
_OFFSET = r"(?P<offset>[Zz]|[+-]\d{2}(?::?\d{2})?)"
_PATTERN = re.compile(rf"{_DATE}(?:[Tt ]{_TIME}{_OFFSET}?)?")

# Microseconds are all a datetime holds; further digits are cut, not rounded, so a value
# never moves into the next second.
MAX_FRACTION_DIGITS = 6

EXAMPLES = "2026-11-21T14:00:00Z, 2026-11-21T09:00-05:00, 2026-11-21T14:00 (local) or 2026-11-21"


class InvalidDateTime(ValueError):
    """The text is not an accepted ISO 8601 date-time; the message says why."""


@dataclass(frozen=True)
class Instant:
    """A moment in UTC and how many fraction-of-second digits the user wrote."""

    utc: datetime
    fraction_digits: int = 0

    def isoformat(self) -> str:
        """``2026-11-21T14:00:00Z``: seconds always, the fraction only when one was given."""
        m = self.utc
        text = f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}"
        if self.fraction_digits:
            text += "." + f"{m.microsecond:06d}"[: self.fraction_digits]
        return text + "Z"


def resolve_zone(name: str | None) -> tzinfo | None:
    """The zone for values without an offset: ``name`` (IANA), or None for the system's."""
    if not name:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(
            f"the profile's timezone {name!r} is not a known IANA time zone",
            hint="fix it with `leadctl profile set timezone Europe/Berlin` (any IANA name), "
            "or give date-times with an offset such as Z or -05:00",
        ) from None


def _offset(text: str) -> timezone:
    if text in ("Z", "z"):
        return timezone.utc
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 23 or minutes > 59:
        raise InvalidDateTime(f"offset {text} is out of range")
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _local(naive: datetime, zone: tzinfo | None) -> datetime:
    """``naive`` as wall-clock time in ``zone`` (None: the system's), refusing times that
    the clock skips; a repeated time (clocks going back) is its first occurrence."""
    try:
        aware = naive.astimezone() if zone is None else naive.replace(tzinfo=zone)
        utc = aware.astimezone(timezone.utc)
        back = utc.astimezone(zone) if zone is not None else utc.astimezone()
    except (OverflowError, OSError, ValueError):
        raise InvalidDateTime("it is out of the supported range") from None
    if back.replace(tzinfo=None) != naive:
        where = getattr(zone, "key", None) or "the local time zone"
        raise InvalidDateTime(f"that local time does not exist in {where} (the clocks skip it)")
    return utc


def parse_instant(text: str, *, zone: tzinfo | None) -> Instant:
    """The UTC instant ``text`` names; ``zone`` applies when it has no offset."""
    match = _PATTERN.fullmatch(text.strip())
    if match is None:
        raise InvalidDateTime("expected an ISO 8601 date-time")
    g = match.groupdict()
    fraction = g["fraction"] or g["bfraction"] or ""
    digits = min(len(fraction), MAX_FRACTION_DIGITS)
    try:
        naive = datetime(
            int(g["year"]),
            int(g["month"] or g["bmonth"]),
            int(g["day"] or g["bday"]),
            int(g["hour"] or 0),
            int(g["minute"] or g["bminute"] or 0),
            int(g["second"] or g["bsecond"] or 0),
            int(fraction[:MAX_FRACTION_DIGITS].ljust(MAX_FRACTION_DIGITS, "0")),
        )
    except ValueError as error:
        raise InvalidDateTime(str(error)) from None
    if g["offset"] is None:
        return Instant(_local(naive, zone), digits)
    try:
        utc = naive.replace(tzinfo=_offset(g["offset"])).astimezone(timezone.utc)
    except OverflowError:
        raise InvalidDateTime("it is out of the supported range") from None
    return Instant(utc, digits)


def datetime_option(flag: str, value: str, *, zone: tzinfo | None) -> Instant:
    """``parse_instant`` for a command-line flag: a usage error names the flag and value."""
    try:
        return parse_instant(value, zone=zone)
    except InvalidDateTime as error:
        raise UsageError(
            f"{flag} {value!r}: {error}",
            hint=f"use ISO 8601, e.g. {EXAMPLES}",
        ) from None
