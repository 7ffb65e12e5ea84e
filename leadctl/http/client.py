"""The HTTP client: auth, timeouts, the retry policy of cli.md, problem+json errors.

Every request names an :class:`~leadctl.contract.operations.Operation`; its retry safety and the
credential kinds it accepts decide what happens, here and nowhere else.
"""

from __future__ import annotations

import functools
import os
import ssl
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl import __version__
from leadctl.config.credential_use import (
    Place,
    admits,
    header_value,
    place_credential,
    places_for,
    secret_forms,
)
from leadctl.config.credentials import Credential, CredentialKind
from leadctl.config.redact import (
    is_secret_key,
    redact_body,
    redact_headers,
    redact_problem,
    redact_text,
    secret_values,
)
from leadctl.contract.operations import Operation
from leadctl.errors import (
    ApiError,
    BadResponse,
    DryRunDone,
    Forbidden,
    LeadctlError,
    NotAuthenticated,
    ServiceFailure,
    UsageError,
)
from leadctl.http._httpx import LazyTransport
from leadctl.http.curl import curl_command
from leadctl.http.pacer import Pacer
from leadctl.http.resend import Tries, Verdict, decide, failure
from leadctl.http.retry import Delivery, RetryPolicy, retry_after_seconds
from leadctl.util.jsontext import NotJson, dumps_body, loads_service

if TYPE_CHECKING:
    import httpx

    from leadctl.config.operation_secrets import OperationSecrets
    from leadctl.http.pacer import Pacer
    from leadctl.http.rate_limit import RateLimit
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx

USER_AGENT = f"leadctl/{__version__}"
DEBUG_BODY_LIMIT = 2048
# No page of this API is anywhere near this; a body this big is a proxy or a runaway server.
MAX_BODY_BYTES = 64 * 1024 * 1024

__all__ = ["Client", "Exchange", "RetryPolicy", "retry_after_seconds"]


@dataclass
class Exchange:
    """One send of one request: what it achieved (:class:`~leadctl.http.retry.Delivery`), the
    answer when there is one, and the error leadctl would report for it."""

    delivery: Delivery
    response: httpx.Response | None = None
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


