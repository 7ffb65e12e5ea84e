"""The sandbox inside the leadctl process.

State lives in ``config.data_dir(env)/sandbox`` and is seeded on first use. For
``--profile sandbox`` the app answers leadctl's client in the process, without a socket
(``InProcessSandbox``); ``EmbeddedSandbox`` serves it on an ephemeral loopback port for as
long as it runs, for a caller that needs a URL another program can reach.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from leadctl_sandbox.db import DB_FILE
from leadctl_sandbox.settings import SandboxSettings
from leadctl_sandbox.state import SandboxState, default_state_dir, open_state

if TYPE_CHECKING:
    from leadctl_sandbox.in_process import InProcessTransport


class EmbeddedSandbox:
    def __init__(self, *, env: Mapping[str, str]) -> None:
        self.state_file = default_state_dir(env) / DB_FILE
        self.base_url = ""
        self.org_key = ""
        self._state: SandboxState | None = None
        self._server: object | None = None

    def start(self) -> None:
        from leadctl_sandbox.server import SandboxServer

        state = open_state(self.state_file)
        try:
            self.org_key = state.org_key()
            server = SandboxServer(state, SandboxSettings(), host="127.0.0.1", port=0, quiet=True)
            server.start()
        except BaseException:
            state.close()
            raise
        self._state = state
        self._server = server
        self.base_url = server.base_url

    def stop(self) -> None:
        from leadctl_sandbox.server import SandboxServer

        if isinstance(self._server, SandboxServer):
            # The command is done with it: no request of its own is left to finish.
            self._server.stop(graceful=False)
        self._server = None
        if self._state is not None:
            self._state.close()
            self._state = None


class InProcessSandbox:
    """The sandbox's app behind an httpx transport (``transport``) of this process."""

    def __init__(self, *, env: Mapping[str, str]) -> None:
        from leadctl_sandbox.in_process import BASE_URL

        self.state_file = default_state_dir(env) / DB_FILE
        self.base_url = BASE_URL
        self.org_key = ""
        self.transport: InProcessTransport | None = None
        self._state: SandboxState | None = None

    def start(self) -> None:
        from leadctl_sandbox.in_process import InProcessTransport
        from leadctl_sandbox.server import build_asgi

        state = open_state(self.state_file)
        try:
            self.org_key = state.org_key()
            self.transport = InProcessTransport(build_asgi(state, SandboxSettings()))
        except BaseException:
            state.close()
            raise
        self._state = state

    def stop(self) -> None:
        if self.transport is not None:
            self.transport.shutdown()
            self.transport = None
        if self._state is not None:
            self._state.close()
            self._state = None
