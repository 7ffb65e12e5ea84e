"""Fault injection for tests (only with ``sandbox serve --faults``).

A fault is one of: an error status (``500``, ``503``, any 5xx), ``429`` with an optional
``;retry-after=N``, ``hang=N`` (wait N seconds, then handle the request normally),
``drop`` (close the connection without handling the request or answering) and
``drop-after`` (handle the request, then close the connection instead of answering: the
operation happened but the client cannot know).

It is chosen per request by the ``X-Leadctl-Fault`` header, or by rules added with
``POST /_sandbox/faults`` that match the next ``count`` requests by method and path
(exact, or a glob such as ``/sources/*``).
"""

from __future__ import annotations

import fnmatch
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

FAULT_HEADER = "x-leadctl-fault"
_ACTION = re.compile(
    r"^\s*(?:(?P<status>[45]\d\d)(?:\s*;\s*retry-after\s*=\s*(?P<retry>\d+))?"
    r"|hang\s*=\s*(?P<hang>\d+(?:\.\d+)?)|(?P<drop>drop-after|drop))\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Fault:
    kind: str  # "status" | "hang" | "drop" | "drop-after"
    status: int = 0
    retry_after: int | None = None
    seconds: float = 0.0
    spec: str = ""


def parse_fault(spec: str) -> Fault:
    """Parse an action such as ``500``, ``429;retry-after=2``, ``hang=5``, ``drop``."""
    match = _ACTION.match(spec)
    if match is None:
        raise ValueError(
            f"unknown fault {spec!r}: use 5xx, 429[;retry-after=N], hang=N, drop or drop-after"
        )
    if match["status"]:
        status = int(match["status"])
        if status != 429 and status < 500:
            raise ValueError("a fault status must be 429 or 5xx")
        retry = int(match["retry"]) if match["retry"] is not None else None
        if status == 429 and retry is None:
            retry = 1
        return Fault("status", status=status, retry_after=retry, spec=spec.strip())
    if match["hang"]:
        return Fault("hang", seconds=float(match["hang"]), spec=spec.strip())
    return Fault(match["drop"].lower(), spec=spec.strip())


@dataclass
class FaultRule:
    id: int
    method: str  # upper case, or "*"
    path: str
    fault: Fault
    remaining: int | None  # None: until removed

    def matches(self, method: str, path: str) -> bool:
        if self.method not in ("*", method):
            return False
        return path == self.path or fnmatch.fnmatchcase(path, self.path)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "method": self.method,
            "path": self.path,
            "action": self.fault.spec,
            "count": self.remaining,
        }


@dataclass
class FaultBook:
    rules: list[FaultRule] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def add(self, method: str, path: str, fault: Fault, count: int | None) -> FaultRule:
        rule = FaultRule(next(self._ids), method.upper(), path, fault, count)
        self.rules.append(rule)
        return rule

    def clear(self) -> None:
        self.rules.clear()

    def take(self, method: str, path: str) -> Fault | None:
        """The fault of the first matching rule, using up one of its count."""
        for rule in self.rules:
            if rule.matches(method, path):
                if rule.remaining is not None:
                    rule.remaining -= 1
                    if rule.remaining <= 0:
                        self.rules.remove(rule)
                return rule.fault
        return None
