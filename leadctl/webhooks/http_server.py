"""The listening socket of ``webhooks listen``: the stdlib's threaded HTTP server.

One thread per connection, each with a read deadline, so a slow or stuck sender holds
only its own thread. Bodies need a Content-Length (every webhook sender sends one) and are
capped. The server's own access log is off: the command prints one line per delivery.
"""

from __future__ import annotations

import socket
import socketserver
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from leadctl.errors import UsageError
from leadctl.webhooks.receiver import Answer, Receiver, Record

MAX_BODY_BYTES = 16 * 1024 * 1024
READ_TIMEOUT = 30.0
ON_RECORD = Callable[[Record], None]
ON_ERROR = Callable[[str], None]


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        family: int,
        receiver: Receiver,
        on_record: ON_RECORD,
        on_error: ON_ERROR,
    ) -> None:
        self.address_family = family
        self.receiver = receiver
        self.on_record = on_record
        self.on_error = on_error
        super().__init__(address, _Handler)

    def handle_error(self, request: object, client_address: object) -> None:
        # The stdlib prints a traceback; a dropped connection is one line, not a crash.
        import sys

        error = sys.exc_info()[1]
        self.on_error(f"a request from {client_address} failed: {type(error).__name__}")

    def server_bind(self) -> None:
        # HTTPServer.server_bind also looks up the host's FQDN, a DNS query that can stall
        # start-up for seconds; nothing here uses that name.
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = str(host)
        self.server_port = int(port)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    server_version = "leadctl-webhooks-listen"
    sys_version = ""
    timeout = READ_TIMEOUT

    def do_POST(self) -> None:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            self._plain(411, "send a Content-Length")
            return
        declared = (self.headers.get("Content-Length") or "").strip()
        if not declared.isdigit():
            self._plain(411, "send a Content-Length")
            return
        length = int(declared)
        if length > MAX_BODY_BYTES:
            self._plain(413, f"bodies over {MAX_BODY_BYTES} bytes are refused")
            headers = list(self.headers.items())
            self.server.on_record(self.server.receiver.refused(headers, 413, "body too large"))
            return
        body = self.rfile.read(length)
        if len(body) < length:
            self.close_connection = True
            return
        answer = self.server.receiver.receive(list(self.headers.items()), body)
        self._answer(answer)
        self.server.on_record(answer.record)

    def _answer(self, answer: Answer) -> None:
        self.send_response(answer.status)
        if answer.content_type:
            self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(answer.body)))
        self.end_headers()
        self.wfile.write(answer.body)

    def _plain(self, status: int, text: str) -> None:
        body = (text + "\n").encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def _not_allowed(self) -> None:
        self.send_response(405)
        self.send_header("Allow", "POST")
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    do_GET = do_PUT = do_PATCH = do_DELETE = do_HEAD = _not_allowed

    def log_message(self, format: str, *args: object) -> None:
        """Silent: the command prints each delivery itself, the access log would repeat it."""


def bind(
    host: str, port: int, receiver: Receiver, *, on_record: ON_RECORD, on_error: ON_ERROR
) -> _Server:
    """A server listening on ``host:port`` (0: a free port), not yet serving; UsageError
    when the address cannot be used."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise UsageError(f"cannot resolve --host {host!r}: {error.strerror}") from None
    family, _kind, _proto, _name, address = infos[0]
    try:
        return _Server((str(address[0]), int(address[1])), family, receiver, on_record, on_error)
    except OSError as error:
        raise UsageError(
            f"cannot listen on {host}:{port}: {error.strerror or error}",
            hint="pick another --port, or --port 0 for any free one",
        ) from None


def listening_url(server: _Server) -> str:
    host = server.server_name
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{server.server_port}/"
