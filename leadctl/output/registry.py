"""One registry of renderers keyed by format name, and the two calls every command uses.

Commands call :func:`emit_list` or :func:`emit_object` and never look at the format
themselves; the format, ``--columns``, ``--jq`` and terminal decisions come from the
context. Adding a format is a name in :mod:`leadctl.formats`, its renderer in its module's
``RENDERERS`` and one entry in :data:`HOMES` (a test checks that they agree).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeVar

from leadctl.errors import UsageError
from leadctl.formats import (
    AS_RECEIVED,
    JSON,
    NDJSON,
    OUTPUT_FORMATS,
    TABLE,
    WHOLE_DOCUMENT,
    YAML,
)
from leadctl.output.columns import (
    Column,
    choose_columns,
    get_path,
)
from leadctl.output.jq_filter import compile_jq, write_jq, write_jq_each
from leadctl.output.json_out import write_json_array, write_json_object, write_ndjson
from leadctl.output.projection import Selection, project, selection_of
from leadctl.output.renderer import Renderer, display_zone_of
from leadctl.output.requested import check_requested, requested_paths

if TYPE_CHECKING:
    from leadctl.contract.operations import Operation
    from leadctl.output.invocation import OutputInvocation

__all__ = [
    "HOMES",
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
    "view_wanted",
]

# The command's own invocation object (its Context): a view is handed back the one the
# command gave, so it may read more of it than this room does (the clock, say).
InvocationT = TypeVar("InvocationT", bound="OutputInvocation")
# A drawing of the data for a person (a gauge, a tree, a table of other columns): given
# the invocation and the data handed to emit_list (the items) or emit_object (the object).
View = Callable[[InvocationT, Any], None]


# -- the two calls ------------------------------------------------------------------------


def emit_list(
    ctx: InvocationT,
    items: Iterable[Any],
    *,
    columns: Sequence[Column],
    view: View[InvocationT] | None = None,
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
    stderr only under a table on a terminal, where a person reads it. It is read after the
    last item, when the pager knows whether there is a next page: pass a callable (or an
    object whose ``str()`` is computed then); empty means no footer. ``file_note(count)``
    is the line said otherwise, whatever stderr is connected to (``leads list -o csv >
    one.csv``, a cron job's ``2>log``): a partial result is never silent; -q silences it.
    ``streamed`` (``--all``) makes ``--jq`` run on each item rather than on the whole
    array, as ``-o ndjson`` does.

    ``--columns`` picks fields for every format: the columns of table/csv/tsv/value, the
    keys of each JSON/NDJSON object (:mod:`leadctl.output.projection`); ``--jq`` reads the
    picked fields.

    ``document`` is the service's whole answer when the items are a part of it (an
    ``{automationId, runs}`` object): ``-o json`` and ``--jq`` print it as received instead
    of the items, and the count is then the number of items (0 when they are not sized);
    every other format prints the items, and so does ``--columns`` (its fields are the
    items' fields).
    """
    # --jq implies json
    as_received = ctx.output_format in WHOLE_DOCUMENT and not requested_paths(ctx)
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
    elif file_note is not None:
        text = file_note(count)
        if text:
            ios.info(text)
    return count


def _emit_list(
    ctx: InvocationT,
    items: Iterable[Any],
    *,
    columns: Sequence[Column],
    view: View[InvocationT] | None,
    streamed: bool,
) -> int:
    if ctx.options.jq is not None or ctx.output_format in AS_RECEIVED:
        items = _picked(ctx, _checked_first(ctx, items, columns), columns)
    if ctx.options.jq is not None:
        return _jq_list(ctx, items, per_item=_jq_per_item(ctx, streamed=streamed))
    renderer = renderer_for(ctx.output_format)
    if view is not None and view_wanted(ctx):
        if isinstance(items, Sized):
            view(ctx, items)
            return len(items)
        counted = _Counted(items)
        view(ctx, counted)
        return counted.count
    return renderer.write_list(ctx, items, columns)


def emit_object(
    ctx: InvocationT,
    obj: Any,
    *,
    columns: Sequence[Column],
    view: View[InvocationT] | None = None,
    operation: Operation | None = None,
    title: str | None = None,
) -> None:
    """Print one object: as received for json/ndjson (just the ``--columns`` fields when
    given), the chosen columns otherwise (a field/value view under table), or ``view``'s
    drawing under table without --columns.

    Without a view, a table on a terminal shows the object whole
    (:mod:`leadctl.output.resource_view`): ``columns`` as a field/value table and each
    list it holds under its own title; ``operation`` (the read that answered) lends its
    response schema to tell what each field is, and ``title`` (what was asked: a time
    window) heads it."""
    if ctx.options.jq is not None or ctx.output_format in AS_RECEIVED:
        check_requested(ctx, obj, columns)
        selection = _selection(ctx, columns)
        if selection is not None:
            obj = project(obj, selection)
    if ctx.options.jq is not None:
        ios = ctx.ios
        write_jq(ios.stdout, compile_jq(ctx.options.jq), obj, pretty=ios.stdout_is_tty)
        ios.stdout.flush()
        return
    renderer = renderer_for(ctx.output_format)
    if view is not None and view_wanted(ctx):
        view(ctx, obj)
        return
    if view_wanted(ctx) and ctx.ios.stdout_is_tty and isinstance(obj, dict):
        from leadctl.output.resource_view import write_resource

        write_resource(ctx, obj, columns, operation, title=title)
        return
    renderer.write_object(ctx, obj, columns)


