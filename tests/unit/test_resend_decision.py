"""The one resend decision (``http/resend.decide``), row by row of cli.md "Retries" (and
"Paging": ``--all`` waits out 429s), with the exit code each end leads to (``failure``).

Every case is one send as ``Client.exchange`` reports it, of a real operation (the bundled
contract's, a keyed one compiled from a contract, the profile's overrides applied), judged
as the client judges single requests and pages (``paced`` = the operation is paged) or as
the bulk sender judges every job (``paced=True``). Waits are deterministic: the jitter is
the midpoint of its range, so a backoff wait is half its ceiling and a Retry-After wait is
visibly unjittered.
"""

from __future__ import annotations

from typing import NamedTuple

import httpx
import pytest

from leadctl.contract.index import compile_index
from leadctl.contract.operations import Operation, bundled_operation
from leadctl.errors import ApiError, BadResponse, ExitCode, ServiceFailure
from leadctl.http.client import Exchange
from leadctl.http.resend import RATE_LIMIT_PATIENCE, Tries, Verdict, decide, failure
from leadctl.http.retry import Backoff, Delivery, RetryPolicy
from tests.support.payments import PAYMENTS

NOW = 10_000.0


def _keyed() -> Operation:
    """createPayment: a POST that takes an Idempotency-Key header (retry-safe by its key)."""
    index, _bundle = compile_index(
        PAYMENTS,
        raw=b"{}",
        source="test",
        imported_at=None,
        curated_verbs={},
        leadctl_version="test",
    )
    [entry] = index["operations"]
    return Operation.from_entry(entry)


READ = bundled_operation("GET", "/lead-statuses")
QUERY = bundled_operation("POST", "/leads/all/my")  # a collection query: a read, paged
ANNOUNCEMENTS = bundled_operation("POST", "/notifications/announcements")
PUT = bundled_operation("PUT", "/sources/{id}")
CREATE = bundled_operation("POST", "/leads")
ROTATE = bundled_operation("POST", "/sources/{id}/credentials/rotate")
A2A = bundled_operation("POST", "/a2a")
KEYED = _keyed()
KEYED_MARKED_UNSAFE = KEYED.with_overrides({"retry_unsafe_operations": "createPayment"})
READ_MARKED_UNSAFE = READ.with_overrides({"retry_unsafe_operations": "GET /lead-statuses"})
CREATE_MARKED_SAFE = CREATE.with_overrides({"retry_safe_operations": "POST /leads"})


def answer(status: int, retry_after: float | None = None) -> Exchange:
    """An answer as ``exchange`` reports it (a 4xx/5xx carries the service's problem)."""
    response = httpx.Response(status)
    if status < 400:
        return Exchange(Delivery.ANSWERED, response=response, reason=str(status))
    return Exchange(
        Delivery.ANSWERED,
        response=response,
        error=ApiError(status, title="refused"),
        retry_after=retry_after,
        retryable=status == 429 or status >= 500,
        reason="429 rate limited" if status == 429 else str(status),
    )


def no_answer(reason: str) -> Exchange:
    return Exchange(Delivery.NO_ANSWER, error=ServiceFailure(reason), reason=reason)


TIMEOUT = no_answer("timed out waiting for the service")
DROPPED = no_answer("the connection was closed before a complete response arrived")
REFUSED = Exchange(
    Delivery.NOT_SENT,
    error=ServiceFailure("cannot connect to https://api.example.test/x: refused"),
    reason="cannot connect",
)
TLS = Exchange(
    Delivery.NOT_SENT,
    error=ServiceFailure("TLS verification failed: bad certificate"),
    retryable=False,
    reason="TLS verification failed",
)
UNREADABLE = Exchange(
    Delivery.ANSWERED,
    error=BadResponse("the response body could not be decoded (bad Content-Encoding)"),
    retryable=False,
    reason="the response body could not be decoded (bad Content-Encoding)",
)


class Case(NamedTuple):
    op: Operation
    sent: Exchange
    verdict: Verdict
    wait: float | None = None  # RESEND: the wait; None for a paced 429 (the pacer's)
    exit: ExitCode | None = None  # an end: the exit code of failure()
    spent: int = 0  # failed sends counted before this one
    max_retries: int = 4
    paced: bool | None = None  # None: as the client does, the operation's paging
    refused_for: float | None = None  # a paced request refused (429) since this long
    spent_after: int | None = None  # the budget used after this send, for RESEND


