"""Sending the jobs of a bulk run: one request per job from ``--concurrency`` workers.

The same engine sends ``leads import`` rows (POST /leads) and ``batch`` lines (any
operation). What may be sent again, and when, is :func:`leadctl.http.resend.decide`'s
verdict on each send (as for a single request), never the type of an exception:

- a 429 (the service did not act) waits on the shared :class:`~leadctl.http.pacer.Pacer`
  and is sent again, for as long as ``http.resend.RATE_LIMIT_PATIENCE`` allows;
- not sent at all (no connection): the whole run pauses with backoff and it is sent
  again, up to ``--max-retries`` times, then the run stops (the service is unreachable);
- sent without an answer, or answered 5xx: sent again (backoff, ``--max-retries``) only
  when the operation is retry-safe (an idempotency key makes it so, unless the contract or
  a profile's retry_unsafe_operations says otherwise); otherwise the
  job's outcome is ``unknown`` and it is never sent again by this run.

Before a job's first request leaves, ``on_sending`` records it (the report's write-ahead
``sending`` line, with its idempotency key). A job the run stops with (Ctrl-C, a failure)
after it was sent at least once is settled all the same: ``unknown`` when some send may
have acted (no answer, a 5xx), ``unsent`` when none could (only 429s or no connection);
its key goes with it, so a resend repeats it.

A plan may ``prepare`` each job before its first send (a batch PUT reads the resource and
merges the line into it); that read is paced like any request.

The first job is sent alone: a wrong credential or base URL costs one request, not one
per worker. The run stops early, after the requests in flight have been answered and
recorded, when every further job would fail the same way (401, 403, and for the import
404; the service unreachable) or when outcomes keep being unknown (the service is failing).
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from leadctl.bulk.report import SENDING, UNKNOWN, UNSENT, Outcome
from leadctl.bulk.workers import CHECK_SECONDS, WorkerGate
from leadctl.errors import (
    ApiError,
    LeadctlError,
    OutcomeUnknown,
    UsageError,
)
from leadctl.http.resend import Tries, Verdict, decide, failure
from leadctl.http.retry import Delivery, effect_unknown
from leadctl.util.jsontext import loads_service

if TYPE_CHECKING:
    from leadctl.contract.operations import Operation
    from leadctl.http.client import Client, Exchange
    from leadctl.http.pacer import Pacer
    from leadctl.http.retry import RetryPolicy

# Unknown outcomes in a row after which the service is taken to be failing.
UNKNOWN_STREAK_LIMIT = 10
JOIN_POLL_SECONDS = CHECK_SECONDS


@dataclass(frozen=True)
class Job:
    """One request of a bulk run: a numbered input row or line and what to send for it."""

    number: int
    digest: str
    problem: str | None = None  # why it is invalid (then nothing is sent)
    path_params: Mapping[str, str] | None = None
    params: Mapping[str, Any] | None = None
    body: Any = None
    headers: tuple[tuple[str, str], ...] = ()
    # The idempotency key sent with it: the service recognises a repeat, so an unknown
    # outcome may be sent again (with the same key).
    key: str | None = None


# A job made ready to send (a read-modify-write PUT's whole body); UsageError: it cannot be
# (the job is invalid), ApiError: the service refused what it needed (rejected).
Prepare = Callable[[Job], Job]


@dataclass(frozen=True)
class Plan:
    """What the engine needs to know about the operation all jobs call."""

    operation: Operation
    success: str = "ok"  # the outcome word for a 2xx answer ("created" for the import)
    stopping: frozenset[int] = frozenset({401, 403})
    keep_result: bool = False  # report the answer's body with each outcome
    prepare: Prepare | None = None
    # How a refusal of the prepared request reads, by status (a 412 after a read: the
    # resource changed meanwhile).
    refusals: Mapping[int, str] = field(default_factory=dict)


@dataclass
class _Open:
    """A job sent at least once and not settled yet."""

    job: Job
    maybe_acted: bool = False  # a send went without an answer, or was answered 5xx
    in_flight: bool = False


class Sender:
    def __init__(
        self,
        *,
        client: Client,
        plan: Plan,
        jobs: Iterator[Job],
        concurrency: int,
        pacer: Pacer,
        on_outcome: Callable[[Outcome], None],
        on_sending: Callable[[Job, Outcome], None],
        stop: threading.Event,
        policy: RetryPolicy,
        monotonic: Callable[[], float],
        gate: WorkerGate | None = None,
    ) -> None:
        self._client = client
        self._plan = plan
        self._rows = jobs
        self._concurrency = concurrency
        self._pacer = pacer
        self._on_outcome = on_outcome
        self._on_sending = on_sending
        self._stop = stop
        self._policy = policy
        self._monotonic = monotonic
        # How many of the workers send at once (leadctl.bulk.workers).
        self.gate = gate if gate is not None else WorkerGate(concurrency)
        self._rows_lock = threading.Lock()
        self._emit_lock = threading.Lock()
        self._open: dict[int, _Open] = {}
        self._sealed = False
        self._unknown_streak = 0
        self._failure: BaseException | None = None
        self.rate_limited = 0
        self.interrupted = False

    # -- running ---------------------------------------------------------------------

    def run(self) -> None:
        """Send every row; raises what stopped the import early, if anything did."""
        threads: list[threading.Thread] = []
        try:
            if self._send_first():
                threads = [
                    threading.Thread(
                        target=self._worker, args=(n,), name=f"leadctl-bulk-{n}", daemon=True
                    )
                    for n in range(self._concurrency)
                ]
                for thread in threads:
                    thread.start()
                self.gate.check()  # from now on, how busy the process is
                _join(threads, every=self.gate.check)
        except KeyboardInterrupt:
            self._stop.set()
            self.gate.close()
            self.interrupted = True
            # Asked twice: stop waiting for the answers in flight.
            with contextlib.suppress(KeyboardInterrupt):
                _join(threads)
            self._seal_open()
        if self._failure is not None:
            raise self._failure

    def _send_first(self) -> bool:
        """Rows in this thread until one request is answered; False when nothing is left."""
        while True:
            row = self._take()
            if row is None:
                return False
            if self._handle(row):
                return not self._stop.is_set()

    def _worker(self, number: int) -> None:
        try:
            if not self.gate.admitted(number):
                return
            while True:
                row = self._take()
                if row is None:
                    return
                self._handle(row)
        except BaseException as error:  # a bug must stop the import, not vanish with a thread
            self._fail(error)
        finally:
            self.gate.close()  # no job left for the workers still waiting to send

    def _take(self) -> Job | None:
        with self._rows_lock:
            if self._stop.is_set():
                return None
            try:
                return next(self._rows)
            except StopIteration:
                return None
            except LeadctlError as error:  # e.g. --resume found the file changed
                self._fail(error)
                return None

    def _fail(self, error: BaseException) -> None:
        if self._failure is None:
            self._failure = error
        self._stop.set()

    # -- one job -----------------------------------------------------------------------

    def _handle(self, job: Job) -> bool:
        """Settle one job; True when the service answered it (success or rejected)."""
        if job.problem is not None:
            self._emit(self._invalid(job, job.problem))
            return False
        op = self._plan.operation
        job = _with_key(job, op)
        prepared = self._plan.prepare is None
        tries = Tries()
        while True:
            sent_at = self._pacer.acquire()
            if self._stop.is_set():
                self._abandon(job, "the run stopped before it was sent again")
                return False  # never sent: a --resume sends it
            if not prepared:
                ready = self._prepared(job)
                if ready is None:
                    return False
                job, prepared = ready, True
                continue  # the read took this slot; the request takes the next
            try:
                opened = self._opening(job)
            except OSError as error:  # the report cannot record it: it is not sent
                self._fail(UsageError(f"cannot write the report: {error.strerror or error}"))
                return False
            # Ctrl-C inside the request leaves the job in flight: it is sealed as unknown.
            try:
                sent = self._send(job, tries.attempt)
            except LeadctlError as error:  # nothing sent: no usable credential, bad path
                opened.in_flight = False
                self._fail(error)
                self._abandon(job, error.message)
                return False
            except Exception as error:
                # A bug, perhaps after the request left: never send it again.
                self._fail(error)
                self._settle(self._interrupted(job, UNKNOWN, type(error).__name__))
                return False
            opened.in_flight = False
            # The pace hears of every answer; whether the job goes again is decide()'s.
            if sent.status == 429:
                self._count_refusal()
                self._pacer.rate_limited(sent.retry_after, sent_at)
            elif sent.delivery is Delivery.ANSWERED:
                self._pacer.answered(sent_at)
            if effect_unknown(sent.delivery, sent.status):
                opened.maybe_acted = True
            decision = decide(
                sent,
                tries,
                retry_safe=op.retry_safe,
                paced=True,  # every worker waits out a 429 on the run's one pace
                policy=self._policy,
                monotonic=self._monotonic,
            )
            verdict = decision.verdict
            if verdict is Verdict.RESEND:
                tries = decision.tries
                if decision.wait is not None:
                    self._pacer.pause(decision.wait)  # the whole run waits
                continue
            if verdict is Verdict.SUCCEEDED:
                self._settle(self._succeeded(job, sent))
                return True
            if verdict is Verdict.UNKNOWN:
                self._settle(self._unknown(job, sent))
                return False
            if verdict is Verdict.FAILED and sent.delivery is Delivery.NOT_SENT:
                # The service cannot be reached: every further job would fail the same way.
                assert sent.error is not None
                self._fail(failure(decision, sent, op))
                self._abandon(job, sent.error.message)
                return False
            if (
                verdict is Verdict.REFUSED
                and sent.status in self._plan.stopping
                and isinstance(sent.error, ApiError)
            ):
                self._fail(sent.error)
            self._settle(self._rejected(job, sent))
            return True

    def _prepared(self, job: Job) -> Job | None:
        """The plan's preparation of ``job`` (None: it was settled instead)."""
        assert self._plan.prepare is not None
        try:
            return self._plan.prepare(job)
        except UsageError as error:
            self._emit(self._invalid(job, error.message))
        except ApiError as error:
            self._emit(
                Outcome(
                    job.number,
                    "rejected",
                    job.digest,
                    error=error.problem_document(),
                    status=error.status if self._plan.keep_result else None,
                    params=job.path_params,
                )
            )
            if error.status in self._plan.stopping:
                self._fail(error)
        except LeadctlError as error:  # the service unreachable: nothing was sent for it
            self._fail(error)
        return None

    def _opening(self, job: Job) -> _Open:
        """The job as sent: before its first send, recorded as being sent (write-ahead)."""
        found = self._open.get(job.number)
        if found is None:
            self._on_sending(
                job,
                Outcome(job.number, SENDING, job.digest, key=job.key, params=job.path_params),
            )
            found = _Open(job)
            with self._emit_lock:
                self._open[job.number] = found
        found.in_flight = True
        return found

    def _abandon(self, job: Job, reason: str) -> None:
        """The run stops with ``job`` not settled: record it when it was sent before."""
        with self._emit_lock:
            opened = self._open.get(job.number)
        if opened is None:
            return
        outcome = UNKNOWN if opened.maybe_acted or opened.in_flight else UNSENT
        self._settle(self._interrupted(job, outcome, reason))

    def _interrupted(self, job: Job, outcome: str, reason: str) -> Outcome:
        if outcome == UNKNOWN:
            op = self._plan.operation
            reason = f"{reason}; {op.method} {op.path} may or may not have taken effect"
        else:
            reason = f"{reason}; the service did not act on it"
        return Outcome(
            job.number,
            outcome,
            job.digest,
            error={"detail": reason},
            key=job.key,
            params=job.path_params,
        )

    def _send(self, job: Job, attempt: int) -> Exchange:
        request, secrets = self._client.build(
            self._plan.operation,
            path_params=job.path_params,
            params=job.params,
            json_body=job.body,
            headers=job.headers,
        )
        return self._client.exchange(request, secrets=secrets, attempt=attempt)

    def _succeeded(self, job: Job, sent: Exchange) -> Outcome:
        assert sent.response is not None
        content = sent.response.content
        body = _json_or_none(content)
        ident = body.get("id") if isinstance(body, dict) else None
        keep = self._plan.keep_result
        return Outcome(
            job.number,
            self._plan.success,
            job.digest,
            id=str(ident) if ident is not None else None,
            status=sent.status if keep else None,
            result=body if keep else None,
            key=job.key,
            params=job.path_params,
        )

    def _rejected(self, job: Job, sent: Exchange) -> Outcome:
        error = sent.error
        detail = error.problem_document() if isinstance(error, ApiError) else _detail(error, sent)
        ours = self._plan.refusals.get(sent.status or 0)
        if ours is not None:
            detail = {**detail, "detail": ours}
        return Outcome(
            job.number,
            "rejected",
            job.digest,
            error=detail,
            status=sent.status if self._plan.keep_result else None,
            key=job.key,
            params=job.path_params,
        )

    def _invalid(self, job: Job, problem: str) -> Outcome:
        return Outcome(
            job.number, "invalid", job.digest, error={"detail": problem}, params=job.path_params
        )

    def _unknown(self, job: Job, sent: Exchange) -> Outcome:
        op = self._plan.operation
        reason = sent.reason if sent.delivery is Delivery.NO_ANSWER else _detail_text(sent)
        return Outcome(
            job.number,
            "unknown",
            job.digest,
            error={"detail": f"{reason}; {op.method} {op.path} may or may not have taken effect"},
            status=sent.status if self._plan.keep_result else None,
            key=job.key,
            params=job.path_params,
        )

    def _count_refusal(self) -> None:
        with self._emit_lock:
            self.rate_limited += 1

    # -- outcomes ----------------------------------------------------------------------

    def _settle(self, outcome: Outcome) -> None:
        """The final outcome of a job that was sent."""
        with self._emit_lock:
            self._open.pop(outcome.row, None)
        self._emit(outcome)

    def _emit(self, outcome: Outcome) -> None:
        with self._emit_lock:
            if self._sealed:
                return
            self._on_outcome(outcome)
            if outcome.outcome == UNKNOWN:
                self._unknown_streak += 1
                if self._unknown_streak >= UNKNOWN_STREAK_LIMIT:
                    self._fail(
                        OutcomeUnknown(
                            f"stopped after {self._unknown_streak} outcomes in a row were "
                            "unknown: the service is failing"
                        )
                    )
            elif outcome.outcome not in ("invalid", UNSENT):
                self._unknown_streak = 0

    def _seal_open(self) -> None:
        """After Ctrl-C: record every job still open (in flight, or waiting to be sent
        again) with its key; answers arriving later are dropped."""
        with self._emit_lock:
            for opened in list(self._open.values()):
                if opened.in_flight:
                    reason = "interrupted before the service answered"
                else:
                    reason = "interrupted while waiting to be sent again"
                outcome = UNKNOWN if opened.maybe_acted or opened.in_flight else UNSENT
                self._on_outcome(self._interrupted(opened.job, outcome, reason))
            self._open.clear()
            self._sealed = True


