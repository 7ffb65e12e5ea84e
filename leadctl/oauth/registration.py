"""RFC 7591 dynamic client registration, for servers that offer it: leadctl registers
itself as a public native client (no secret, PKCE) when no client id was given."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from leadctl.errors import BadResponse, ServiceFailure, UsageError
from leadctl.util.jsontext import loads_service

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


@dataclass(frozen=True, repr=False)
class RegisteredClient:
    client_id: str
    client_secret: str | None = None


def no_client_id(issuer: str) -> UsageError:
    return UsageError(
        f"no OAuth client id, and the authorization server {issuer} offers no dynamic "
        "client registration",
        hint="give the client id your service documents: --client-id ID, or "
        "`leadctl profile set oauth_client_id ID`",
    )


def register(
    http: Any, endpoint: str, *, redirect_uri: str | None, scope: str | None
) -> RegisteredClient:
    import httpx

    metadata: dict[str, Any] = {
        "client_name": "leadctl",
        "application_type": "native",
        "token_endpoint_auth_method": "none",
        "grant_types": ["authorization_code", "refresh_token"]
        if redirect_uri
        else [DEVICE_GRANT, "refresh_token"],
        "response_types": ["code"] if redirect_uri else [],
    }
    if redirect_uri:
        metadata["redirect_uris"] = [redirect_uri]
    if scope:
        metadata["scope"] = scope
    try:
        response = http.post(endpoint, json=metadata)
    except httpx.HTTPError as error:
        raise ServiceFailure(
            f"client registration: cannot reach {endpoint} ({type(error).__name__})"
        ) from None
    if response.status_code >= 400:
        raise UsageError(
            f"the authorization server refused to register leadctl as a client "
            f"({response.status_code})",
            hint="give a client id with --client-id ID or `leadctl profile set oauth_client_id ID`",
        )
    try:
        answer = loads_service(response.content)
    except ValueError:
        answer = None
    client_id = answer.get("client_id") if isinstance(answer, dict) else None
    if not isinstance(client_id, str) or not client_id:
        raise BadResponse("the client registration answer has no client_id")
    secret = answer.get("client_secret") if isinstance(answer, dict) else None
    return RegisteredClient(client_id, secret if isinstance(secret, str) and secret else None)
