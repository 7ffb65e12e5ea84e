"""Standard Webhooks written out in the tests (hmac, hashlib, base64), not the library
leadctl uses: what leadctl signs is checked against an independent reading of the scheme.

    signature = v1,base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}"))
    secret    = whsec_ + base64(key)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping


def new_secret(size: int = 32) -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(size)).decode("ascii")


def key_of(secret: str) -> bytes:
    return base64.b64decode(secret.removeprefix("whsec_"))


def sign(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{msg_id}.{timestamp}.".encode() + body
    digest = hmac.new(key_of(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def signed_headers(secret: str, msg_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(secret, msg_id, timestamp, body),
        "content-type": "application/json",
    }


def is_signed(secret: str, headers: Mapping[str, str], body: bytes) -> bool:
    """Whether one of the space-separated v1 signatures is right for these headers and bytes."""
    lowered = {name.lower(): value for name, value in headers.items()}
    expected = sign(secret, lowered["webhook-id"], int(lowered["webhook-timestamp"]), body)
    return any(
        hmac.compare_digest(entry, expected) for entry in lowered["webhook-signature"].split()
    )
