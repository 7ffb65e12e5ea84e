"""The defaults and bounds of a request's --timeout and --max-retries (cli.md "Retries").

A module of its own, below everything that reads them: the root command needs them at
start-up (without loading the retry policy), the settings check a configured timeout, and
the retry policy, OAuth and webhooks read the defaults. Standard library only.
"""

from __future__ import annotations

import math

DEFAULT_TIMEOUT = 30.0
# Longer than a day is a typo, and past what the OS's timers accept (1e309 is infinity).
MAX_TIMEOUT = 86_400.0
DEFAULT_MAX_RETRIES = 4


def timeout_problem(seconds: float) -> str | None:
    """Why ``seconds`` is not a usable per-request timeout (NaN, infinite, not positive,
    longer than a day), or None."""
    if not math.isfinite(seconds) or seconds <= 0:
        return "is not a positive number of seconds"
    if seconds > MAX_TIMEOUT:
        return f"is longer than a day (at most {MAX_TIMEOUT:g} seconds)"
    return None
