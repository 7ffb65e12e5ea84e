"""A service's published rate limit, as the user knows it: ``N/WINDOW`` (``300/60s``).

The profile key ``rate_limit`` and ``--rate`` of ``leads import`` and ``batch`` take it; the
pacer (:mod:`leadctl.http.pacer`) then paces from the first request instead of waiting for
the service's first 429. Standard library only: ``profile set`` checks values with it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from leadctl.errors import UsageError

_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}
_FORM = re.compile(r"^\s*(\d+)\s*/\s*(\d+(?:\.\d+)?)?\s*([smh]?)\s*$")
# Past this the "limit" paces nothing a CLI could send; below the floor it would stall a run.
MAX_PER_SECOND = 100_000.0
MIN_PER_SECOND = 1 / 86_400
EXAMPLE = "300/60s (300 requests per 60 seconds; units s, m, h; 5/s for 5 per second)"


@dataclass(frozen=True)
class RateLimit:
    requests: int
    window: float  # seconds

    @property
    def per_second(self) -> float:
        return self.requests / self.window

    def __str__(self) -> str:
        return f"{self.requests}/{self.window:g}s"


def parse_rate_limit(text: str, *, what: str = "--rate") -> RateLimit:
    """``N/WINDOW`` with a unit (``300/60s``, ``5/s``, ``1000/1h``); exit 2 naming ``what``
    and the accepted form otherwise."""
    match = _FORM.match(text)
    if match is None or not (match[2] or match[3]):
        raise UsageError(f"{what} {text!r}: expected N/WINDOW such as {EXAMPLE}")
    requests = int(match[1])
    window = float(match[2] or 1) * _UNITS[match[3] or "s"]
    if requests < 1:
        raise UsageError(f"{what} {text!r}: N must be at least 1 request")
    if not math.isfinite(window) or window <= 0:
        raise UsageError(f"{what} {text!r}: the window must be longer than 0 s")
    limit = RateLimit(requests, window)
    if not MIN_PER_SECOND <= limit.per_second <= MAX_PER_SECOND:
        raise UsageError(
            f"{what} {text!r}: {limit.per_second:g} requests per second is not a rate "
            "a service publishes",
            hint=f"expected N/WINDOW such as {EXAMPLE}",
        )
    return limit


def known_limit(flag: str | None, setting: object) -> RateLimit | None:
    """The limit to pace at: ``--rate`` when given, else the profile's ``rate_limit``."""
    if flag is not None:
        return parse_rate_limit(flag)
    if isinstance(setting, str) and setting.strip():
        return parse_rate_limit(setting, what="the profile's rate_limit")
    return None
