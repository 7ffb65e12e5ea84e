"""Bodies broken on the wire: cut short, too large, or undecodable.

A raw socket server on 127.0.0.1 answers with exactly the bytes a test gives it, which no
well-behaved HTTP server (nor pytest-httpx) would send. leadctl runs in process against
it through its real transport (no pytest-httpx here), with the fake clock of
tests/support/cli.py so retries do not wait.
"""

from __future__ import annotations

import gzip
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from leadctl.http.client import MAX_BODY_BYTES
from tests.support.cli import Result, run_cli

TOKEN = "sk_test_wire_0123456789abcdefghij"
JSON = b"Content-Type: application/json\r\n"


@dataclass
class RawServer:
    """Each connection reads one request and gets the next canned answer, then closes."""

    answers: list[bytes | Iterator[bytes]] = field(default_factory=list)
    connections: int = 0
    sock: socket.socket = field(default_factory=socket.socket)

    def start(self) -> str:
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        threading.Thread(target=self._serve, daemon=True).start()
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                request = b""
                while b"\r\n\r\n" not in request:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    request += chunk
                answer = self.answers.pop(0) if self.answers else b""
                try:
                    if isinstance(answer, bytes):
                        conn.sendall(answer)
                    else:
                        for part in answer:
                            conn.sendall(part)
                except OSError:
                    pass  # the client hung up: that is what some tests are about


@pytest.fixture
def server() -> Iterator[RawServer]:
    found = RawServer()
    yield found
    found.sock.close()


def run(server: RawServer, *args: str) -> Result:
    base_url = server.start()
    return run_cli(
        ["--max-retries", "1", *args], env={"LEADCTL_TOKEN": TOKEN, "LEADCTL_BASE_URL": base_url}
    )


def cut_short(declared: int, sent: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\n" + JSON + f"Content-Length: {declared}\r\n\r\n".encode() + sent


def test_a_truncated_body_is_retried_for_a_read_then_exit_8(server: RawServer) -> None:
    server.answers = [cut_short(100, b'[{"id": "ls_1", "na')] * 2
    result = run(server, "lead-statuses", "list")
    assert result.exit_code == 8, result.stderr
    assert result.stdout == ""
    assert "closed before a complete response arrived (after 2 attempts)" in result.stderr
    assert server.connections == 2


def test_a_truncated_body_then_a_whole_one_gives_the_whole_one(server: RawServer) -> None:
    whole = b'[{"id": "ls_1", "name": "New", "category": "Open"}]'
    server.answers = [cut_short(len(whole), whole[:20]), cut_short(len(whole), whole)]
    result = run(server, "lead-statuses", "list")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == '[\n{"id":"ls_1","name":"New","category":"Open"}\n]\n'


def test_a_truncated_rotation_answer_is_outcome_unknown_and_not_resent(server: RawServer) -> None:
    server.answers = [cut_short(200, b'{"source": {"id": "src_1"}, "secret": "src_')]
    result = run(server, "sources", "rotate", "src_1", "--yes")
    assert result.exit_code == 9, result.stderr
    assert "apiKeyRotatedAt" in result.stderr
    assert server.connections == 1


def test_a_cut_chunked_body_is_a_transport_failure(server: RawServer) -> None:
    head = b"HTTP/1.1 200 OK\r\n" + JSON + b"Transfer-Encoding: chunked\r\n\r\n"
    server.answers = [head + b'10\r\n[{"id": "ls_1"}\r\n'] * 2
    result = run(server, "lead-statuses", "list")
    assert result.exit_code == 8, result.stderr
    assert "Traceback" not in result.stderr
    assert server.connections == 2


def test_a_huge_declared_body_is_refused_without_reading_it(server: RawServer) -> None:
    declared = MAX_BODY_BYTES + 1
    server.answers = [cut_short(declared, b"[" + b" " * 1024)]
    result = run(server, "lead-statuses", "list")
    assert result.exit_code == 8, result.stderr
    assert f"too large ({declared} bytes)" in result.stderr
    assert server.connections == 1  # not retried: the next answer would be as big


def test_a_huge_streamed_body_is_cut_off_at_the_cap(server: RawServer) -> None:
    block = b" " * (1024 * 1024)

    def endless() -> Iterator[bytes]:
        yield b"HTTP/1.1 200 OK\r\n" + JSON + b"Transfer-Encoding: chunked\r\n\r\n"
        yield b"1\r\n[\r\n"
        for _ in range(MAX_BODY_BYTES // len(block) + 8):
            yield f"{len(block):x}\r\n".encode() + block + b"\r\n"

    server.answers = [endless()]
    result = run(server, "lead-statuses", "list")
    assert result.exit_code == 8, result.stderr
    assert "too large (more than" in result.stderr
    assert "64 MiB" in result.stderr
    assert server.connections == 1


def test_a_body_that_claims_gzip_but_is_not_is_exit_8(server: RawServer) -> None:
    server.answers = [
        b"HTTP/1.1 200 OK\r\n" + JSON + b"Content-Encoding: gzip\r\nContent-Length: 9\r\n\r\n"
        b"not gzip!"
    ]
    result = run(server, "lead-statuses", "list")
    assert result.exit_code == 8, result.stderr
    assert "could not be decoded" in result.stderr


def test_a_real_gzip_body_is_decoded(server: RawServer) -> None:
    body = gzip.compress(b'[{"id": "ls_1", "name": "New"}]')
    server.answers = [
        b"HTTP/1.1 200 OK\r\n"
        + JSON
        + f"Content-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body
    ]
    result = run(server, "lead-statuses", "list")
    assert result.exit_code == 0, result.stderr
    assert '"ls_1"' in result.stdout
