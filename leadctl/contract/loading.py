"""Turning the bytes of a contract nobody here wrote into the document leadctl compiles:
parsed within its budget (``budget``), checked, its unsound operations left out
(``validate``), and rewritten in OpenAPI 3.1 form (``formats``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from leadctl.contract.budget import DEFAULT_SECONDS, Budget
from leadctl.contract.formats import parse_document, to_31
from leadctl.contract.validate import check_contract


@dataclass
class Loaded:
    raw: bytes
    # The sound part of the document, in OpenAPI 3.1 form.
    document: dict[str, Any]
    left_out: list[dict[str, Any]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    # Defaults their schemas do not admit (kept): {"pointer": ..., "message": ...}.
    warnings: list[dict[str, str]] = field(default_factory=list)


def new_budget(
    what: str,
    monotonic: Callable[[], float],
    seconds: float | None = None,
    *,
    flag: str = "--time-limit",
) -> Budget:
    return Budget(
        what,
        seconds=DEFAULT_SECONDS if seconds is None else seconds,
        monotonic=monotonic,
        flag=flag,
    )


def load_contract(raw: bytes, *, what: str, budget: Budget) -> Loaded:
    """Exit 2 for what is not an OpenAPI 3 document, or is over the budget."""

    document = parse_document(raw, what=what, budget=budget)
    checked = check_contract(document, what=what, budget=budget)
    budget.check("checking the document")
    return Loaded(raw, to_31(checked.document), checked.left_out, checked.ignored, checked.warnings)