def tls_verification(ca_bundle: Any, env: Mapping[str, str]) -> ssl.SSLContext | bool:
    """The roots the service's certificate is checked against: the profile's ca_bundle,
    else SSL_CERT_FILE, else httpx's default (SSL_CERT_DIR, then certifi).

    Loaded here so that a bundle that is missing or not PEM is a usage error naming it,
    before anything is sent, rather than a crash inside httpx.
    """
    if ca_bundle:
        return _trust_context(
            str(ca_bundle),
            f"the profile's ca_bundle {ca_bundle}",
            hint="fix it with `leadctl profile set ca_bundle PATH` (a PEM file)",
        )
    cert_file = env.get("SSL_CERT_FILE")
    if cert_file:
        return _trust_context(
            cert_file,
            f"SSL_CERT_FILE={cert_file}",
            hint="point SSL_CERT_FILE at a PEM file of CA certificates, or unset it",
        )
    return _default_trust(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@functools.cache
def _default_trust(_cert_file: str | None, _cert_dir: str | None) -> ssl.SSLContext:
    """httpx's default roots (its own reading of SSL_CERT_FILE/SSL_CERT_DIR, then certifi),
    loaded once a process for the environment that chose them: loading them costs about
    30 ms, and one process may build several clients (a refresh, a download, a redirect)."""
    return httpx.create_ssl_context()


def _trust_context(cafile: str, what: str, *, hint: str) -> ssl.SSLContext:
    try:
        return _bundle_context(cafile, _file_identity(cafile))
    except OSError as error:
        # ssl.SSLError is an OSError: a file that holds no PEM certificate lands here too.
        reason = (
            "it holds no PEM certificate"
            if isinstance(error, ssl.SSLError)
            else error.strerror or str(error)
        )
        raise UsageError(f"cannot use {what}: {reason}", hint=hint) from None


def _file_identity(path: str) -> tuple[int, int, int, int] | None:
    """Which file ``path`` is now: a bundle replaced or edited in place is loaded again."""
    try:
        found = os.stat(path)
    except OSError:
        return None  # loading it reports why
    return found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size


@functools.cache
def _bundle_context(cafile: str, _identity: tuple[int, int, int, int] | None) -> ssl.SSLContext:
    """A bundle's roots, loaded once a process for one version of the file, as
    ``_default_trust`` does for httpx's: SSL_CERT_FILE is commonly set, parsing it costs
    about 30 ms, and one process may build several clients. A bundle that fails to load
    raises, so it is never kept."""
    return ssl.create_default_context(cafile=cafile)


def problem_from_response(
    response: httpx.Response, *, hint: str | None = None, secrets: Iterable[str] = ()
) -> ApiError:
    """An ApiError from any error response: problem+json, other JSON, HTML or nothing.
    Secret members, and ``secrets`` in any form a service may echo them, are masked."""
    error = _problem(response, hint=hint, secrets=tuple(secrets))
    error.challenge = response.headers.get("WWW-Authenticate")
    return error


def _problem(response: httpx.Response, *, hint: str | None, secrets: tuple[str, ...]) -> ApiError:
    status = response.status_code
    content_type = response.headers.get("Content-Type", "")
    body: Any = None
    if "json" in content_type:
        try:
            body = loads_service(response.content)
        except ValueError:
            body = None
    if isinstance(body, dict):
        body = redact_problem(body, secrets)
        errors = body.get("errors")
        field_errors: dict[str, list[str]] = {}
        if isinstance(errors, dict):
            for field, messages in errors.items():
                if isinstance(messages, list):
                    field_errors[str(field)] = [str(m) for m in messages]
                else:
                    field_errors[str(field)] = [str(messages)]
        title = body.get("title")
        detail = body.get("detail")
        trace_id = body.get("traceId")
        return ApiError(
            status,
            title=str(title) if title is not None else response.reason_phrase or None,
            detail=str(detail) if detail is not None else None,
            field_errors=field_errors,
            trace_id=str(trace_id) if trace_id is not None else None,
            problem=body,
            hint=hint,
        )
    kind = content_type.split(";")[0].strip() or "no content type"
    detail = (
        f"the response was not a problem document ({kind}, {len(response.content)} bytes)"
        if response.content
        else "the response had an empty body"
    )
    return ApiError(
        status,
        title=response.reason_phrase or None,
        detail=detail,
        trace_id=response.headers.get("X-Trace-Id") or response.headers.get("traceparent"),
        hint=hint,
    )


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
    ) -> None:
        self._base_url = base_url
        self._credential = credential
        self._timeout = timeout
        self.policy = policy or RetryPolicy()
        self._sleep = sleep
        self._wall_clock = wall_clock
        self._monotonic = monotonic
        self._page_pacer: Pacer | None = None
        self._page_pacer_lock = threading.Lock()
        self._rate_limit = rate_limit
        self._notify = notify
        self._trace = trace
        self._dry_run_out = dry_run_out
        self._source_key_header = source_key_header
        self._secret_fields = secret_fields
        self._known_secret_fields: dict[tuple[str, str], OperationSecrets] = {}
        self._transport = transport
        self._verify = verify
        # After a 401 invalid_token: a renewed credential (OAuth refresh), or None.
        self._reauthenticate = reauthenticate
        self._keep_cookies = keep_cookies
        self._http: httpx.Client | None = None

    # -- plumbing ------------------------------------------------------------------------

    def _base(self) -> str:
        return self._base_url() if callable(self._base_url) else self._base_url

    def _client(self) -> httpx.Client:
        if self._http is None:
            base = self._base()
            transport = self._transport
            mounts: dict[str, httpx.BaseTransport] | None = None
            verify: ssl.SSLContext | bool = True
            if transport is None and base.lower().startswith("http://"):
                # Plain http needs no certificate store: none is loaded unless an https URL
                # is asked for, which goes through a verifying transport built then.
                # verify=False only spares the store: this transport carries http:// alone.
                transport = httpx.HTTPTransport(verify=False)
                mounts = {
                    "https://": LazyTransport(
                        lambda: httpx.HTTPTransport(verify=self._resolved_verify())
                    )
                }
            elif transport is None:
                verify = self._resolved_verify()
            self._http = httpx.Client(
                base_url=base,
                timeout=self._timeout,
                headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
                transport=transport,
                mounts=mounts,
                verify=verify,
                follow_redirects=False,
                cookies=None if self._keep_cookies else _no_cookie_jar(),
            )
        return self._http

    def _resolved_verify(self) -> ssl.SSLContext | bool:
        if callable(self._verify):
            self._verify = self._verify()
        return self._verify

    def close(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None

    def _places(self, credential: Credential, op: Operation) -> tuple[Place, ...]:
        """Where ``credential`` goes for ``op``: the contract's scheme, or for a source key
        the header the profile's source_key_header names."""
        return places_for(
            op.requirements, credential.kind.value, source_key_header=self._source_key_header
        )

    def _authorize(self, op: Operation) -> Credential | None:
        """The credential to send; None for an operation that takes none (``security:
        []``), whose credential is not even looked up. A credential of a kind the operation
        does not admit is exit 4 before anything is sent (or printed, with --dry-run)."""
        if op.anonymous:
            return None
        credential = self._credential()
        if credential is None:
            raise NotAuthenticated(
                "no credential configured",
                hint="run `leadctl auth login`, or set LEADCTL_TOKEN",
            )
        _check_admitted(credential, op)
        return credential

    def credential_headers(self, op: Operation) -> list[tuple[str, str]]:
        """The credential header ``op`` goes with (none for an anonymous operation): for a
        request leadctl sends on its own, such as a redirect on the same origin."""

        credential = self._authorize(op)
        if credential is None:
            return []
        headers = []
        # A credential the scheme puts in the query is not added: the Location the service
        # answered is the whole URL to follow.
        for place in self._places(credential, op):
            if place.where == "header":
                headers.append((place.name, header_value(place, credential.value)))
            elif place.where == "cookie":
                headers.append(("Cookie", f"{place.name}={credential.value}"))
        return headers

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
        request, secrets = self.build(
            op,
            path_params=path_params,
            params=params,
            json_body=json_body,
            content=content,
            headers=headers,
        )
        try:
            return self._send_with_retries(op, request, secrets=secrets)
        except ApiError as error:
            # A 401 means the service did not act: sending again is safe for any operation.
            sent_with = self._authorize(op)
            renewed = None if sent_with is None else self._renewed_after(error, sent_with)
            if renewed is None:
                raise
        # The same request (body, idempotency key) with only the credential renewed.
        again = self._client().build_request(
            request.method, request.url, headers=request.headers.copy(), content=request.content
        )
        places = self._places(renewed, op)
        place_credential(again, places, renewed.value)
        renewed_secrets = (*secrets, *secret_forms(places, renewed.value))
        return self._send_with_retries(op, again, secrets=renewed_secrets)

    def _renewed_after(self, error: ApiError, credential: Credential) -> Credential | None:
        """A refreshed credential when the service said the token is invalid (RFC 6750
        ``invalid_token``) and one can be had; once per invocation (the context's rule)."""
        if error.status != 401 or self._reauthenticate is None:
            return None
        if "invalid_token" not in (error.challenge or ""):
            return None
        return self._reauthenticate(credential)

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
        path = op.path_for(**dict(path_params or {})) if path_params else op.path
        body = content
        extra_headers = list(headers)
        json_body, extra_headers = with_idempotency_key(op, json_body, extra_headers)
        if json_body is not None:
            try:
                body = dumps_body(json_body)
            except NotJson as error:
                raise UsageError(f"the request body cannot be sent as JSON: {error}") from None
            extra_headers.append(("Content-Type", json_media_type(op)))
        if self._dry_run_out is not None:
            self._print_dry_run(op, path, params, body, extra_headers)
            raise DryRunDone("dry run")
        credential = self._authorize(op)
        request = self._client().build_request(
            op.method, path, params=_query(params), content=body, headers=extra_headers
        )
        secrets: tuple[str, ...] = ()
        if credential is not None:
            places = self._places(credential, op)
            place_credential(request, places, credential.value)
            secrets = secret_forms(places, credential.value)
        # An answer that echoes a secret the body carried (an error quoting what it
        # refused) is masked like the credential.
        in_body = secret_values(json_body, secret_key=self._secret_key(op, "request"))
        return request, (*secrets, *in_body)

    def _secret_key(self, op: Operation | None, side: str) -> Callable[[str], bool]:
        """Which member of ``op``'s request or answer is a secret: by its name, and where
        --debug or --dry-run loaded it, by what the contract says of it."""
        if op is None or self._secret_fields is None:
            return is_secret_key
        key = (op.method, op.path)
        if key not in self._known_secret_fields:
            self._known_secret_fields[key] = self._secret_fields(op)
        fields = self._known_secret_fields[key]
        names = fields.request if side == "request" else fields.response
        return (lambda name: is_secret_key(name) or name in names) if names else is_secret_key

    def _print_dry_run(
        self,
        op: Operation,
        path: str,
        params: Mapping[str, Any] | None,
        body: bytes | None,
        headers: list[tuple[str, str]],
    ) -> None:
        """The request as curl, the credential as $LEADCTL_TOKEN where the contract puts
        it; refused as the real run would refuse it (a credential of the wrong kind)."""
        credential = None
        if not op.anonymous:
            try:
                credential = self._credential()
            except LeadctlError:
                credential = None  # a dry run never needs a working keyring
        if credential is not None:
            _check_admitted(credential, op)
        if op.anonymous:
            places: tuple[Place, ...] = ()
        elif credential is not None:
            places = self._places(credential, op)
        else:
            places = places_for(op.requirements, "unknown")
        # An absolute URL (on the profile's host, e.g. `contract pull`) is used as it is.
        url = httpx.URL(path if "://" in path else self._base() + path, params=_query(params))
        content_type = next((v for k, v in headers if k.lower() == "content-type"), None)
        shown = None
        if body is not None:
            secret_key = self._secret_key(op, "request")
            shown = redact_body(body, content_type, secret_key=secret_key, in_text=False)
        assert self._dry_run_out is not None
        self._dry_run_out(
            curl_command(
                op.method,
                str(url),
                headers=redact_headers(headers),
                body=None if shown is None else shown.encode("utf-8"),
                auth=places,
                basic_pair=credential is None or ":" in credential.value,
            )
        )

    def exchange(
        self,
        request: httpx.Request,
        *,
        secrets: tuple[str, ...] = (),
        attempt: int = 1,
        op: Operation | None = None,
    ) -> Exchange:
        """Send ``request`` once, without retrying, and say what that achieved. ``op``,
        when given, names the secret fields its trace masks by the contract."""
        self._trace_request(request, attempt, secrets, op)
        started = time.monotonic()
        try:
            response = _receive(self._client(), request)
        except (httpx.ConnectError, httpx.ConnectTimeout) as error:
            if _is_tls_failure(error):
                tls = ServiceFailure(
                    f"TLS verification failed: {_describe(error, secrets)}",
                    hint="if the service uses a private CA, set SSL_CERT_FILE or "
                    "`leadctl profile set ca_bundle PATH`",
                )
                return Exchange(Delivery.NOT_SENT, error=tls, retryable=False, reason=tls.message)
            where = request.url.copy_with(query=None, fragment=None)
            reason = f"cannot connect to {where}: {_describe(error, secrets)}"
            self._trace_line(f"! {reason}")
            return Exchange(
                Delivery.NOT_SENT,
                error=ServiceFailure(reason, hint="check the base URL and your network"),
                reason=reason,
            )
        except httpx.DecodingError:
            undecodable = BadResponse(
                "the response body could not be decoded (bad Content-Encoding)",
                hint="run with --debug to see the response headers",
            )
            return Exchange(
                Delivery.ANSWERED, error=undecodable, retryable=False, reason=undecodable.message
            )
        except _TooLarge as too_large:
            return Exchange(
                Delivery.ANSWERED,
                error=too_large.error,
                retryable=False,
                reason=too_large.error.message,
            )
        except httpx.TransportError as error:
            reason = _transport_reason(error, secrets)
            self._trace_line(f"! {reason}")
            return Exchange(Delivery.NO_ANSWER, error=ServiceFailure(reason), reason=reason)
        elapsed_ms = (time.monotonic() - started) * 1000
        self._trace_response(response, elapsed_ms, secrets, op)
        status = response.status_code
        if status < 400:
            return Exchange(Delivery.ANSWERED, response=response, reason=str(status))
        retry_after = (
            retry_after_seconds(response.headers, self._wall_clock)
            if status in (429, 503)
            else None
        )
        reason = (
            "429 rate limited" if status == 429 else f"{status} {response.reason_phrase}".rstrip()
        )
        return Exchange(
            Delivery.ANSWERED,
            response=response,
            error=problem_from_response(response, secrets=secrets),
            retry_after=retry_after,
            retryable=status == 429 or status >= 500,
            reason=reason,
        )

    def _send_with_retries(
        self, op: Operation, request: httpx.Request, *, secrets: tuple[str, ...]
    ) -> httpx.Response:
        tries = Tries()
        while True:
            pacer = None
            if op.paged:
                # Paced from the first page when the limit is known, else from the first 429.
                pacer = self._page_pacer if self._rate_limit is None else self._paging_pacer()
            sent_at = pacer.acquire() if pacer is not None else 0.0
            sent = self.exchange(request, secrets=secrets, attempt=tries.attempt, op=op)
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
            self._wait(decision.wait, sent.reason)

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

    def _wait(self, seconds: float, reason: str) -> None:
        self._notify(f"retrying in {_seconds(seconds)}: {reason}")
        self._sleep(seconds)

    # -- --debug -------------------------------------------------------------------------

    def _trace_line(self, line: str) -> None:
        if self._trace is not None:
            self._trace(line)

    def _trace_request(
        self,
        request: httpx.Request,
        attempt: int,
        secrets: tuple[str, ...],
        op: Operation | None,
    ) -> None:
        if self._trace is None:
            return
        suffix = f" (attempt {attempt})" if attempt > 1 else ""
        self._trace(f"> {request.method} {redact_text(str(request.url), secrets)}{suffix}")
        sensitive = [self._source_key_header] if self._source_key_header else []
        for name, value in redact_headers(request.headers.items(), sensitive):
            self._trace(f"> {name}: {redact_text(value, secrets)}")
        if request.content:
            content_type = request.headers.get("Content-Type")
            secret_key = self._secret_key(op, "request")
            shown = redact_body(request.content, content_type, secrets, secret_key=secret_key)
            self._trace("> " + _clip(shown))

    def _trace_response(
        self,
        response: httpx.Response,
        elapsed_ms: float,
        secrets: tuple[str, ...],
        op: Operation | None,
    ) -> None:
        if self._trace is None:
            return
        self._trace(f"< {response.status_code} {response.reason_phrase} ({elapsed_ms:.0f} ms)")
        for name, value in redact_headers(response.headers.items()):
            self._trace(f"< {name}: {redact_text(value, secrets)}")
        content = response.read()
        if content:
            content_type = response.headers.get("Content-Type")
            secret_key = self._secret_key(op, "response")
            shown = redact_body(content, content_type, secrets, secret_key=secret_key)
            self._trace("< " + _clip(shown))

    # -- decoding ------------------------------------------------------------------------

    def call_json(self, op: Operation, **kwargs: Any) -> Any:
        """``call`` and decode the JSON body; a 2xx body that is not JSON is exit 8."""
        response = self.call(op, **kwargs)
        return decode_json(response, trace=self._trace)


def _check_admitted(credential: Credential, op: Operation) -> None:
    """Exit 4 when the contract does not let this kind of credential call ``op``."""
    if admits(op.kinds, credential.kind.value):
        return
    if credential.kind is CredentialKind.SOURCE:
        hint = (
            "source keys are only for lead intake (`leadctl leads create`, and any "
            "operation whose contract security names a source key); use an "
            "organization key or user token for everything else"
        )
    else:
        hint = "the contract's security for this operation admits only " + " or ".join(
            f"{kind} credentials" for kind in sorted(op.kinds)
        )
    raise Forbidden(
        f"a {credential.kind.value} credential may not call {op.method} {op.path}", hint=hint
    )


class _TooLarge(Exception):
    """A body over MAX_BODY_BYTES: answered, but unusable (not a transport error)."""

    def __init__(self, error: BadResponse) -> None:
        super().__init__(error.message)
        self.error = error


def _no_cookie_jar() -> Any:
    """A cookie jar that keeps nothing: reading every answer's Set-Cookie headers was 7% of
    a bulk run's CPU. (http.cookiejar is loaded with httpx, which is loaded by now.)"""
    import http.cookiejar

    class NoCookies(http.cookiejar.CookieJar):
        def extract_cookies(self, response: Any, request: Any) -> None:
            return None

        def set_cookie(self, cookie: Any) -> None:
            return None

    return NoCookies()


def _receive(http: httpx.Client, request: httpx.Request) -> httpx.Response:
    """Send and read the whole body, refusing one larger than MAX_BODY_BYTES.

    A truncated body raises httpx's transport errors here, inside the retry loop.
    """
    streamed = http.send(request, stream=True)
    try:
        declared = streamed.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            raise _TooLarge(_too_large(int(declared)))
        body = bytearray()
        for chunk in streamed.iter_bytes():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise _TooLarge(_too_large(None))
    finally:
        streamed.close()
    # The body is already decoded: the copy must not claim an encoding or a length. The
    # headers are copied as bytes: a value holding a Latin-1 byte (é) does not survive a
    # round trip through str, which httpx would encode as ASCII.
    headers = [
        (name, value)
        for name, value in streamed.headers.raw
        if name.lower() not in (b"content-encoding", b"content-length", b"transfer-encoding")
    ]
    return httpx.Response(
        streamed.status_code,
        headers=headers,
        content=bytes(body),
        request=request,
        extensions=streamed.extensions,
    )


def _seconds(seconds: float) -> str:
    return f"{seconds:.0f}s" if seconds >= 1 or seconds == 0 else f"{seconds:.1f}s"


def _too_large(size: int | None) -> BadResponse:
    shown = f"{size} bytes" if size is not None else f"more than {MAX_BODY_BYTES} bytes"
    return BadResponse(
        f"the response body is too large ({shown}); leadctl reads at most "
        f"{MAX_BODY_BYTES // (1024 * 1024)} MiB per response",
        hint="use a smaller --page-size",
    )


def decode_json(response: httpx.Response, *, trace: Callable[[str], None] | None) -> Any:
    content = response.content
    if not content:
        return None
    try:
        return loads_service(content)
    except (ValueError, UnicodeDecodeError) as error:
        if trace is not None:
            trace(
                "< raw body start: " + _clip(content[:DEBUG_BODY_LIMIT].decode("utf-8", "replace"))
            )
        content_type = response.headers.get("Content-Type", "no content type")
        # Why, when it is JSON's shape but not JSON's rules (NaN, nesting too deep).
        reason = f": {error}" if isinstance(error, NotJson) else ""
        raise BadResponse(
            f"the service answered {response.status_code} with a body that is not JSON "
            f"({content_type}, {len(content)} bytes){reason}",
            hint="run with --debug to see the start of the body",
        ) from None


def _query(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not params:
        return None
    return {k: v for k, v in params.items() if v is not None}


def _clip(text: str) -> str:
    if len(text) <= DEBUG_BODY_LIMIT:
        return text
    return text[:DEBUG_BODY_LIMIT] + f"… ({len(text) - DEBUG_BODY_LIMIT} more characters)"


def _describe(error: Exception, secrets: tuple[str, ...]) -> str:
    return redact_text(str(error) or type(error).__name__, secrets)


def _is_tls_failure(error: Exception) -> bool:
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, ssl.SSLError):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def _transport_reason(error: httpx.TransportError, secrets: tuple[str, ...]) -> str:
    if isinstance(error, httpx.TimeoutException):
        return "timed out waiting for the service"
    if isinstance(error, httpx.RemoteProtocolError):
        return "the connection was closed before a complete response arrived"
    return f"network error: {_describe(error, secrets)}"


def json_media_type(op: Operation) -> str:
    """The JSON media type the contract names for the body (``application/merge-patch+json``),
    else ``application/json`` (also for a range such as ``application/*+json``)."""
    media = (op.body_media or "").split(";")[0].strip().lower()
    if media.startswith("application/") and media.endswith("+json") and "*" not in media:
        return media
    return "application/json"


def with_idempotency_key(
    op: Operation, json_body: Any, headers: list[tuple[str, str]]
) -> tuple[Any, list[tuple[str, str]]]:
    """The body and headers with a fresh idempotency key where the operation takes one and
    the caller gave none. Made once per call, before the request is built, so every retry
    of this call repeats the same key (cli.md "Retries")."""
    idem = op.idempotency
    if idem is None:
        return json_body, headers
    if idem.where == "header":
        if any(name.lower() == idem.name.lower() for name, _value in headers):
            return json_body, headers
        return json_body, [*headers, (idem.name, str(uuid.uuid4()))]
    if isinstance(json_body, dict) and json_body.get(idem.name) in (None, ""):
        return {**json_body, idem.name: str(uuid.uuid4())}, headers
    return json_body, headers
