"""Sending the jobs of a bulk run: one request per job from ``--concurrency`` workers.

The same engine sends ``leads import`` rows (POST /leads) and ``batch`` lines (any
operation). What may be sent again follows the client's :class:`~leadctl.retry.Delivery`
of each send, never the type of an exception:

- a 429 (the service did not act) waits on the shared :class:`~leadctl.bulk.pacer.Pacer`
  and is sent again, for as long as ``RATE_LIMIT_PATIENCE`` allows;
- not sent at all (no connection): the whole run pauses with backoff and it is sent
  again, up to ``--max-retries`` times, then the run stops (the service is unreachable);
- sent without an answer, or answered 5xx: sent again (backoff, ``--max-retries``) only
  when the operation is retry-safe or the job carries an idempotency key; otherwise the
  job's outcome is ``unknown`` and it is never sent again by this run.

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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from leadctl.bulk.report import Outcome
from leadctl.errors import (
    ApiError,
    LeadctlError,
    OutcomeUnknown,
    ServiceFailure,
)
from leadctl.retry import Delivery, effect_unknown, may_resend
from leadctl.util.jsontext import loads_service

if TYPE_CHECKING:
    from leadctl.bulk.pacer import Pacer
    from leadctl.client import Client, Exchange
    from leadctl.operations import Operation
    from leadctl.retry import RetryPolicy

# How long one job may keep being refused (429) before it is given up as rejected (a later
# --resume sends it). Long enough for any window a service keeps (an hour is common).
RATE_LIMIT_PATIENCE = 3600.0
# Unknown outcomes in a row after which the service is taken to be failing.
UNKNOWN_STREAK_LIMIT = 10
JOIN_POLL_SECONDS = 0.1


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


@dataclass(frozen=True)
class Plan:
    """What the engine needs to know about the operation all jobs call."""

    operation: Operation
    success: str = "ok"  # the outcome word for a 2xx answer ("created" for the import)
    stopping: frozenset[int] = frozenset({401, 403})
    keep_result: bool = False  # report the answer's body with each outcome


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
        stop: threading.Event,
        policy: RetryPolicy,
        monotonic: Callable[[], float],
    ) -> None:
        self._client = client
        self._plan = plan
        self._rows = jobs
        self._concurrency = concurrency
        self._pacer = pacer
        self._on_outcome = on_outcome
        self._stop = stop
        self._policy = policy
        self._monotonic = monotonic
        self._rows_lock = threading.Lock()
        self._emit_lock = threading.Lock()
        self._in_flight: dict[int, Job] = {}
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
                    threading.Thread(target=self._worker, name=f"leadctl-bulk-{n}", daemon=True)
                    for n in range(self._concurrency)
                ]
                for thread in threads:
                    thread.start()
                _join(threads)
        except KeyboardInterrupt:
            self._stop.set()
            self.interrupted = True
            # Asked twice: stop waiting for the answers in flight.
            with contextlib.suppress(KeyboardInterrupt):
                _join(threads)
            self._seal_in_flight()
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

    def _worker(self) -> None:
        try:
            while True:
                row = self._take()
                if row is None:
                    return
                self._handle(row)
        except BaseException as error:  # a bug must stop the import, not vanish with a thread
            self._fail(error)

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
            self._emit(Outcome(job.number, "invalid", job.digest, error={"detail": job.problem}))
            return False
        op = self._plan.operation
        job = _with_key(job, op)
        resendable = op.retry_safe or job.key is not None
        first_refused: float | None = None
        failures = 0  # not sent, or (resendable) no answer / 5xx
        while True:
            sent_at = self._pacer.acquire()
            if self._stop.is_set():
                return False  # never sent: a --resume sends it
            self._in_flight[job.number] = job
            # Ctrl-C inside the request leaves the job in flight: it is sealed as unknown.
            try:
                sent = self._send(job, failures + 1)
            except LeadctlError as error:  # nothing sent: no usable credential, bad path
                del self._in_flight[job.number]
                self._fail(error)
                return False
            except Exception as error:
                # A bug, perhaps after the request left: never send it again.
                del self._in_flight[job.number]
                self._fail(error)
                self._emit(
                    Outcome(
                        job.number,
                        "unknown",
                        job.digest,
                        error={"detail": type(error).__name__},
                        key=job.key,
                    )
                )
                return False
            del self._in_flight[job.number]
            status = sent.status
            if status == 429:
                self._count_refusal()
                self._pacer.rate_limited(sent.retry_after, sent_at)
                now = self._monotonic()
                first_refused = now if first_refused is None else first_refused
                if now - first_refused < RATE_LIMIT_PATIENCE:
                    continue
                self._emit(self._rejected(job, sent))
                return True
            if sent.delivery is Delivery.NOT_SENT:
                failures += 1
                if sent.retryable and self._policy.allows(failures):
                    self._pacer.pause(self._policy.backoff.delay(failures))
                    continue
                assert sent.error is not None
                reason = sent.error.message
                self._fail(
                    ServiceFailure(f"{reason} ({failures} attempts)", hint=sent.error.hint)
                    if sent.retryable
                    else sent.error
                )
                return False
            if sent.delivery is Delivery.ANSWERED:
                self._pacer.answered(sent_at)
            if effect_unknown(sent.delivery, status):
                failures += 1
                if may_resend(sent.delivery, status, retry_safe=resendable) and (
                    self._policy.allows(failures)
                ):
                    self._pacer.pause(self._policy.wait(failures, sent.retry_after))
                    continue
                if not resendable:
                    self._emit(self._unknown(job, sent))
                    return False
                self._emit(self._rejected(job, sent))
                return True
            if sent.ok:
                self._emit(self._succeeded(job, sent))
                return True
            if sent.response is None:  # answered, but the body was unusable
                settled = self._rejected(job, sent) if resendable else self._unknown(job, sent)
                self._emit(settled)
                return resendable
            if status in self._plan.stopping and isinstance(sent.error, ApiError):
                self._fail(sent.error)
            self._emit(self._rejected(job, sent))
            return True

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
        )

    def _rejected(self, job: Job, sent: Exchange) -> Outcome:
        error = sent.error
        detail = error.problem_document() if isinstance(error, ApiError) else _detail(error, sent)
        return Outcome(
            job.number,
            "rejected",
            job.digest,
            error=detail,
            status=sent.status if self._plan.keep_result else None,
            key=job.key,
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
        )

    def _count_refusal(self) -> None:
        with self._emit_lock:
            self.rate_limited += 1

    # -- outcomes ----------------------------------------------------------------------

    def _emit(self, outcome: Outcome) -> None:
        with self._emit_lock:
            if self._sealed:
                return
            self._on_outcome(outcome)
            if outcome.outcome == "unknown":
                self._unknown_streak += 1
                if self._unknown_streak >= UNKNOWN_STREAK_LIMIT:
                    self._fail(
                        OutcomeUnknown(
                            f"stopped after {self._unknown_streak} outcomes in a row were "
                            "unknown: the service is failing"
                        )
                    )
            elif outcome.outcome != "invalid":
                self._unknown_streak = 0

    def _seal_in_flight(self) -> None:
        """Record the requests still unanswered as unknown; later answers are dropped."""
        with self._emit_lock:
            for job in list(self._in_flight.values()):
                self._on_outcome(
                    Outcome(
                        job.number,
                        "unknown",
                        job.digest,
                        error={"detail": "interrupted before the service answered"},
                        key=job.key,
                    )
                )
            self._sealed = True


def _with_key(job: Job, op: Operation) -> Job:
    """A job of an operation that takes an idempotency key carries one from its first send,
    so every resend repeats it (the client would make a fresh one per request)."""
    idem = op.idempotency
    if idem is None or job.key is not None:
        return job
    key = str(uuid.uuid4())
    if idem.where == "header":
        return replace(job, key=key, headers=(*job.headers, (idem.name, key)))
    if isinstance(job.body, dict) and job.body.get(idem.name) in (None, ""):
        return replace(job, key=key, body={**job.body, idem.name: key})
    given = job.body.get(idem.name) if isinstance(job.body, dict) else None
    return replace(job, key=str(given)) if given else job


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


def _join(threads: list[threading.Thread]) -> None:
    # Joined with a timeout so that Ctrl-C reaches the main thread while workers run.
    for thread in threads:
        while thread.is_alive():
            thread.join(JOIN_POLL_SECONDS)