R = Verdict
CASES: dict[str, Case] = {
    # "Reads (including POST /leads/all/my and POST /notifications/announcements) and PUTs
    # are retry-safe: they are retried on 429, 5xx, connection errors and timeouts"
    "read: 429 resent": Case(READ, answer(429), R.RESEND, wait=0.25, spent_after=1),
    "read: 500 resent": Case(READ, answer(500), R.RESEND, wait=0.25, spent_after=1),
    "read: connection error resent": Case(READ, REFUSED, R.RESEND, wait=0.25, spent_after=1),
    "read: timeout resent": Case(READ, TIMEOUT, R.RESEND, wait=0.25, spent_after=1),
    "read: dropped answer resent": Case(READ, DROPPED, R.RESEND, wait=0.25, spent_after=1),
    "collection query: 503 resent": Case(QUERY, answer(503), R.RESEND, wait=0.25),
    "collection query: timeout resent": Case(QUERY, TIMEOUT, R.RESEND, wait=0.25),
    "announcements: 502 resent": Case(ANNOUNCEMENTS, answer(502), R.RESEND, wait=0.25),
    "PUT: 500 resent": Case(PUT, answer(500), R.RESEND, wait=0.25),
    "PUT: timeout resent": Case(PUT, TIMEOUT, R.RESEND, wait=0.25),
    # "with exponential backoff and jitter ... capped at 20 s"
    "backoff doubles: third retry": Case(READ, answer(500), R.RESEND, wait=1.0, spent=2),
    "backoff is capped at 20 s": Case(
        READ, answer(500), R.RESEND, wait=10.0, spent=9, max_retries=10, spent_after=10
    ),
    # "honoring Retry-After exactly when given ... (no jitter added)"
    "Retry-After on a 503 exactly": Case(READ, answer(503, 7.0), R.RESEND, wait=7.0),
    "Retry-After on a 429 exactly": Case(READ, answer(429, 3.0), R.RESEND, wait=3.0),
    "Retry-After 0 is no wait": Case(READ, answer(429, 0.0), R.RESEND, wait=0.0),
    "Retry-After beyond the cap is still exact": Case(READ, answer(429, 90.0), R.RESEND, 90.0),
    # "Non-retry-safe operations (POST /leads, .../rotate, POST /a2a) are retried only on
    # 429 (the service did not act)"
    "lead creation: 429 resent": Case(CREATE, answer(429, 2.0), R.RESEND, wait=2.0),
    "rotation: 429 resent": Case(ROTATE, answer(429), R.RESEND, wait=0.25),
    "a2a: 429 resent": Case(A2A, answer(429), R.RESEND, wait=0.25),
    # "any other failure after the request was sent is exit 9"
    "lead creation: 500 unknown": Case(CREATE, answer(500), R.UNKNOWN, exit=ExitCode(9)),
    "lead creation: 503 + Retry-After unknown": Case(
        CREATE, answer(503, 1.0), R.UNKNOWN, exit=ExitCode(9)
    ),
    "lead creation: timeout unknown": Case(CREATE, TIMEOUT, R.UNKNOWN, exit=ExitCode(9)),
    "rotation: timeout unknown": Case(ROTATE, TIMEOUT, R.UNKNOWN, exit=ExitCode(9)),
    "a2a: dropped answer unknown": Case(A2A, DROPPED, R.UNKNOWN, exit=ExitCode(9)),
    "lead creation: unreadable answer unknown": Case(
        CREATE, UNREADABLE, R.UNKNOWN, exit=ExitCode(9)
    ),
    # ... and before it was sent, nothing acted: resent whatever the operation
    "lead creation: connection error resent": Case(CREATE, REFUSED, R.RESEND, wait=0.25),
    # "--max-retries N allows at most N+1 attempts"
    "budget: attempt N resent": Case(
        READ, answer(500), R.RESEND, wait=0.5, spent=1, max_retries=2, spent_after=2
    ),
    "budget: 5xx at attempt N+1 is exit 8": Case(
        READ, answer(500), R.FAILED, exit=ExitCode(8), spent=2, max_retries=2
    ),
    "budget: timeout at attempt N+1 is exit 8": Case(
        READ, TIMEOUT, R.FAILED, exit=ExitCode(8), spent=2, max_retries=2
    ),
    "budget: connection error at attempt N+1 is exit 8": Case(
        CREATE, REFUSED, R.FAILED, exit=ExitCode(8), spent=2, max_retries=2
    ),
    "budget: 429 at attempt N+1 is exit 7": Case(
        READ, answer(429), R.RATE_LIMITED, exit=ExitCode(7), spent=2, max_retries=2
    ),
    "budget: lead creation 429 at attempt N+1 is exit 7": Case(
        CREATE, answer(429, 1.0), R.RATE_LIMITED, exit=ExitCode(7), spent=2, max_retries=2
    ),
    "budget 0: one attempt only": Case(
        READ, answer(503), R.FAILED, exit=ExitCode(8), max_retries=0
    ),
    # "400, 401, 403 and 404 are never retried"
    "400 refused": Case(READ, answer(400), R.REFUSED, exit=ExitCode(6)),
    "401 refused": Case(READ, answer(401), R.REFUSED, exit=ExitCode(3)),
    "403 refused": Case(PUT, answer(403), R.REFUSED, exit=ExitCode(4)),
    "404 refused": Case(READ, answer(404), R.REFUSED, exit=ExitCode(5)),
    "409 refused": Case(CREATE, answer(409), R.REFUSED, exit=ExitCode(6)),
    # "an operation that takes an idempotency key ... is then retried like a read"
    "keyed: 500 resent": Case(KEYED, answer(500), R.RESEND, wait=0.25),
    "keyed: timeout resent": Case(KEYED, TIMEOUT, R.RESEND, wait=0.25),
    # "Profile keys retry_safe_operations / retry_unsafe_operations override all of this"
    "profile unsafe beats the key": Case(KEYED_MARKED_UNSAFE, TIMEOUT, R.UNKNOWN, exit=ExitCode(9)),
    "profile unsafe read: 503 unknown": Case(
        READ_MARKED_UNSAFE, answer(503), R.UNKNOWN, exit=ExitCode(9)
    ),
    "profile safe lead creation: 500 resent": Case(
        CREATE_MARKED_SAFE, answer(500), R.RESEND, wait=0.25
    ),
    # Paging: "--all waits out 429s ... whatever --max-retries says ... exit 7 is for
    # single requests"; the bulk sender paces every job the same way
    "paging: 429 waits on the pace, budget untouched": Case(
        QUERY, answer(429), R.RESEND, spent=0, max_retries=0, spent_after=0
    ),
    "paging: 429 with Retry-After waits on the pace": Case(QUERY, answer(429, 30.0), R.RESEND),
    "paging: still refused after 59 minutes waits": Case(
        QUERY, answer(429), R.RESEND, refused_for=RATE_LIMIT_PATIENCE - 60
    ),
    "paging: refused for an hour is exit 7": Case(
        QUERY, answer(429), R.RATE_LIMITED, exit=ExitCode(7), refused_for=RATE_LIMIT_PATIENCE
    ),
    "single read: 429 spends the budget": Case(
        READ, answer(429), R.RATE_LIMITED, exit=ExitCode(7), max_retries=0
    ),
    "bulk lead creation: 429 waits on the pace": Case(
        CREATE, answer(429), R.RESEND, paced=True, spent=4, spent_after=4
    ),
    "bulk lead creation: 500 unknown": Case(
        CREATE, answer(500), R.UNKNOWN, exit=ExitCode(9), paced=True
    ),
    "bulk read: timeout resent with backoff": Case(READ, TIMEOUT, R.RESEND, 0.25, paced=True),
    # Nothing sending again could mend
    "TLS failure is not resent": Case(READ, TLS, R.FAILED, exit=ExitCode(8)),
    "read: unreadable answer is exit 8": Case(READ, UNREADABLE, R.FAILED, exit=ExitCode(8)),
    # Answers
    "200 succeeded": Case(CREATE, answer(200), R.SUCCEEDED),
    "201 succeeded": Case(KEYED, answer(201), R.SUCCEEDED),
    "a redirect is the caller's": Case(READ, answer(302), R.SUCCEEDED),
}


