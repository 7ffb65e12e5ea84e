"""Per-credential rate limiting, keyed by a hash of the Authorization value (never the
credential itself).

Two shapes, as ``--rate-limit`` takes them:

- ``N``: N requests per second, a token bucket (bursts up to N, refilled continuously);
- ``N/WINDOWs`` (``300/60s``; ``m`` and ``h`` also read): a fixed window, as services of this
  kind limit: at most N requests per credential in each window, windows aligned to the
  clock; the 429's Retry-After is the time left until the next window.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from leadctl_sandbox.errors import SandboxUsageError

_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}
_WINDOW = re.compile(r"^\s*(\d+)\s*/\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*$")
_FORMS = "N (requests per second) or N/WINDOW with a unit, such as 300/60s"


@dataclass(frozen=True)
class RateLimit:
    requests: float
    # Seconds of a fixed window; None: a per-second token bucket.
    window: float | None = None

    def describe(self) -> str:
        if self.window is None:
            return f"{self.requests:g} requests per second per credential"
        return f"{self.requests:g} requests per {self.window:g} s window per credential"

    def to_json(self) -> dict[str, float | None]:
        return {"requests": self.requests, "windowSeconds": self.window}


def parse_rate_limit(text: str) -> RateLimit:
    """``--rate-limit``'s value; SandboxUsageError naming what is wrong with it."""
    if "/" not in text:
        try:
            rate = float(text)
        except ValueError:
            raise SandboxUsageError(f"--rate-limit {text!r}: expected {_FORMS}") from None
        if not math.isfinite(rate) or rate <= 0:
            raise SandboxUsageError(
                f"--rate-limit {text!r}: the requests per second must be a positive number"
            )
        return RateLimit(rate)
    match = _WINDOW.match(text)
    if match is None:
        raise SandboxUsageError(f"--rate-limit {text!r}: expected {_FORMS}")
    requests, length, unit = int(match[1]), float(match[2]), match[3] or "s"
    if requests <= 0:
        raise SandboxUsageError(f"--rate-limit {text!r}: N must be at least 1 request")
    window = length * _UNITS[unit]
    if window <= 0:
        raise SandboxUsageError(f"--rate-limit {text!r}: the window must be longer than 0 s")
    return RateLimit(float(requests), window)


def _key(credential: str) -> str:
    return hashlib.sha256(credential.encode("utf-8")).hexdigest()


@dataclass
class _Bucket:
    tokens: float
    updated: float


@dataclass
class RateLimiter:
    """A token bucket per credential: ``rate`` requests per second, also the burst size."""

    rate: float
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    def check(self, credential: str) -> int | None:
        """None when the request may go ahead, else the whole seconds to wait (Retry-After)."""
        key = _key(credential)
        now = self.clock()
        capacity = max(self.rate, 1.0)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(tokens=capacity, updated=now)
        bucket.tokens = min(capacity, bucket.tokens + (now - bucket.updated) * self.rate)
        bucket.updated = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return None
        return max(1, math.ceil((1.0 - bucket.tokens) / self.rate))


@dataclass
class FixedWindowLimiter:
    """At most ``requests`` per credential in each ``window`` seconds, windows aligned to the
    clock (window k is [k * window, (k + 1) * window))."""

    requests: int
    window: float
    clock: Callable[[], float] = time.monotonic
    # credential hash -> (window number, requests counted in it)
    _counts: dict[str, tuple[int, int]] = field(default_factory=dict)

    def check(self, credential: str) -> int | None:
        key = _key(credential)
        now = self.clock()
        number = math.floor(now / self.window)
        seen, count = self._counts.get(key, (number, 0))
        if seen != number:
            count = 0
        if count < self.requests:
            self._counts[key] = (number, count + 1)
            return None
        self._counts[key] = (number, count)
        return max(1, math.ceil((number + 1) * self.window - now))


def limiter_for(limit: RateLimit) -> RateLimiter | FixedWindowLimiter:
    if limit.window is None:
        return RateLimiter(limit.requests)
    return FixedWindowLimiter(int(limit.requests), limit.window)
