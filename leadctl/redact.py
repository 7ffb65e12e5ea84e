"""Keeping credentials and secrets out of everything leadctl prints about a request."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

MASK = "***"

# Body fields that carry a credential or a newly issued secret.
_SECRET_KEYS = re.compile(
    r"(secret|password|passwd|token|api[-_]?key|apikey|authorization|credential|private[-_]?key)",
    re.IGNORECASE,
)
# Tokens that look like leadctl credential kinds, wherever they appear in free text.
_SECRET_VALUES = re.compile(
    r"(sk_[A-Za-z0-9_\-]{4,}|src_[A-Za-z0-9_\-]{4,}"
    r"|eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+|(?i:bearer)\s+\S+)"
)
_SENSITIVE_HEADERS = {"authorization", "proxy-authorization", "cookie", "set-cookie"}


def is_secret_key(key: str) -> bool:
    # "continuationToken" is a cursor, not a credential: users need to see it.
    return bool(_SECRET_KEYS.search(key)) and key not in ("continuationToken",)


def redact_json(
    value: Any, *, secret_key: Callable[[str], bool] = is_secret_key, in_text: bool = True
) -> Any:
    """``value`` with every non-empty member under a ``secret_key`` masked, at any depth;
    with ``in_text``, credential-shaped tokens inside the other strings too."""
    if isinstance(value, Mapping):
        return {
            k: (
                MASK
                if secret_key(str(k)) and v not in (None, "")
                else redact_json(v, secret_key=secret_key, in_text=in_text)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [redact_json(item, secret_key=secret_key, in_text=in_text) for item in value]
    if in_text and isinstance(value, str):
        return redact_text(value)
    return value


def redact_text(text: str, extra_secrets: Iterable[str] = ()) -> str:
    for secret in extra_secrets:
        if secret:
            text = text.replace(secret, MASK)
    return _SECRET_VALUES.sub(MASK, text)


def redact_headers(
    headers: Iterable[tuple[str, str]], extra_sensitive: Iterable[str] = ()
) -> list[tuple[str, str]]:
    sensitive = _SENSITIVE_HEADERS | {h.lower() for h in extra_sensitive}
    return [(k, MASK if k.lower() in sensitive else v) for k, v in headers]


def redact_body(raw: bytes, content_type: str | None, extra_secrets: Iterable[str] = ()) -> str:
    """A printable, secret-free rendering of a request or response body."""
    text = raw.decode("utf-8", errors="replace")
    if content_type and "json" in content_type:
        try:
            return json.dumps(redact_json(json.loads(text)), ensure_ascii=False)
        except (ValueError, RecursionError):  # not JSON, or too deep to walk: as text
            pass
    return redact_text(text, extra_secrets)
