"""The sandbox's credentials: organization keys, source keys and user JWTs.

Keys are stored only as a SHA-256 hash and a short preview. The demo keys are derived from
the state's signing secret (HMAC), so ``sandbox serve`` can print them again on every start
without storing them readable; a rotated source key is random and shown once.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Sequence
from typing import Any

ORG_KEY_PREFIX = "sk_sandbox_"
# Source keys must look like neither an organization key (sk_) nor a JWT (dots).
SOURCE_KEY_PREFIX = "src_"
JWT_ISSUER = "leadctl-sandbox"
JWT_ALGORITHM = "HS256"
JWT_LIFETIME_SECONDS = 30 * 24 * 3600


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def preview(key: str) -> str:
    """What is retained readable: the prefix and the last four characters."""
    prefix = SOURCE_KEY_PREFIX if key.startswith(SOURCE_KEY_PREFIX) else key[:3]
    return f"{prefix}…{key[-4:]}"


def _derive(secret: bytes, label: str, length: int) -> str:
    return hmac.new(secret, label.encode("utf-8"), hashlib.sha256).hexdigest()[:length]


def demo_org_key(secret: bytes, org_id: str) -> str:
    return ORG_KEY_PREFIX + _derive(secret, f"org-key:{org_id}", 32)


def demo_source_key(secret: bytes, source_id: str) -> str:
    return SOURCE_KEY_PREFIX + _derive(secret, f"source-key:{source_id}", 40)


def new_source_key() -> str:
    return SOURCE_KEY_PREFIX + secrets.token_hex(20)


def looks_like_jwt(value: str) -> bool:
    parts = value.split(".")
    return len(parts) == 3 and all(parts)


def mint_user_token(
    secret: bytes,
    *,
    user_id: str,
    org_id: str,
    roles: Sequence[str],
    lifetime: int = JWT_LIFETIME_SECONDS,
    now: float | None = None,
) -> str:
    import jwt  # pyjwt loads the cryptography package: only when a token is made or checked

    issued = int(time.time() if now is None else now)
    claims = {
        "iss": JWT_ISSUER,
        "sub": user_id,
        "org": org_id,
        "roles": list(roles),
        "iat": issued,
        "exp": issued + lifetime,
    }
    return jwt.encode(claims, secret, algorithm=JWT_ALGORITHM)


def verify_user_token(secret: bytes, token: str) -> dict[str, Any] | None:
    """The claims of a token this sandbox signed and that has not expired, else None."""
    import jwt

    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            secret,
            algorithms=[JWT_ALGORITHM],
            issuer=JWT_ISSUER,
            options={"require": ["exp", "iat", "sub"]},
        )
    except jwt.PyJWTError:
        return None
    if not isinstance(claims.get("org"), str) or not isinstance(claims.get("roles"), list):
        return None
    return claims
