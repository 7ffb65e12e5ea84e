"""Sending the rows: one POST /leads per row from ``--concurrency`` workers.

POST /leads is not retry-safe. Only a 429 is sent again (the service did not act), and
only a failure to connect (nothing reached it); a request that was sent and got no
answer, or got a 5xx, is an ``unknown`` outcome and is never sent again by this import.

The first row is sent alone: a wrong credential or base URL costs one request, not one
per worker. The import stops early, after the requests in flight have been answered and
recorded, when every further row would fail the same way (401, 403, 404, the service
unreachable) or when outcomes keep being unknown (the service is failing).
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from leadctl.bulk.report import Outcome
from leadctl.bulk.rows import Row
from leadctl.errors import (
    ApiError,
    BadResponse,
    Forbidden,
    LeadctlError,
    NotAuthenticated,
    OutcomeUnknown,
    ServiceFailure,
)

if TYPE_CHECKING:
    from leadctl.bulk.pacer import Pacer
    from leadctl.client import Client
    from leadctl.operations import Operation

# 429 answers one row may get before it is given up as rejected (a later --resume sends it).
ROW_RATE_LIMIT_RETRIES = 20
# Unknown outcomes in a row after which the service is taken to be failing.
UNKNOWN_STREAK_LIMIT = 10
# Answers that every other row would get too.
STOPPING_STATUSES = frozenset({401, 403, 404})
JOIN_POLL_SECONDS = 0.1
# The client counts its own attempts; the import made more.
_ATTEMPTS_SUFFIX = re.compile(r" \(after \d+ attempts?\)$")


class Importer:
    def __init__(
        self,
        *,
        client: Client,
        operation: Operation,
        rows: Iterator[Row],
        concurrency: int,
        pacer: Pacer,
        on_outcome: Callable[[Outcome], None],
        stop: threading.Event,
        max_connect_retries: int,
        backoff: Callable[[int], float],
    ) -> None:
        self._client = client
        self._operation = operation
        self._rows = rows
        self._concurrency = concurrency
        self._pacer = pacer
        self._on_outcome = on_outcome
        self._stop = stop
        self._max_connect_retries = max_connect_retries
        self._backoff = backoff
        self._rows_lock = threading.Lock()
        self._emit_lock = threading.Lock()
        self._in_flight: dict[int, Row] = {}
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
                    threading.Thread(target=self._worker, name=f"leadctl-import-{n}", daemon=True)
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

    def _take(self) -> Row | None:
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

    # -- one row -----------------------------------------------------------------------

    def _handle(self, row: Row) -> bool:
        """Settle one row; True when the service answered it (created or rejected)."""
        if row.body is None:
            self._emit(Outcome(row.number, "invalid", row.digest, error={"detail": row.problem}))
            return False
        connect_failures = 0
        refusals = 0
        while True:
            sent_at = self._pacer.acquire()
            if self._stop.is_set():
                return False  # never sent: a --resume sends it
            self._in_flight[row.number] = row
            # Ctrl-C inside the request leaves the row in flight: it is sealed as unknown.
            result = self._attempt(row)
            del self._in_flight[row.number]
            if isinstance(result, Outcome):
                self._pacer.answered()
                self._emit(result)
                return result.outcome != "unknown"
            if isinstance(result, ApiError):  # 429: the service did not act
                self._count_refusal()
                self._pacer.rate_limited(result.retry_after, sent_at)
                refusals += 1
                if refusals <= ROW_RATE_LIMIT_RETRIES:
                    continue
                self._emit(Outcome(row.number, "rejected", row.digest, error=problem_json(result)))
                return True
            if isinstance(result, ServiceFailure):  # nothing reached the service
                connect_failures += 1
                if connect_failures <= self._max_connect_retries:
                    self._pacer.pause(self._backoff(connect_failures))
                    continue
                reason = _ATTEMPTS_SUFFIX.sub("", result.message)
                result = ServiceFailure(f"{reason} ({connect_failures} attempts)", hint=result.hint)
            self._fail(result)
            return False

    def _attempt(self, row: Row) -> Outcome | ApiError | LeadctlError:
        """One request: the row's outcome, or a 429, or the reason nothing was sent."""
        try:
            response = self._client.call(self._operation, json_body=row.body)
        except ApiError as error:
            if error.status == 429:
                return error
            if error.status in STOPPING_STATUSES:
                self._fail(error)
            return Outcome(row.number, "rejected", row.digest, error=problem_json(error))
        except (OutcomeUnknown, BadResponse) as error:
            return Outcome(row.number, "unknown", row.digest, error={"detail": error.message})
        except (ServiceFailure, NotAuthenticated, Forbidden) as error:
            # For an operation that is not retry-safe the client raises these only when
            # nothing was sent (no connection, TLS refused, no usable credential).
            return error
        except Exception as error:
            # Anything else may have happened after the request left: never send it again.
            self._fail(error)
            detail = error.message if isinstance(error, LeadctlError) else type(error).__name__
            return Outcome(row.number, "unknown", row.digest, error={"detail": detail})
        return Outcome(row.number, "created", row.digest, id=_lead_id(response.content))

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
            for row in list(self._in_flight.values()):
                self._on_outcome(
                    Outcome(
                        row.number,
                        "unknown",
                        row.digest,
                        error={"detail": "interrupted before the service answered"},
                    )
                )
            self._sealed = True


def problem_json(error: ApiError) -> dict[str, Any]:
    """The service's problem document, as received (status, title and detail filled in
    when the answer had none)."""
    body: dict[str, Any] = dict(error.problem) if error.problem else {}
    body.setdefault("status", error.status)
    if error.title is not None:
        body.setdefault("title", error.title)
    if error.detail is not None:
        body.setdefault("detail", error.detail)
    return body


def _lead_id(content: bytes) -> str | None:
    try:
        lead = json.loads(content)
    except (ValueError, UnicodeDecodeError):
        return None
    lead_id = lead.get("id") if isinstance(lead, dict) else None
    return str(lead_id) if lead_id is not None else None


def _join(threads: list[threading.Thread]) -> None:
    # Joined with a timeout so that Ctrl-C reaches the main thread while workers run.
    for thread in threads:
        while thread.is_alive():
            thread.join(JOIN_POLL_SECONDS)
