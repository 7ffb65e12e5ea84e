"""What every format's renderer is: how it prints a list of items and one object.

The registry (:mod:`leadctl.output.registry`) picks a renderer by format name. JSON and
NDJSON live in the registry itself (every read prints JSON when piped); the column formats
live beside their writers (:mod:`leadctl.output.delimited` for csv/tsv/value,
:mod:`leadctl.output.table` for table) and load only when chosen, so a JSON read never loads
the table's or the CSV writer's code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import timezone, tzinfo
from itertools import chain
from typing import TYPE_CHECKING, Any

from leadctl.inputs.datetimes import display_zone
from leadctl.output.columns import Column, choose_columns, infer_columns
from leadctl.output.requested import check_requested

if TYPE_CHECKING:
    from leadctl.output.invocation import OutputInvocation


class Renderer:
    """How one format prints a list of items and one object."""

    # Each item printed as it arrives (False: the items are collected first).
    streams = True

    def write_list(
        self, ctx: OutputInvocation, items: Iterable[Any], columns: Sequence[Column]
    ) -> int:
        raise NotImplementedError

    def write_object(self, ctx: OutputInvocation, obj: Any, columns: Sequence[Column]) -> None:
        raise NotImplementedError


class ColumnRenderer(Renderer):
    """Formats that print columns: ``--columns`` (checked against the data) or the
    command's defaults, else columns inferred from the first item."""

    def write_list(
        self, ctx: OutputInvocation, items: Iterable[Any], columns: Sequence[Column]
    ) -> int:
        iterator, chosen = _columns_for_list(ctx, items, columns)
        return self.write_rows(ctx, iterator, chosen)

    def write_object(self, ctx: OutputInvocation, obj: Any, columns: Sequence[Column]) -> None:
        chosen = choose_columns(ctx.options.columns, columns) or infer_columns(obj)
        check_requested(ctx, obj, columns)
        self.write_one(ctx, obj, chosen)

    def write_rows(self, ctx: OutputInvocation, rows: Iterator[Any], columns: list[Column]) -> int:
        raise NotImplementedError

    def write_one(self, ctx: OutputInvocation, obj: Any, columns: list[Column]) -> None:
        self.write_rows(ctx, iter((obj,)), columns)


def display_zone_of(ctx: OutputInvocation) -> tzinfo | None:
    """``--utc``, else the profile's ``timezone``, else the system's (TZ honoured)."""
    return display_zone(utc=ctx.options.utc, profile_zone=ctx.settings.get("timezone"), env=ctx.env)


def zone_for(ctx: OutputInvocation, columns: Sequence[Column]) -> tzinfo | None:
    """The zone times are shown in; looked up only when a column holds times."""
    if not any(column.kind == "datetime" for column in columns):
        return timezone.utc
    return display_zone_of(ctx)


def _columns_for_list(
    ctx: OutputInvocation, items: Iterable[Any], defaults: Sequence[Column]
) -> tuple[Iterator[Any], list[Column]]:
    """The columns to show and the items, with the first one put back when it had to be
    looked at to infer columns for a command that declared none."""
    iterator = iter(items)
    chosen = choose_columns(ctx.options.columns, defaults)
    for first in iterator:
        check_requested(ctx, first, defaults)
        return chain((first,), iterator), chosen or infer_columns(first)
    return iterator, chosen
