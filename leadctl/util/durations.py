"""Durations as people type them: ``30s``, ``5m``, ``1h``, ``1h30m``, or bare seconds."""

from __future__ import annotations

import math
import re

_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")


def parse_duration(text: str) -> float:
    """Seconds; ValueError saying what is accepted when ``text`` is not a duration."""
    cleaned = text.strip().lower()
    if not cleaned:
        raise ValueError("empty duration")
    if re.fullmatch(r"\d+(?:\.\d+)?", cleaned):
        return float(cleaned)
    position = 0
    total = 0.0
    for part in _PART.finditer(cleaned):
        if part.start() != position:
            break
        total += float(part.group(1)) * _UNITS[part.group(2)]
        position = part.end()
    if position != len(cleaned) or not math.isfinite(total):
        raise ValueError(f"{text!r} is not a duration (examples: 30s, 5m, 1h30m, 90)")
    return total


def describe_seconds(seconds: float) -> str:
    """``7m12s``, ``45s``, ``2h`` (whole seconds): how far apart two moments are, for people."""
    whole = round(abs(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    units = ((hours, "h"), (minutes, "m"), (secs, "s"))
    parts = [f"{value}{unit}" for value, unit in units if value]
    return "".join(parts) or "0s"
