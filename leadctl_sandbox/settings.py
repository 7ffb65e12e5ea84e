"""How one sandbox instance behaves: the knobs of ``leadctl sandbox serve``."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from leadctl_sandbox.ratelimit import RateLimit

DEFAULT_INTAKE_DELAY = 1.0


# A NamedTuple, not a dataclass: every `-p sandbox` command defines it again at its start,
# and a frozen dataclass costs five times as much to define (issue 32).
class SandboxSettings(NamedTuple):
    # Seconds until a received lead is processed (Pending -> Accepted/Rejected).
    intake_delay: float = DEFAULT_INTAKE_DELAY
    # Requests per credential (per second, or per fixed window); None means no limit.
    rate_limit: RateLimit | None = None
    # Whether a 429 of the rate limit says when to retry (--no-retry-after: it does not).
    retry_after: bool = True
    # Fault injection (X-Leadctl-Fault header and the /_sandbox/ control endpoints).
    faults: bool = False
