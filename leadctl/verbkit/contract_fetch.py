"""Reading a contract from a file, stdin or a URL (see ``discovery`` for URLs: the
credential goes only to the profile's own host)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from leadctl.errors import UsageError
from leadctl.verbkit.contract_discovery import Discovery, label

if TYPE_CHECKING:
    from leadctl.verbkit.contract_discovery import DiscoveryInvocation


def is_url(source: str) -> bool:
    return source.startswith(("https://", "http://"))


def read_contract(ctx: DiscoveryInvocation, source: str) -> tuple[bytes, str]:
    """The document's bytes and a label saying where they came from."""
    if is_url(source):
        found = Discovery.from_context(ctx).fetch(source)
        assert found.raw is not None  # no If-None-Match was sent
        return found.raw, label(source)
    if source == "-":
        return ctx.ios.stdin.read().encode("utf-8"), "stdin"
    path = Path(source).expanduser()
    try:
        return path.read_bytes(), str(path.resolve())
    except OSError as error:
        raise UsageError(f"cannot read {source!r}: {error.strerror or error}") from None
