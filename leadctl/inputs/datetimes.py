"""ISO 8601 date-times given on the command line, sent to the service as UTC with a ``Z``.

Accepted: calendar dates in extended (``2026-11-21``) or basic (``20261121``) form, alone
(midnight local time) or with a time ``HH[:MM[:SS[.fraction]]]`` (basic ``HH[MM[SS]]``)
after ``T``, ``t`` or a space, and an optional offset ``Z``, ``±HH:MM``, ``±HHMM`` or ``±HH``.
A value without an offset is local time: the profile's ``timezone`` (an IANA name) when set,
else the system's zone (``TZ`` honoured). Relative forms count from now: ``now``,
``today``, ``yesterday`` and ``tomorrow`` (midnight in that zone, or at a time of day:
``yesterday 09:00``, ``tomorrow 9am``, ``today 5:30pm``), a day of the week (``monday``: the
latest Monday, today on a Monday; ``last monday``: the Monday before today), at midnight,
and ``-7d``, ``-2h``, ``+30m`` (units s, m, h, d, w).

Times are shown in the same zone, or in UTC with ``--utc``: :func:`display_zone`.

The grammar is parsed here rather than by ``datetime.fromisoformat`` because that function
accepts different forms on Python 3.10 and 3.11 (no ``Z`` and no basic form on 3.10), and
the same command line must mean the same instant on every supported Python.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import NamedTuple

from leadctl.errors import UsageError
from leadctl.util.isotime import MAX_FRACTION_DIGITS, fraction_microseconds, offset_zone
from leadctl.util.zones import iana_zone

_DATE = r"(?P<year>\d{4})(?:-(?P<month>\d{2})-(?P<day>\d{2})|(?P<bmonth>\d{2})(?P<bday>\d{2}))"
_TIME = (
    r"(?P<hour>\d{2})"
    r"(?::(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,](?P<fraction>\d+))?)?"
    r"|(?P<bminute>\d{2})(?:(?P<bsecond>\d{2})(?:[.,](?P<bfraction>\d+))?)?)?"
)
_OFFSET = r"(?P<offset>[Zz]|[+-]\d{2}(?::?\d{2})?)"
# Patterns as text, compiled (and cached by re) on first use: importing this module is on
# the path of every generated verb, most of which never parse a date.
_PATTERN = rf"{_DATE}(?:[Tt ]{_TIME}{_OFFSET}?)?"

EXAMPLES = (
    "2026-11-21T14:00:00Z, 2026-11-21T09:00-05:00, 2026-11-21T14:00 (local), 2026-11-21, "
    "today, yesterday 09:00, tomorrow 9am, last monday, -7d or -2h"
)
_RELATIVE = r"(?P<sign>[+-])(?P<amount>\d{1,6})(?P<unit>[smhdw])"
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DAY_WORDS = {"today": 0, "yesterday": -1, "tomorrow": 1}
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = rf"(?P<last>last\s+)?(?P<weekday>{'|'.join(_WEEKDAYS)})"
# A day word and a time of day as people type it: "yesterday 09:00", "tomorrow 9am",
# "today 5:30 pm", "today at 17:00".
_DAY_AT = (
    r"(?P<day>today|yesterday|tomorrow)(?:\s+at\s+|\s+)"
    r"(?P<hour>\d{1,2})(?::(?P<minute>\d{2})(?::(?P<second>\d{2}))?)?\s*(?P<half>am|pm)?"
)
HOURS_PER_HALF_DAY = 12
# Looks like a calendar date: worth refusing when it is not a real one (2026-02-30). Only
# the extended form: an 8-digit number in a range is more likely a number than 20261121.
_DATE_SHAPED = r"\d{4}-\d{2}-\d{2}([Tt ].*)?"


class InvalidDateTime(ValueError):
    """The text is not an accepted ISO 8601 date-time; the message says why."""


class Instant(NamedTuple):
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
    zone = iana_zone(name)
    if zone is None:
        raise UsageError(
            f"the profile's timezone {name!r} is not a known IANA time zone",
            hint="fix it with `leadctl profile set timezone Europe/Berlin` (any IANA name), "
            "or give date-times with an offset such as Z or -05:00",
        )
    return zone


def _offset(text: str) -> timezone:
    try:
        return offset_zone(text)
    except ValueError as error:
        raise InvalidDateTime(str(error)) from None


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


def system_zone(env: Mapping[str, str]) -> tzinfo | None:
    """The system's zone: ``TZ`` when it names an IANA zone, else None (the C library's
    local time, which reads ``TZ`` and /etc/localtime itself)."""
    name = env.get("TZ", "").lstrip(":")
    return iana_zone(name) if name else None


def input_zone(profile_zone: str | None, env: Mapping[str, str]) -> tzinfo | None:
    """The zone of a time typed without an offset: the profile's, else the system's."""
    return resolve_zone(profile_zone) if profile_zone else system_zone(env)


def display_zone(*, utc: bool, profile_zone: str | None, env: Mapping[str, str]) -> tzinfo | None:
    """The zone times are shown in: UTC under ``--utc``, else the profile's ``timezone``,
    else the system's (None: the C library's local time)."""
    if utc:
        return timezone.utc
    return input_zone(profile_zone, env)


def _relative(text: str, zone: tzinfo | None, now: datetime | None) -> Instant | None:
    word = text.strip().lower()
    current = now or datetime.now(timezone.utc)
    if word == "now":
        return Instant(current.astimezone(timezone.utc))
    if word in _DAY_WORDS:
        local = current.astimezone(zone) if zone is not None else current.astimezone()
        midnight = local.replace(tzinfo=None, hour=0, minute=0, second=0, microsecond=0)
        day = midnight + timedelta(days=_DAY_WORDS[word])
        return Instant(_local_or_later(day, zone))
    at = re.fullmatch(_DAY_AT, word)
    if at is not None:
        local = current.astimezone(zone) if zone is not None else current.astimezone()
        day = local.replace(tzinfo=None) + timedelta(days=_DAY_WORDS[at["day"]])
        return Instant(_local(_at_time_of_day(day, at), zone))
    weekday = re.fullmatch(_WEEKDAY, word)
    if weekday is not None:
        local = current.astimezone(zone) if zone is not None else current.astimezone()
        midnight = local.replace(tzinfo=None, hour=0, minute=0, second=0, microsecond=0)
        back = (local.weekday() - _WEEKDAYS.index(weekday["weekday"])) % 7
        if weekday["last"] and back == 0:
            back = 7  # "last monday", said on a Monday, is a week ago
        return Instant(_local_or_later(midnight - timedelta(days=back), zone))
    match = re.fullmatch(_RELATIVE, word)
    if match is None:
        return None
    seconds = int(match["amount"]) * _UNIT_SECONDS[match["unit"]]
    moment = current + timedelta(seconds=seconds if match["sign"] == "+" else -seconds)
    return Instant(moment.astimezone(timezone.utc))


def _at_time_of_day(day: datetime, at: re.Match[str]) -> datetime:
    """``day`` at the time ``at`` names (9am, 09:00, 5:30pm); an hour the clock has not
    (25:00, 13pm) is refused."""
    hour, minute, second = int(at["hour"]), int(at["minute"] or 0), int(at["second"] or 0)
    half = at["half"]
    if half is not None:
        if not 1 <= hour <= HOURS_PER_HALF_DAY:
            raise InvalidDateTime(f"{hour}{half} is not a time of day (1-12 before am/pm)")
        hour = hour % HOURS_PER_HALF_DAY + (HOURS_PER_HALF_DAY if half == "pm" else 0)
    try:
        return day.replace(hour=hour, minute=minute, second=second, microsecond=0)
    except ValueError:
        raise InvalidDateTime(f"{at.group(0)!r} has no such time of day") from None


def _local_or_later(naive: datetime, zone: tzinfo | None) -> datetime:
    """Midnight in ``zone``; where a clock change skips midnight, the first hour after."""
    try:
        return _local(naive, zone)
    except InvalidDateTime:
        return _local(naive + timedelta(hours=1), zone)


def looks_like_datetime(text: str) -> bool:
    """Whether a query value is meant as a time: a date shape or a relative form."""
    word = text.strip().lower()
    return bool(
        re.fullmatch(_DATE_SHAPED, word)
        or word == "now"
        or word in _DAY_WORDS
        or re.fullmatch(_DAY_AT, word)
        or re.fullmatch(_RELATIVE, word)
    )


def local_date(text: str, *, zone: tzinfo | None, now: datetime | None = None) -> str:
    """A date field's relative form (``today``, ``yesterday``, ``-7d``) as the date
    (``2026-11-20``) in ``zone`` (None: the system's); any other text as it is."""
    word = text.strip().lower()
    instant = None if re.fullmatch(_DAY_AT, word) else _relative(word, zone, now)
    if instant is None:
        return text
    local = instant.utc.astimezone(zone) if zone is not None else instant.utc.astimezone()
    return local.date().isoformat()


def relative_day(text: str, *, zone: tzinfo | None, now: datetime) -> date | None:
    """The day in ``zone`` (None: the system's) of a relative form (``today``, ``-7d``,
    ``last monday``, ``yesterday 09:00``); None for any other text."""
    instant = _relative(text, zone, now)
    if instant is None:
        return None
    local = instant.utc.astimezone(zone) if zone is not None else instant.utc.astimezone()
    return local.date()


def parse_instant(text: str, *, zone: tzinfo | None, now: datetime | None = None) -> Instant:
    """The UTC instant ``text`` names; ``zone`` applies when it has no offset, ``now``
    (default: the clock) to relative forms."""
    relative = _relative(text, zone, now)
    if relative is not None:
        return relative
    match = re.fullmatch(_PATTERN, text.strip())
    if match is None:
        raise InvalidDateTime("expected an ISO 8601 date-time or a relative form")
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
            fraction_microseconds(fraction),
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


def datetime_option(
    flag: str,
    given: str,
    *,
    zone: tzinfo | None,
    now: datetime | None = None,
    value: str | None = None,
) -> Instant:
    """``parse_instant`` for a command-line flag: a usage error names the flag and what
    was given (``value``, when it is only part of ``given``, is what is parsed)."""
    try:
        return parse_instant(given if value is None else value, zone=zone, now=now)
    except InvalidDateTime as error:
        raise UsageError(
            f"{flag} {given!r}: {error}",
            hint=f"use ISO 8601, e.g. {EXAMPLES}",
        ) from None


def format_moment(moment: datetime, zone: tzinfo | None) -> str:
    """``2026-11-21 08:03 CST``: to the minute, in ``zone`` (None: the system's), with the
    zone's abbreviation so nobody has to guess."""
    local = moment.astimezone(zone) if zone is not None else moment.astimezone()
    name = local.strftime("%Z") or local.strftime("%z")
    return local.strftime("%Y-%m-%d %H:%M ") + name
