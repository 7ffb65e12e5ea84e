"""When the next request of a bulk import may go: the service's 429 answers set the pace.

Until the first 429 only ``--concurrency`` limits the import. On a 429 every worker
pauses until its Retry-After has elapsed (exactly; backoff with jitter when the service
gave none), and sending resumes paced at the rate the service accepted since the previous
pause, the pause included: with a token bucket or a fixed window that is the allowed
rate, so workers do not storm back. The pace then grows by 5% of that rate each second
(additive increase) until the next 429 measures it again. A 429 to a request sent before
the current pause began is the same storm: it can lengthen the pause, not cut the rate
again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

# Longest single sleep: a stopping import notices within this.
SLEEP_SLICE = 0.25
# Growth of the pace per second, as a share of the last measured rate.
INCREASE_SHARE = 0.05
MIN_RATE = 0.2  # requests per second: a floor so that a bad measurement cannot stall


class Pacer:
    def __init__(
        self,
        *,
        monotonic: Callable[[], float],
        sleep: Callable[[float], None],
        backoff: Callable[[int], float],
        stop: threading.Event | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._stop = stop
        self._monotonic = monotonic
        self._sleep = sleep
        self._backoff = backoff
        # Requests per second; None until the service first pushes back.
        self.rate: float | None = None
        self._step = 0.0
        self._grown_at = 0.0
        self._next_slot = 0.0
        self._paused_until = 0.0
        self._pause_began = float("-inf")
        self._window_start: float | None = None
        self._answered = 0
        self._refusals = 0  # 429s in a row with no other answer between them
        self.pauses = 0
        self.paused_seconds = 0.0

    def acquire(self) -> float:
        """Wait until a request may be sent (or the import stops); returns the (monotonic)
        time it may go."""
        reserved: float | None = None
        while True:
            with self._lock:
                now = self._monotonic()
                if self._stop is not None and self._stop.is_set():
                    return now
                if self._window_start is None:
                    self._window_start = now
                if now < self._paused_until:
                    reserved = None  # a pause began while waiting: take a new slot after it
                    wait = self._paused_until - now
                elif reserved is not None:
                    if now >= reserved:
                        return now
                    wait = reserved - now
                else:
                    slot = self._reserve(now)
                    if slot <= now:
                        return now
                    reserved = slot
                    wait = slot - now
            self._sleep(min(wait, SLEEP_SLICE))

    def _reserve(self, now: float) -> float:
        if self.rate is None:
            return now
        if now - self._grown_at >= 1.0:
            self.rate += self._step * (now - self._grown_at)
            self._grown_at = now
        slot = max(now, self._next_slot)
        self._next_slot = slot + 1.0 / self.rate
        return slot

    def answered(self) -> None:
        """The service answered a request with something other than 429."""
        with self._lock:
            self._answered += 1
            self._refusals = 0

    def rate_limited(self, retry_after: float | None, sent_at: float) -> float:
        """A 429 to a request sent at ``sent_at``; returns how long everyone now waits."""
        with self._lock:
            now = self._monotonic()
            same_storm = sent_at < self._pause_began
            if not same_storm:
                self._refusals += 1
            delay = retry_after if retry_after is not None else self._backoff(self._refusals)
            until = now + delay
            if until > self._paused_until:
                self.paused_seconds += until - max(now, self._paused_until)
                self._paused_until = until
                self._next_slot = until
            if same_storm:
                return max(0.0, self._paused_until - now)
            self.pauses += 1
            self._pause_began = now
            window_start = self._window_start if self._window_start is not None else now
            window = now - window_start
            if self._answered and window > 0:
                measured = max(MIN_RATE, self._answered / window)
                self.rate = measured if self.rate is None else min(self.rate, measured)
                self._step = measured * INCREASE_SHARE
                self._grown_at = self._paused_until
            self._window_start = now
            self._answered = 0
            return max(0.0, self._paused_until - now)

    def pause(self, seconds: float) -> None:
        """Hold every worker for ``seconds`` (the service could not be reached)."""
        with self._lock:
            until = self._monotonic() + seconds
            if until > self._paused_until:
                self._paused_until = until
                self._next_slot = until
