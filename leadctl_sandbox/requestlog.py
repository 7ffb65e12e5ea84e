"""What the sandbox received, for tests to assert on (GET /_sandbox/requests).

Never a credential: no headers are kept, and body fields named like secrets are masked.
"""

from __future__ import annotations

import collections
import json
from typing import Any

MAX_ENTRIES = 2000
SECRET_FIELDS = frozenset({"apikey", "secret", "password", "token", "accesstoken", "authorization"})
MASK = "[redacted]"


def redact(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key: MASK if key.lower() in SECRET_FIELDS else redact(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redact(item) for item in value]
    return value


def loggable_body(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        # NaN/Infinity are not JSON: kept, the log itself could not be served as JSON.
        return redact(json.loads(raw, parse_constant=_not_json))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {"unparsed": True, "bytes": len(raw)}


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


# A plain class, not a dataclass: every `-p sandbox` command defines it again at its start,
# and a dataclass costs five times as much to define (issue 32).
class RequestLog:
    def __init__(self) -> None:
        self.entries: collections.deque[dict[str, Any]] = collections.deque(maxlen=MAX_ENTRIES)
        self._seq = 0

    def record(self, entry: dict[str, Any]) -> dict[str, Any]:
        self._seq += 1
        entry["seq"] = self._seq
        self.entries.append(entry)
        return entry

    def clear(self) -> None:
        self.entries.clear()

    def to_json(self) -> list[dict[str, Any]]:
        return list(self.entries)
