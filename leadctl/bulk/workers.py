"""How many of a bulk run's ``--concurrency`` workers send at once: no more than keep the
process busy.

The workers are threads under one GIL. While the service is slow to answer, a worker waits
on the network without the GIL and another one sends meanwhile: more workers, more requests
in flight, a higher rate. While the service answers faster than leadctl prepares the next
request (a local or nearby service), the process is already busy on one core, a second
worker has nothing to overlap, and each one only costs the others GIL hand-offs and context
switches: on two cores, 4 workers sent at 0.6 of the rate of 1 for 1.6 times the CPU
(issue 32).

So a run starts with one worker sending, and the main thread, which waits for the workers
anyway, looks every ``CHECK_SECONDS`` at how much of that time the process spent on the CPU
(all its threads). Below ``IDLE_BELOW`` of a core it is waiting (on the service, a pause, a
report's fsync, a slow pipe, or a loaded machine's scheduler), and more workers are let in
at once: as many as would bring it to ``BUSY_TARGET`` at the rate measured, never more than
``--concurrency``. Workers are never sent away again (a pause waits the same with any
number), so a run ends no narrower than it began. Only the number sending at once changes:
which job goes when, pacing, 429 storms, the report and the outcomes are the sender's.

Real clocks, not the run's: the question is whether this process is idle now, which a
virtual clock in a test cannot say.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

# The main thread's look at the workers: as often as it polls them to join (sender.py).
CHECK_SECONDS = 0.1
# A process on the CPU less than this share of the time is waiting: more workers may help.
IDLE_BELOW = 0.6
# How busy the workers let in should make it (no more than one core under the GIL).
BUSY_TARGET = 0.9


class WorkerGate:
    """Workers numbered from 0 send while their number is below ``active``."""

    def __init__(
        self,
        limit: int,
        *,
        cpu: Callable[[], float] = time.process_time,
        wall: Callable[[], float] = time.monotonic,
    ) -> None:
        self._limit = max(1, limit)
        self._cpu = cpu
        self._wall = wall
        self._changed = threading.Condition()
        self._closed = False
        self._mark: tuple[float, float] | None = None
        self.active = 1

    def admitted(self, worker: int) -> bool:
        """Wait until ``worker`` may send; False when the run ended first."""
        with self._changed:
            while worker >= self.active and not self._closed:
                self._changed.wait()
            return worker < self.active

    def check(self) -> None:
        """Let more workers in when the process was mostly idle since the last check."""
        now, cpu = self._wall(), self._cpu()
        mark, self._mark = self._mark, (now, cpu)
        if mark is None or self.active >= self._limit or now <= mark[0]:
            return
        busy = max(0.0, cpu - mark[1]) / (now - mark[0])
        if busy >= IDLE_BELOW:
            return
        wanted = self._limit if busy <= 0 else math.ceil(self.active * BUSY_TARGET / busy)
        with self._changed:
            self.active = min(self._limit, max(self.active + 1, wanted))
            self._changed.notify_all()

    def close(self) -> None:
        """No more jobs: every worker still waiting leaves."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
