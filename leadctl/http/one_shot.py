"""A one-shot transport on the standard library's ``http.client``, for a single request.

Importing httpx and httpcore is about 41 ms, more than a fifth of a whole read against a
local service, and httpx itself imports ssl, hashlib and uuid: a command that sends one
request and reads one answer pays that for a keep-alive pool it never reuses. This module
sends that one request with ``http.client`` instead, when :func:`one_shot_allowed` says so.

It gives the layers above (``sending.py``, ``debug_trace.py``, ``bodies.py``,
``problems.py``, the credential placement) exactly what they read of httpx's request and
answer: the same header names, values and order (so ``--debug`` is the same on both), the
same URL, query encoding and Host, and the same body rules (Content-Encoding decoded as
httpx does, ``MAX_BODY_BYTES`` while reading). Its failures are :class:`OneShotError`, whose
``kind`` ``sending.py`` turns into the very Delivery and message httpx's errors become.

The embedded sandbox (``-p sandbox``) answers the same one-shot request in this process
(:class:`AnswersInProcess`): the request is built and its answer read by the very code
below, with no socket and no httpx (about 30 ms of the 210 such a command took through httpx).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable
from urllib.parse import urlencode, urlsplit

from leadctl.http.bodies import MAX_BODY_BYTES, TooLarge, too_large
from leadctl.http.pool import USER_AGENT

if TYPE_CHECKING:
    # Loaded when a request goes over the network: the embedded sandbox needs neither.
    import http.client
    import ssl

    from leadctl.contract.operations import Operation

TRANSPORT_VARIABLE = "LEADCTL_HTTP_TRANSPORT"
# httpx reads these (trust_env): a proxy is httpx's job, so any of them keeps it.
PROXY_VARIABLES = frozenset({"http_proxy", "https_proxy", "all_proxy", "no_proxy"})
# What httpx 0.28 sends without brotli or zstandard installed, the values --debug shows.
ACCEPT_ENCODING = "gzip, deflate"


# One answer as ASGI gives it: the status, the header pairs, the whole body.
RawAnswer = tuple[int, list[tuple[bytes, bytes]], bytes]


@runtime_checkable
class AnswersInProcess(Protocol):
    """A transport that answers a request in this process without httpx (the embedded
    sandbox's): ``target`` is the path and query as sent on the wire."""

    def answer_in_process(
        self, method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> RawAnswer: ...


def one_shot_allowed(
    op: Operation, *, base_url: str, transport: object | None, env: Mapping[str, str]
) -> bool:
    """Whether one call of ``op`` goes through this module rather than httpx's pool.

    Only a single request that is not paged (paging reuses one connection for many pages;
    bulk runs, downloads, streams and webhooks send through ``Client.call`` or their own
    clients, never here), and never when the user chose httpx with
    LEADCTL_HTTP_TRANSPORT=httpx (the unit tests' conftest does, so pytest-httpx sees every
    request). Then: to a transport that answers in process (the embedded sandbox; no proxy
    is involved), or with no transport injected (a test's is httpx's) to a path on the
    profile's http or https base URL (https with the roots httpx would use, trust.py) when
    no proxy variable is set (httpx honours them; this module does not).
    """
    if op.paged or "://" in op.path:
        return False
    if env.get(TRANSPORT_VARIABLE, "").strip().lower() == "httpx":
        return False
    if transport is not None:
        return isinstance(transport, AnswersInProcess)
    if any(name.lower() in PROXY_VARIABLES for name in env):
        return False
    return base_url.lower().startswith(("http://", "https://"))


class OneShotError(Exception):
    """A send that got no usable answer, as httpx's errors are sorted in ``sending.py``:
    ``connect`` (nothing sent), ``timeout``, ``closed`` (the answer was cut short),
    ``network`` (any other socket error after connecting) or ``decode`` (a bad
    Content-Encoding)."""

    def __init__(self, kind: str, cause: BaseException) -> None:
        super().__init__(str(cause) or type(cause).__name__)
        self.kind = kind
        self.cause = cause


class Headers:
    """Case-insensitive headers in order, read as httpx.Headers is: ``items()`` gives the
    lower-case names with repeated ones joined by ", ", ``get`` the joined value."""

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()) -> None:
        self._pairs = list(pairs)

    def raw_items(self) -> list[tuple[str, str]]:
        return list(self._pairs)

    def get(self, name: str, default: Any = None) -> Any:
        values = [v for k, v in self._pairs if k.lower() == name.lower()]
        return ", ".join(values) if values else default

    def get_list(self, name: str) -> list[str]:
        return [v for k, v in self._pairs if k.lower() == name.lower()]

    def __getitem__(self, name: str) -> str:
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return str(value)

    def __setitem__(self, name: str, value: str) -> None:
        at = [i for i, (k, _v) in enumerate(self._pairs) if k.lower() == name.lower()]
        if not at:
            self._pairs.append((name, value))
            return
        self._pairs[at[0]] = (self._pairs[at[0]][0], value)
        for i in reversed(at[1:]):
            del self._pairs[i]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(k.lower() for k, _v in self._pairs))

    def items(self) -> list[tuple[str, str]]:
        joined: dict[str, str] = {}
        for name, value in self._pairs:
            key = name.lower()
            joined[key] = f"{joined[key]}, {value}" if key in joined else value
        return list(joined.items())

    def copy(self) -> Headers:
        return Headers(self._pairs)


