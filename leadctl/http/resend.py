"""The one resend decision: after each send of a request, whether and when it goes again,
or how the request ends (cli.md "Retries", "Paging" and the bulk guarantees).

Every loop that sends asks :func:`decide` and keeps no rule of its own: the client's single
requests and pages (``http/client.py``), the bulk sender of ``leads import`` and ``batch``
(``bulk/sender.py``) and ``webhooks send``. They differ only in how they wait (a sleep, or
the pacer a bulk run's workers or ``--all``'s pages share) and in what an end means to them
(raise :func:`failure`, or settle one job of a run).

The rule, row by row (:data:`Verdict` says what each leads to):

- a usable answer below 400: done;
- an answer that could not be read (too large, bad encoding): the service may have acted,
  so unknown (exit 9) unless the operation is retry-safe (exit 8); never sent again;
- 429 (the service did not act, any operation): waited out on the shared pace for at most
  :data:`RATE_LIMIT_PATIENCE` when paced (paging, bulk), without spending ``--max-retries``;
  otherwise resent within ``--max-retries``, the wait exactly Retry-After; then exit 7;
- another 4xx: refused as answered, never sent again;
- not sent (no connection): resent within ``--max-retries`` (backoff), then exit 8; a TLS
  failure is never resent (sending again cannot help);
- no answer, or a 5xx: a retry-safe operation (reads, PUTs, a collection query, an
  idempotency key; the profile's overrides included, all in ``Operation.retry_safe``) is
  resent within ``--max-retries`` (Retry-After, else backoff), then exit 8; any other
  operation is unknown (exit 9), never sent again.

Imported on the path of every request: no third-party module here.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from leadctl.contract.templates import template_key
from leadctl.errors import ApiError, LeadctlError, OutcomeUnknown, ServiceFailure
from leadctl.http.retry import Delivery, RetryPolicy, effect_unknown

if TYPE_CHECKING:
    from leadctl.contract.operations import Operation

# How long a paced request (a page of --all, a bulk job) keeps waiting out 429s before it
# gives up (exit 7, or the job rejected; a later --resume sends it): an hour is a window
# most services keep.
RATE_LIMIT_PATIENCE = 3600.0


class Verdict(enum.Enum):
    """How one send leaves the request."""

    SUCCEEDED = "succeeded"  # a usable answer below 400
    RESEND = "resend"  # send the same request (body, idempotency key) again after the wait
    REFUSED = "refused"  # answered 4xx other than 429: the status's exit code
    RATE_LIMITED = "rate limited"  # 429 beyond the budget or the patience: exit 7
    FAILED = "failed"  # service or network failure that resending did not (or cannot) mend: 8
    UNKNOWN = "unknown"  # the service may have acted and the request may not go again: 9


class Sent(Protocol):
    """What one send achieved (``http.client.Exchange`` is one)."""

    @property
    def delivery(self) -> Delivery: ...

    # The answer's status; None when nothing (usable) came back.
    @property
    def status(self) -> int | None: ...

    @property
    def retry_after(self) -> float | None: ...

    # False when sending again cannot help (TLS verification failed, an unreadable answer).
    @property
    def retryable(self) -> bool: ...


@dataclass(frozen=True)
class Tries:
    """What a request's sends so far have used up."""

    # Failed sends counted against --max-retries (a paced 429 is not one).
    spent: int = 0
    # When a paced 429 first refused it (monotonic seconds).
    refused_since: float | None = None

    @property
    def attempt(self) -> int:
        """The number of the next send, as --debug and the messages count them."""
        return self.spent + 1


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    # The number of the send judged (the attempts an end reports).
    attempt: int
    # What the next send starts from (for RESEND).
    tries: Tries
    # RESEND: seconds to wait before the next send; None: the shared pace's wait (a 429
    # of a paced request, which the pacer is told of and decides).
    wait: float | None = None