def columns_view(
    columns: Sequence[Column], *, reshape: Callable[[Iterable[Any]], Iterable[Any]] | None = None
) -> View[OutputInvocation]:
    """A view that is the table of other columns, over items ``reshape`` made for it
    (e.g. each announcement with a ● when unread): the default table of a list whose
    json and csv carry the service's items unchanged."""

    def draw(ctx: OutputInvocation, items: Iterable[Any]) -> None:
        renderer_for(TABLE).write_list(ctx, reshape(items) if reshape else items, columns)

    return draw


def renderer_for(fmt: str) -> Renderer:
    """The renderer of a format name; a name no renderer has is a usage error."""
    home = HOMES.get(fmt)
    if home is None:
        raise UsageError(
            f"unknown output format {fmt!r}", hint=f"choose one of: {', '.join(OUTPUT_FORMATS)}"
        )
    renderers: dict[str, Renderer] = importlib.import_module(home).RENDERERS
    return renderers[fmt]


def streams_items(ctx: OutputInvocation) -> bool:
    """Whether the chosen format prints each item as it arrives; a table (or a view) waits
    for every item, so until then the terminal is free for a progress line."""
    if ctx.options.jq is not None:
        return True
    return renderer_for(ctx.output_format).streams


def prints_as_received(ctx: OutputInvocation) -> bool:
    """Whether the chosen format prints the service's JSON as received (json, ndjson,
    ``--jq``), as opposed to rendering columns: a command that reorders or flattens
    items for people (display order, joined lists) does so only when this is False."""
    return ctx.output_format in AS_RECEIVED  # --jq reads json


def view_wanted(ctx: OutputInvocation) -> bool:
    """Whether a view draws the data (table without --columns) rather than the format."""
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


def _jq_per_item(ctx: OutputInvocation, *, streamed: bool) -> bool:
    """--jq runs on each item under --all (items stream) and when NDJSON was asked for
    (one result per line, as `jq` reads an NDJSON file); otherwise on the whole array."""
    if streamed:
        return True
    return (ctx.options.output or ctx.settings_output_or_none()) == NDJSON


def _jq_list(ctx: OutputInvocation, items: Iterable[Any], *, per_item: bool) -> int:

    ios = ctx.ios
    program = compile_jq(ctx.options.jq or "")
    if per_item:
        return write_jq_each(ios.stdout, program, items, pretty=ios.stdout_is_tty)
    collected = list(items)
    write_jq(ios.stdout, program, collected, pretty=ios.stdout_is_tty)
    ios.stdout.flush()
    return len(collected)


# -- the renderers ------------------------------------------------------------------------


# -- shared by the renderers --------------------------------------------------------------


def _selection(ctx: OutputInvocation, defaults: Sequence[Column]) -> Selection | None:
    """The fields --columns picks for JSON output (a default column's header stands for
    its path), or None to print the objects whole."""
    requested = requested_paths(ctx)
    if not requested:
        return None
    return selection_of([column.path for column in choose_columns(requested, defaults)])


def _picked(
    ctx: OutputInvocation, items: Iterable[Any], defaults: Sequence[Column]
) -> Iterable[Any]:
    selection = _selection(ctx, defaults)
    if selection is None:
        return items
    return (project(item, selection) for item in items)


def _checked_first(
    ctx: OutputInvocation, items: Iterable[Any], defaults: Sequence[Column]
) -> Iterable[Any]:
    """The items, with --columns checked against the first before any is printed."""
    if not requested_paths(ctx):
        return items
    iterator = iter(items)
    for first in iterator:
        check_requested(ctx, first, defaults)
        return chain((first,), iterator)
    return iterator


# -- the renderers: JSON here (every piped read prints it), the column formats beside their
# writers, loaded when one of them is chosen -----------------------------------------------


class _Json(Renderer):
    """The service's JSON as received: an array streamed item by item, indented on a
    terminal."""

    def write_list(
        self, ctx: OutputInvocation, items: Iterable[Any], columns: Sequence[Column]
    ) -> int:
        ios = ctx.ios
        return write_json_array(ios.data_out(json=True), items, pretty=ios.stdout_is_tty)

    def write_object(self, ctx: OutputInvocation, obj: Any, columns: Sequence[Column]) -> None:
        ios = ctx.ios
        write_json_object(ios.data_out(json=True), obj, pretty=ios.stdout_is_tty)


class _Ndjson(Renderer):
    """One compact JSON document a line."""

    def write_list(
        self, ctx: OutputInvocation, items: Iterable[Any], columns: Sequence[Column]
    ) -> int:
        return write_ndjson(ctx.ios.data_out(json=True), items)

    def write_object(self, ctx: OutputInvocation, obj: Any, columns: Sequence[Column]) -> None:
        write_json_object(ctx.ios.data_out(json=True), obj, pretty=False)


RENDERERS: dict[str, Renderer] = {JSON: _Json(), NDJSON: _Ndjson()}
# Each format's module, which holds its renderer in RENDERERS (a test checks every format
# name has one): adding a format is a name in leadctl.formats and a line here.
HOMES: dict[str, str] = {
    TABLE: "leadctl.output.table",
    JSON: __name__,
    NDJSON: __name__,
    YAML: "leadctl.output.yaml_out",
    "csv": "leadctl.output.delimited",
    "tsv": "leadctl.output.delimited",
    "value": "leadctl.output.delimited",
}
