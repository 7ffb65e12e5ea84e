"""Renderers for command output: table, json (streamed), ndjson, csv, tsv, value.

Commands call :func:`emit_list` or :func:`emit_object`; the format, ``--columns`` and
terminal decisions come from the context. Items are the service's decoded JSON (plain
dicts), so ``-o json`` can print fields this version of leadctl does not know about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from typing import Any

from leadctl.context import OUTPUT_FORMATS, Context
from leadctl.errors import UsageError
from leadctl.output.columns import Column, choose_columns, get_path, infer_columns
from leadctl.output.delimited import write_csv, write_tsv
from leadctl.output.json_out import write_json_array, write_json_object, write_ndjson

__all__ = ["Column", "emit_list", "emit_object", "get_path"]

NO_RESULTS = "no results"


def emit_list(
    ctx: Context,
    items: Iterable[Any],
    *,
    columns: Sequence[Column],
    footer: str | Callable[[], str | None] | None = None,
) -> int:
    """Print a list in the chosen format and return how many items were printed.

    ``items`` is consumed once, lazily: the streamed formats print each item as it
    arrives. ``footer`` (how to fetch the next page) goes to stderr only under a table
    on a terminal, where a person reads it; scripts get the data alone. It is read after
    the last item, when the pager knows whether there is a next page: pass a callable
    (or an object whose ``str()`` is computed then); empty means no footer.
    """
    fmt = _output_format(ctx)
    ios = ctx.ios
    if fmt == "json":
        return write_json_array(ios.stdout, items, pretty=ios.stdout_is_tty)
    if fmt == "ndjson":
        return write_ndjson(ios.stdout, items)
    iterator, chosen = _columns_for_list(ctx, items, columns)
    if fmt == "csv":
        return write_csv(ios.stdout, iterator, chosen)
    if fmt in ("tsv", "value"):
        return write_tsv(ios.stdout, iterator, chosen, header=fmt == "tsv")
    from leadctl.output.table import write_list_table

    count = write_list_table(ios, iterator, chosen)
    if count == 0:
        ios.info(NO_RESULTS)
    if footer is not None and ios.stdout_is_tty:
        text = footer() if callable(footer) else str(footer)
        if text:
            ios.info(text)
    return count


def emit_object(ctx: Context, obj: Any, *, columns: Sequence[Column]) -> None:
    """Print one object: as received for json/ndjson, the chosen columns otherwise
    (a field/value view under table)."""
    fmt = _output_format(ctx)
    ios = ctx.ios
    if fmt in ("json", "ndjson"):
        write_json_object(ios.stdout, obj, pretty=fmt == "json" and ios.stdout_is_tty)
        return
    chosen = choose_columns(ctx.options.columns, columns) or infer_columns(obj)
    if fmt == "csv":
        write_csv(ios.stdout, (obj,), chosen)
    elif fmt in ("tsv", "value"):
        write_tsv(ios.stdout, (obj,), chosen, header=fmt == "tsv")
    else:
        from leadctl.output.table import write_object_table

        write_object_table(ios, obj, chosen)


def _output_format(ctx: Context) -> str:
    fmt = ctx.output_format
    if fmt not in OUTPUT_FORMATS:
        raise UsageError(
            f"unknown output format {fmt!r}", hint=f"choose one of: {', '.join(OUTPUT_FORMATS)}"
        )
    return fmt


def _columns_for_list(
    ctx: Context, items: Iterable[Any], defaults: Sequence[Column]
) -> tuple[Iterator[Any], list[Column]]:
    """The columns to show and the items, with the first one put back when it had to be
    looked at to infer columns for a command that declared none."""
    iterator = iter(items)
    chosen = choose_columns(ctx.options.columns, defaults)
    if chosen:
        return iterator, chosen
    for first in iterator:
        return chain((first,), iterator), infer_columns(first)
    return iterator, []
