"""The rows of an import file: CSV with a header row, or NDJSON (one JSON object per line).

Rows are read one at a time from a binary stream, so memory stays flat whatever the size.
Row numbers are 1-based and count data rows only: a CSV header is not a row, a blank line
is (an invalid one), and a CSV record whose quoted value spans lines is one row.

CSV cells stay strings, exactly as written (no trimming, no number or boolean guessing),
except the ``'`` that ``-o csv`` put before a cell a spreadsheet would run as a formula,
which is removed (:mod:`leadctl.util.formula_cells`); an empty cell leaves the field out.
A header ``address.city`` builds a nested object, and a header ``tags[]`` (repeatable)
collects its non-empty cells into a list; columns the plan leaves out
(:mod:`leadctl.bulk.columns`) are skipped. NDJSON values keep their JSON types. Either way
a ``phone`` string is checked and sent in E.164, as ``leads create`` does.

Reading is linear in the input, however wide: a header of a million columns is checked
in one pass.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any, NamedTuple

from leadctl.errors import UsageError
from leadctl.inputs.phone import to_e164
from leadctl.util.formula_cells import GUARD, unguarded
from leadctl.util.jsonkind import json_kind
from leadctl.util.jsontext import loads_input

_EXTENSIONS = {".csv": "csv", ".ndjson": "ndjson", ".jsonl": "ndjson", ".json": "ndjson"}
_HEADER_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\[\])?$")
_BOM = codecs.BOM_UTF8
# Enough to recognise the first line of a CSV file in an error message.
_SHOWN_LIMIT = 60

# A body ready to send, or None with the reason the row is invalid.
Prepare = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Row:
    number: int
    body: dict[str, Any] | None
    problem: str | None
    # A fingerprint of the row's text: --resume refuses a file whose rows changed.
    digest: str

    @property
    def valid(self) -> bool:
        return self.body is not None


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def format_for(name: str | None, first_line: bytes) -> str:
    """``csv`` or ``ndjson``: by the file's extension, else by its first non-blank character."""
    if name:
        lowered = name.lower()
        for extension, fmt in _EXTENSIONS.items():
            if lowered.endswith(extension):
                return fmt
    return "ndjson" if first_line.lstrip().startswith(b"{") else "csv"


def head_lines(stream: IO[bytes]) -> list[bytes]:
    """Lines up to and including the first non-blank one (a leading BOM removed).

    Reading whole lines, never a fixed number of bytes, keeps a slow pipe streaming.
    """
    lines: list[bytes] = []
    while True:
        line = stream.readline()
        if not line:
            return lines
        if not lines and line.startswith(_BOM):
            line = line[len(_BOM) :]
        lines.append(line)
        if line.strip():
            return lines


def read_rows(
    lines: Iterable[bytes],
    fmt: str,
    *,
    prepare: Prepare,
    source: str,
    renames: Mapping[str, str] | None = None,
    ignored: frozenset[str] = frozenset(),
) -> Iterator[Row]:
    """The rows of ``lines``; a CSV header that cannot be used is a UsageError at once.
    ``renames`` maps CSV column names to the field names they stand for (``--map``, and
    an export's columns); ``ignored`` columns are skipped."""
    if fmt == "ndjson":
        return _ndjson_rows(lines, prepare)
    return _csv_rows(lines, prepare, source, renames or {}, ignored)


# -- NDJSON ------------------------------------------------------------------------------


def _ndjson_rows(lines: Iterable[bytes], prepare: Prepare) -> Iterator[Row]:
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        digest = digest_of(text)
        if not text:
            yield Row(number, None, "empty line", digest)
            continue
        try:
            value = loads_input(text)
        except UnicodeDecodeError:
            yield Row(number, None, "not UTF-8 text", digest)
            continue
        except ValueError as error:
            yield Row(number, None, f"invalid JSON: {_json_reason(error)}", digest)
            continue
        if not isinstance(value, dict):
            yield Row(number, None, f"not a JSON object but {json_kind(value)}", digest)
            continue
        yield _prepared(number, value, digest, prepare)


