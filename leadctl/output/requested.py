"""``--columns`` as asked, and what the contract already confirmed of it.

:mod:`leadctl.output.response_columns` checks the requested fields against the operation's response
schema before the first request and records here which ones the schema confirmed and the
fields it has; the renderers (:mod:`leadctl.output.registry`) check the rest against the
data itself, and name the schema's fields when one is unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from leadctl.errors import UsageError
from leadctl.output.checked_columns import CheckedColumns
from leadctl.output.columns import Column, known_paths, path_known

if TYPE_CHECKING:
    from leadctl.output.invocation import OutputInvocation


def requested_paths(ctx: OutputInvocation) -> list[str]:
    """The fields of --columns, in order, blanks dropped."""
    return [path.strip() for path in ctx.options.columns or () if path.strip()]


def remember_checked(ctx: OutputInvocation, *, confirmed: frozenset[str], known: list[str]) -> None:
    ctx.columns_checked = CheckedColumns(confirmed, known)


def checked_of(ctx: OutputInvocation) -> CheckedColumns | None:
    """What the schema said of --columns, or None when no schema was asked."""
    return ctx.columns_checked


def check_requested(ctx: OutputInvocation, sample: Any, defaults: Sequence[Column]) -> None:
    """``--columns`` checked against the data, where the contract's schema did not
    confirm them before the request (:mod:`leadctl.output.response_columns`): a field that the
    item does not have and that no default column names is a typo, exit 2 naming the
    fields the schema lists, else those of the item."""
    checked = checked_of(ctx)
    confirmed = checked.confirmed if checked is not None else frozenset()
    requested = [path for path in requested_paths(ctx) if path not in confirmed]
    if not requested or not isinstance(sample, dict):
        return
    declared = {column.path for column in defaults} | {column.title for column in defaults}
    unknown = [
        path
        for path in requested
        if path not in declared and not path_known(sample, Column(path).parts)
    ]
    if not unknown:
        return
    if checked is not None:
        known = checked.known
    else:
        known = list(dict.fromkeys([*known_paths(sample), *(c.path for c in defaults)]))
    plural = "s" if len(unknown) > 1 else ""
    raise UsageError(
        f"unknown field{plural} in --columns: {', '.join(unknown)}",
        hint="known fields: " + ", ".join(known),
    )
