"""The one retry policy: how long to wait before trying again, and what a send achieved.

The client's retry loop, the pacer (``leads import``, ``batch``, ``--all``) and ``--wait`` all
wait through :class:`Backoff`; whether a request is sent again is decided from its
:class:`Delivery` (never from the type of an exception) in one place, ``http/resend.py``.

cli.md "Retries": with ``Retry-After`` the wait is exactly what it says (delta-seconds
or an HTTP-date, no jitter); without it, exponential backoff with full jitter, capped
at 20 s.

Imported on the start-up path of every request: no third-party module here.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from leadctl.config.request_limits import DEFAULT_MAX_RETRIES

BACKOFF_BASE_SECONDS = 0.5
BACKOFF_CAP_SECONDS = 20.0

Jitter = Callable[[float, float], float]


def _system_jitter() -> Jitter:
    return random.Random().uniform


def no_jitter(_low: float, high: float) -> float:
    """The ceiling itself: for waits that need no spreading (one process polling)."""
    return high


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with full jitter: wait n is uniform in [0, min(cap, base*factor^(n-1))].

    Full jitter spreads clients (or the workers of one batch) that were refused together,
    so they do not come back together.
    """

    base: float = BACKOFF_BASE_SECONDS
    cap: float = BACKOFF_CAP_SECONDS
    factor: float = 2.0
    jitter: Jitter = field(default_factory=_system_jitter, compare=False)

    def ceiling(self, attempt: int) -> float:
        """The longest wait before retry number ``attempt`` (1-based)."""
        exponent = max(0, attempt - 1)
        # Past ~60 doublings the float is inf anyway; the cap is what counts.
        if exponent > 60:
            return self.cap
        return min(self.cap, self.base * self.factor**exponent)

    def delay(self, attempt: int) -> float:
        """The wait before retry number ``attempt`` (1-based)."""
        return float(self.jitter(0.0, self.ceiling(attempt)))

    def __call__(self, attempt: int) -> float:
        return self.delay(attempt)


# The longest Retry-After honored; longer is treated as no usable value (cli.md "Retries").
LONGEST_RETRY_AFTER = 86_400.0


@dataclass
class RetryPolicy:
    """How many retries an invocation allows (``--max-retries``) and how long each waits."""

    max_retries: int = DEFAULT_MAX_RETRIES
    backoff: Backoff = field(default_factory=Backoff)

    def allows(self, attempt: int) -> bool:
        """Whether attempt number ``attempt`` (1-based, just made) may be followed by another."""
        return attempt <= self.max_retries

    def wait(self, attempt: int, retry_after: float | None) -> float:
        """The wait before retry ``attempt``: Retry-After exactly, else the backoff."""
        if retry_after is not None:
            return retry_after
        return self.backoff.delay(attempt)


def retry_after_seconds(headers: Mapping[str, str], now: Callable[[], float]) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or HTTP-date), or None.

    ``now`` is the wall clock (an HTTP-date is absolute). A date in the past is 0; a value
    that is neither form, or asks for more than a day, is ignored (None: the caller backs
    off instead): a command does not sleep for a year on a service's word.
    """
    raw = headers.get("Retry-After")
    if raw is None:
        return None
    raw = raw.strip()
    seconds: float | None
    try:
        # Digits ("120"), or a decimal some services send ("1.5"); never int() of a
        # digit string, whose length Python limits, nor of a non-ASCII digit.
        seconds = float(raw) if raw.isascii() and raw[:1].isdigit() else None
    except ValueError:
        seconds = None
    if seconds is None:
        from email.utils import parsedate_to_datetime

        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        if when.tzinfo is None:
            return None
        seconds = max(0.0, when.timestamp() - now())
    return seconds if 0 <= seconds <= LONGEST_RETRY_AFTER else None


class Delivery(enum.Enum):
    """What one send achieved, as far as leadctl can know.

    - ``NOT_SENT``: nothing reached the service (no connection, TLS refused, no usable
      credential): any operation may be sent again.
    - ``NO_ANSWER``: the request left and no complete answer came back (timeout, dropped
      connection): the service may or may not have acted.
    - ``ANSWERED``: the service answered with a status code. A 5xx answer still leaves the
      effect unknown for an operation that is not retry-safe (see :func:`effect_unknown`).
    """

    NOT_SENT = "not sent"
    NO_ANSWER = "sent, no answer"
    ANSWERED = "answered"


def effect_unknown(delivery: Delivery, status: int | None) -> bool:
    """Whether the service may have acted without leadctl knowing the result."""
    if delivery is Delivery.NO_ANSWER:
        return True
    return delivery is Delivery.ANSWERED and status is not None and status >= 500
