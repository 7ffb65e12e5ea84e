"""One registry of renderers keyed by format name, and the two calls every command uses.

Commands call :func:`emit_list` or :func:`emit_object` and never look at the format
themselves; the format, ``--columns``, ``--jq`` and terminal decisions come from the
context. Adding a format is a name in :mod:`leadctl.output.formats` and one entry in
:data:`RENDERERS` (a test checks that the two agree).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from datetime import tzinfo
from itertools import chain
from typing import Any

from leadctl.context import Context
from leadctl.errors import UsageError
from leadctl.inputs.datetimes import display_zone
from leadctl.output.columns import (
    Column,
    choose_columns,
    get_path,
    infer_columns,
    known_paths,
    path_known,
)
from leadctl.output.formats import AS_RECEIVED, JSON, NDJSON, OUTPUT_FORMATS, TABLE
from leadctl.output.jq_filter import compile_jq, write_jq, write_jq_each
from leadctl.output.json_out import write_json_array, write_json_object, write_ndjson
from leadctl.output.projection import Selection, project, selection_of
from leadctl.output.requested import checked_of, requested_paths

__all__ = [
    "RENDERERS",
    "Column",
    "Renderer",
    "View",
    "columns_view",
    "display_zone_of",
    "emit_list",
    "emit_object",
    "get_path",
    "prints_as_received",
    "renderer_for",
    "streams_items",
]

NO_RESULTS = "no results"

# A drawing of the data for a person (a gauge, a tree, a table of other columns): given
# the context and the data handed to emit_list (the items) or emit_object (the object).
View = Callable[[Context, Any], None]


# -- the two calls ------------------------------------------------------------------------


def emit_list(
    ctx: Context,
    items: Iterable[Any],
    *,
    columns: Sequence[Column],
    view: View | None = None,
    footer: str | Callable[[], str | None] | None = None,
    file_note: Callable[[int], str | None] | None = None,
    streamed: bool = False,
    document: Any = None,
) -> int:
    """Print a list in the chosen format and return how many items were printed.

    ``items`` is consumed once, lazily: the streamed formats print each item as it
    arrives. ``view`` draws the items instead under ``table`` without ``--columns``; it
    gets ``items`` as given (a list stays a list), and the count is then the list's length
    or how many items the view took. ``footer`` (how to fetch the next page) goes to
    stderr only under a table on a terminal, where a person reads it; scripts get the data
    alone. It is read after the last item, when the pager knows whether there is a next
    page: pass a callable (or an object whose ``str()`` is computed then); empty means no
    footer. ``file_note(count)`` is the same for output written to a file or pipe while a
    person watches stderr (``leads list -o csv > one.csv``). ``streamed`` (``--all``)
    makes ``--jq`` run on each item rather than on the whole array, as ``-o ndjson`` does.

    ``--columns`` picks fields for every format: the columns of table/csv/tsv/value, the
    keys of each JSON/NDJSON object (:mod:`leadctl.output.projection`); ``--jq`` reads the
    picked fields.

    ``document`` is the service's whole answer when the items are a part of it (an
    ``{automationId, runs}`` object): ``-o json`` and ``--jq`` print it as received instead
    of the items, and the count is then the number of items (0 when they are not sized);
    every other format prints the items, and so does ``--columns`` (its fields are the
    items' fields).
    """
    as_received = ctx.output_format == JSON and not requested_paths(ctx)  # --jq implies json
    if document is not None and as_received and not _jq_per_item(ctx, streamed=streamed):
        emit_object(ctx, document, columns=columns)
        count = len(items) if isinstance(items, Sized) else 0
    else:
        count = _emit_list(ctx, items, columns=columns, view=view, streamed=streamed)
    ios = ctx.ios
    if ios.stdout_is_tty:
        if footer is not None and ctx.output_format == TABLE:
            text = footer() if callable(footer) else str(footer)
            if text:
                ios.info(text)
    elif file_note is not None and ios.stderr_is_tty:
        text = file_note(count)
        if text:
            ios.info(text)
    return count


def _emit_list(
    ctx: Context,
    items: Iterable[Any],
    *,
    columns: Sequence[Column],
    view: View | None,
    streamed: bool,
) -> int:
    if ctx.options.jq is not None or ctx.output_format in AS_RECEIVED:
        items = _picked(ctx, _checked_first(ctx, items, columns), columns)
    if ctx.options.jq is not None:
        return _jq_list(ctx, items, per_item=_jq_per_item(ctx, streamed=streamed))
    renderer = renderer_for(ctx.output_format)
    if view is not None and _view_wanted(ctx):
        if isinstance(items, Sized):
            view(ctx, items)
            return len(items)
        counted = _Counted(items)
        view(ctx, counted)
        return counted.count
    return renderer.write_list(ctx, items, columns)


def emit_object(
    ctx: Context, obj: Any, *, columns: Sequence[Column], view: View | None = None
) -> None:
    """Print one object: as received for json/ndjson (just the ``--columns`` fields when
    given), the chosen columns otherwise (a field/value view under table), or ``view``'s
    drawing under table without --columns."""
    if ctx.options.jq is not None or ctx.output_format in AS_RECEIVED:
        _check_requested(ctx, obj, columns)
        selection = _selection(ctx, columns)
        if selection is not None:
            obj = project(obj, selection)
    if ctx.options.jq is not None:
        ios = ctx.ios
        write_jq(ios.stdout, compile_jq(ctx.options.jq), obj, pretty=ios.stdout_is_tty)
        ios.stdout.flush()
        return
    renderer = renderer_for(ctx.output_format)
    if view is not None and _view_wanted(ctx):
        view(ctx, obj)
        return
    renderer.write_object(ctx, obj, columns)


def columns_view(
    columns: Sequence[Column], *, reshape: Callable[[Iterable[Any]], Iterable[Any]] | None = None
) -> View:
    """A view that is the table of other columns, over items ``reshape`` made for it
    (e.g. each announcement with a ● when unread): the default table of a list whose
    json and csv carry the service's items unchanged."""

    def draw(ctx: Context, items: Iterable[Any]) -> None:
        RENDERERS[TABLE].write_list(ctx, reshape(items) if reshape else items, columns)

    return draw


def renderer_for(fmt: str) -> Renderer:
    """The renderer of a format name; a name no renderer has is a usage error."""
    renderer = RENDERERS.get(fmt)
    if renderer is None:
        raise UsageError(
            f"unknown output format {fmt!r}", hint=f"choose one of: {', '.join(OUTPUT_FORMATS)}"
        )
    return renderer


def streams_items(ctx: Context) -> bool:
    """Whether the chosen format prints each item as it arrives; a table (or a view) waits
    for every item, so until then the terminal is free for a progress line."""
    if ctx.options.jq is not None:
        return True
    return renderer_for(ctx.output_format).streams


def prints_as_received(ctx: Context) -> bool:
    """Whether the chosen format prints the service's JSON as received (json, ndjson,
    ``--jq``), as opposed to rendering columns: a command that reorders or flattens
    items for people (display order, joined lists) does so only when this is False."""
    return ctx.output_format in AS_RECEIVED  # --jq reads json


def _view_wanted(ctx: Context) -> bool:
    return ctx.output_format == TABLE and not ctx.options.columns


class _Counted:
    """The items, counting those taken: what a view drew of a lazy list."""

    def __init__(self, items: Iterable[Any]) -> None:
        self._items = items
        self.count = 0

    def __iter__(self) -> Iterator[Any]:
        for item in self._items:
            self.count += 1
            yield item


def _jq_per_item(ctx: Context, *, streamed: bool) -> bool:
    """--jq runs on each item under --all (items stream) and when NDJSON was asked for
    (one result per line, as `jq` reads an NDJSON file); otherwise on the whole array."""
    if streamed:
        return True
    return (ctx.options.output or ctx.settings_output_or_none()) == NDJSON


def _jq_list(ctx: Context, items: Iterable[Any], *, per_item: bool) -> int:

    ios = ctx.ios
    program = compile_jq(ctx.options.jq or "")
    if per_item:
        return write_jq_each(ios.stdout, program, items, pretty=ios.stdout_is_tty)
    collected = list(items)
    write_jq(ios.stdout, program, collected, pretty=ios.stdout_is_tty)
    ios.stdout.flush()
    return len(collected)


# -- the renderers ------------------------------------------------------------------------


class Renderer:
    """How one format prints a list of items and one object."""

    # Each item printed as it arrives (False: the items are collected first).
    streams = True

    def write_list(self, ctx: Context, items: Iterable[Any], columns: Sequence[Column]) -> int:
        raise NotImplementedError

    def write_object(self, ctx: Context, obj: Any, columns: Sequence[Column]) -> None:
        raise NotImplementedError


class _Json(Renderer):
    """The service's JSON as received: an array streamed item by item, indented on a
    terminal."""

    def write_list(self, ctx: Context, items: Iterable[Any], columns: Sequence[Column]) -> int:

        ios = ctx.ios
        return write_json_array(ios.data_out(json=True), items, pretty=ios.stdout_is_tty)

    def write_object(self, ctx: Context, obj: Any, columns: Sequence[Column]) -> None:

        ios = ctx.ios
        write_json_object(ios.data_out(json=True), obj, pretty=ios.stdout_is_tty)


class _Ndjson(Renderer):
    """One compact JSON document a line."""

    def write_list(self, ctx: Context, items: Iterable[Any], columns: Sequence[Column]) -> int:

        return write_ndjson(ctx.ios.data_out(json=True), items)

    def write_object(self, ctx: Context, obj: Any, columns: Sequence[Column]) -> None:

        write_json_object(ctx.ios.data_out(json=True), obj, pretty=False)


class _ColumnRenderer(Renderer):
    """Formats that print columns: ``--columns`` (checked against the data) or the
    command's defaults, else columns inferred from the first item."""

    def write_list(self, ctx: Context, items: Iterable[Any], columns: Sequence[Column]) -> int:
        iterator, chosen = _columns_for_list(ctx, items, columns)
        return self.write_rows(ctx, iterator, chosen)

    def write_object(self, ctx: Context, obj: Any, columns: Sequence[Column]) -> None:
        chosen = choose_columns(ctx.options.columns, columns) or infer_columns(obj)
        _check_requested(ctx, obj, columns)
        self.write_one(ctx, obj, chosen)

    def write_rows(self, ctx: Context, rows: Iterator[Any], columns: list[Column]) -> int:
        raise NotImplementedError

    def write_one(self, ctx: Context, obj: Any, columns: list[Column]) -> None:
        self.write_rows(ctx, iter((obj,)), columns)


class _Csv(_ColumnRenderer):
    def write_rows(self, ctx: Context, rows: Iterator[Any], columns: list[Column]) -> int:
        from leadctl.output.delimited import write_csv

        out = ctx.ios.data_out()
        return write_csv(out, rows, columns, allow_formulas=ctx.options.allow_formulas)


class _Tsv(_ColumnRenderer):
    """Tab-separated values; ``value`` is the same without the header line, for scripts
    (its cells are never guarded against spreadsheet formulas)."""

    def __init__(self, *, header: bool) -> None:
        self._header = header

    def write_rows(self, ctx: Context, rows: Iterator[Any], columns: list[Column]) -> int:
        from leadctl.output.delimited import write_tsv

        return write_tsv(
            ctx.ios.data_out(),
            rows,
            columns,
            header=self._header,
            allow_formulas=ctx.options.allow_formulas or not self._header,
        )


class _Table(_ColumnRenderer):
    """rich tables for people (:mod:`leadctl.output.table`): one row an item, or a
    field/value view of one object. Column widths depend on every row: it collects."""

    streams = False

    def write_rows(self, ctx: Context, rows: Iterator[Any], columns: list[Column]) -> int:
        from leadctl.output.table import write_list_table

        count = write_list_table(
            ctx.ios,
            rows,
            columns,
            requested=bool(ctx.options.columns),
            zone=_zone_for(ctx, columns),
        )
        if count == 0:
            ctx.ios.info(NO_RESULTS)
        return count

    def write_one(self, ctx: Context, obj: Any, columns: list[Column]) -> None:
        from leadctl.output.table import write_object_table

        write_object_table(ctx.ios, obj, columns, zone=_zone_for(ctx, columns))


RENDERERS: dict[str, Renderer] = {
    TABLE: _Table(),
    JSON: _Json(),
    NDJSON: _Ndjson(),
    "csv": _Csv(),
    "tsv": _Tsv(header=True),
    "value": _Tsv(header=False),
}


# -- shared by the renderers --------------------------------------------------------------


def _zone_for(ctx: Context, columns: Sequence[Column]) -> tzinfo | None:
    """The zone times are shown in; looked up only when a column holds times."""
    from datetime import timezone

    if not any(column.kind == "datetime" for column in columns):
        return timezone.utc
    return display_zone_of(ctx)


def display_zone_of(ctx: Context) -> tzinfo | None:
    """``--utc``, else the profile's ``timezone``, else the system's (TZ honoured)."""

    return display_zone(utc=ctx.options.utc, profile_zone=ctx.settings.get("timezone"), env=ctx.env)


def _check_requested(ctx: Context, sample: Any, defaults: Sequence[Column]) -> None:
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


def _selection(ctx: Context, defaults: Sequence[Column]) -> Selection | None:
    """The fields --columns picks for JSON output (a default column's header stands for
    its path), or None to print the objects whole."""
    requested = requested_paths(ctx)
    if not requested:
        return None
    return selection_of([column.path for column in choose_columns(requested, defaults)])


def _picked(ctx: Context, items: Iterable[Any], defaults: Sequence[Column]) -> Iterable[Any]:
    selection = _selection(ctx, defaults)
    if selection is None:
        return items
    return (project(item, selection) for item in items)


def _checked_first(ctx: Context, items: Iterable[Any], defaults: Sequence[Column]) -> Iterable[Any]:
    """The items, with --columns checked against the first before any is printed."""
    if not requested_paths(ctx):
        return items
    iterator = iter(items)
    for first in iterator:
        _check_requested(ctx, first, defaults)
        return chain((first,), iterator)
    return iterator


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
