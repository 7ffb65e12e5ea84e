"""Sending one signed delivery the way a Standard Webhooks sender does.

Every attempt carries the same ``webhook-id`` (the receiver deduplicates by it) and a fresh
``webhook-timestamp`` and signature (a retry minutes later must not look like a replay).
A delivery is idempotent by its id, so it is retried after 5xx, 429, connection failures
and lost answers alike, by leadctl's one retry policy (backoff with jitter, Retry-After
honoured, ``--max-retries``). Only a 2xx is a delivery; a redirect is not followed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl import __version__
from leadctl.errors import ApiError, ExitCode, LeadctlError, ServiceFailure, UsageError
from leadctl.http.client import Client
from leadctl.http.resend import Tries, Verdict, decide
from leadctl.http.retry import RetryPolicy
from leadctl.util.safetext import safe_text
from leadctl.webhooks.secret import WebhookSecret
from leadctl.webhooks.signing import signature
from leadctl.webhooks.verification import ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER

if TYPE_CHECKING:
    import httpx
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx

USER_AGENT = f"leadctl/{__version__} (webhooks send)"


@dataclass(frozen=True)
class Delivery:
    msg_id: str
    body: bytes
    url: str


@dataclass(frozen=True)
class Delivered:
    status: int
    attempts: int


def signed_headers(
    secret: WebhookSecret, delivery: Delivery, timestamp: int
) -> list[tuple[str, str]]:
    return [
        ("Content-Type", "application/json"),
        ("User-Agent", USER_AGENT),
        (ID_HEADER, delivery.msg_id),
        (TIMESTAMP_HEADER, str(timestamp)),
        (
            SIGNATURE_HEADER,
            signature(secret, msg_id=delivery.msg_id, timestamp=timestamp, body=delivery.body),
        ),
    ]


def send_delivery(
    client: Client,
    secret: WebhookSecret,
    delivery: Delivery,
    *,
    policy: RetryPolicy,
    wall_clock: Callable[[], float],
    sleep: Callable[[float], None],
    notify: Callable[[str], None],
) -> Delivered:
    """POST until a 2xx or the retry budget is spent; the error of the last attempt then."""
    tries = Tries()
    while True:
        attempt = tries.attempt
        headers = signed_headers(secret, delivery, int(wall_clock()))
        request = httpx.Request("POST", delivery.url, headers=headers, content=delivery.body)
        sent = client.exchange(request, secrets=(secret.text,), attempt=attempt)
        status = sent.status
        if status is not None and 200 <= status < 300:
            return Delivered(status, attempt)
        if status is not None and status < 400:
            location = sent.response.headers.get("Location", "") if sent.response else ""
            redirect = ApiError(
                status,
                title="the receiver answered with a redirect, not a delivery",
                detail=f"Location: {safe_text(location, one_line=True)}" if location else None,
                hint="senders do not follow redirects: give the final URL",
            )
            # Refused as addressed, like a 4xx (a 3xx has no exit code of its own).
            redirect.exit_code = ExitCode.REJECTED
            raise redirect
        # Idempotent by its webhook-id: retry-safe whatever the receiver did with it.
        decision = decide(sent, tries, retry_safe=True, paced=False, policy=policy)
        if decision.verdict is Verdict.RESEND and decision.wait is not None:
            tries = decision.tries
            if sent.response is not None:
                sent.response.close()
            notify(f"retrying in {_seconds(decision.wait)}: {sent.reason}")
            sleep(decision.wait)
            continue
        raise _final_error(sent.error, decision.attempt, delivery, retryable=sent.retryable)


def _final_error(
    error: LeadctlError | None, attempts: int, delivery: Delivery, *, retryable: bool
) -> LeadctlError:
    assert error is not None, "an exchange without a 2xx carries its error"
    msg_id = safe_text(delivery.msg_id, one_line=True)
    tried = f"webhook-id {msg_id}, {attempts} attempt{'s' * (attempts > 1)}"
    if isinstance(error, ApiError):
        error.attempts = attempts
        error.hint = f"the receiver did not accept the delivery ({tried})"
        return error
    if isinstance(error, ServiceFailure) and retryable:
        return ServiceFailure(
            f"{error.message} ({tried})", hint="check that the receiver is up at that URL"
        )
    return error


def check_msg_id(msg_id: str) -> str:
    """A webhook-id that fits in a header and signs unambiguously; UsageError otherwise."""
    if not msg_id or len(msg_id) > 256:
        raise UsageError("--id must be 1 to 256 characters")
    if not msg_id.isascii() or any(ch.isspace() or not ch.isprintable() for ch in msg_id):
        raise UsageError("--id may hold printable ASCII only, without spaces")
    return msg_id


def _seconds(seconds: float) -> str:
    return f"{seconds:.0f}s" if seconds >= 1 or seconds == 0 else f"{seconds:.1f}s"
