"""A local HTTP server that answers ``POST /leads`` as fast as one asyncio loop can: the
contract's 202 with a fixed lead, whatever the request says (so a client's cost is what
is measured, not the server's).

    python benchmarks/fast_leads_server.py    # prints {"baseUrl": ...} once listening

HTTP/1.1 with keep-alive, parsed by hand (the request line, Content-Length, the body
skipped): no framework, no validation, no storage. Any other path is a 404. Stopped by
SIGTERM. benchmarks/import_rate.py reads this process's CPU time around each run to show
that it is not the bottleneck.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys

LEAD = json.dumps(
    {
        "id": "51502636-14de-4272-9c9e-c771229d3bdd",
        "organizationId": "cd613e30-d8f1-4adf-91b7-584a2265b1f5",
        "firstName": "Bench",
        "lastName": "Row 1",
        "email": "bench@import.example",
        "phone": "+15125550001",
        "state": "TX",
        "product": "solar",
        "sourceId": None,
        "status": None,
        "currentStatusChangeId": None,
        "tags": [],
        "processingStatus": "Pending",
        "processingError": None,
        "consentCertificate": None,
        "createdAt": "2026-12-06T21:11:38.788Z",
        "modifiedAt": None,
    },
    separators=(",", ":"),
).encode()


def _response(status: str, body: bytes) -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


CREATED = _response("202 Accepted", LEAD)
NOT_FOUND = _response("404 Not Found", b'{"title":"Not Found","status":404}')


class LeadsProtocol(asyncio.Protocol):
    def __init__(self) -> None:
        self._buffer = b""
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        while True:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self._buffer[:end]
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            total = end + 4 + length
            if len(self._buffer) < total:
                return
            self._buffer = self._buffer[total:]
            method, path = head.split(b" ", 2)[:2]
            assert self._transport is not None
            if method == b"POST" and path == b"/leads":
                self._transport.write(CREATED)
            else:
                print(f"not answered: {method.decode()} {path.decode()}", file=sys.stderr)
                self._transport.write(NOT_FOUND)


async def serve() -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(LeadsProtocol, "127.0.0.1", 0, backlog=256)
    port = server.sockets[0].getsockname()[1]
    print(json.dumps({"baseUrl": f"http://127.0.0.1:{port}"}), flush=True)
    stopped = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stopped.set)
    loop.add_signal_handler(signal.SIGINT, stopped.set)
    async with server:
        await stopped.wait()


if __name__ == "__main__":
    asyncio.run(serve())
