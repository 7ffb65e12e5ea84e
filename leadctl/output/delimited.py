"""``-o csv``, ``-o tsv`` and ``-o value``: one row per item, streamed as items arrive.

csv follows RFC 4180 quoting via the csv module, with ``\\n`` line ends because the
readers on the other end of a pipe are Unix tools. tsv cannot quote, so a tab, newline,
carriage return or backslash inside a value is escaped as ``\\t``, ``\\n``, ``\\r``,
``\\\\`` (the convention of PostgreSQL's text COPY format), which keeps one item per line
and can be reversed. ``value`` is tsv without the header row, for
``ID=$(leadctl ... -o value --columns id)``.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from leadctl.output.cells import machine_cell
from leadctl.output.columns import Column

_TSV_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def write_csv(stream: TextIO, items: Iterable[Any], columns: Sequence[Column]) -> int:
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([column.title for column in columns])
    cells = [machine_cell(column) for column in columns]
    writerow = writer.writerow
    count = 0
    for item in items:
        writerow([cell(item) for cell in cells])
        count += 1
    stream.flush()
    return count


def write_tsv(
    stream: TextIO, items: Iterable[Any], columns: Sequence[Column], *, header: bool
) -> int:
    write = stream.write
    escapes = _TSV_ESCAPES
    if header:
        write("\t".join(column.title.translate(escapes) for column in columns) + "\n")
    cells = [machine_cell(column) for column in columns]
    tabs = len(cells) - 1
    count = 0
    for item in items:
        values = [cell(item) for cell in cells]
        line = "\t".join(values)
        # Escaping cell by cell costs more than the rest of the row; most rows need none,
        # which three scans of the joined line prove.
        if line.count("\t") != tabs or "\n" in line or "\r" in line or "\\" in line:
            line = "\t".join([value.translate(escapes) for value in values])
        write(line + "\n")
        count += 1
    stream.flush()
    return count
