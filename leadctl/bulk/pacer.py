"""When the next request of a bulk run may go: the service's 429 answers set the pace.

Used by ``leads import`` and ``batch`` (one pacer per run, shared by its workers).

Until the first 429 only ``--concurrency`` limits the run. A 429 starts a *storm*: every
worker pauses, for exactly the Retry-After when the service gave one, else for a backoff
with full jitter (from one slot of the pace once there is a pace, so that sending resumes
within a few slots of the service accepting again). The storm ends with the first answer
to a request sent after it began.

Each storm's end measures the pace: the answers accepted since the previous storm ended,
divided by the time between the two ends. Against a fixed window (N per W seconds) a storm
ends when a window resets, so the measure is N/W whatever the phase; against a token bucket
it is the refill rate. Sending then goes at the measured pace, growing by 5% per measured
period (additive increase) until the next storm: against a window, that storm comes at most
about 5% of a window before the reset.

A 429 to a request sent before the current pause began belongs to the same storm: it can
lengthen the pause, not count as another refusal.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable

from leadctl.retry import Backoff

# Longest single sleep: a stopping run notices within this.
SLEEP_SLICE = 0.25
# Growth of the pace over one storm period, as a share of the measured rate.
INCREASE_SHARE = 0.05
# The period the growth is spread over is at least this (a token bucket refuses often).
MIN_PERIOD = 1.0
# Longest wait between probes while refused without a Retry-After: sending resumes at most
# this long after the service accepts again. One request per probe is polite enough.
PROBE_CAP = 2.0
# A period this many times the last one had whole periods without a storm.
QUIET_PERIODS = 1.5
MIN_RATE = 0.2  # requests per second: a floor so that a bad measurement cannot stall


class Pacer:
    def __init__(
        self,
        *,
        monotonic: Callable[[], float],
        sleep: Callable[[float], None],
        backoff: Backoff,
        stop: threading.Event | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._stop = stop
        self._monotonic = monotonic
        self._sleep = sleep
        self._backoff = backoff
        # Requests per second; None until the service first pushes back.
        self.rate: float | None = None
        self._step = 0.0  # growth of the rate per second
        self._period = 0.0  # the last measured time between storms
        self._grown_at = 0.0
        self._next_slot = 0.0
        self._paused_until = 0.0
        self._pause_began = float("-inf")
        self._storm_began: float | None = None  # None: no storm now
        self._last_refused: float | None = None  # the latest send refused in this storm
        self._told_when = False  # a Retry-After in this storm said when it ends
        self._pace_at_storm: float | None = None
        self._cycle_start: float | None = None  # the previous storm's end (or the first send)
        self._answered = 0  # answers since _cycle_start
        self._refusals = 0  # 429s in a row with no other answer between them
        self.storms = 0
        self.paused_seconds = 0.0

    @property
    def pauses(self) -> int:
        return self.storms

    def acquire(self) -> float:
        """Wait until a request may be sent (or the run stops); returns the (monotonic)
        time it may go."""
        reserved: float | None = None
        while True:
            with self._lock:
                now = self._monotonic()
                if self._stop is not None and self._stop.is_set():
                    return now
                if self._cycle_start is None:
                    self._cycle_start = now
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
        if now > self._grown_at:
            self.rate += self._step * (now - self._grown_at) * self._acceleration(now)
            self._grown_at = now
        slot = max(now, self._next_slot)
        self._next_slot = slot + 1.0 / self.rate
        return slot

    def _acceleration(self, now: float) -> float:
        """Growth doubles for each whole period that passes without a storm: a pace measured
        low (a long first pause counted in) comes back up within a few periods."""
        if self._period <= 0 or self._cycle_start is None:
            return 1.0
        quiet = int((now - self._cycle_start) / self._period)
        return float(2 ** min(quiet, 6))

    def answered(self, sent_at: float | None = None) -> None:
        """The service answered the request sent at ``sent_at`` with something other than
        429 (None: sent before any storm)."""
        with self._lock:
            self._refusals = 0
            storm = self._storm_began
            if storm is not None and sent_at is not None and sent_at >= storm:
                end = sent_at
                if self._last_refused is not None and not self._told_when:
                    # The service began accepting between the last refused probe and this
                    # one: half-way is the estimate with the smallest worst-case error.
                    end = (self._last_refused + sent_at) / 2
                self._measure(end=end)
            self._answered += 1

    def rate_limited(self, retry_after: float | None, sent_at: float) -> float:
        """A 429 to a request sent at ``sent_at``; returns how long everyone now waits."""
        with self._lock:
            now = self._monotonic()
            same_storm = sent_at < self._pause_began
            if not same_storm:
                self._refusals += 1
                self._pause_began = now
                if self._storm_began is None:
                    self._storm_began = now
                    self._pace_at_storm = self.rate
                    self._told_when = False
                    self._last_refused = None
                    self.storms += 1
            if self._last_refused is None or sent_at > self._last_refused:
                self._last_refused = sent_at
            if retry_after is not None:
                self._told_when = True
            delay = retry_after if retry_after is not None else self._probe_delay()
            until = now + delay
            if until > self._paused_until:
                self.paused_seconds += until - max(now, self._paused_until)
                self._paused_until = until
                self._next_slot = until
            return max(0.0, self._paused_until - now)

    def _probe_delay(self) -> float:
        """No Retry-After: full-jitter backoff, from one slot of the pace once there is one."""
        backoff = dataclasses.replace(self._backoff, cap=min(self._backoff.cap, PROBE_CAP))
        if self.rate is not None:
            backoff = dataclasses.replace(backoff, base=1.0 / self.rate)
        return backoff.delay(max(1, self._refusals))

    def _measure(self, *, end: float) -> None:
        """A storm ended at ``end``: the accepted rate since the previous one ended."""
        start = self._cycle_start if self._cycle_start is not None else end
        period = end - start
        if self._answered and period > 0:
            measured = max(MIN_RATE, self._answered / period)
            paced = self._pace_at_storm
            if paced is not None and self._period and period > QUIET_PERIODS * self._period:
                # Whole periods went by without a storm: the pace was below the limit for
                # most of this one, so its average understates what the service allows.
                measured = max(measured, paced * (1 - INCREASE_SHARE))
            self.rate = measured
            self._period = max(period, MIN_PERIOD)
            self._step = measured * INCREASE_SHARE / self._period
            self._grown_at = max(end, self._paused_until)
        self._storm_began = None
        self._cycle_start = end
        self._answered = 0

    def pause(self, seconds: float) -> None:
        """Hold every worker for ``seconds`` (the service could not be reached)."""
        with self._lock:
            until = self._monotonic() + seconds
            if until > self._paused_until:
                self._paused_until = until
                self._next_slot = until
