"""httpx, loaded the first time one of its names is read, and without its command-line tool.

Every module that sends imports ``httpx`` from here at its top (the real module for mypy,
this stand-in at run time), so its header says it depends on httpx while ``leadctl --help``
and a group's help, which never send, do not pay for loading it. This module is the one
place that decides when httpx loads: the wrapper of a heavy library, as
docs/ARCHITECTURE.md's start-up budget names it.

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
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

__all__ = ["LazyTransport", "httpx"]


@cache
def _load() -> ModuleType:
    skip_cli = "httpx" not in sys.modules and "httpx._main" not in sys.modules
    if skip_cli:
        sys.modules["httpx._main"] = None  # type: ignore[assignment]
    try:
        import httpx as library
    finally:
        if skip_cli:
            del sys.modules["httpx._main"]
    return library


class _OnFirstUse:
    """Stands in for the httpx module: reading any name loads httpx (once) and answers it."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_load(), name)


httpx: Any = _OnFirstUse()

if TYPE_CHECKING:
    import httpx as _typed

    _Transport = _typed.BaseTransport
else:
    # httpx asks a transport only for these four methods, so the class need not subclass
    # httpx's (which would load httpx to define it).
    _Transport = object


class LazyTransport(_Transport):
    """A transport built on its first request.

    For a plain-http base URL the client never needs a certificate store, yet building one
    (certifi's ~150 roots) cost more than anything else in a loopback read's start-up.
    https URLs (``contract pull`` of a docs site) go through this, which builds the
    verifying transport only then.
    """

    def __init__(self, build: Callable[[], _typed.BaseTransport]) -> None:
        self._build = build
        self._inner: _typed.BaseTransport | None = None

    def __enter__(self) -> LazyTransport:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def handle_request(self, request: _typed.Request) -> _typed.Response:
        if self._inner is None:
            self._inner = self._build()
        return self._inner.handle_request(request)

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()
