"""The token set an OAuth sign-in leaves: stored as one value in the credential store.

The access token, refresh token and expiry travel together with what a refresh needs (the
token endpoint, the client id), so a refresh never has to rediscover the server and a
store holds either all of them or none. The stored form is compact JSON (no whitespace),
which is how the credential store tells it from a pasted key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from leadctl.util.jwt import jwt_expiry, unverified_claims

# Refreshed before use when it expires within this many seconds (cli.md).
REFRESH_MARGIN = 60.0
_FORMAT = "leadctl-oauth-1"


class BadTokenSet(ValueError):
    """A stored value that starts like a token set but is not one."""


@dataclass(frozen=True, repr=False)
class TokenSet:
    access_token: str
    token_endpoint: str
    client_id: str
    refresh_token: str | None = None
    expires_at: float | None = None
    scope: str | None = None
    issuer: str | None = None
    revocation_endpoint: str | None = None
    # Only for a confidential client from dynamic registration; usually None.
    client_secret: str | None = None
    # Who signed in, from the OpenID ID token (never stored itself), for `auth status`.
    account: str | None = None
    organization: str | None = None

    def __repr__(self) -> str:
        return f"TokenSet(issuer={self.issuer!r}, expires_at={self.expires_at!r})"

    __str__ = __repr__

    def expiring(self, now: float, margin: float = REFRESH_MARGIN) -> bool:
        return self.expires_at is not None and self.expires_at - now <= margin

    def expired(self, now: float) -> bool:
        return self.expiring(now, margin=0.0)

    def to_stored(self) -> str:
        data = {"format": _FORMAT, **{k: v for k, v in asdict(self).items() if v is not None}}
        text = json.dumps(data, separators=(",", ":"), sort_keys=True)
        # One line with no whitespace, like every stored credential (scopes hold spaces;
        # compact JSON has none outside strings, so this escape stays inside them).
        return text.replace(" ", "\\u0020")

    def renewed(self, answer: Mapping[str, Any], now: float) -> TokenSet:
        """The set after a refresh: a rotated refresh token replaces the old one."""
        return replace(
            self,
            access_token=_required_text(answer, "access_token"),
            refresh_token=_text(answer.get("refresh_token")) or self.refresh_token,
            expires_at=expiry(answer, now),
            scope=_text(answer.get("scope")) or self.scope,
        )


def is_stored_token_set(value: str) -> bool:
    return value.startswith("{")


def from_stored(value: str) -> TokenSet:
    try:
        data = json.loads(value)
    except ValueError:
        raise BadTokenSet("the stored OAuth tokens are not valid JSON") from None
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        raise BadTokenSet("the stored OAuth tokens are in an unknown format")
    try:
        return TokenSet(
            access_token=_required_text(data, "access_token"),
            token_endpoint=_required_text(data, "token_endpoint"),
            client_id=_required_text(data, "client_id"),
            refresh_token=_text(data.get("refresh_token")),
            expires_at=_number(data.get("expires_at")),
            scope=_text(data.get("scope")),
            issuer=_text(data.get("issuer")),
            revocation_endpoint=_text(data.get("revocation_endpoint")),
            client_secret=_text(data.get("client_secret")),
            account=_text(data.get("account")),
            organization=_text(data.get("organization")),
        )
    except KeyError as error:
        raise BadTokenSet(f"the stored OAuth tokens lack {error.args[0]}") from None


def id_token_identity(answer: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(account, organization) from a token answer's OpenID ID token, if it has one.

    Read without checking the signature: it came straight from the token endpoint over a
    verified connection (OpenID Connect Core 3.1.3.7), and it is only shown, never trusted
    for access.
    """
    token = answer.get("id_token")
    claims = unverified_claims(token) if isinstance(token, str) else None
    if claims is None:
        return None, None
    name = _text(claims.get("name"))
    login = _text(claims.get("email")) or _text(claims.get("preferred_username"))
    account = f"{name} <{login}>" if name and login else name or login or _text(claims.get("sub"))
    org_name = _text(claims.get("org_name")) or _text(claims.get("organization"))
    org_id = _text(claims.get("org_id")) or _text(claims.get("org"))
    organization = f"{org_name} ({org_id})" if org_name and org_id else org_name or org_id
    return account, organization


def expiry(answer: Mapping[str, Any], now: float) -> float | None:
    """When a token answer's access token expires: ``expires_in``, else a JWT's exp."""
    seconds = _number(answer.get("expires_in"))
    if seconds is not None:
        return now + seconds
    token = answer.get("access_token")
    return jwt_expiry(token) if isinstance(token, str) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _required_text(data: Mapping[str, Any], key: str) -> str:
    value = _text(data.get(key))
    if value is None:
        raise KeyError(key)
    return value


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        return float(value)
    except ValueError:
        return None
