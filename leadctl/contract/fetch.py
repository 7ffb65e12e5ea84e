"""Reading a contract from a file, stdin or a URL on the profile's own host.

A URL is fetched with leadctl's client (the profile's credential, TLS settings, retries
and errors), so it must be on the profile's host: the credential never goes elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.context import Context

PUBLISHED_PATH = "/openapi.json"  # assumed: where a service publishes its contract


def is_url(source: str) -> bool:
    return source.startswith(("https://", "http://"))


def default_contract_url(ctx: Context) -> str:
    """The profile's contract_url, else ``<base_url>/openapi.json`` (an assumption)."""
    configured = ctx.settings.get("contract_url")
    if isinstance(configured, str) and configured:
        return configured
    return ctx.base_url() + PUBLISHED_PATH


def read_contract(ctx: Context, source: str) -> tuple[bytes, str]:
    """The document's bytes and a label saying where they came from."""
    if is_url(source):
        return fetch(ctx, source), _label(source)
    if source == "-":
        return ctx.ios.stdin.read().encode("utf-8"), "stdin"
    path = Path(source).expanduser()
    try:
        return path.read_bytes(), str(path.resolve())
    except OSError as error:
        raise UsageError(f"cannot read {source!r}: {error.strerror or error}") from None


def _label(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, (parts.hostname or "").lower(), port


def fetch(ctx: Context, url: str) -> bytes:
    """GET ``url`` with the profile's client; it must be on the profile's host."""
    from leadctl.operations import STAFF, Operation
    from leadctl.urls import validate_base_url

    validate_base_url(_label(url), allow_insecure_http=ctx.options.allow_insecure_http)
    base = ctx.base_url()
    if _origin(url) != _origin(base):
        host = urlsplit(base).hostname
        raise UsageError(
            f"refusing to fetch {_label(url)}: it is not on the profile's host ({host}), "
            "and leadctl sends the profile's credential only there",
            hint="download it yourself and run `leadctl contract import FILE`",
        )
    path = url[len(base) :] if url.startswith(base + "/") else url
    operation = Operation("getContract", "GET", path, retry_safe=True, kinds=STAFF)
    response = ctx.client().call(operation)
    return bytes(response.content)


def parse_contract(raw: bytes, *, what: str) -> dict[str, Any]:
    from leadctl.contract.formats import parse_document

    return parse_document(raw, what=what)
