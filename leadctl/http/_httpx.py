"""httpx, imported without its command-line tool.

``import httpx`` also imports httpx's own command-line tool when click and rich are
installed (they are, beside Typer): about 40 ms of click, rich and pygments that leadctl
never uses. httpx has no public switch for this (moving the import out of ``__init__`` is
still an open proposal upstream, encode/httpx#3547), but it does import the tool inside
``try: ... except ImportError`` and falls back to a stub ``main``: the path of an install
without the ``httpx[cli]`` extra. leadctl takes that path with Python's documented way to
make one import fail, a None entry in ``sys.modules`` (the language reference, "The module
cache"), held only while httpx loads and removed afterwards, so nothing else ever sees it.

The one private fact used is the tool's module name, ``httpx._main``, stable across the
httpx versions pyproject.toml allows; tests/unit/test_httpx_import.py fails if an upgrade
moves it.
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
