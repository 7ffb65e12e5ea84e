"""A JWT read without verifying it: its shape, its claims, its expiry.

Only for telling a user token from a key and for showing who signed in and when a token
stops working; nothing here is trusted for access. Below both the credential store and
OAuth, which both read tokens this way.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")


def _decoded_json(part: str) -> Any:
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def looks_like_jwt(value: str) -> bool:
    parts = value.split(".")
    if len(parts) != 3 or not all(_BASE64URL.fullmatch(part) for part in parts[:2]):
        return False
    # An unsigned token ("alg": "none") has an empty third part.
    if parts[2] and not _BASE64URL.fullmatch(parts[2]):
        return False
    try:
        header = _decoded_json(parts[0])
    except (binascii.Error, ValueError):
        return False
    return isinstance(header, dict) and "alg" in header


def unverified_claims(token: str) -> dict[str, Any] | None:
    """The claims of a three-part token, or None when it has no readable JSON object."""
    parts = token.split(".")
    if len(parts) != 3:
        return None
    try:
        claims = _decoded_json(parts[1])
    except (binascii.Error, ValueError):
        return None
    return claims if isinstance(claims, dict) else None


def jwt_expiry(value: str) -> float | None:
    """The ``exp`` claim of a JWT (seconds since the epoch), read without verifying it:
    only for showing when the token stops working."""
    claims = unverified_claims(value)
    exp = claims.get("exp") if claims is not None else None
    if isinstance(exp, (int, float)) and not isinstance(exp, bool):
        return float(exp)
    return None
