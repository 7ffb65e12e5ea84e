"""How one sandbox instance behaves: the knobs of ``leadctl sandbox serve``."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_INTAKE_DELAY = 1.0


@dataclass(frozen=True)
class SandboxSettings:
    # Seconds until a received lead is processed (Pending -> Accepted/Rejected).
    intake_delay: float = DEFAULT_INTAKE_DELAY
    # Requests per second per credential; None means no limit.
    rate_limit: float | None = None
    # Fault injection (X-Leadctl-Fault header and the /_sandbox/ control endpoints).
    faults: bool = False
