"""``--columns`` as asked, and what the contract already confirmed of it.

:mod:`leadctl.output.response_columns` checks the requested fields against the operation's response
schema before the first request and records here which ones the schema confirmed and the
fields it has; the renderers (:mod:`leadctl.output.registry`) check the rest against the
data itself, and name the schema's fields when one is unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from leadctl.output.checked_columns import CheckedColumns

if TYPE_CHECKING:
    from leadctl.context import Context


def requested_paths(ctx: Context) -> list[str]:
    """The fields of --columns, in order, blanks dropped."""
    return [path.strip() for path in ctx.options.columns or () if path.strip()]


def remember_checked(ctx: Context, *, confirmed: frozenset[str], known: list[str]) -> None:
    ctx.columns_checked = CheckedColumns(confirmed, known)


def checked_of(ctx: Context) -> CheckedColumns | None:
    """What the schema said of --columns, or None when no schema was asked."""
    return ctx.columns_checked
