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
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.errors import UsageError
from leadctl.inputs.datetimes import datetime_option

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.entries import Parameter

SINCE = "since"
START_NAMES = frozenset(
    {"startat", "start", "from", "since", "startdate", "fromdate", "after", "starttime"}
)
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
    return Window(start, days) if start is not None or days is not None else None


def with_since(
    ctx: Context,
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
