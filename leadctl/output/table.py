"""``-o table``: rich tables for people, paged when taller than the terminal.

rich is imported inside the functions: importing the command tree must not load it.
Every terminal decision (color, width, pager) comes from :class:`IOStreams` and the
Console it makes (:meth:`IOStreams.console`), never from rich's own look at
``os.environ`` or the file, so tests and ``--no-color`` see exactly what a user sees.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from datetime import timezone, tzinfo
from typing import TYPE_CHECKING, Any

from leadctl.formats import TABLE
from leadctl.iostreams import safe_text
from leadctl.output.cells import human_text
from leadctl.output.columns import Column, get_path
from leadctl.output.fit import Fit, FitColumn, fit_columns, is_free_text
from leadctl.output.renderer import ColumnRenderer, Renderer, zone_for

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.style import Style
    from rich.table import Table
    from rich.text import Text

    from leadctl.iostreams import IOStreams
    from leadctl.output.invocation import OutputInvocation

# A table sent to a pipe or file is cut to no terminal: lines may be as long as the data.
UNBOUNDED_WIDTH = 10_000
NO_RESULTS = "no results"


def write_list_table(
    ios: IOStreams,
    items: Iterable[Any],
    columns: Sequence[Column],
    *,
    requested: bool = False,
    zone: tzinfo | None = timezone.utc,
) -> int:
    """One row per item, one line per row; returns how many rows were shown.

    On a terminal the columns are fitted to its width (:mod:`leadctl.output.fit`): ids and
    codes whole, free text shortened, default columns that do not fit left out with a
    note on stderr. ``requested`` columns (``--columns``) are all shown; when they cannot
    fit side by side each item is shown as a block of field/value lines instead.

    Column widths depend on every row, so the rows are collected: table output is for
    a person reading a page, the streamed formats are for volume.
    """
    rows = cell_rows(items, columns, color=ios.stdout_color, zone=zone)
    if not rows:
        return 0
    fit = (
        fit_rows(rows, columns, ios.terminal_width(), requested=requested)
        if ios.stdout_is_tty
        else None
    )
    if fit is not None and fit.too_wide:
        _show_records(ios, rows, columns)
        return len(rows)
    show_drawing(ios, rows_table(rows, columns, fit))
    if fit is not None and fit.dropped:
        note_dropped(ios, fit.dropped)  # under the table, where the eye is when it ends
    return len(rows)


def cell_rows(
    items: Iterable[Any], columns: Sequence[Column], *, color: bool, zone: tzinfo | None
) -> list[list[Text]]:
    """Each item's cells, one line each: what a list table shows."""
    return [
        [_cell(column, item, color=color, one_line=True, zone=zone) for column in columns]
        for item in items
    ]


def fit_rows(
    rows: Sequence[Sequence[Text]], columns: Sequence[Column], width: int, *, requested: bool
) -> Fit:
    """Which columns of these rows fit ``width`` and how wide (:mod:`leadctl.output.fit`)."""
    return fit_columns(
        [
            FitColumn(
                title=_header(column).plain,
                widths=[row[index].cell_len for row in rows],
                keep_whole=column.kind != "text"
                or column.whole
                or not is_free_text([row[index].plain for row in rows]),
                required=requested or index == 0 or column.keep,
            )
            for index, column in enumerate(columns)
        ],
        width,
    )


def rows_table(rows: Sequence[Sequence[Text]], columns: Sequence[Column], fit: Fit | None) -> Table:
    """The rows as a borderless table: the columns ``fit`` shows at its widths (all of
    them, as wide as they are, without one); a cell never wraps."""
    from rich.table import Table

    table = Table(
        box=None, pad_edge=False, show_edge=False, header_style="bold", padding=(0, 2, 0, 0)
    )
    shown = fit.shown if fit is not None else list(range(len(columns)))
    widths = fit.widths if fit is not None else {}
    for index in shown:
        column = columns[index]
        table.add_column(
            _header(column),
            justify="right" if column.kind == "number" else "left",
            no_wrap=True,
            overflow="ellipsis",
            width=widths.get(index),
        )
    for row in rows:
        table.add_row(*(row[index] for index in shown))
    return table