def decide(
    sent: Sent,
    tries: Tries,
    *,
    retry_safe: bool,
    paced: bool,
    policy: RetryPolicy,
    monotonic: Callable[[], float] = time.monotonic,
) -> Decision:
    """Whether and when ``sent``'s request goes again, or how it ends.

    ``retry_safe``: the operation's (``Operation.retry_safe``: what it does, its
    idempotency key, the profile's overrides). ``paced``: its 429s are waited out on a
    shared pace (paging, bulk) rather than spent from ``--max-retries``. ``monotonic`` is
    read only for a paced 429.
    """
    attempt = tries.spent + 1
    status = sent.status
    if sent.delivery is Delivery.ANSWERED and status is None:
        # Answered, but unreadably: whatever it said is lost with the body.
        return Decision(Verdict.FAILED if retry_safe else Verdict.UNKNOWN, attempt, tries)
    if sent.delivery is Delivery.ANSWERED and status is not None and status < 400:
        return Decision(Verdict.SUCCEEDED, attempt, tries)
    if status == 429:
        if paced:
            now = monotonic()
            since = now if tries.refused_since is None else tries.refused_since
            if now - since < RATE_LIMIT_PATIENCE:
                return Decision(Verdict.RESEND, attempt, Tries(tries.spent, since))
            return Decision(Verdict.RATE_LIMITED, attempt, tries)
        return _within_budget(sent, tries, policy, Verdict.RATE_LIMITED)
    if status is not None and status < 500:
        return Decision(Verdict.REFUSED, attempt, tries)
    if effect_unknown(sent.delivery, status) and not retry_safe:
        return Decision(Verdict.UNKNOWN, attempt, tries)
    if not sent.retryable:
        return Decision(Verdict.FAILED, attempt, tries)
    return _within_budget(sent, tries, policy, Verdict.FAILED)


def _within_budget(sent: Sent, tries: Tries, policy: RetryPolicy, spent: Verdict) -> Decision:
    """Resent while --max-retries allows (Retry-After exactly, else backoff), else ``spent``."""
    attempt = tries.spent + 1
    after = Tries(attempt, tries.refused_since)
    if policy.allows(attempt):
        return Decision(Verdict.RESEND, attempt, after, policy.wait(attempt, sent.retry_after))
    return Decision(spent, attempt, after)


class Failed(Sent, Protocol):
    """A send that ended its request, with the error leadctl reports for it."""

    @property
    def error(self) -> LeadctlError | None: ...

    @property
    def reason(self) -> str: ...


def failure(decision: Decision, sent: Failed, op: Operation) -> LeadctlError:
    """The error a request that ``decision`` ended ends the command with (its exit code)."""
    if decision.verdict is Verdict.UNKNOWN:
        what = (
            f"the service answered {sent.status}"
            if sent.delivery is Delivery.ANSWERED and sent.status is not None
            else sent.reason
        )
        return OutcomeUnknown(
            f"{what}; {op.method} {op.path} may or may not have taken effect",
            hint=check_hint(op),
        )
    error = sent.error
    assert error is not None, "a send that ends its request without success carries its error"
    attempts = decision.attempt
    if isinstance(error, ApiError):
        if decision.verdict is Verdict.RATE_LIMITED:
            error.hint = f"still rate limited after {attempts} attempts"
            error.retry_after = sent.retry_after
        error.attempts = attempts
        return error
    if isinstance(error, ServiceFailure) and sent.retryable:
        return ServiceFailure(f"{error.message} (after {attempts} attempts)", hint=error.hint)
    return error


def check_hint(op: Operation) -> str:
    """What to check before sending ``op`` again; its path may be a template or, for
    ``leadctl api``, the concrete path."""
    import re

    method, template = template_key(op.method, op.path.split("?", 1)[0])
    for (hint_method, hint_path), hint in _CHECK_HINTS.items():
        pattern = "^" + re.escape(hint_path).replace(r"\{\}", "[^/]+") + "/?$"
        if method == hint_method and (template == hint_path or re.match(pattern, template)):
            return hint
    return "check the resource's state before trying again"


_CHECK_HINTS = {
    ("POST", "/leads"): "check with `leadctl leads list --search ...` whether the lead exists "
    "before sending it again",
    ("POST", "/sources/{}/credentials/rotate"): "the old key may already be invalid: check the "
    "source's apiKeyRotatedAt with the service, and rotate again only if it did not change",
    ("POST", "/a2a"): "check whether the agent operation took effect before calling it again",
}
