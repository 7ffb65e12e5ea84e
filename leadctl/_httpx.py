"""httpx, imported without its command-line tool.

``import httpx`` also imports httpx's own command-line tool when click and rich are
installed (they are, beside Typer): about 40 ms of click, rich and pygments that leadctl
never uses. While httpx loads, a None entry in sys.modules makes that optional import fail
the way httpx expects; the entry is removed afterwards, so nothing else ever sees it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

_SKIP_CLI = "httpx" not in sys.modules and "httpx._main" not in sys.modules
if _SKIP_CLI:
    sys.modules["httpx._main"] = None  # type: ignore[assignment]
try:
    import httpx as httpx
finally:
    if _SKIP_CLI:
        del sys.modules["httpx._main"]

__all__ = ["LazyTransport", "httpx"]


class LazyTransport(httpx.BaseTransport):
    """A transport built on its first request.

    For a plain-http base URL the client never needs a certificate store, yet building one
    (certifi's ~150 roots) cost more than anything else in a loopback read's start-up.
    https URLs (``contract pull`` of a docs site) go through this, which builds the
    verifying transport only then.
    """

    def __init__(self, build: Callable[[], httpx.BaseTransport]) -> None:
        self._build = build
        self._inner: httpx.BaseTransport | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._inner is None:
            self._inner = self._build()
        return self._inner.handle_request(request)

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()
