"""The sandbox's ASGI app answering leadctl's own client in this process, with no socket.

``--profile sandbox`` runs one command against the sandbox and stops it: a server of its
own (uvicorn's import, its start and a loopback connection) was most of what such a command
spent beyond the same read against ``sandbox serve``. Here the client's transport hands
each request to the same app (the same middleware, request log and state) on one event
loop in a background thread, as uvicorn's thread would run it; the requests of several
threads (a pager's next page, an import's workers) are answered on that loop in turn.

The app sees what uvicorn would give it (a percent-decoded path beside the raw one,
lower-case header names, loopback client and server addresses); a handler that fails
before answering is a 500, as uvicorn's is.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

if TYPE_CHECKING:
    import httpx
    from httpx import BaseTransport as _Transport
else:
    # httpx asks a transport for these methods only: no need to load httpx to define it.
    _Transport = object

# A name that can only mean this host (RFC 6761): shown by --debug and in absolute URLs
# the app builds; nothing ever connects to it, the transport answers first.
BASE_URL = "http://sandbox.localhost"
_CLIENT = ("127.0.0.1", 0)
_SERVER = ("127.0.0.1", 80)


class InProcessTransport(_Transport):
    """An httpx transport that calls an ASGI app on a loop of its own thread; it answers
    leadctl's one-shot requests (``answer_in_process``) the same way, without httpx."""

    def __init__(self, app: Any) -> None:
        self._app = app
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="leadctl-sandbox", daemon=True
        )
        self._thread.start()

    def __enter__(self) -> InProcessTransport:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        # Loaded already, by the client that sends the request, the way leadctl loads it
        # (without httpx's command-line tool): importing it at the top would load it first.
        import httpx

        url = request.url
        target = url.raw_path.decode("ascii")
        try:
            status, headers, content = self.answer_in_process(
                request.method, target, list(request.headers.raw), request.read()
            )
        except ConnectionError as error:
            raise httpx.ConnectError(str(error), request=request) from None
        return httpx.Response(
            status, headers=headers, stream=httpx.ByteStream(content), request=request
        )

    def answer_in_process(
        self, method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The app's answer to one request (``target``: the path and query as on the wire),
        for a client that does not use httpx (leadctl's one-shot requests). Raises
        ConnectionError once the sandbox has stopped."""
        if self._loop.is_closed():
            raise ConnectionError("the embedded sandbox has stopped")
        answer = asyncio.run_coroutine_threadsafe(
            self._call(method, target, headers, body), self._loop
        )
        return answer.result()

    async def _call(
        self, method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        raw_path, _, query = target.partition("?")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            # As uvicorn gives it: percent-decoded beside the raw one.
            "path": unquote(raw_path),
            "raw_path": raw_path.encode("ascii"),
            "query_string": query.encode("ascii"),
            "root_path": "",
            "headers": [(name.lower(), value) for name, value in headers],
            "client": _CLIENT,
            "server": _SERVER,
        }
        given = False
        answered = asyncio.Event()

        async def receive() -> dict[str, Any]:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            await answered.wait()  # as a connection that stays open until the answer
            return {"type": "http.disconnect"}

        status = 0
        answer_headers: list[tuple[bytes, bytes]] = []
        chunks: list[bytes] = []

        async def send(message: dict[str, Any]) -> None:
            nonlocal status, answer_headers
            if message["type"] == "http.response.start":
                status, answer_headers = message["status"], list(message.get("headers", []))
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    answered.set()

        try:
            await self._app(scope, receive, send)
        except Exception:
            if not status:  # nothing was answered: uvicorn answers 500 too
                plain = [(b"content-type", b"text/plain; charset=utf-8")]
                return 500, plain, b"Internal Server Error"
        finally:
            answered.set()
        return status, answer_headers, b"".join(chunks)

    def close(self) -> None:
        """Nothing: every client of the invocation shares this transport and closes it
        when done with it (httpx does); the sandbox ends it with ``shutdown``."""

    def shutdown(self) -> None:
        """Stop the loop; a request still being answered (after a Ctrl-C) is abandoned."""
        if self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        if not self._loop.is_running():
            self._loop.close()
