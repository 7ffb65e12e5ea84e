"""Base URL validation: http(s) only, and plain http only for loopback unless allowed."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from leadctl.errors import UsageError

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def is_loopback_host(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def validate_base_url(url: str, *, allow_insecure_http: bool) -> str:
    """The URL without a trailing slash, or UsageError naming what is wrong."""
    if "@" in url:
        # Never echo it back: whatever precedes "@" may be a password.
        raise UsageError(
            "invalid base URL: credentials in the URL are not accepted",
            hint="use `leadctl auth login` or LEADCTL_TOKEN",
        )
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as error:
        raise UsageError(f"invalid base URL {url!r}: {error}") from None
    if parts.scheme not in ("http", "https"):
        raise UsageError(f"invalid base URL {url!r}: the scheme must be https (or http)")
    if not host:
        raise UsageError(f"invalid base URL {url!r}: no host")
    if parts.query or parts.fragment:
        raise UsageError(f"invalid base URL {url!r}: no query or fragment allowed")
    if parts.scheme == "http" and not is_loopback_host(host) and not allow_insecure_http:
        raise UsageError(
            f"refusing plain http:// to {host}: the credential would cross the network unencrypted",
            hint="use https://, or pass --allow-insecure-http if you really mean it",
        )
    return url.strip().rstrip("/")
