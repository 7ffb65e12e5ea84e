"""The pace of `leads import`: shared 429 pauses, the learned rate, additive increase."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field

import pytest

from leadctl.bulk.pacer import INCREASE_SHARE, Pacer


@dataclass
class Time:
    now: float = 100.0
    sleeps: list[float] = field(default_factory=list)

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def make(time: Time, *, stop: threading.Event | None = None) -> Pacer:
    return Pacer(monotonic=time.monotonic, sleep=time.sleep, backoff=lambda n: 2.0**n, stop=stop)


def test_unpaced_until_the_service_pushes_back() -> None:
    time = Time()
    pacer = make(time)
    for _ in range(100):
        assert pacer.acquire() == 100.0
    assert time.sleeps == []
    assert pacer.rate is None


def test_a_429_holds_every_caller_until_retry_after_has_elapsed() -> None:
    time = Time()
    pacer = make(time)
    sent_at = pacer.acquire()
    time.now += 0.5
    assert pacer.rate_limited(3.0, sent_at) == 3.0
    # Whoever asks next, it goes exactly when the pause ends.
    assert pacer.acquire() == pytest.approx(103.5)
    assert pacer.pauses == 1
    assert pacer.paused_seconds == pytest.approx(3.0)


def test_without_retry_after_the_pause_is_the_backoff_of_the_refusals_so_far() -> None:
    time = Time()
    pacer = make(time)
    assert pacer.rate_limited(None, pacer.acquire()) == 2.0
    assert pacer.rate_limited(None, pacer.acquire()) == 4.0
    pacer.answered()
    assert pacer.rate_limited(None, pacer.acquire()) == 2.0


def test_after_a_pause_sending_is_paced_at_the_rate_the_service_accepted() -> None:
    time = Time()
    pacer = make(time)
    # 50 answers in the 2 seconds before the first 429.
    for _ in range(50):
        pacer.acquire()
        pacer.answered()
    time.now += 2.0
    pacer.rate_limited(1.0, pacer.acquire())
    assert pacer.rate == pytest.approx(25.0)
    slots = [pacer.acquire() for _ in range(5)]
    assert slots[0] == pytest.approx(103.0)
    gaps = [b - a for a, b in itertools.pairwise(slots)]
    assert gaps == pytest.approx([1 / 25.0] * 4)


def test_the_pause_counts_in_the_next_measurement() -> None:
    time = Time()
    pacer = make(time)
    for _ in range(10):
        pacer.acquire()
        pacer.answered()
    time.now += 1.0
    pacer.rate_limited(4.0, pacer.acquire())  # 10 answers in 1 s
    assert pacer.rate == pytest.approx(10.0)
    for _ in range(10):
        pacer.acquire()
        pacer.answered()
    # 10 answers since the last 429: 4 s of pause and 1 s of sending, so 2 per second.
    pacer.rate_limited(1.0, pacer.acquire())
    assert time.now == pytest.approx(106.0)
    assert pacer.rate == pytest.approx(2.0)


def test_the_rate_grows_additively_while_no_429_comes() -> None:
    time = Time()
    pacer = make(time)
    for _ in range(20):
        pacer.acquire()
        pacer.answered()
    time.now += 1.0
    pacer.rate_limited(1.0, pacer.acquire())
    assert pacer.rate == pytest.approx(20.0)
    for _ in range(200):
        pacer.acquire()
    # Ten seconds of sending at a growing pace: 5% of 20/s more each second.
    grown = pacer.rate
    assert grown is not None
    assert 20.0 + 20.0 * INCREASE_SHARE * 5 < grown < 20.0 + 20.0 * INCREASE_SHARE * 12


def test_a_429_to_a_request_sent_before_the_pause_is_the_same_storm() -> None:
    time = Time()
    pacer = make(time)
    for _ in range(40):
        pacer.acquire()
        pacer.answered()
    early = pacer.acquire()  # in flight when the first 429 comes back
    time.now += 1.0
    pacer.rate_limited(2.0, pacer.acquire())
    rate = pacer.rate
    time.now += 0.1
    assert pacer.rate_limited(2.0, early) == pytest.approx(2.0)  # its own Retry-After
    assert pacer.pauses == 1
    assert pacer.rate == rate


def test_stopping_releases_a_waiting_caller() -> None:
    time = Time()
    stop = threading.Event()
    pacer = make(time, stop=stop)
    pacer.rate_limited(3600.0, pacer.acquire())
    stop.set()
    assert pacer.acquire() == 100.0
    assert time.sleeps == []


def test_long_waits_are_slept_in_slices_so_a_stop_is_noticed() -> None:
    time = Time()
    pacer = make(time)
    pacer.rate_limited(2.0, pacer.acquire())
    pacer.acquire()
    assert max(time.sleeps) <= 0.25
    assert sum(time.sleeps) == pytest.approx(2.0)
