"""When the next request of a bulk run (or of ``--all`` paging) may go.

One pacer per run, shared by its workers. Two things set the pace:

- **A limit the user knows** (profile ``rate_limit``, ``--rate N/WINDOW``): requests go
  evenly at N/W from the first one, never faster.
- **The service's 429 answers.** Without a known limit nothing paces until the first 429.
  A 429 starts a *storm*: every worker pauses, for exactly the Retry-After when the service
  gave one, else for a backoff with full jitter (from one slot of the pace once there is a
  pace, so that sending resumes within a few slots of the service accepting again). The
  storm ends with the first answer to a request sent after it began: an answer to a request
  already in flight when it began says nothing about the service accepting again.

Each storm's end measures the pace: the answers accepted since the previous storm ended (or
the run began, or the pace was last released), divided by the time between the two. Against
a fixed window (N per W seconds) a storm ends when a window resets, so the measure is N/W
whatever the phase; against a token bucket it is the refill rate. Sending then goes at the
measured pace (never above a known limit), growing by 5% per measured period until the next
storm: against a window, that storm comes at most about 5% of a window before the reset.
The growth doubles for each whole period without a storm.

A measured pace is only as good as its sample: one 429 early in a run (two answers, then a
one-second Retry-After) measures far below what the service allows. So once two periods
pass without a storm the pace is *released*, back to the known limit or to no pace at all,
and the next storm (if any) measures afresh from there: after a 429 the pace recovers once
the window has passed.

A 429 to a request sent before the current pause began belongs to the same storm: it can
lengthen the pause, not count as another refusal.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from leadctl.http.retry import Backoff

if TYPE_CHECKING:
    from leadctl.config.rate_limit import RateLimit

# Longest single sleep: a stopping run notices within this.
SLEEP_SLICE = 0.25
# Growth of the pace over one storm period, as a share of the measured rate.
INCREASE_SHARE = 0.05
# The period the growth is spread over is at least this (a token bucket refuses often).
MIN_PERIOD = 1.0
# Longest wait between probes while refused without a Retry-After: sending resumes at most
# this long after the service accepts again. One request per probe is polite enough.
PROBE_CAP = 2.0
# Periods without a storm after which a measured pace is released. Two, not one: paced just
# under a window's limit (a Retry-After in whole seconds overshoots the reset), the growth
# brings the next storm within about two periods; sooner, a release would only cost a
# burst and a pause. tests/commands/leads/test_import_pacer.py holds the measured trade-off.
RELEASE_PERIODS = 2.0
MIN_RATE = 0.2  # requests per second: a floor so that a bad measurement cannot stall


class Pacer:
    def __init__(
        self,
        *,
        monotonic: Callable[[], float],
        sleep: Callable[[float], None],
        backoff: Backoff,
        stop: threading.Event | None = None,
        limit: RateLimit | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._stop = stop
        self._monotonic = monotonic
        self._sleep = sleep
        self._backoff = backoff
        # The known limit in requests per second: the pace never goes above it.
        self._ceiling = None if limit is None else limit.per_second
        # Requests per second; None: unpaced (no known limit, no 429 measured yet).
        self.rate: float | None = self._ceiling
        self._step = 0.0  # growth of the rate per second
        self._period = 0.0  # the last measured time between storms
        self._grown_at = 0.0
        self._next_slot = 0.0
        self._paused_until = 0.0
        self._pause_began = float("-inf")
        self._storm_began: float | None = None  # None: no storm now
        self._last_refused: float | None = None  # the latest send refused in this storm
        self._told_when = False  # a Retry-After in this storm said when it ends
        # Where the next measurement starts: the previous storm's end, the first send, or
        # the last release.
        self._cycle_start: float | None = None
        self._answered = 0  # answers since _cycle_start
        self._refusals = 0  # 429s in a row with no other answer between them
        self.storms = 0
        self.releases = 0
        self.paused_seconds = 0.0

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
        self._release_if_quiet(now)
        if self.rate is None:
            return now
        if now > self._grown_at:
            growth = self._step * (now - self._grown_at) * self._acceleration(now)
            self.rate = self._capped(self.rate + growth)
            self._grown_at = now
        slot = max(now, self._next_slot)
        self._next_slot = slot + 1.0 / self.rate
        return slot

    def _acceleration(self, now: float) -> float:
        """Growth doubles for each whole period that passes without a storm: a pace measured
        a little low comes back up within a few periods, before it is released."""
        if self._period <= 0 or self._cycle_start is None:
            return 1.0
        quiet = int((now - self._cycle_start) / self._period)
        return float(2 ** min(quiet, 6))

    def _capped(self, rate: float) -> float:
        return rate if self._ceiling is None else min(rate, self._ceiling)

    def _release_if_quiet(self, now: float) -> None:
        """A measured pace that went ``RELEASE_PERIODS`` without a storm was below what the
        service allows: back to the known limit (or to no pace), measuring afresh."""
        if self._period <= 0 or self._storm_began is not None or self._cycle_start is None:
            return
        if now - self._cycle_start < RELEASE_PERIODS * self._period:
            return
        self.rate = self._ceiling
        self._step = 0.0
        self._period = 0.0
        self._cycle_start = now
        self._answered = 0
        self.releases += 1

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
        """A storm ended at ``end``: the accepted rate since the cycle began."""
        start = self._cycle_start if self._cycle_start is not None else end
        period = end - start
        if self._answered and period > 0:
            measured = self._capped(max(MIN_RATE, self._answered / period))
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
