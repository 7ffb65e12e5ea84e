"""Renderers for command output: table, json (streamed), ndjson, csv, tsv, value.

Commands call :func:`emit_list` or :func:`emit_object`; the format, ``--columns`` and
terminal decisions come from the context. Items are the service's decoded JSON (plain
dicts), so ``-o json`` can print fields this version of leadctl does not know about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import tzinfo
from itertools import chain
from typing import Any

from leadctl.context import OUTPUT_FORMATS, Context
from leadctl.errors import UsageError
from leadctl.output.columns import (
    Column,
    choose_columns,
    get_path,
    infer_columns,
    known_paths,
    path_known,
)
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
    file_note: Callable[[int], str | None] | None = None,
    streamed: bool = False,
) -> int:
    """Print a list in the chosen format and return how many items were printed.

    ``items`` is consumed once, lazily: the streamed formats print each item as it
    arrives. ``footer`` (how to fetch the next page) goes to stderr only under a table
    on a terminal, where a person reads it; scripts get the data alone. It is read after
    the last item, when the pager knows whether there is a next page: pass a callable
    (or an object whose ``str()`` is computed then); empty means no footer.
    ``file_note(count)`` is the same for output written to a file or pipe while a person
    watches stderr (``leads list -o csv > one.csv``). ``streamed`` (``--all``) makes
    ``--jq`` run on each item rather than on the whole array.
    """
    count = _emit_list(ctx, items, columns=columns, streamed=streamed)
    ios = ctx.ios
    if ios.stdout_is_tty:
        if footer is not None and _output_format(ctx) == "table":
            text = footer() if callable(footer) else str(footer)
            if text:
                ios.info(text)
    elif file_note is not None and ios.stderr_is_tty:
        text = file_note(count)
        if text:
            ios.info(text)
    return count


def _emit_list(
    ctx: Context, items: Iterable[Any], *, columns: Sequence[Column], streamed: bool
) -> int:
    fmt = _output_format(ctx)
    ios = ctx.ios
    if ctx.options.jq is not None:
        from leadctl.output.jq_filter import compile_jq, write_jq, write_jq_each

        program = compile_jq(ctx.options.jq)
        if streamed:
            return write_jq_each(ios.stdout, program, items, pretty=ios.stdout_is_tty)
        collected = list(items)
        write_jq(ios.stdout, program, collected, pretty=ios.stdout_is_tty)
        ios.stdout.flush()
        return len(collected)
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

    count = write_list_table(
        ios,
        iterator,
        chosen,
        requested=bool(ctx.options.columns),
        zone=_zone_for(ctx, chosen),
    )
    if count == 0:
        ios.info(NO_RESULTS)
    return count


def emit_object(ctx: Context, obj: Any, *, columns: Sequence[Column]) -> None:
    """Print one object: as received for json/ndjson, the chosen columns otherwise
    (a field/value view under table)."""
    fmt = _output_format(ctx)
    ios = ctx.ios
    if ctx.options.jq is not None:
        from leadctl.output.jq_filter import compile_jq, write_jq

        write_jq(ios.stdout, compile_jq(ctx.options.jq), obj, pretty=ios.stdout_is_tty)
        ios.stdout.flush()
        return
    if fmt in ("json", "ndjson"):
        write_json_object(ios.stdout, obj, pretty=fmt == "json" and ios.stdout_is_tty)
        return
    chosen = choose_columns(ctx.options.columns, columns) or infer_columns(obj)
    _check_requested(ctx, obj, columns)
    if fmt == "csv":
        write_csv(ios.stdout, (obj,), chosen)
    elif fmt in ("tsv", "value"):
        write_tsv(ios.stdout, (obj,), chosen, header=fmt == "tsv")
    else:
        from leadctl.output.table import write_object_table

        write_object_table(ios, obj, chosen, zone=_zone_for(ctx, chosen))


def _zone_for(ctx: Context, columns: Sequence[Column]) -> tzinfo | None:
    """The zone times are shown in; looked up only when a column holds times."""
    from datetime import timezone

    if not any(column.kind == "datetime" for column in columns):
        return timezone.utc
    return display_zone_of(ctx)


def display_zone_of(ctx: Context) -> tzinfo | None:
    """``--utc``, else the profile's ``timezone``, else the system's (TZ honoured)."""
    from leadctl.datetimes import display_zone

    return display_zone(utc=ctx.options.utc, profile_zone=ctx.settings.get("timezone"), env=ctx.env)


def _check_requested(ctx: Context, sample: Any, defaults: Sequence[Column]) -> None:
    """``--columns`` checked against the data: a field that the item does not have and
    that no default column names is a typo, exit 2 naming the fields that exist."""
    requested = [path.strip() for path in ctx.options.columns or () if path.strip()]
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
    known = list(dict.fromkeys([*known_paths(sample), *(c.path for c in defaults)]))
    plural = "s" if len(unknown) > 1 else ""
    raise UsageError(
        f"unknown field{plural} in --columns: {', '.join(unknown)}",
        hint="known fields: " + ", ".join(known),
    )


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
    for first in iterator:
        _check_requested(ctx, first, defaults)
        return chain((first,), iterator), chosen or infer_columns(first)
    return iterator, chosen
