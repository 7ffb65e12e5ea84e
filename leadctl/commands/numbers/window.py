"""The metrics window of ``numbers status``: dates as typed, then query parameters."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from leadctl.errors import UsageError

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
_DAYS_AGO = re.compile(r"-(\d{1,5})d")
DATE_FORMS = "YYYY-MM-DD (e.g. 2026-11-01), today, yesterday or -7d"


def parse_date(raw: str, option: str, *, today: date | None = None) -> date:
    """A calendar date from ``YYYY-MM-DD``, or relative to ``today`` (``today``,
    ``yesterday``, ``-7d``); anything else is a usage error naming the flag."""
    text = raw.strip().lower()
    if _ISO_DATE.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    elif today is not None:
        ago = _DAYS_AGO.fullmatch(text)
        if text in ("today", "yesterday") or ago:
            days = int(ago.group(1)) if ago else (0 if text == "today" else 1)
            return today - timedelta(days=days)
    raise UsageError(f"{option} {raw!r} is not a date", hint=f"use {DATE_FORMS}")


def _today(ctx: Context) -> date:
    """Today in the profile's timezone, else the system's."""
    zone = ctx.input_zone()
    now = ctx.clock.now()
    return (now.astimezone(zone) if zone is not None else now.astimezone()).date()


def window_query(
    ctx: Context, *, window_days: int | None, start: str | None, end: str | None
) -> dict[str, Any]:
    """The window's query parameters under the profile's (or the assumed) names."""
    today = _today(ctx) if start is not None or end is not None else None
    start_day = parse_date(start, "--start", today=today) if start is not None else None
    end_day = parse_date(end, "--end", today=today) if end is not None else None
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
