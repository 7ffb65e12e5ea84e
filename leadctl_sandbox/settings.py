"""How one sandbox instance behaves: the knobs of ``leadctl sandbox serve``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from leadctl_sandbox.ratelimit import RateLimit

DEFAULT_INTAKE_DELAY = 1.0


@dataclass(frozen=True)
class SandboxSettings:
    # Seconds until a received lead is processed (Pending -> Accepted/Rejected).
    intake_delay: float = DEFAULT_INTAKE_DELAY
    # Requests per credential (per second, or per fixed window); None means no limit.
    rate_limit: RateLimit | None = None
    # Whether a 429 of the rate limit says when to retry (--no-retry-after: it does not).
    retry_after: bool = True
    # Fault injection (X-Leadctl-Fault header and the /_sandbox/ control endpoints).
    faults: bool = False
