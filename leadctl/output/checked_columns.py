"""What the response schema confirmed of ``--columns`` (:mod:`leadctl.output.requested`).

A leaf module: the invocation's Context declares where it is kept.
"""

from __future__ import annotations


class CheckedColumns:
    """Requested fields the schema has, and every field it lists (for the hint)."""

    def __init__(self, confirmed: frozenset[str], known: list[str]) -> None:
        self.confirmed = confirmed
        self.known = known
