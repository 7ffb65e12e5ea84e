"""Running the sandbox: uvicorn on a socket we bind ourselves, in a background thread.

Binding first means port 0 gives a known ephemeral port before the server starts, and a busy
port is a clear error. The same runner serves ``sandbox serve`` (main thread waits for
Ctrl-C) and the embedded sandbox of ``--profile sandbox``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from leadctl_sandbox.errors import SandboxError, SandboxUsageError
from leadctl_sandbox.settings import SandboxSettings
from leadctl_sandbox.state import SandboxState

if TYPE_CHECKING:
    from leadctl_sandbox.webhooks import WebhookSender

START_TIMEOUT = 15.0
STOP_TIMEOUT = 5.0
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind_socket(host: str, port: int) -> socket.socket:
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise SandboxUsageError(f"cannot resolve --host {host!r}: {error.strerror}") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as error:
        sock.close()
        raise SandboxUsageError(
            f"cannot listen on {host}:{port}: {error.strerror}",
            hint="pick another --port, or --port 0 for any free one",
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def configure_logging(*, quiet: bool) -> None:
    """uvicorn's own messages: warnings on stderr for serve, nothing when embedded.

    The access log stays off in both cases; the request log (/_sandbox/requests) holds no
    credential, an access log line could hold one in a query string.
    """
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "leadctl_sandbox"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = False
        if quiet:
            logger.addHandler(logging.NullHandler())
            logger.setLevel(logging.CRITICAL)
        else:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("sandbox: %(message)s"))
            logger.addHandler(handler)
            logger.setLevel(logging.WARNING)


def build_asgi(
    state: SandboxState, settings: SandboxSettings, webhooks: WebhookSender | None = None
) -> Any:
    from leadctl_sandbox.app import SandboxApp
    from leadctl_sandbox.middleware import SandboxMiddleware
    from leadctl_sandbox.oauth_routes import WithOAuth
    from leadctl_sandbox.requestlog import RequestLog

    # The authorization server's paths (/oauth/..., its .well-known documents) beside the API.
    app = WithOAuth(SandboxApp(state, settings, webhooks), state, settings)
    log = RequestLog()
    faults = control = limiter = None
    if settings.faults:
        from leadctl_sandbox.control import ControlApp
        from leadctl_sandbox.faults import FaultBook

        faults = FaultBook()
        control = ControlApp(faults=faults, log=log, state=state, settings=settings)
    if settings.rate_limit is not None:
        from leadctl_sandbox.ratelimit import limiter_for

        limiter = limiter_for(settings.rate_limit)
    return SandboxMiddleware(
        app,
        log=log,
        faults=faults,
        limiter=limiter,
        control=control,
        retry_after=settings.retry_after,
    )


class SandboxServer:
    def __init__(
        self,
        state: SandboxState,
        settings: SandboxSettings,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        quiet: bool = True,
        webhooks: WebhookSender | None = None,
    ) -> None:
        self.state = state
        self.settings = settings
        self.webhooks = webhooks
        self.host = host
        self.port = port
        self.quiet = quiet
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        # The server thread's loop and its serve task, for stop(graceful=False).
        self._loop: asyncio.AbstractEventLoop | None = None
        self._serving: asyncio.Task[None] | None = None

    @property
    def base_url(self) -> str:
        host = self.host
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def start(self) -> None:
        import uvicorn

        configure_logging(quiet=self.quiet)
        sock = bind_socket(self.host, self.port)
        self._socket = sock
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            build_asgi(self.state, self.settings, self.webhooks),
            log_config=None,
            access_log=False,
            lifespan="off",
            http="h11",
            ws="none",
            loop="asyncio",
            interface="asgi3",
            proxy_headers=False,
            server_header=False,
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._run, args=(sock,), name="leadctl-sandbox", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise SandboxError("the sandbox server did not start")
            time.sleep(0.002)

    def _run(self, sock: socket.socket) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            asyncio.run(self._serve(sock))

    async def _serve(self, sock: socket.socket) -> None:
        self._loop = asyncio.get_running_loop()
        self._serving = asyncio.current_task()
        await self._server.serve(sockets=[sock])

    def _halt(self, serving: asyncio.Task[None]) -> None:
        """In the server's loop: stop listening, close every connection (a client's idle
        keep-alive one, or one whose request is cut off), and cancel the serve task."""
        try:
            for server in self._server.servers:
                server.close()
            for connection in list(self._server.server_state.connections):
                transport = getattr(connection, "transport", None)
                if transport is not None:
                    transport.close()
        finally:
            serving.cancel()  # whatever another uvicorn calls these: the thread must end

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def stop(self, *, graceful: bool = True) -> None:
        """Graceful (``sandbox serve``): uvicorn lets requests finish, then closes, which
        takes 0.1-0.3 s of its polling. Otherwise (the embedded sandbox, when its command
        is done) the serve task is cancelled. That is safe because every handler is a
        coroutine whose state work has no await inside its transaction: a cancelled request
        stops between transactions, and nothing runs once the thread has ended."""
        loop, serving = self._loop, self._serving
        if not graceful and loop is not None and serving is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed already
                loop.call_soon_threadsafe(self._halt, serving)
        elif self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(STOP_TIMEOUT)
            self._thread = None
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.close()
            self._socket = None
        self._server = None
