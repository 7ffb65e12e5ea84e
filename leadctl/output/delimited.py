"""``-o csv``, ``-o tsv`` and ``-o value``: one row per item, streamed as items arrive.

The header row names each column by its field path (``firstName``, ``status.name``,
``tags[].name``), and cells are written as ``leads import`` reads them back
(:func:`leadctl.output.cells.machine_text`: a list as ``a;b``, an object as JSON), so an
export imports back unchanged.

csv follows RFC 4180 quoting via the csv module, with ``\\n`` line ends because the
readers on the other end of a pipe are Unix tools. A cell holding a carriage return is
quoted too (the csv module quotes only the line end it writes, and a bare CR opens a new
row in a spreadsheet). tsv cannot quote, so a tab, newline, carriage return or backslash
inside a value is escaped as ``\\t``, ``\\n``, ``\\r``, ``\\\\`` (the convention of
PostgreSQL's text COPY format), which keeps one item per line and can be reversed.
``value`` is tsv without the header row, for ``ID=$(leadctl ... -o value --columns id)``.

csv and tsv are opened in spreadsheets: a cell that would run as a formula gets a leading
``'`` (:mod:`leadctl.util.formula_cells`) unless ``--allow-formulas``; ``value`` is for
scripts and is written as is.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from leadctl.output.cells import machine_cell
from leadctl.output.columns import Column
from leadctl.output.renderer import ColumnRenderer, Renderer
from leadctl.util.formula_cells import FORMULA_FIRST, GUARD, guarded

if TYPE_CHECKING:
    from leadctl.output.invocation import OutputInvocation

_TSV_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
# A cell beginning with one of these may need the formula guard (or has it already).
_GUARD_FIRST = FORMULA_FIRST | {GUARD}
_CSV_SPECIAL = re.compile('[,"\r\n]')


def header_of(column: Column) -> str:
    """A column's name in a header row: its field path, which `leads import` reads."""
    return column.path or "value"


def write_csv(
    stream: TextIO, items: Iterable[Any], columns: Sequence[Column], *, allow_formulas: bool
) -> int:
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([header_of(column) for column in columns])
    cells = [machine_cell(column) for column in columns]
    writerow = writer.writerow
    write = stream.write
    guard = not allow_formulas
    guard_first = _GUARD_FIRST
    count = 0
    for item in items:
        row = [cell(item) for cell in cells]
        if guard:
            # The first character decides; most cells need no more than that look.
            row = [guarded(value) if value[:1] in guard_first else value for value in row]
        if "\r" in "".join(row):
            write(",".join([_quoted(value) for value in row]) + "\n")
        else:
            writerow(row)
        count += 1
    stream.flush()
    return count


def _quoted(value: str) -> str:
    """One csv cell quoted as the csv module would, and also when it holds a bare CR."""
    if _CSV_SPECIAL.search(value):
        return '"' + value.replace('"', '""') + '"'
    return value


def write_tsv(
    stream: TextIO,
    items: Iterable[Any],
    columns: Sequence[Column],
    *,
    header: bool,
    allow_formulas: bool,
) -> int:
    write = stream.write
    escapes = _TSV_ESCAPES
    if header:
        write("\t".join(header_of(column).translate(escapes) for column in columns) + "\n")
    cells = [machine_cell(column) for column in columns]
    tabs = len(cells) - 1
    guard = not allow_formulas
    guard_first = _GUARD_FIRST
    count = 0
    for item in items:
        values = [cell(item) for cell in cells]
        line = "\t".join(values)
        # Escaping cell by cell costs more than the rest of the row; most rows need none,
        # which three scans of the joined line prove.
        if line.count("\t") != tabs or "\n" in line or "\r" in line or "\\" in line:
            values = [value.translate(escapes) for value in values]
            line = "\t".join(values)
        if guard:
            guarded_values = [
                guarded(value) if value[:1] in guard_first else value for value in values
            ]
            line = "\t".join(guarded_values)
        write(line + "\n")
        count += 1
    stream.flush()
    return count


class CsvRenderer(ColumnRenderer):
    def write_rows(self, ctx: OutputInvocation, rows: Iterator[Any], columns: list[Column]) -> int:
        out = ctx.ios.data_out()
        return write_csv(out, rows, columns, allow_formulas=ctx.options.allow_formulas)


class TsvRenderer(ColumnRenderer):
    """Tab-separated values; ``value`` is the same without the header line, for scripts
    (its cells are never guarded against spreadsheet formulas)."""

    def __init__(self, *, header: bool) -> None:
        self._header = header

    def write_rows(self, ctx: OutputInvocation, rows: Iterator[Any], columns: list[Column]) -> int:
        return write_tsv(
            ctx.ios.data_out(),
            rows,
            columns,
            header=self._header,
            allow_formulas=ctx.options.allow_formulas or not self._header,
        )


# The registry (leadctl.output.registry) finds these by format name.
RENDERERS: dict[str, Renderer] = {
    "csv": CsvRenderer(),
    "tsv": TsvRenderer(header=True),
    "value": TsvRenderer(header=False),
}
