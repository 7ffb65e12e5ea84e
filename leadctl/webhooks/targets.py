"""Where deliveries go (``send URL``, ``listen --forward-to URL``), checked before sending."""

from __future__ import annotations

from urllib.parse import urlsplit

from leadctl.config.urls import is_loopback_host
from leadctl.errors import UsageError
from leadctl.util.safetext import safe_text


def check_target_url(url: str, *, what: str, allow_insecure_http: bool) -> str:
    """``url`` unchanged (its path and query are the receiver's business), or UsageError."""
    if any(ch.isspace() or not ch.isprintable() for ch in url):
        raise UsageError(f"{what}: the URL contains spaces or control characters")
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as error:
        raise UsageError(f"{what} {safe_text(url, one_line=True)!r}: {error}") from None
    if parts.scheme not in ("http", "https") or not host:
        raise UsageError(
            f"{what} {safe_text(url, one_line=True)!r}: expected http(s)://HOST[:PORT]/PATH"
        )
    if parts.scheme == "http" and not is_loopback_host(host) and not allow_insecure_http:
        raise UsageError(
            f"refusing plain http:// to {host}: deliveries (lead data) would cross the network "
            "unencrypted",
            hint="use https://, or pass --allow-insecure-http if you really mean it",
        )
    return url
