"""Which requests the sandbox's authorization server answers, and the API in front of it.

Kept apart from ``leadctl_sandbox.oauth``, which is loaded on the first request to one of
these paths: a ``-p sandbox`` command starts the sandbox in its own process for each run and
almost never signs in, so it does not pay for the OAuth server's module (its dataclasses,
hashing and HTML) to read a list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from leadctl_sandbox.settings import SandboxSettings
    from leadctl_sandbox.state import SandboxState

ISSUER_PATH = "/oauth"
PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource"
METADATA_PATH = "/.well-known/oauth-authorization-server" + ISSUER_PATH


def is_oauth_path(path: str) -> bool:
    return path in (PROTECTED_RESOURCE_PATH, METADATA_PATH) or path.startswith(ISSUER_PATH + "/")


class WithOAuth:
    """The API with the authorization server's paths routed to it; the server is made on
    the first request it answers."""

    def __init__(self, api: ASGIApp, state: SandboxState, settings: SandboxSettings) -> None:
        self.api = api
        self._state = state
        self._control = settings.faults
        self._server: Any = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and is_oauth_path(scope["path"]):
            if self._server is None:
                from leadctl_sandbox.oauth import AuthorizationServer

                self._server = AuthorizationServer(self._state, control=self._control)
            await self._server(scope, receive, send)
            return
        await self.api(scope, receive, send)
