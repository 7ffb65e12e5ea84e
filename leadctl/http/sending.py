"""One send of one request and what it achieved, as a :class:`Exchange`: transport errors
become a :class:`~leadctl.http.retry.Delivery` here, never an exception the caller types."""

from __future__ import annotations

import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.config.redact import redact_text
from leadctl.errors import BadResponse, LeadctlError, ServiceFailure
from leadctl.http.bodies import TooLarge, receive
from leadctl.http.debug_trace import Tracer
from leadctl.http.one_shot import OneShot, OneShotError
from leadctl.http.problems import problem_from_response
from leadctl.http.retry import Delivery, retry_after_seconds

if TYPE_CHECKING:
    import httpx

    from leadctl.contract.operations import Operation
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx


@dataclass
class Exchange:
    """One send of one request: what it achieved (:class:`~leadctl.http.retry.Delivery`), the
    answer when there is one, and the error leadctl would report for it."""

    delivery: Delivery
    # An httpx.Response, or the one-shot transport's (one_shot.Response).
    response: Any = None
    # Why nothing (usable) came back; for an answer >= 400, the service's problem.
    error: LeadctlError | None = None
    # Seconds the service asked to wait (429/503 Retry-After), exactly as given.
    retry_after: float | None = None
    # False when sending again cannot help (TLS verification failed, a body too large).
    retryable: bool = True
    reason: str = ""

    @property
    def status(self) -> int | None:
        return self.response.status_code if self.response is not None else None

    @property
    def ok(self) -> bool:
        return self.response is not None and self.response.status_code < 400


def send_once(
    http: httpx.Client | OneShot,
    request: Any,
    *,
    secrets: tuple[str, ...],
    attempt: int,
    op: Operation | None,
    tracer: Tracer,
    wall_clock: Callable[[], float],
) -> Exchange:
    """Send ``request`` once, without retrying, and say what that achieved."""
    tracer.request(request, attempt, secrets, op)
    started = time.monotonic()
    try:
        if isinstance(http, OneShot):
            response: Any = http.receive(request)
        else:
            response = receive(http, request)
    # The one-shot transport's failures first: matching them loads no httpx.
    except OneShotError as error:
        return _failed(error.kind, error.cause, request, secrets, tracer)
    except TooLarge as too_large:
        return Exchange(
            Delivery.ANSWERED,
            error=too_large.error,
            retryable=False,
            reason=too_large.error.message,
        )
    except (httpx.ConnectError, httpx.ConnectTimeout) as error:
        return _failed("connect", error, request, secrets, tracer)
    except httpx.DecodingError as error:
        return _failed("decode", error, request, secrets, tracer)
    except httpx.TransportError as error:
        if isinstance(error, httpx.TimeoutException):
            kind = "timeout"
        elif isinstance(error, httpx.RemoteProtocolError):
            kind = "closed"
        else:
            kind = "network"
        return _failed(kind, error, request, secrets, tracer)
    elapsed_ms = (time.monotonic() - started) * 1000
    tracer.response(response, elapsed_ms, secrets, op)
    status = response.status_code
    if status < 400:
        return Exchange(Delivery.ANSWERED, response=response, reason=str(status))
    retry_after = (
        retry_after_seconds(response.headers, wall_clock) if status in (429, 503) else None
    )
    reason = "429 rate limited" if status == 429 else f"{status} {response.reason_phrase}".rstrip()
    return Exchange(
        Delivery.ANSWERED,
        response=response,
        error=problem_from_response(response, secrets=secrets),
        retry_after=retry_after,
        retryable=status == 429 or status >= 500,
        reason=reason,
    )


def _failed(
    kind: str, error: BaseException, request: Any, secrets: tuple[str, ...], tracer: Tracer
) -> Exchange:
    """What a send that got no usable answer achieved, whichever transport failed: the
    same Delivery and message for the same failure (``kind`` as :class:`OneShotError`)."""
    if kind == "connect" and _is_tls_failure(error):
        tls = ServiceFailure(
            f"TLS verification failed: {_describe(error, secrets)}",
            hint="if the service uses a private CA, set SSL_CERT_FILE or "
            "`leadctl profile set ca_bundle PATH`",
        )
        return Exchange(Delivery.NOT_SENT, error=tls, retryable=False, reason=tls.message)
    if kind == "connect":
        where = request.url.copy_with(query=None, fragment=None)
        reason = f"cannot connect to {where}: {_describe(error, secrets)}"
        tracer.line(f"! {reason}")
        return Exchange(
            Delivery.NOT_SENT,
            error=ServiceFailure(reason, hint="check the base URL and your network"),
            reason=reason,
        )
    if kind == "decode":
        undecodable = BadResponse(
            "the response body could not be decoded (bad Content-Encoding)",
            hint="run with --debug to see the response headers",
        )
        return Exchange(
            Delivery.ANSWERED, error=undecodable, retryable=False, reason=undecodable.message
        )
    if kind == "timeout":
        reason = "timed out waiting for the service"
    elif kind == "closed":
        reason = "the connection was closed before a complete response arrived"
    else:
        reason = f"network error: {_describe(error, secrets)}"
    tracer.line(f"! {reason}")
    return Exchange(Delivery.NO_ANSWER, error=ServiceFailure(reason), reason=reason)


def _describe(error: BaseException, secrets: tuple[str, ...]) -> str:
    return redact_text(str(error) or type(error).__name__, secrets)


def _is_tls_failure(error: BaseException) -> bool:
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, ssl.SSLError):
            return True
        cause = cause.__cause__ or cause.__context__
    return False