def midpoint(low: float, high: float) -> float:
    return (low + high) / 2


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_the_resend_decision(case: Case) -> None:
    policy = RetryPolicy(max_retries=case.max_retries, backoff=Backoff(jitter=midpoint))
    since = None if case.refused_for is None else NOW - case.refused_for
    tries = Tries(spent=case.spent, refused_since=since)
    paced = case.op.paged if case.paced is None else case.paced

    decision = decide(
        case.sent,
        tries,
        retry_safe=case.op.retry_safe,
        paced=paced,
        policy=policy,
        monotonic=lambda: NOW,
    )

    assert decision.verdict is case.verdict
    if case.verdict is Verdict.RESEND:
        assert decision.wait == case.wait
        spent_after = case.spent + 1 if case.spent_after is None else case.spent_after
        if case.wait is None:  # a paced 429: spends nothing
            spent_after = case.spent
        assert decision.tries.spent == spent_after
        assert decision.tries.attempt == spent_after + 1
    elif case.verdict is Verdict.SUCCEEDED:
        assert case.exit is None
    else:
        assert case.exit is not None
        assert failure(decision, case.sent, case.op).exit_code is case.exit


def test_a_paced_429_remembers_when_the_refusals_began() -> None:
    policy = RetryPolicy()
    first = decide(
        answer(429), Tries(), retry_safe=True, paced=True, policy=policy, monotonic=lambda: NOW
    )
    assert first.tries.refused_since == NOW
    later = decide(
        answer(429),
        first.tries,
        retry_safe=True,
        paced=True,
        policy=policy,
        monotonic=lambda: NOW + RATE_LIMIT_PATIENCE,
    )
    assert later.verdict is Verdict.RATE_LIMITED


def test_the_end_names_what_to_check_and_the_attempts() -> None:
    policy = RetryPolicy(max_retries=1)
    unknown = decide(TIMEOUT, Tries(), retry_safe=False, paced=False, policy=policy)
    error = failure(unknown, TIMEOUT, CREATE)
    assert "POST /leads may or may not have taken effect" in error.message
    assert error.hint is not None and "leads list" in error.hint

    spent = decide(TIMEOUT, Tries(spent=1), retry_safe=True, paced=False, policy=policy)
    assert failure(spent, TIMEOUT, READ).message.endswith("(after 2 attempts)")

    limited = decide(answer(429, 5.0), Tries(spent=1), retry_safe=True, paced=False, policy=policy)
    refused = failure(limited, answer(429, 5.0), READ)
    assert isinstance(refused, ApiError)
    assert refused.hint == "still rate limited after 2 attempts" and refused.retry_after == 5.0
