"""The HTTP client: one request of an operation, sent as cli.md says, made of layers with
one job each (as HTTPie's ``client.py``):

- ``pool.py``: the keep-alive connection pool (transport, TLS roots, cookies);
- ``authorization.py``: which credential goes where, refused before sending, renewed once;
- ``request_parts.py``: query, JSON body, media type, idempotency key;
- ``sending.py``: one send and what it achieved (:class:`Exchange`), read within
  ``bodies.py``'s limit, traced for --debug by ``debug_trace.py``;
- ``resend.py``: whether and when it is sent again, and how it ends;
- ``dry_run.py``, ``problems.py``, ``trust.py``: --dry-run, error answers, TLS roots.

This module wires them into :class:`Client` and keeps the loop that sends until
``resend.decide`` says stop. Every request names an
:class:`~leadctl.contract.operations.Operation`; its retry safety and the credential kinds it
accepts decide what happens.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from leadctl.config.credential_use import place_credential, secret_forms
from leadctl.config.credentials import Credential
from leadctl.config.redact import secret_values
from leadctl.contract.operations import Operation
from leadctl.errors import ApiError, DryRunDone
from leadctl.http.authorization import Authorization
from leadctl.http.bodies import MAX_BODY_BYTES, decode_json
from leadctl.http.debug_trace import Tracer
from leadctl.http.dry_run import dry_run_curl
from leadctl.http.one_shot import AnswersInProcess, OneShot, one_shot_allowed
from leadctl.http.pacer import Pacer
from leadctl.http.pool import USER_AGENT, Pool
from leadctl.http.problems import problem_from_response
from leadctl.http.request_parts import encoded_body, query_params
from leadctl.http.resend import Tries, Verdict, decide, failure
from leadctl.http.retry import Delivery, RetryPolicy, retry_after_seconds
from leadctl.http.secret_keys import SecretKeys
from leadctl.http.sending import Exchange, send_once
from leadctl.http.trust import tls_verification

if TYPE_CHECKING:
    import ssl

    import httpx

    from leadctl.config.rate_limit import RateLimit
    from leadctl.contract.operation_secrets import OperationSecrets
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx

# What callers import from here (the client's interface), wherever it is defined.
__all__ = [
    "MAX_BODY_BYTES",
    "USER_AGENT",
    "Client",
    "Exchange",
    "RetryPolicy",
    "decode_json",
    "problem_from_response",
    "retry_after_seconds",
    "tls_verification",
]


class Client:
    """One keep-alive connection pool per invocation, with leadctl's retry policy."""

    def __init__(
        self,
        *,
        base_url: str | Callable[[], str],
        credential: Callable[[], Credential | None],
        timeout: float = 30.0,
        policy: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
        wall_clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        notify: Callable[[str], None] = lambda _message: None,
        trace: Callable[[str], None] | None = None,
        dry_run_out: Callable[[str], None] | None = None,
        source_key_header: str | None = None,
        # The contract's secret fields of an operation, for --debug and --dry-run.
        secret_fields: Callable[[Operation], OperationSecrets] | None = None,
        transport: httpx.BaseTransport | None = None,
        # A callable is called only when an https URL is first used.
        verify: ssl.SSLContext | bool | Callable[[], ssl.SSLContext | bool] = True,
        reauthenticate: Callable[[Credential], Credential | None] | None = None,
        # The service's limit as the user knows it: paging paces from the first page.
        rate_limit: RateLimit | None = None,
        # False: the service's Set-Cookie answers are not read (no operation the client
        # sends takes a cookie; a credential in a cookie is placed by leadctl anyway).
        keep_cookies: bool = True,
        # Where LEADCTL_HTTP_TRANSPORT and the proxy variables are read (one_shot_allowed).
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.policy = policy or RetryPolicy()
        self._pool = Pool(
            base_url=base_url,
            timeout=timeout,
            transport=transport,
            verify=verify,
            keep_cookies=keep_cookies,
        )
        self._authorization = Authorization(
            credential, source_key_header=source_key_header, reauthenticate=reauthenticate
        )
        self._secret_keys = SecretKeys(secret_fields)
        self._timeout = timeout
        self._transport = transport
        self._env = os.environ if env is None else env
        self._tracer = Tracer(
            trace, source_key_header=source_key_header, secret_keys=self._secret_keys
        )
        self._sleep = sleep
        self._wall_clock = wall_clock
        self._monotonic = monotonic
        self._page_pacer: Pacer | None = None
        self._page_pacer_lock = threading.Lock()
        self._rate_limit = rate_limit
        self._notify = notify
        self._dry_run_out = dry_run_out

    def close(self) -> None:
        self._pool.close()

    def credential_headers(self, op: Operation) -> list[tuple[str, str]]:
        """The credential header ``op`` goes with (none for an anonymous operation): for a
        request leadctl sends on its own, such as a redirect on the same origin."""
        return self._authorization.headers_for(op)

    # -- the request ---------------------------------------------------------------------

    def call(
        self,
        op: Operation,
        *,
        path_params: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        json_body: Any = None,
        content: bytes | None = None,
        headers: Iterable[tuple[str, str]] = (),
    ) -> httpx.Response:
        """Send ``op`` and return its 2xx response, retrying as cli.md says."""
        response: httpx.Response = self._call(
            self._pool.get,
            op,
            path_params=path_params,
            params=params,
            json_body=json_body,
            content=content,
            headers=headers,
        )
        return response

    def _call(
        self,
        via: Callable[[], httpx.Client | OneShot],
        op: Operation,
        **parts: Any,
    ) -> Any:
        """``call`` through ``via`` (httpx's pool, or the one-shot transport)."""
        request, secrets = self._build(via, op, **parts)
        authorization = self._authorization
        try:
            return self._send_with_retries(op, request, secrets=secrets, via=via)
        except ApiError as error:
            # A 401 means the service did not act: sending again is safe for any operation.
            sent_with = authorization.authorize(op)
            renewed = None if sent_with is None else authorization.renewed_after(error, sent_with)
            if renewed is None:
                raise
        # The same request (body, idempotency key) with only the credential renewed.
        # An httpx.Request, or the one-shot transport's (the same parts, read the same way).
        again: Any = via().build_request(
            request.method, request.url, headers=request.headers.copy(), content=request.content
        )
        places = authorization.places(renewed, op)
        place_credential(again, places, renewed.value)
        renewed_secrets = (*secrets, *secret_forms(places, renewed.value))
        return self._send_with_retries(op, again, secrets=renewed_secrets, via=via)

    def call_json(self, op: Operation, **kwargs: Any) -> Any:
        """``call`` and decode the JSON body; a 2xx body that is not JSON is exit 8."""
        via: Callable[[], httpx.Client | OneShot] = self._pool.get
        if one_shot_allowed(
            op,
            base_url=self._pool.base(),
            transport=self._transport,
            env=self._env,
        ):
            via = self._one_shot
        response = self._call(via, op, **kwargs)
        return decode_json(response, trace=self._tracer.trace)

    def build(
        self,
        op: Operation,
        *,
        path_params: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        json_body: Any = None,
        content: bytes | None = None,
        headers: Iterable[tuple[str, str]] = (),
    ) -> tuple[httpx.Request, tuple[str, ...]]:
        """The request for ``op`` and the secrets to keep out of traces; with --dry-run,
        prints it and raises DryRunDone. Raises before sending when no credential fits."""
        return self._build(
            self._pool.get,
            op,
            path_params=path_params,
            params=params,
            json_body=json_body,
            content=content,
            headers=headers,
        )

    def _one_shot(self) -> OneShot:
        transport = self._transport
        return OneShot(
            base_url=self._pool.base(),
            timeout=self._timeout,
            verify=self._pool.resolved_verify,
            in_process=transport if isinstance(transport, AnswersInProcess) else None,
        )

    def _build(
        self,
        via: Callable[[], httpx.Client | OneShot],
        op: Operation,
        *,
        path_params: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        json_body: Any = None,
        content: bytes | None = None,
        headers: Iterable[tuple[str, str]] = (),
    ) -> tuple[Any, tuple[str, ...]]:
        path = op.path_for(**dict(path_params or {})) if path_params else op.path
        json_body, body, extra_headers = encoded_body(op, json_body, content, headers)
        if self._dry_run_out is not None:
            self._print_dry_run(op, path, params, body, extra_headers)
            raise DryRunDone("dry run")
        credential = self._authorization.authorize(op)
        request: Any = via().build_request(
            op.method, path, params=query_params(params), content=body, headers=extra_headers
        )
        secrets: tuple[str, ...] = ()
        if credential is not None:
            places = self._authorization.places(credential, op)
            place_credential(request, places, credential.value)
            secrets = secret_forms(places, credential.value)
        # An answer that echoes a secret the body carried (an error quoting what it
        # refused) is masked like the credential.
        in_body = secret_values(json_body, secret_key=self._secret_keys.of(op, "request"))
        return request, (*secrets, *in_body)

    def _print_dry_run(
        self,
        op: Operation,
        path: str,
        params: Mapping[str, Any] | None,
        body: bytes | None,
        headers: list[tuple[str, str]],
    ) -> None:
        credential, places = self._authorization.for_dry_run(op)
        # An absolute URL (on the profile's host, e.g. `contract pull`) is used as it is.
        base = "" if "://" in path else self._pool.base()
        url = httpx.URL(base + path, params=query_params(params))
        assert self._dry_run_out is not None
        self._dry_run_out(
            dry_run_curl(
                op.method,
                str(url),
                body=body,
                headers=headers,
                credential=credential,
                places=places,
                # Asked only for a body: learning the contract's secret fields reads its
                # whole document (60-80 ms for 3,000 operations), and a GET has none.
                secret_key=lambda: self._secret_keys.of(op, "request"),
            )
        )

    def exchange(
        self,
        request: httpx.Request,
        *,
        secrets: tuple[str, ...] = (),
        attempt: int = 1,
        op: Operation | None = None,
        via: Callable[[], httpx.Client | OneShot] | None = None,
    ) -> Exchange:
        """Send ``request`` once, without retrying, and say what that achieved. ``op``,
        when given, names the secret fields its trace masks by the contract."""
        return send_once(
            (via or self._pool.get)(),
            request,
            secrets=secrets,
            attempt=attempt,
            op=op,
            tracer=self._tracer,
            wall_clock=self._wall_clock,
        )

    def _send_with_retries(
        self,
        op: Operation,
        request: Any,
        *,
        secrets: tuple[str, ...],
        via: Callable[[], httpx.Client | OneShot],
    ) -> Any:
        tries = Tries()
        while True:
            pacer = None
            if op.paged:
                # Paced from the first page when the limit is known, else from the first 429.
                pacer = self._page_pacer if self._rate_limit is None else self._paging_pacer()
            sent_at = pacer.acquire() if pacer is not None else 0.0
            sent = self.exchange(request, secrets=secrets, attempt=tries.attempt, op=op, via=via)
            if pacer is not None and sent.delivery is Delivery.ANSWERED and sent.status != 429:
                pacer.answered(sent_at)
            decision = decide(
                sent,
                tries,
                retry_safe=op.retry_safe,
                # Paging a collection waits out the service's window however many 429s it
                # takes, then goes on at the pace it measured.
                paced=op.paged,
                policy=self.policy,
                monotonic=self._monotonic,
            )
            if decision.verdict is Verdict.SUCCEEDED:
                assert sent.response is not None
                return sent.response
            if decision.verdict is not Verdict.RESEND:
                raise failure(decision, sent, op)
            tries = decision.tries
            if decision.wait is None:
                wait = self._paging_pacer().rate_limited(sent.retry_after, sent_at)
                self._notify(f"retrying in {_seconds(wait)}: {sent.reason}")
                continue
            if sent.response is not None:
                sent.response.close()
            self._notify(f"retrying in {_seconds(decision.wait)}: {sent.reason}")
            self._sleep(decision.wait)

    def _paging_pacer(self) -> Pacer:
        """The pace of paged reads, made at their first 429 or first page (shared by the
        fetch thread)."""
        with self._page_pacer_lock:
            if self._page_pacer is None:
                self._page_pacer = Pacer(
                    monotonic=self._monotonic,
                    sleep=self._sleep,
                    backoff=self.policy.backoff,
                    limit=self._rate_limit,
                )
            return self._page_pacer


def _seconds(seconds: float) -> str:
    return f"{seconds:.0f}s" if seconds >= 1 or seconds == 0 else f"{seconds:.1f}s"