class URL:
    """An absolute http URL as httpx.URL prints and edits it (only what leadctl uses)."""

    def __init__(self, scheme: str, netloc: str, path: str, query: str = "") -> None:
        self.scheme, self.netloc, self.path, self.query = scheme, netloc, path, query

    @property
    def target(self) -> str:
        return self.path + (f"?{self.query}" if self.query else "")

    def copy_with(self, *, query: None = None, fragment: None = None) -> URL:
        return URL(self.scheme, self.netloc, self.path)

    def copy_set_param(self, name: str, value: str) -> URL:
        from urllib.parse import parse_qsl

        kept = [(k, v) for k, v in parse_qsl(self.query, keep_blank_values=True) if k != name]
        return URL(self.scheme, self.netloc, self.path, urlencode([*kept, (name, value)]))

    def __str__(self) -> str:
        return f"{self.scheme}://{self.netloc}{self.target}"


class Request:
    def __init__(self, method: str, url: URL, headers: Headers, content: bytes) -> None:
        self.method, self.url, self.headers, self.content = method, url, headers, content


class Response:
    """An answer read whole, with what the layers above read of httpx.Response."""

    def __init__(
        self, status_code: int, reason_phrase: str, headers: Headers, content: bytes, url: URL
    ) -> None:
        self.status_code = status_code
        self.reason_phrase = reason_phrase
        self.headers = headers
        self.content = content
        self.url = url

    def read(self) -> bytes:
        return self.content

    def close(self) -> None:
        return None


def _query_value(value: Any) -> str:
    # httpx's primitive_value_to_str.
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    return str(value)


def encode_query(params: Mapping[str, Any] | None) -> str:
    """``params`` encoded as httpx encodes them (a list repeats its key)."""
    items: list[tuple[str, str]] = []
    for name, value in (params or {}).items():
        values = value if isinstance(value, (list, tuple)) else [value]
        items += [(str(name), _query_value(v)) for v in values]
    return urlencode(items)


