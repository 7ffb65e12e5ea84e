"""httpx, imported without its command-line tool.

``import httpx`` also imports httpx's own command-line tool when click and rich are
installed (they are, beside Typer): about 40 ms of click, rich and pygments that leadctl
never uses. While httpx loads, a None entry in sys.modules makes that optional import fail
the way httpx expects; the entry is removed afterwards, so nothing else ever sees it.
"""

from __future__ import annotations

import sys

_SKIP_CLI = "httpx" not in sys.modules and "httpx._main" not in sys.modules
if _SKIP_CLI:
    sys.modules["httpx._main"] = None  # type: ignore[assignment]
try:
    import httpx as httpx
finally:
    if _SKIP_CLI:
        del sys.modules["httpx._main"]

__all__ = ["httpx"]
