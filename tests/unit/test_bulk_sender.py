"""The bulk sender and its pacer together, on a clock that moves while requests are out:
the end of a 429 storm is measured only from an answer to a request sent after it began
(issue 22's planted-bug list). pytest-httpx answers; the threads are choreographed with
events, never with sleeps."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import pytest
from pytest_httpx import HTTPXMock

from leadctl.bulk.report import Outcome
from leadctl.bulk.sender import Job, Plan, Sender
from leadctl.config.credentials import Credential, CredentialKind
from leadctl.contract.operations import Operation
from leadctl.http.client import Client
from leadctl.http.pacer import Pacer
from leadctl.http.retry import Backoff, RetryPolicy, no_jitter
from tests.support.cli import BASE_URL

THING = f"{BASE_URL}/things/{{}}"
HOLD_TIMEOUT = 10.0


class MovingClock:
    """Virtual monotonic time: it moves by each answer's latency (the service taking its
    time) and by every wait. The first wait (a worker held by the 429's pause) is held until
    a second worker waits too, so the request in flight when the 429 came is answered
    during the pause."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._lock = threading.Lock()
        self._waits = 0
        self.pause_began = threading.Event()
        self._second_wait = threading.Event()

    def monotonic(self) -> float:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self._waits += 1
            waits = self._waits
        if waits == 1:
            self.pause_began.set()
            assert self._second_wait.wait(HOLD_TIMEOUT), "the held request was never answered"
        elif waits == 2:
            self._second_wait.set()
        self.advance(seconds)


def jobs(count: int) -> Iterator[Job]:
    for n in range(1, count + 1):
        yield Job(n, f"digest{n}", path_params={"id": str(n)})


def test_a_storm_ends_only_with_an_answer_to_a_request_sent_after_it_began(
    httpx_mock: HTTPXMock,
) -> None:
    clock = MovingClock()
    thing_2_out = threading.Event()

    def answered(request: httpx.Request) -> httpx.Response:
        clock.advance(0.1)
        return httpx.Response(200, json={"id": request.url.path.rsplit("/", 1)[-1]})

    def held_in_flight(request: httpx.Request) -> httpx.Response:
        # Sent before the storm, answered during it (the 429 to thing 3 came meanwhile).
        thing_2_out.set()
        assert clock.pause_began.wait(HOLD_TIMEOUT)
        return answered(request)

    def refused(request: httpx.Request) -> httpx.Response:
        assert thing_2_out.wait(HOLD_TIMEOUT)  # the storm begins while thing 2 is out
        clock.advance(0.1)
        return httpx.Response(429, headers={"Retry-After": "2"})

    httpx_mock.add_callback(answered, url=THING.format(1))  # sent alone at 1000.0
    httpx_mock.add_callback(held_in_flight, url=THING.format(2))  # sent at 1000.1
    httpx_mock.add_callback(refused, url=THING.format(3))  # sent at 1000.1: the storm
    httpx_mock.add_callback(answered, url=THING.format(3))  # sent again after the pause
    httpx_mock.add_callback(answered, url=THING.format(4))
    credential = Credential("sk_test_x", CredentialKind.ORG, "test")
    policy = RetryPolicy(max_retries=3, backoff=Backoff(jitter=no_jitter))
    client = Client(base_url=BASE_URL, credential=lambda: credential, policy=policy)
    stop = threading.Event()
    pacer = Pacer(monotonic=clock.monotonic, sleep=clock.sleep, backoff=policy.backoff, stop=stop)
    settled: list[Outcome] = []
    operation = Operation(id="getThing", method="GET", path="/things/{id}", retry_safe=True)

    Sender(
        client=client,
        plan=Plan(operation),
        jobs=jobs(4),
        concurrency=2,
        pacer=pacer,
        on_outcome=settled.append,
        on_sending=lambda _job, _line: None,
        stop=stop,
        policy=policy,
        monotonic=clock.monotonic,
    ).run()

    assert sorted((o.row, o.outcome) for o in settled) == [(n, "ok") for n in range(1, 5)]
    assert pacer.storms == 1
    # Things 1 and 2 were accepted from 1000.0 until the storm ended, when the first request
    # sent after its 2 s pause (begun at 1000.2) was answered: about 2 / 2.2 s. Thing 2's
    # answer, at 1000.3, came during the storm but said nothing of its end: counted as one
    # that end had measured it would be 1 answer in 0.3 s.
    assert pacer.rate == pytest.approx(2 / 2.2, rel=0.1)
