"""A service that answers exactly the bytes a test chose, on 127.0.0.1.

The sandbox and the contract mock are well-behaved servers built on frameworks that would
refuse to send a Latin-1 header byte, an escape in a status line or a body that is not what
its headers say. This one is the standard library's socket and nothing else: a test queues
raw answers (:meth:`HostileServer.answer`, or :func:`response` / :func:`json_response` to
build them), runs the installed leadctl against :attr:`HostileServer.base_url`, then reads
what leadctl sent (:attr:`HostileServer.requests`).

Each connection carries one request and one answer, then closes: what leadctl does with a
byte is the subject of a test, never connection reuse. A request that finds no answer queued
for it gets a 599 and is recorded in :attr:`HostileServer.unanswered`, so a test that did not
foresee a request fails (as pytest-httpx does with an unexpected request).
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

READ_TIMEOUT = 10.0
_MAX_HEAD = 1024 * 1024


@dataclass(frozen=True)
class Request:
    """One request as it arrived: the raw head and body, and the parts tests look at."""

    method: str
    target: str
    headers: list[tuple[str, str]]
    body: bytes

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class _Canned:
    raw: bytes
    path: str | None
    method: str | None
    keep: bool
    # Sent once this is set (or the server stops): a service that takes its time.
    release: threading.Event | None = None

    def matches(self, request: Request) -> bool:
        return (self.path is None or self.path == request.path) and (
            self.method is None or self.method == request.method
        )


def response(
    status: int = 200,
    *,
    reason: bytes | str = b"OK",
    headers: Iterable[tuple[bytes | str, bytes | str]] = (),
    body: bytes | str = b"",
    content_length: bool = True,
) -> bytes:
    """A raw HTTP/1.1 answer; every part may hold any byte (a Latin-1 header value, an ESC
    in the reason phrase). Content-Length is added unless ``content_length`` is False."""

    def raw(value: bytes | str) -> bytes:
        return value if isinstance(value, bytes) else value.encode("utf-8")

    content = raw(body)
    lines = [b"HTTP/1.1 " + str(status).encode() + b" " + raw(reason)]
    lines += [raw(name) + b": " + raw(value) for name, value in headers]
    if content_length:
        lines.append(b"Content-Length: " + str(len(content)).encode())
    lines.append(b"Connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n" + content


def json_response(
    document: Any,
    status: int = 200,
    *,
    content_type: str = "application/json",
    headers: Iterable[tuple[bytes | str, bytes | str]] = (),
    reason: bytes | str = b"OK",
) -> bytes:
    """``document`` as JSON (or ``document`` itself when it is already bytes: a body that
    is not valid JSON, deep nesting, duplicate keys)."""
    body = document if isinstance(document, bytes) else json.dumps(document).encode("utf-8")
    return response(
        status,
        reason=reason,
        headers=[("Content-Type", content_type), *headers],
        body=body,
    )


@dataclass
class HostileServer:
    """The loopback server, started and stopped as a context manager."""

    requests: list[Request] = field(default_factory=list)
    unanswered: list[Request] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._canned: list[_Canned] = []
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._socket = socket.create_server(("127.0.0.1", 0))
        # How often the accept loop looks at _stopping: each test's stop() waits up to this.
        self._socket.settimeout(0.02)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="hostile-server", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._socket.getsockname()[1]}"

    def answer(
        self,
        raw: bytes,
        *,
        path: str | None = None,
        method: str | None = None,
        times: int = 1,
        always: bool = False,
        release: threading.Event | None = None,
    ) -> None:
        """Queue ``raw`` for the next request (to ``path`` with ``method`` when given),
        ``times`` times, or for every such request with ``always``; with ``release``, the
        answer waits until that event is set."""
        with self._lock:
            for _ in range(1 if always else times):
                self._canned.append(_Canned(raw, path, method, keep=always, release=release))

    def wait_for_request(self, path: str, *, count: int = 1, timeout: float = 30) -> Request:
        """The ``count``-th request to ``path``, once it has arrived."""

        def arrived() -> Request | None:
            to_path = [r for r in self.requests if r.path == path]
            return to_path[count - 1] if len(to_path) >= count else None

        with self._arrived:
            found = self._arrived.wait_for(arrived, timeout)
        if found is None:
            raise AssertionError(f"no request {count} to {path} within {timeout} s")
        return found

    def pending(self) -> int:
        """Answers queued and not taken (always-answers do not count)."""
        with self._lock:
            return sum(1 for canned in self._canned if not canned.keep)

    def start(self) -> HostileServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)
        self._socket.close()

    def __enter__(self) -> HostileServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- serving ---------------------------------------------------------------------

    def _serve(self) -> None:
        while not self._stopping.is_set():
            try:
                connection, _ = self._socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(
                target=self._handle, args=(connection,), name="hostile-conn", daemon=True
            ).start()

    def _handle(self, connection: socket.socket) -> None:
        with connection:
            connection.settimeout(READ_TIMEOUT)
            try:
                request = _read_request(connection)
            except (OSError, ValueError):
                return
            if request is None:
                return
            canned = self._take(request)
            if canned.release is not None:
                while not canned.release.wait(0.1) and not self._stopping.is_set():
                    pass
            raw = canned.raw
            try:
                connection.sendall(raw)
                connection.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def _take(self, request: Request) -> _Canned:
        with self._lock:
            self.requests.append(request)
            self._arrived.notify_all()
            for index, canned in enumerate(self._canned):
                if canned.matches(request):
                    if not canned.keep:
                        del self._canned[index]
                    return canned
            self.unanswered.append(request)
        missing = response(599, reason=b"No Canned Answer", body=b"no answer queued")
        return _Canned(missing, None, None, keep=False)


def _read_request(connection: socket.socket) -> Request | None:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        data += chunk
        if len(data) > _MAX_HEAD:
            raise ValueError("request head too large")
    head, _, rest = data.partition(b"\r\n\r\n")
    request_line, *header_lines = head.decode("latin-1").split("\r\n")
    method, target, _version = request_line.split(" ", 2)
    headers = [
        (name.strip(), value.strip())
        for name, _, value in (line.partition(":") for line in header_lines)
    ]
    lowered = {name.lower(): value for name, value in headers}
    if lowered.get("transfer-encoding", "").lower() == "chunked":
        body = _read_chunked(connection, rest)
    else:
        length = int(lowered.get("content-length", "0") or "0")
        body = rest
        while len(body) < length:
            chunk = connection.recv(65536)
            if not chunk:
                break
            body += chunk
    return Request(method=method, target=target, headers=headers, body=body)


def _read_chunked(connection: socket.socket, data: bytes) -> bytes:
    body = b""
    while True:
        while b"\r\n" not in data:
            data += connection.recv(65536)
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        while len(data) < size + 2:
            data += connection.recv(65536)
        if size == 0:
            return body
        body += data[:size]
        data = data[size + 2 :]
