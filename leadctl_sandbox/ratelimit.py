"""Per-credential rate limiting: a token bucket per Authorization value, N requests/second.

Only a hash of the credential is kept as the bucket's key.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class _Bucket:
    tokens: float
    updated: float


@dataclass
class RateLimiter:
    rate: float  # requests per second, also the burst size
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    def check(self, credential: str) -> int | None:
        """None when the request may go ahead, else the whole seconds to wait (Retry-After)."""
        key = hashlib.sha256(credential.encode("utf-8")).hexdigest()
        now = self.clock()
        capacity = max(self.rate, 1.0)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(tokens=capacity, updated=now)
        bucket.tokens = min(capacity, bucket.tokens + (now - bucket.updated) * self.rate)
        bucket.updated = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return None
        return max(1, math.ceil((1.0 - bucket.tokens) / self.rate))
