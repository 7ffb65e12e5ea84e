"""A webhook receiver for tests: a stdlib HTTP server on 127.0.0.1 in a thread that records
every request and answers each with the next scripted status (then the default).

Tests wait on ``wait_for(n)`` (a condition, never a sleep) for the n-th request.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    method: str
    path: str
    # In the order sent, names as sent.
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        found = [value for key, value in self.headers if key.lower() == name.lower()]
        return found[0] if found else None

    def header_map(self) -> dict[str, str]:
        return {key.lower(): value for key, value in self.headers}


@dataclass
class Receiver:
    url: str = ""
    answers: list[int] = field(default_factory=list)
    default_status: int = 200
    # Sent back as the body of every answer.
    answer_body: bytes = b""
    received: list[Received] = field(default_factory=list)
    # While set, a request is held (not answered) until ``release`` is set.
    hold: threading.Event | None = None
    release: threading.Event = field(default_factory=threading.Event)
    _changed: threading.Condition = field(default_factory=threading.Condition)

    def next_status(self) -> int:
        with self._changed:
            return self.answers.pop(0) if self.answers else self.default_status

    def record(self, request: Received) -> None:
        with self._changed:
            self.received.append(request)
            self._changed.notify_all()

    def wait_for(self, count: int, timeout: float = 30.0) -> list[Received]:
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} requests received, wanted {count}")
            return list(self.received)


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            receiver.record(Received(self.command, self.path, list(self.headers.items()), body))
            if receiver.hold is not None and receiver.hold.is_set():
                receiver.release.wait(30)
            status = receiver.next_status()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(receiver.answer_body)))
            self.end_headers()
            self.wfile.write(receiver.answer_body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@contextmanager
def receiving(
    *answers: int, default_status: int = 200, answer_body: bytes = b""
) -> Iterator[Receiver]:
    receiver = Receiver(
        answers=list(answers), default_status=default_status, answer_body=answer_body
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(receiver))
    server.daemon_threads = True
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.release.set()
        server.shutdown()
        server.server_close()
        thread.join()
