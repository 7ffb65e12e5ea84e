"""``--since`` on a generated read that takes a time window, as people say one.

A read whose query takes the window's start as a time (``startAt``, ``from``,
``startDate``...) or its length in days (``days``, ``windowDays``) gets ``--since WHEN``:
``--since 'last monday'``, ``--since -7d``, ``--since 'yesterday 09:00'``, any time the
other time flags take (:mod:`leadctl.inputs.datetimes`). It fills the start parameter
(then read as that parameter's own flag would read it), else the number of whole days
from then to now.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.errors import UsageError
from leadctl.inputs.datetimes import datetime_option, format_moment
from leadctl.util.isotime import parse_timestamp

if TYPE_CHECKING:
    from leadctl.contract.entries import Parameter
    from leadctl.contract.invocation import InputInvocation

SINCE = "since"
START_NAMES = frozenset(
    {"startat", "start", "from", "since", "startdate", "fromdate", "after", "starttime"}
)
END_NAMES = frozenset({"endat", "end", "to", "until", "enddate", "todate", "before", "endtime"})
DAYS_NAMES = frozenset({"days", "windowdays", "lastdays"})
SECONDS_A_DAY = 86400

SinceOption = Annotated[
    str | None,
    typer.Option(
        "--since",
        metavar="WHEN",
        help="The window's start as people say it: 'last monday', -7d, 'yesterday 09:00', "
        "or ISO 8601 (local time unless it has an offset).",
    ),
]


@dataclass(frozen=True)
class Window:
    """The parameter ``--since`` fills: the start time, else the length in days."""

    start: Parameter | None
    days: Parameter | None
    end: Parameter | None = None


def window_of(parameters: Sequence[Parameter]) -> Window | None:
    """The read's window parameters, or None when it takes none (or has a --since of its
    own, which wins)."""
    query = [p for p in parameters if p.where == "query"]
    if any(p.flag == f"--{SINCE}" for p in parameters):
        return None
    start = next(
        (p for p in query if p.name.lower() in START_NAMES and p.format in ("date-time", "date")),
        None,
    )
    days = next(
        (p for p in query if p.name.lower() in DAYS_NAMES and p.type == "integer"),
        None,
    )
    end = next(
        (p for p in query if p.name.lower() in END_NAMES and p.format in ("date-time", "date")),
        None,
    )
    return Window(start, days, end) if start is not None or days is not None else None


def with_since(
    ctx: InputInvocation,
    window: Window,
    values: Mapping[str, Any],
    bindings: Sequence[tuple[str, Parameter]],
) -> dict[str, Any]:
    """``values`` with ``--since`` given to the window's parameter; giving both is exit 2."""
    out = dict(values)
    since = out.pop(SINCE, None)
    if since is None:
        return out
    target = window.start if window.start is not None else window.days
    name = next(binding for binding, spec in bindings if spec is target)
    if out.get(name) is not None:
        flag = target.flag if target is not None else ""
        raise UsageError(f"--since and {flag} both say where the window starts: give one")
    if window.start is not None:
        out[name] = since
        return out
    now = ctx.clock.now()
    moment = datetime_option("--since", since, zone=ctx.input_zone(), now=now).utc
    seconds = (now - moment).total_seconds()
    if seconds <= 0:
        raise UsageError(f"--since {since!r} is not in the past")
    out[name] = max(1, math.ceil(seconds / SECONDS_A_DAY))
    return out


def window_title(window: Window, sent: Mapping[str, Any], zone: tzinfo | None) -> str | None:
    """What the read was asked for, as the view's first line: ``window: since 2026-11-16
    00:00 CST``, ``window: A to B``, ``window: last 7 days``; None when no window was given
    (the service's default, which the answer says for itself)."""
    start = _shown(sent.get(window.start.name), zone) if window.start is not None else None
    end = _shown(sent.get(window.end.name), zone) if window.end is not None else None
    days = sent.get(window.days.name) if window.days is not None else None
    if start and end:
        return f"window: {start} to {end}"
    if start:
        return f"window: since {start}"
    if end:
        return f"window: until {end}"
    if days is not None:
        return f"window: last {days} day{'' if str(days) == '1' else 's'}"
    return None


def _shown(value: Any, zone: tzinfo | None) -> str | None:
    """A sent time in the user's zone; a date (no time of day) as sent."""
    if not isinstance(value, str):
        return None
    moment = parse_timestamp(value, time_required=True)
    return value if moment is None else format_moment(moment, zone)
