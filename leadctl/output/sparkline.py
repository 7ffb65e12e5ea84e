"""A series of numbers as one line of block characters, for any view that draws a trend.

Plain characters that read without color: the height of each block is the value, so
NO_COLOR loses nothing but the tint.
"""

from __future__ import annotations

from collections.abc import Sequence

SPARK_BLOCKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float]) -> str:
    """One block per value, scaled to the largest. Zero is the lowest block and any
    non-zero value at least the next one, so a quiet day and a dead day look different."""
    if not values:
        return ""
    top = max(values)
    if top <= 0:
        return SPARK_BLOCKS[0] * len(values)
    levels = len(SPARK_BLOCKS) - 1
    out = []
    for value in values:
        if value <= 0:
            out.append(SPARK_BLOCKS[0])
        else:
            out.append(SPARK_BLOCKS[max(1, round(value / top * levels))])
    return "".join(out)


def merge_buckets(values: Sequence[float], limit: int) -> tuple[list[float], int]:
    """Sum neighbouring buckets until at most ``limit`` remain; returns them and how many
    buckets each one holds (a year of days must still fit on one line).

    Grouping starts from the newest bucket, so a short group is the oldest one: a
    partial group at the end would look like a sudden drop in the latest traffic.
    """
    if limit <= 0 or len(values) <= limit:
        return list(values), 1
    per = -(-len(values) // limit)
    head = len(values) % per
    groups = [values[:head]] if head else []
    groups += [values[i : i + per] for i in range(head, len(values), per)]
    return [float(sum(group)) for group in groups], per