class OneShot:
    """Sends one request a connection, to the base URL's host (or to ``in_process``), and
    reads the answer whole."""

    def __init__(
        self,
        *,
        base_url: str,
        timeout: float,
        # The client's roots (trust.py), loaded only for an https URL.
        verify: Callable[[], ssl.SSLContext | bool] = lambda: True,
        in_process: AnswersInProcess | None = None,
    ) -> None:
        self._base = urlsplit(base_url)
        self._timeout = timeout
        self._verify = verify
        self._in_process = in_process

    def build_request(
        self,
        method: str,
        path: str | URL,
        *,
        params: Mapping[str, Any] | None = None,
        content: bytes | None = None,
        headers: Iterable[tuple[str, str]] | Headers = (),
    ) -> Request:
        if isinstance(path, URL):
            pairs = headers.raw_items() if isinstance(headers, Headers) else list(headers)
            return Request(method, path, Headers(pairs), content or b"")
        base = self._base
        # As httpx merges a base URL: its path with a trailing slash, then the relative one.
        merged = base.path.rstrip("/") + "/" + path.lstrip("/")
        netloc = base.netloc
        default_port = {"http": ":80", "https": ":443"}.get(base.scheme, "")
        if default_port and netloc.endswith(default_port):
            netloc = netloc[: -len(default_port)]  # httpx drops the default port
        url = URL(base.scheme, netloc, merged, encode_query(params))
        body = content or b""
        head: list[tuple[str, str]] = [("Host", netloc)]
        if not body and method in ("POST", "PUT", "PATCH"):
            head.append(("Content-Length", "0"))
        head += [
            ("Accept-Encoding", ACCEPT_ENCODING),
            ("Connection", "keep-alive"),
            ("User-Agent", USER_AGENT),
            ("Accept", "application/json"),
            *headers,
        ]
        if body:
            head.append(("Content-Length", str(len(body))))
        return Request(method, url, Headers(head), body)

    def receive(self, request: Request) -> Response:
        """Send ``request`` and read its whole answer within MAX_BODY_BYTES."""
        if self._in_process is not None:
            return self._answered_in_process(request, self._in_process)
        import http.client

        from leadctl.http.trust import ssl_context

        host = request.url.netloc
        connection: http.client.HTTPConnection
        if request.url.scheme == "https":
            context = ssl_context(self._verify())
            # As httpcore does for HTTP/1.1; the hostname is checked (check_hostname).
            context.set_alpn_protocols(["http/1.1"])
            connection = http.client.HTTPSConnection(host, timeout=self._timeout, context=context)
        else:
            connection = http.client.HTTPConnection(host, timeout=self._timeout)
        try:
            try:
                connection.connect()
            except OSError as error:  # refused, DNS, unreachable, timed out (socket.timeout)
                raise OneShotError("connect", error) from error
            try:
                connection.putrequest(
                    request.method, request.url.target, skip_host=True, skip_accept_encoding=True
                )
                for name, value in request.headers.raw_items():
                    connection.putheader(name, value)
                connection.endheaders(request.content or None)
                answer = connection.getresponse()
                raw = _read_within_limit(answer)
            except TooLarge:
                raise
            except TimeoutError as error:
                raise OneShotError("timeout", error) from error
            except (http.client.RemoteDisconnected, http.client.HTTPException) as error:
                raise OneShotError("closed", error) from error
            except OSError as error:
                raise OneShotError("network", error) from error
        finally:
            connection.close()
        pairs = [(name, _header_text(value)) for name, value in answer.getheaders()]
        return _response(answer.status, answer.reason, pairs, raw, request.url)

    def _answered_in_process(self, request: Request, answerer: AnswersInProcess) -> Response:
        # As http.client puts them on the wire: Latin-1 (a credential is ASCII).
        head = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in request.headers.raw_items()]
        try:
            status, pairs, raw = answerer.answer_in_process(
                request.method, request.url.target, head, request.content
            )
        except ConnectionError as error:  # the sandbox has stopped (after a Ctrl-C)
            raise OneShotError("connect", error) from error
        if len(raw) > MAX_BODY_BYTES:
            raise TooLarge(too_large(len(raw)))
        text = [(k.decode("latin-1"), _header_text(v.decode("latin-1"))) for k, v in pairs]
        return _response(status, _reason(status), text, raw, request.url)


def _response(
    status: int, reason: str, pairs: list[tuple[str, str]], raw: bytes, url: URL
) -> Response:
    body = _decoded(raw, [v for k, v in pairs if k.lower() == "content-encoding"])
    # The body is decoded: the copy claims no encoding and the length of what was read,
    # as bodies.receive's copy (an httpx.Response made from the bytes) does.
    kept = [
        (name, value)
        for name, value in pairs
        if name.lower() not in ("content-encoding", "content-length", "transfer-encoding")
    ]
    if body:
        kept.append(("Content-Length", str(len(body))))
    return Response(status, reason, Headers(kept), body, url)


def _reason(status: int) -> str:
    """The reason phrase httpx gives an answer with no status line (an ASGI answer)."""
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def _read_within_limit(answer: http.client.HTTPResponse) -> bytes:
    declared = answer.getheader("Content-Length", "") or ""
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise TooLarge(too_large(int(declared)))
    body = bytearray()
    while chunk := answer.read(65536):
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise TooLarge(too_large(None))
    return bytes(body)


def _header_text(value: str) -> str:
    """http.client reads header bytes as Latin-1; httpx shows UTF-8 when they are UTF-8."""
    raw = value.encode("latin-1", "replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return value


def _decoded(raw: bytes, encodings: list[str]) -> bytes:
    """The body with its Content-Encoding undone as httpx does: gzip and deflate (each
    listed one, last applied first), identity and unknown codings left as they are."""
    names = [part.strip().lower() for value in encodings for part in value.split(",")]
    body = raw
    for name in reversed(names):
        if name not in ("gzip", "deflate"):
            continue
        try:
            body = _inflate(body, name)
        except zlib.error as error:
            raise OneShotError("decode", error) from error
        if len(body) > MAX_BODY_BYTES:
            raise TooLarge(too_large(None))
    return body


def _inflate(body: bytes, name: str) -> bytes:
    if name == "gzip":
        inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
    else:
        try:  # deflate: zlib-wrapped as the RFC says, else raw as some servers send it
            inflater = zlib.decompressobj()
            return inflater.decompress(body, MAX_BODY_BYTES + 1) + inflater.flush()
        except zlib.error:
            inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    return inflater.decompress(body, MAX_BODY_BYTES + 1) + inflater.flush()