def _json_reason(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at column {error.colno}"
    return str(error)


# -- CSV ---------------------------------------------------------------------------------


class _Column(NamedTuple):
    # A tuple, not a dataclass: one is made per column, and a header may have a million.
    path: tuple[str, ...]
    collect: bool  # a `name[]` column appends to a list
    skip: bool = False  # a column left out (the service's own fields in an export)


_SKIPPED = _Column((), collect=False, skip=True)


def _csv_rows(
    lines: Iterable[bytes],
    prepare: Prepare,
    source: str,
    renames: Mapping[str, str],
    ignored: frozenset[str],
) -> Iterator[Row]:
    # surrogateescape keeps undecodable bytes visible to the row check instead of failing
    # the whole file at the first bad byte.
    text_lines = (line.decode("utf-8", "surrogateescape") for line in lines)
    reader = csv.reader(text_lines)
    try:
        header = next(reader)
    except StopIteration:
        raise UsageError(f"{source} is empty: a CSV import needs a header row") from None
    except csv.Error as error:
        raise UsageError(f"{source}: the header row is not valid CSV ({error})") from None
    names = [name.strip() for name in header]
    missing = set(renames) - set(names)
    if missing:
        raise UsageError(
            f"--map names column {min(missing)!r}, which {source} does not have",
            hint=f"its columns: {', '.join(names)}",
        )
    read = [None if name in ignored else renames.get(name, name) for name in names]
    return _csv_records(reader, _columns(read, ",".join(header), source), prepare)


def _columns(names: list[str | None], shown: str, source: str) -> list[_Column]:
    """The columns of a header whose names are the fields read (None: left out)."""
    if len(shown) > _SHOWN_LIMIT:
        shown = shown[:_SHOWN_LIMIT] + "…"
    hint = "the first row names the fields, e.g. firstName,lastName,phone,email,tags[]"
    if not any(names):
        raise UsageError(f"{source}: the header row is empty", hint=hint)
    counts: dict[str, int] = {}
    columns = []
    for name in names:
        if name is None:
            columns.append(_SKIPPED)
            continue
        if not _HEADER_NAME.match(name):
            raise UsageError(
                f"{source}: the first row is not a header of field names ({name!r} in {shown!r})",
                hint=hint,
            )
        collect = name.endswith("[]")
        if not collect:
            counts[name] = counts.get(name, 0) + 1
        columns.append(_Column(tuple((name[:-2] if collect else name).split(".")), collect))
    duplicates = sorted(name for name, count in counts.items() if count > 1)
    if duplicates:
        raise UsageError(f"{source}: the header names {', '.join(duplicates)} twice", hint=hint)
    _check_paths(columns, source)
    return columns


def _check_paths(columns: list[_Column], source: str) -> None:
    """``a`` and ``a.b`` (or ``a`` and ``a[]``) cannot both be columns: a is one thing."""
    columns = [column for column in columns if not column.skip]
    leaves = {column.path for column in columns}
    for column in columns:
        for end in range(1, len(column.path)):
            if column.path[:end] in leaves:
                raise UsageError(
                    f"{source}: the header has both {'.'.join(column.path[:end])!r} and "
                    f"{'.'.join(column.path)!r}"
                )
    kinds: dict[tuple[str, ...], bool] = {}
    for column in columns:
        if kinds.setdefault(column.path, column.collect) != column.collect:
            raise UsageError(
                f"{source}: the header has both {'.'.join(column.path)!r} and "
                f"{'.'.join(column.path) + '[]'!r}"
            )


def _csv_records(
    reader: Iterator[list[str]], columns: list[_Column], prepare: Prepare
) -> Iterator[Row]:
    width = len(columns)
    number = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            number += 1
            yield Row(number, None, f"not valid CSV: {error}", digest_of(str(error).encode()))
            continue
        number += 1
        raw = "\x1f".join(cells).encode("utf-8", "surrogateescape")
        digest = digest_of(raw)
        if not cells:
            yield Row(number, None, "empty line", digest)
            continue
        if len(cells) != width:
            yield Row(number, None, f"{len(cells)} fields where the header has {width}", digest)
            continue
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            yield Row(number, None, "not UTF-8 text", digest)
            continue
        yield _prepared(number, _record(columns, cells), digest, prepare)


def _record(columns: list[_Column], cells: list[str]) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for column, cell in zip(columns, cells, strict=True):
        if cell == "" or column.skip:
            continue
        if cell[0] == GUARD:
            cell = unguarded(cell)
        *parents, leaf = column.path
        target = record
        for part in parents:
            target = target.setdefault(part, {})
        if column.collect:
            target.setdefault(leaf, []).append(cell)
        else:
            target[leaf] = cell
    return record


# -- shared ------------------------------------------------------------------------------


def _prepared(number: int, value: dict[str, Any], digest: str, prepare: Prepare) -> Row:
    if not value:
        return Row(number, None, "no fields", digest)
    try:
        body = prepare(value)
    except UsageError as error:
        return Row(number, None, error.message, digest)
    return Row(number, body, None, digest)


def phone_preparer(region: object) -> Prepare:
    """Sends ``phone`` in E.164 (national numbers need the profile's region), like
    ``leads create``; a number that is not one makes the row invalid."""

    def prepare(body: dict[str, Any]) -> dict[str, Any]:
        phone = body.get("phone")
        if isinstance(phone, str):
            body["phone"] = to_e164(phone, region=region, what="phone")
        return body

    return prepare
