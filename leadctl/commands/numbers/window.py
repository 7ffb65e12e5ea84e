"""The metrics window of ``numbers status``: dates as typed, then query parameters."""

from __future__ import annotations

import re
from datetime import date, datetime, tzinfo
from typing import TYPE_CHECKING, Any

from leadctl.errors import UsageError
from leadctl.inputs.datetimes import InvalidDateTime, relative_day

if TYPE_CHECKING:
    from leadctl.context import Context

# The reference says the three window parameters exist but not what they are called: these
# are the contract's assumed names (x-leadctl-assumed), each overridable per profile.
WINDOW_PARAMS = (
    ("window_days", "phone_status_window_days_param", "windowDays"),
    ("start", "phone_status_start_param", "startDate"),
    ("end", "phone_status_end_param", "endDate"),
)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
DATE_FORMS = (
    "YYYY-MM-DD (e.g. 2026-11-01), today, yesterday, -7d, monday or last monday (the day "
    "of a time such as 'yesterday 09:00' counts)"
)


def parse_date(raw: str, option: str, *, zone: tzinfo | None, now: datetime) -> date:
    """A calendar date from ``YYYY-MM-DD``, or the day of a relative form as other time
    flags take them (``today``, ``-7d``, ``last monday``) in ``zone``; anything else is a
    usage error naming the flag."""
    text = raw.strip().lower()
    if _ISO_DATE.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    else:
        try:
            found = relative_day(text, zone=zone, now=now)
        except InvalidDateTime:
            found = None  # "yesterday 25:00"
        if found is not None:
            return found
    raise UsageError(f"{option} {raw!r} is not a date", hint=f"use {DATE_FORMS}")


def window_query(
    ctx: Context, *, window_days: int | None, start: str | None, end: str | None
) -> dict[str, Any]:
    """The window's query parameters under the profile's (or the assumed) names."""
    zone, now = ctx.input_zone(), ctx.clock.now()
    start_day = parse_date(start, "--start", zone=zone, now=now) if start is not None else None
    end_day = parse_date(end, "--end", zone=zone, now=now) if end is not None else None
    if start_day and end_day and end_day < start_day:
        raise UsageError(
            f"--end {end_day.isoformat()} is before --start {start_day.isoformat()}",
            hint="the window runs from --start to --end, both inclusive",
        )
    if window_days is not None and start_day and end_day:
        raise UsageError(
            "--window-days cannot be combined with both --start and --end",
            hint="--start and --end already fix the window; give --window-days with at most "
            "one of them",
        )
    values: dict[str, Any] = {
        "window_days": window_days,
        "start": start_day.isoformat() if start_day else None,
        "end": end_day.isoformat() if end_day else None,
    }
    query: dict[str, Any] = {}
    for field, key, assumed in WINDOW_PARAMS:
        if values[field] is None:
            continue
        name = str(ctx.settings.get(key) or assumed)
        if name in query:
            raise UsageError(
                f"two window parameters are both named {name!r} in profile "
                f"{ctx.settings.profile!r}",
                hint=f"check `leadctl profile show`; fix one with `leadctl profile set {key} NAME`",
            )
        query[name] = values[field]
    return query