def note_dropped(ios: IOStreams, dropped: Sequence[str]) -> None:
    """One dim line on stderr naming the default columns the terminal had no room for."""
    text = (
        f"not shown at {ios.terminal_width()} columns: {', '.join(dropped)} "
        "(pick columns with --columns)"
    )
    ios.info(text, dim=True)


def _show_records(
    ios: IOStreams, rows: Sequence[Sequence[Text]], columns: Sequence[Column]
) -> None:
    """Each item as field/value lines, a blank line between items: for requested columns
    that side by side would be wider than the terminal (nothing is cut or left out)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    blocks: list[Any] = []
    for row in rows:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(overflow="fold")
        for column, cell in zip(columns, row, strict=True):
            grid.add_row(_header(column), cell)
        if blocks:
            blocks.append(Text(""))
        blocks.append(grid)
    show_drawing(ios, Group(*blocks))


def write_object_table(
    ios: IOStreams, obj: Any, columns: Sequence[Column], *, zone: tzinfo | None = timezone.utc
) -> None:
    """A field/value view of one object; long values wrap instead of being cut."""
    from rich.table import Table

    color = ios.stdout_color
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for column in columns:
        table.add_row(_header(column), _cell(column, obj, color=color, one_line=False, zone=zone))
    show_drawing(ios, table)


def _header(column: Column) -> Text:
    from rich.text import Text

    return Text(safe_text(column.title, one_line=True))


def _cell(column: Column, item: Any, *, color: bool, one_line: bool, zone: tzinfo | None) -> Text:
    from rich.text import Text

    value = get_path(item, column.parts)
    text = safe_text(human_text(value, column.kind, zone), one_line=one_line)
    if column.color_path and color:
        shade = get_path(item, column.color_path)
        style = _swatch_style(shade) if isinstance(shade, str) and text else None
        if style is not None:
            return Text(text, style=style)
    if column.kind == "color" and color and isinstance(value, str):
        swatch = _swatch_style(value)
        if swatch is not None:
            return Text.assemble(("■", swatch), " ", text)
    if isinstance(value, bool):
        return Text(text, style="green" if value else "dim")
    return Text(text)


def _swatch_style(value: str) -> Style | None:
    from rich.color import Color, ColorParseError
    from rich.style import Style

    spelled = value.strip()
    if len(spelled) in (3, 6) and all(c in "0123456789abcdefABCDEF" for c in spelled):
        spelled = "#" + spelled
    try:
        return Style(color=Color.parse(spelled))
    except ColorParseError:
        return None


def show_drawing(ios: IOStreams, renderable: RenderableType) -> None:
    """Draw ``renderable`` on stdout (the terminal's width, else unbounded), paged when
    taller than the terminal."""
    width = ios.terminal_width() if ios.stdout_is_tty else UNBOUNDED_WIDTH
    buffer = io.StringIO()
    ios.console(file=buffer, width=width).print(renderable)
    write_rendered(ios, buffer.getvalue())


def write_rendered(ios: IOStreams, rendered: str) -> None:
    """Text rich drew for stdout: through the pager when taller than the terminal."""
    if not ios.stdout_color:
        # rich pads every cell to its column width; without styling that padding is only
        # trailing blanks, which get in the way of grep and diff on saved output.
        rendered = "\n".join(line.rstrip(" ") for line in rendered.split("\n"))
    if ios.pager_command() is not None and rendered.count("\n") > ios.terminal_height():
        with ios.paged_stdout() as pager:
            pager.write(rendered)
        return
    ios.stdout.write(rendered)
    ios.stdout.flush()


class TableRenderer(ColumnRenderer):
    """rich tables for people: one row an item, or a field/value view of one object.
    Column widths depend on every row: it collects."""

    streams = False

    def write_rows(self, ctx: OutputInvocation, rows: Iterator[Any], columns: list[Column]) -> int:
        count = write_list_table(
            ctx.ios,
            rows,
            columns,
            requested=bool(ctx.options.columns),
            zone=zone_for(ctx, columns),
        )
        if count == 0:
            ctx.ios.info(NO_RESULTS)
        return count

    def write_one(self, ctx: OutputInvocation, obj: Any, columns: list[Column]) -> None:
        write_object_table(ctx.ios, obj, columns, zone=zone_for(ctx, columns))


# The registry (leadctl.output.registry) finds this by format name.
RENDERERS: dict[str, Renderer] = {TABLE: TableRenderer()}
