"""Times as people read them in a view: "resets in 14m", "3h ago", "2026-11-21 14:03 UTC"."""

from __future__ import annotations

from datetime import datetime, timezone, tzinfo
from typing import Any

from leadctl.output.cells import format_datetime
from leadctl.util.isotime import parse_timestamp


def parse_instant(value: Any) -> datetime | None:
    """An aware datetime from an ISO 8601 string, or None for anything else."""
    return parse_timestamp(value) if isinstance(value, str) else None


def span(seconds: float) -> str:
    """A duration in its two largest units: ``45s``, ``3m 5s``, ``14m``, ``3h 5m``, ``2d 4h``.

    Rounded to the smaller unit shown, so 1h 59m 58s reads ``2h``, not ``1h 59m``.
    """
    total = abs(seconds)
    if total < 60:
        return f"{int(total + 0.5)}s"
    if total < 300:
        minutes, secs = divmod(int(total + 0.5), 60)
        return f"{minutes}m {secs}s" if secs else f"{minutes}m"
    if total < 86400 - 30:
        hours, minutes = divmod(int(total / 60 + 0.5), 60)
        if not hours:
            return f"{minutes}m"
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    days, hours = divmod(int(total / 3600 + 0.5), 24)
    if days >= 7 or not hours:
        return f"{days}d"
    return f"{days}d {hours}h"


def relative(value: str | None, now: datetime) -> str | None:
    """``in 14m`` or ``3h ago`` for a timestamp, ``now`` within a second, None if unparsable."""
    moment = parse_instant(value)
    if moment is None:
        return None
    seconds = (moment - now).total_seconds()
    if abs(seconds) < 1:
        return "now"
    return f"in {span(seconds)}" if seconds > 0 else f"{span(seconds)} ago"


def readable(value: str | None, now: datetime, zone: tzinfo | None = timezone.utc) -> str:
    """``2026-11-21 14:03 UTC (3h ago)`` (in ``zone``); anything that is not a time as
    received."""
    if value is None:
        return ""
    when = relative(value, now)
    absolute = format_datetime(str(value), zone)
    return f"{absolute} ({when})" if when else absolute


def short(value: str | None, now: datetime) -> str:
    """Just the relative form, for narrow table cells; the raw text when unparsable."""
    if value is None:
        return ""
    return relative(value, now) or str(value)


def moment(value: str | None, zone: tzinfo | None = timezone.utc) -> str:
    """``Nov 21 14:03`` (in ``zone``, None: the system's): short enough for a tree line,
    with the day, since a run's steps can be days apart."""
    when = parse_instant(value)
    if when is None:
        return "" if value is None else str(value)
    local = when.astimezone(zone) if zone is not None else when.astimezone()
    return local.strftime("%b %d %H:%M")


def between(start: str | None, end: str | None) -> str | None:
    """The time from ``start`` to ``end`` as a span (``2s``, ``3h 5m``), if both parse."""
    first, last = parse_instant(start), parse_instant(end)
    if first is None or last is None:
        return None
    return span((last - first).total_seconds())
