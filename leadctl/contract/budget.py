"""Limits on reading a contract nobody here wrote: its size, how deep it nests, how much YAML
aliases may expand it, and how long checking and compiling it may take.

A contract comes from a file, a pipe or a service, so it is treated as hostile: a 418-byte
YAML alias bomb expands to hundreds of millions of nodes, and a document nested 5,000 deep
overflows every recursive reader. Each limit is checked before the work it guards (YAML
aliases are counted from the parser's events, before anything is built), and an import over
any of them is exit 2 with nothing stored: the active contract stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from leadctl.errors import UsageError

# The largest response leadctl reads (client.MAX_BODY_BYTES): a contract is no exception.
MAX_BYTES = 64 * 1024 * 1024
# Real contracts nest about 20 deep (paths / path / method / responses / status / content /
# media / schema / properties / ...). 64 leaves room for deep inline schemas while every
# recursive reader leadctl uses (the OpenAPI validator, JSON Schema) stays far from
# Python's recursion limit.
MAX_DEPTH = 64
# Nodes of the document as built, YAML aliases expanded: a 1,500-operation contract has
# about a million.
MAX_NODES = 10_000_000
DEFAULT_SECONDS = 120.0
# How many nodes or events go by between two looks at the clock.
CHECK_EVERY = 10_000


class ContractOverBudget(UsageError):
    """The document is too large, too deep, too aliased or too slow to check: nothing was
    stored."""

    def __init__(self, what: str, problem: str, *, hint: str | None = None) -> None:
        super().__init__(f"{what} was not imported: {problem}; nothing was stored", hint=hint)


class Budget:
    """The time an import may take, measured on a monotonic clock from when it is made."""

    def __init__(
        self, what: str, *, seconds: float, monotonic: Callable[[], float], flag: str
    ) -> None:
        self.what = what
        self.seconds = seconds
        self._monotonic = monotonic
        self._deadline = monotonic() + seconds
        # The option that raises the limit, named in the error (empty: none).
        self._flag = flag

    def check(self, doing: str) -> None:
        """Exit 2 once the time is up; ``doing`` says where it ran out."""
        if self._monotonic() > self._deadline:
            hint = f"allow more time with {self._flag} SECONDS" if self._flag else None
            raise ContractOverBudget(
                self.what,
                f"{doing} took longer than the {self.seconds:g} s limit",
                hint=hint,
            )

    def too_large(self, problem: str) -> ContractOverBudget:
        return ContractOverBudget(self.what, problem)


def check_size(raw: bytes, budget: Budget) -> None:
    if len(raw) > MAX_BYTES:
        raise budget.too_large(
            f"it is {len(raw):,} bytes; leadctl reads contracts of at most "
            f"{MAX_BYTES // (1024 * 1024)} MiB"
        )


def check_shape(document: Any, budget: Budget) -> None:
    """Depth and node count of a parsed document, without recursion."""
    stack: list[tuple[Any, int]] = [(document, 1)]
    nodes = 0
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes % CHECK_EVERY == 0:
            budget.check("reading the document")
        if depth > MAX_DEPTH:
            raise _too_deep(budget)
        if isinstance(node, dict):
            stack.extend((value, depth + 1) for value in node.values())
        elif isinstance(node, list):
            stack.extend((value, depth + 1) for value in node)
    if nodes > MAX_NODES:
        raise _too_many(budget)


def _too_deep(budget: Budget) -> ContractOverBudget:
    return budget.too_large(f"it nests deeper than {MAX_DEPTH} levels")


def _too_many(budget: Budget) -> ContractOverBudget:
    return budget.too_large(f"it has more than {MAX_NODES:,} nodes (YAML aliases expanded)")


def check_yaml_events(text: str, budget: Budget) -> None:
    """Depth, and node count with every alias expanded, from the YAML parser's events:
    a bomb is refused before a single node of it is built.

    An anchored node's expanded size is known when it ends; an alias adds that size. An
    alias of a node that has not ended (a document that contains itself) is refused too.
    """
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    sizes: dict[str, int] = {}
    # Per open collection: the node count when it started, and its anchor.
    open_nodes: list[tuple[int, str | None]] = []
    nodes = 0
    for count, event in enumerate(yaml.parse(text, Loader=loader), start=1):
        if count % CHECK_EVERY == 0:
            budget.check("reading the YAML document")
        if isinstance(event, yaml.AliasEvent):
            alias = str(event.anchor)
            if alias not in sizes:
                raise budget.too_large(f"the YAML alias *{alias} refers to a node that holds it")
            nodes += sizes[alias]
        elif isinstance(event, yaml.ScalarEvent):
            nodes += 1
            if event.anchor is not None:
                sizes[str(event.anchor)] = 1
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            nodes += 1
            open_nodes.append((nodes - 1, event.anchor))
            if len(open_nodes) > MAX_DEPTH:
                raise _too_deep(budget)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            started, opened_as = open_nodes.pop()
            if opened_as is not None:
                sizes[str(opened_as)] = nodes - started
        if nodes > MAX_NODES:
            raise _too_many(budget)
