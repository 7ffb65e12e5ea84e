"""HTTP for the OAuth exchanges: authlib's httpx client, leadctl's TLS trust and timeout,
and a ``--debug`` trace that masks every OAuth secret.

authlib is imported here and only here, when a command first talks to the authorization
server.
"""

from __future__ import annotations

import ipaddress
import json
import ssl
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from leadctl import __version__
from leadctl.config.redact import MASK, redact_headers, redact_json, redact_text
from leadctl.errors import UsageError

# Form fields, JSON members and query parameters never shown by --debug.
SECRET_FIELDS = frozenset(
    {
        "access_token",
        "refresh_token",
        "id_token",
        "code",
        "code_verifier",
        "device_code",
        "client_secret",
        "registration_access_token",
        "token",  # RFC 7009 revocation names the token "token"
        "assertion",
    }
)
USER_AGENT_PRODUCT = "leadctl"


@dataclass
class HttpSettings:
    """What every request to the authorization server shares with the service's client."""

    timeout: float
    verify: ssl.SSLContext | bool
    transport: Any = None
    trace: Callable[[str], None] | None = None


def require_safe_url(url: str, what: str) -> str:
    """``url`` if it is https, or plain http on loopback; exit 2 otherwise.

    Tokens and codes travel to these URLs: a plain-http server elsewhere would hand them to
    anyone on the path.
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.scheme == "https" and host:
        return url
    if parts.scheme == "http" and _is_loopback(host):
        return url
    if parts.scheme == "http":
        raise UsageError(
            f"refusing {what} {_shown(url)}: plain http to a host that is not loopback "
            "would expose tokens",
            hint="the authorization server must use https",
        )
    raise UsageError(f"{what} {_shown(url)} is not an http(s) URL")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _shown(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], parts.path, "", ""))


def authlib_client_class() -> Any:
    """authlib's httpx OAuth2Client, imported without its httpx deprecation notice (leadctl
    pins an authlib range whose httpx support works; the notice would only alarm users)."""
    import authlib.deprecate

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", authlib.deprecate.AuthlibDeprecationWarning)
        from authlib.integrations.httpx_client import OAuth2Client

    return OAuth2Client


def oauth_client(
    http: HttpSettings,
    *,
    client_id: str,
    client_secret: str | None = None,
    scope: str | None = None,
    redirect_uri: str | None = None,
    code_challenge_method: str | None = None,
) -> Any:
    """An authlib OAuth2Client (an httpx.Client) with leadctl's trust, timeout and trace."""

    hooks = _trace_hooks(http.trace) if http.trace is not None else {}
    extra: dict[str, Any] = {}
    if code_challenge_method is not None:
        extra["code_challenge_method"] = code_challenge_method
    return authlib_client_class()(
        client_id=client_id,
        client_secret=client_secret,
        scope=scope,
        redirect_uri=redirect_uri,
        timeout=http.timeout,
        verify=http.verify,
        transport=http.transport,
        follow_redirects=False,
        headers={"User-Agent": f"{USER_AGENT_PRODUCT}/{__version__}"},
        event_hooks=hooks,
        **extra,
    )


def plain_client(http: HttpSettings) -> Any:
    """An httpx.Client for the exchanges authlib does not make (metadata, registration)."""
    import httpx

    return httpx.Client(
        timeout=http.timeout,
        verify=http.verify,
        transport=http.transport,
        follow_redirects=False,
        headers={"User-Agent": f"{USER_AGENT_PRODUCT}/{__version__}"},
        event_hooks=_trace_hooks(http.trace) if http.trace is not None else {},
    )


# -- --debug ------------------------------------------------------------------------------


def _trace_hooks(trace: Callable[[str], None]) -> dict[str, list[Callable[[Any], None]]]:
    def on_request(request: Any) -> None:
        trace(f"> {request.method} {mask_url(str(request.url))}")
        for name, value in redact_headers(request.headers.items()):
            trace(f"> {name}: {value}")
        try:
            content = request.content
        except Exception:  # a streamed body not read yet: nothing to show
            content = b""
        if content:
            trace("> " + mask_body(content, request.headers.get("Content-Type")))

    def on_response(response: Any) -> None:
        trace(f"< {response.status_code} {response.reason_phrase}")
        for name, value in redact_headers(response.headers.items()):
            trace(f"< {name}: {redact_text(value)}")
        body = response.read()
        if body:
            trace("< " + mask_body(body, response.headers.get("Content-Type")))

    return {"request": [on_request], "response": [on_response]}


def mask_url(url: str) -> str:
    parts = urlsplit(url)
    if not parts.query:
        return url
    query = urlencode(_masked_pairs(parse_qsl(parts.query, keep_blank_values=True)))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


def _masked_pairs(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(k, MASK if k in SECRET_FIELDS and v else v) for k, v in pairs]


def _is_oauth_secret(key: str) -> bool:
    return key in SECRET_FIELDS


def mask_body(raw: bytes, content_type: str | None) -> str:
    """A form or JSON body with every OAuth secret masked; anything else credential-free."""
    text = raw.decode("utf-8", errors="replace")
    kind = (content_type or "").lower()
    if "json" in kind:
        try:
            masked = redact_json(json.loads(text), secret_key=_is_oauth_secret, in_text=False)
            return redact_text(json.dumps(masked, ensure_ascii=False))
        except (ValueError, RecursionError):  # not JSON, or too deep to walk: as text
            pass
    if "x-www-form-urlencoded" in kind:
        return urlencode(_masked_pairs(parse_qsl(text, keep_blank_values=True)))
    return redact_text(text)