def _with_key(job: Job, op: Operation) -> Job:
    """A job of an operation that takes an idempotency key carries one from its first send,
    so every resend repeats it (the client would make a fresh one per request). A key the
    job already has (the line's own, or the report's for a resumed line) is the one sent."""
    idem = op.idempotency
    if idem is None:
        return job
    if idem.where == "header":
        given = next((v for n, v in job.headers if n.lower() == idem.name.lower()), None)
        if given:
            return replace(job, key=given)
        key = job.key or str(uuid.uuid4())
        return replace(job, key=key, headers=(*job.headers, (idem.name, key)))
    if not isinstance(job.body, dict):
        return job
    own = job.body.get(idem.name)
    if own not in (None, ""):
        return replace(job, key=str(own))
    key = job.key or str(uuid.uuid4())
    return replace(job, key=key, body={**job.body, idem.name: key})


def _json_or_none(content: bytes) -> Any:
    if not content:
        return None
    try:
        return loads_service(content)
    except (ValueError, UnicodeDecodeError):
        return None


def _detail_text(sent: Exchange) -> str:
    if sent.error is not None:
        return sent.error.message
    return f"the service answered {sent.status}" if sent.status else sent.reason


def _detail(error: LeadctlError | None, sent: Exchange) -> dict[str, Any]:
    body: dict[str, Any] = {"detail": error.message if error is not None else sent.reason}
    if sent.status is not None:
        body["status"] = sent.status
    return body


def _join(threads: list[threading.Thread], every: Callable[[], None] | None = None) -> None:
    # Joined with a timeout so that Ctrl-C reaches the main thread while workers run; the
    # worker gate is looked at between polls.
    for thread in threads:
        while thread.is_alive():
            thread.join(JOIN_POLL_SECONDS)
            if every is not None:
                every()
