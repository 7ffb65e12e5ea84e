"""Base URL validation: http(s) only, and plain http only for loopback unless allowed."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from leadctl.config.redact import redact_text
from leadctl.errors import UsageError

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def is_loopback_host(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _shown(url: str) -> str:
    """The URL for an error message: no query or fragment (where tokens travel), and
    anything shaped like a credential masked."""

    head = re.split(r"[?#]", url, maxsplit=1)[0]
    return repr(redact_text(head) + ("?…" if len(head) < len(url) else ""))


def _host_problem(url: str, host: str) -> str | None:
    """Why the host cannot be connected to, found now rather than as a crash in the
    resolver or in httpx halfway through a command."""
    if any(ch.isspace() or not ch.isprintable() for ch in url):
        return "it contains spaces or control characters"
    try:
        ipaddress.ip_address(host)
        return None
    except ValueError:
        pass
    try:
        # What the resolver does with the name before looking it up.
        host.encode("idna")
    except UnicodeError:
        return "a part of the host name is empty or longer than 63 characters"
    if not host.isascii() or "xn--" in host:
        import httpx  # only for internationalised names, which httpx checks by IDNA 2008

        try:
            httpx.URL(url).host  # noqa: B018 - decoding the name is the check
        except (httpx.InvalidURL, UnicodeError):
            return "the host is not a valid internationalised domain name"
    return None


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
        raise UsageError(f"invalid base URL {_shown(url)}: {redact_text(str(error))}") from None
    if parts.scheme not in ("http", "https"):
        raise UsageError(f"invalid base URL {_shown(url)}: the scheme must be https (or http)")
    if not host:
        raise UsageError(f"invalid base URL {_shown(url)}: no host")
    problem = _host_problem(url.strip(), host)
    if problem:
        raise UsageError(f"invalid base URL {_shown(url)}: {problem}")
    if parts.query or parts.fragment:
        raise UsageError(f"invalid base URL {_shown(url)}: no query or fragment allowed")
    if parts.scheme == "http" and not is_loopback_host(host) and not allow_insecure_http:
        raise UsageError(
            f"refusing plain http:// to {host}: the credential would cross the network unencrypted",
            hint="use https://, or pass --allow-insecure-http if you really mean it",
        )
    return url.strip().rstrip("/")
