"""How many bulk workers send at once (leadctl.bulk.workers): one while the process is busy
on the CPU, more while it waits, never more than --concurrency. The gate's clocks are
injected; the sender's threads are choreographed with events and a barrier."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
from pytest_httpx import HTTPXMock

from leadctl.bulk.report import Outcome
from leadctl.bulk.sender import Job, Plan, Sender
from leadctl.bulk.workers import WorkerGate
from leadctl.config.credentials import Credential, CredentialKind
from leadctl.contract.operations import Operation
from leadctl.http.client import Client
from leadctl.http.pacer import Pacer
from leadctl.http.retry import Backoff, RetryPolicy, no_jitter
from tests.support.cli import BASE_URL

THING = f"{BASE_URL}/things/{{}}"
HOLD_TIMEOUT = 10.0
# How long a request is held out to see whether another worker sends meanwhile.
HELD_OUT = 0.5


class ProcessClocks:
    """Wall time moving by 0.1 s a look; the process on the CPU ``busy`` of that time."""

    def __init__(self, busy: float) -> None:
        self.busy = busy
        self._wall = 0.0
        self._cpu = 0.0
        self._lock = threading.Lock()

    def wall(self) -> float:
        with self._lock:
            self._wall += 0.1
            self._cpu += 0.1 * self.busy
            return self._wall

    def cpu(self) -> float:
        with self._lock:
            return self._cpu


def gate(limit: int, busy: float) -> WorkerGate:
    clocks = ProcessClocks(busy)
    return WorkerGate(limit, cpu=clocks.cpu, wall=clocks.wall)


def test_a_process_busy_on_the_cpu_keeps_one_worker_sending() -> None:
    busy = gate(4, busy=0.9)

    for _ in range(50):
        busy.check()

    assert busy.active == 1


def test_a_waiting_process_lets_in_as_many_workers_as_would_keep_it_busy() -> None:
    waiting = gate(64, busy=0.2)

    waiting.check()  # the first look only marks the time
    waiting.check()

    assert waiting.active == 5  # one worker kept it 20% busy: 5 bring it to 90%
    assert gate_after(gate(4, busy=0.2), looks=2).active == 4  # never more than asked for
    assert gate_after(gate(4, busy=0.0), looks=2).active == 4


def gate_after(found: WorkerGate, *, looks: int) -> WorkerGate:
    for _ in range(looks):
        found.check()
    return found


def test_a_worker_waiting_to_send_leaves_when_the_run_ends() -> None:
    held = gate(4, busy=0.9)
    answers: list[bool] = []
    waiter = threading.Thread(target=lambda: answers.append(held.admitted(2)))
    waiter.start()

    held.close()
    waiter.join(HOLD_TIMEOUT)

    assert answers == [False]
    assert held.admitted(0)


def jobs(count: int) -> Iterator[Job]:
    for n in range(1, count + 1):
        yield Job(n, f"digest{n}", path_params={"id": str(n)})


def send(httpx_mock: HTTPXMock, worker_gate: WorkerGate, count: int) -> list[Outcome]:
    credential = Credential("sk_test_x", CredentialKind.ORG, "test")
    policy = RetryPolicy(max_retries=3, backoff=Backoff(jitter=no_jitter))
    client = Client(base_url=BASE_URL, credential=lambda: credential, policy=policy)
    stop = threading.Event()
    clock = ProcessClocks(0.0)
    pacer = Pacer(monotonic=clock.wall, sleep=lambda _s: None, backoff=policy.backoff, stop=stop)
    settled: list[Outcome] = []
    Sender(
        client=client,
        plan=Plan(Operation(id="getThing", method="GET", path="/things/{id}", retry_safe=True)),
        jobs=jobs(count),
        concurrency=4,
        pacer=pacer,
        on_outcome=settled.append,
        on_sending=lambda _job, _line: None,
        stop=stop,
        policy=policy,
        monotonic=clock.wall,
        gate=worker_gate,
    ).run()
    client.close()
    return settled


def test_a_busy_process_sends_from_one_worker_at_concurrency_4(httpx_mock: HTTPXMock) -> None:
    senders: list[int] = []
    thing_2_out = threading.Event()
    sent_meanwhile = threading.Event()

    def answered(request: httpx.Request) -> httpx.Response:
        senders.append(threading.get_ident())
        if thing_2_out.is_set():
            sent_meanwhile.set()
        return httpx.Response(200, json={})

    def held_out(request: httpx.Request) -> httpx.Response:
        # While thing 2 is out, a second worker would send thing 3.
        senders.append(threading.get_ident())
        thing_2_out.set()
        sent_meanwhile.wait(HELD_OUT)
        thing_2_out.clear()
        return httpx.Response(200, json={})

    httpx_mock.add_callback(answered, url=THING.format(1))  # sent alone, by the caller
    httpx_mock.add_callback(held_out, url=THING.format(2))
    for n in range(3, 13):
        httpx_mock.add_callback(answered, url=THING.format(n))
    worker_gate = gate(4, busy=1.0)

    settled = send(httpx_mock, worker_gate, 12)

    assert sorted(o.row for o in settled if o.outcome == "ok") == list(range(1, 13))
    assert not sent_meanwhile.is_set()
    assert len(set(senders[1:])) == 1  # one worker sent everything after the first
    assert worker_gate.active == 1


def test_a_waiting_process_sends_from_every_worker(httpx_mock: HTTPXMock) -> None:
    # Things 2-5 are answered only once all four are out at once.
    together = threading.Barrier(4, timeout=HOLD_TIMEOUT)

    def answered(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={})

    def held(request: httpx.Request) -> httpx.Response:
        together.wait()
        return httpx.Response(200, json={})

    httpx_mock.add_callback(answered, url=THING.format(1))
    for n in range(2, 6):
        httpx_mock.add_callback(held, url=THING.format(n))
    worker_gate = WorkerGate(4, cpu=lambda: 0.0)  # the real wall clock: the main thread looks

    settled = send(httpx_mock, worker_gate, 5)

    assert sorted(o.row for o in settled if o.outcome == "ok") == [1, 2, 3, 4, 5]
    assert worker_gate.active == 4
