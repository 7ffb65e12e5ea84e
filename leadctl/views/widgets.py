"""Small drawing pieces shared by the views: gauges, sparklines, status colors, safe text.

Everything here must read the same without color: a gauge is filled and empty blocks, a
status is its word, and color only repeats what the characters already say.

The values come typed from the resource models (:mod:`leadctl.models`), which already
turned a value of the wrong JSON type into None: nothing here checks types again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from leadctl.iostreams import safe_text
from leadctl.output.sparkline import SPARK_BLOCKS, merge_buckets, sparkline

if TYPE_CHECKING:
    from rich.text import Text

# Drawn by output.sparkline, which every view shares; named here too for the views.
__all__ = [
    "MISSING",
    "SPARK_BLOCKS",
    "clip",
    "count",
    "flag",
    "gauge",
    "merge_buckets",
    "safe",
    "sparkline",
    "status_style",
    "usage_style",
]

GAUGE_FULL = "█"
GAUGE_EMPTY = "░"
# An en dash for a value the service did not send (spelled as an escape for the linter).
MISSING = "\u2013"
# Usage ratios at which a gauge turns yellow, then red: a quarter left is worth a look,
# a tenth left means sends are about to be refused.
WARN_RATIO = 0.75
ALERT_RATIO = 0.9


def safe(text: str | None) -> str:
    """The service's text made safe for one terminal line (no control characters)."""
    if text is None:
        return ""
    return safe_text(text, one_line=True)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def count(n: float | None) -> str:
    """An integer with thousands separators; a missing value as an en dash."""
    if n is None:
        return MISSING
    return f"{int(n):,}" if n == int(n) else f"{n:,.1f}"


def usage_style(ratio: float) -> str:
    if ratio >= ALERT_RATIO:
        return "red"
    if ratio >= WARN_RATIO:
        return "yellow"
    return "green"


def gauge(used: float, limit: float, *, width: int = 20, style: str | None = None) -> Text:
    """A used/limit bar. Any use shows at least one block and a bar is full only at the
    limit, so the picture never claims "nothing used" or "exhausted" when that is false."""
    from rich.text import Text

    ratio = 0.0 if limit <= 0 else max(0.0, min(1.0, used / limit))
    filled = round(ratio * width)
    if used > 0 and filled == 0:
        filled = 1
    if used < limit and filled == width:
        filled = width - 1
    if limit <= 0:
        filled = width  # nothing may be sent at all: show it as exhausted
    chosen = style or usage_style(1.0 if limit <= 0 else ratio)
    return Text.assemble((GAUGE_FULL * filled, chosen), (GAUGE_EMPTY * (width - filled), "dim"))


_STATUS_WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("fail", "error", "unhealthy", "critical", "block", "bad", "poor", "suspend", "danger"),
        "red",
    ),
    (
        ("warn", "degrad", "risk", "retry", "throttl", "paus", "limited", "fair", "caution"),
        "yellow",
    ),
    (
        ("cancel", "skip", "not evaluated", "not started", "unknown", "inactive", "neutral"),
        "dim",
    ),
    (
        ("complet", "success", "succeed", "healthy", "good", "pass", "approved", "excellent"),
        "green",
    ),
    (
        (
            "running",
            "progress",
            "execut",
            "process",
            "warming",
            "ramping",
            "waiting",
            "schedul",
            "pending",
            "queued",
            "started",
        ),
        "cyan",
    ),
)
_EXACT_GREEN = frozenset({"ok", "done", "active", "positive", "success", "available"})


def status_style(word: str | None) -> str:
    """A color for a status word the reference does not enumerate, by what it says.

    Order matters: "unhealthy" must hit red before "healthy" hits green, "not started"
    dim before "started" cyan.
    """
    if word is None:
        return ""
    lowered = word.strip().lower()
    if lowered in _EXACT_GREEN:
        return "green"
    for needles, style in _STATUS_WORDS:
        if any(needle in lowered for needle in needles):
            return style
    return ""


def flag(value: bool | None, yes: str, no: str, *, good: bool = True) -> Text:
    """A boolean as a mark and words: ``✓ SMS approved`` / ``✗ SMS not approved``."""
    from rich.text import Text

    if value is None:
        return Text(f"? {yes}: not reported", style="dim")
    if value:
        return Text(f"✓ {yes}", style="green" if good else "yellow")
    return Text(f"✗ {no}", style="red" if good else "dim")
