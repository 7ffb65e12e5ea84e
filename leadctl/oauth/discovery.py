"""Finding the authorization server of a service: RFC 9728 protected-resource metadata at
the base URL, then the server's RFC 8414 metadata (an OpenID configuration is accepted).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from leadctl.errors import BadResponse, ServiceFailure, UsageError
from leadctl.oauth.http import require_safe_url
from leadctl.util.jsontext import loads_service

PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource"
AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server"
OPENID_CONFIGURATION = "/.well-known/openid-configuration"


@dataclass(frozen=True)
class ServerMetadata:
    issuer: str
    token_endpoint: str
    authorization_endpoint: str | None
    device_authorization_endpoint: str | None
    registration_endpoint: str | None
    revocation_endpoint: str | None
    scopes_supported: tuple[str, ...] | None
    code_challenge_methods: tuple[str, ...]

    @classmethod
    def from_document(cls, issuer: str, doc: Mapping[str, Any]) -> ServerMetadata:
        def endpoint(name: str) -> str | None:
            value = doc.get(name)
            if value is None:
                return None
            if not isinstance(value, str) or not value:
                raise BadResponse(f"the authorization server's {name} is not a URL")
            return require_safe_url(value, f"the authorization server's {name}")

        token = endpoint("token_endpoint")
        if token is None:
            raise BadResponse(f"the authorization server {issuer} names no token_endpoint")
        return cls(
            issuer=issuer,
            token_endpoint=token,
            authorization_endpoint=endpoint("authorization_endpoint"),
            device_authorization_endpoint=endpoint("device_authorization_endpoint"),
            registration_endpoint=endpoint("registration_endpoint"),
            revocation_endpoint=endpoint("revocation_endpoint"),
            scopes_supported=_words(doc.get("scopes_supported")),
            code_challenge_methods=_words(doc.get("code_challenge_methods_supported")) or (),
        )


def _words(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, list):
        return tuple(str(v) for v in value if isinstance(v, str))
    return None


def protected_resource_urls(base_url: str) -> list[str]:
    """Where RFC 9728 metadata may be: under the base URL (cli.md), and the RFC's own form
    with the well-known segment inserted before the base URL's path."""
    parts = urlsplit(base_url.rstrip("/"))
    urls = [base_url.rstrip("/") + PROTECTED_RESOURCE]
    if parts.path not in ("", "/"):
        inserted = PROTECTED_RESOURCE + parts.path
        urls.append(urlunsplit((parts.scheme, parts.netloc, inserted, "", "")))
    return urls


def authorization_server_urls(issuer: str) -> list[str]:
    """RFC 8414 section 3.1 (well-known segment before the issuer's path), then the OpenID
    Connect Discovery form (after it)."""
    parts = urlsplit(issuer.rstrip("/"))
    path = parts.path.rstrip("/")

    def at(well_known: str) -> str:
        return urlunsplit((parts.scheme, parts.netloc, well_known + path, "", ""))

    urls = [at(AUTHORIZATION_SERVER)]
    openid_after = issuer.rstrip("/") + OPENID_CONFIGURATION
    urls.append(openid_after)
    if path:
        urls.append(at(OPENID_CONFIGURATION))
    return urls


def discover(http: Any, base_url: str) -> ServerMetadata:
    """The service's authorization server; exit 2 naming what was looked for when the
    service advertises none. ``http`` is an httpx.Client."""
    tried = protected_resource_urls(base_url)
    resource = _first_document(http, tried)
    if resource is None:
        raise UsageError(
            "the service advertises no OAuth authorization server: no protected-resource "
            "metadata (RFC 9728) at " + " or ".join(tried),
            hint="sign in with a key instead (`leadctl auth login`), or check the base URL",
        )
    servers = resource.get("authorization_servers")
    if not isinstance(servers, list) or not servers or not isinstance(servers[0], str):
        raise UsageError(
            f"the protected-resource metadata at {tried[0]} names no authorization_servers"
        )
    issuer = require_safe_url(servers[0], "the authorization server")
    candidates = authorization_server_urls(issuer)
    doc = _first_document(http, candidates)
    if doc is None:
        raise UsageError(
            f"the authorization server {issuer} publishes no metadata: looked for "
            + " and ".join(candidates)
        )
    # RFC 8414 section 3.3: the document must be the named server's own.
    if str(doc.get("issuer", "")).rstrip("/") != issuer.rstrip("/"):
        raise BadResponse(
            f"the metadata found for {issuer} names another issuer ({doc.get('issuer')!r}); "
            "refusing it"
        )
    return ServerMetadata.from_document(issuer, doc)


def _first_document(http: Any, urls: list[str]) -> dict[str, Any] | None:
    import httpx

    for url in urls:
        try:
            response = http.get(url, headers={"Accept": "application/json"})
        except httpx.HTTPError as error:
            raise ServiceFailure(f"cannot reach {url}: {type(error).__name__}") from None
        if response.status_code in (404, 405, 410):
            continue
        if response.status_code >= 400:
            raise ServiceFailure(f"{url} answered {response.status_code}")
        try:
            doc = loads_service(response.content)
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            raise BadResponse(f"{url} did not answer with a JSON object")
        return doc
    return None
