"""One resource on a terminal, nothing left out without a word (``-o table``, no view of
its own, no ``--columns``).

Today's field/value table of its plain fields, then each list of the answer under its
own title (its field path, ``leadTrend.points``): a series as a chart
(:mod:`leadctl.output.trend`), other objects as a table whose columns are chosen as a
listing's are (ids first, widths fitted, the fields left out named with the
``--columns`` that shows them), plain values joined on a line. A list longer than a
screenful is cut with a line saying how many more and how to see them; a value too long
for its line is cut with an ellipsis and named. The lists are found in the data, and the
response schema (when the read has one) says what each field is.

Only for a person at a terminal: piped output, ``-o json`` and the other formats never
come here (:func:`leadctl.output.registry.emit_object`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

from leadctl.contract.body_schema import json_response_schema, operation_spec
from leadctl.contract.document import Document
from leadctl.contract.index import list_columns
from leadctl.output.answer_lists import ListPart, lists_in, plain_paths
from leadctl.output.cells import human_text
from leadctl.output.columns import EACH, Column, columns_from, get_path, infer_columns
from leadctl.output.renderer import display_zone_of
from leadctl.output.table import cell_rows, fit_rows, rows_table, show_drawing
from leadctl.output.trend import draw_trend, trend_shape
from leadctl.output.units import currency_beside, unit_of, with_unit
from leadctl.util.safetext import safe_data

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

    from leadctl.contract.operations import Operation
    from leadctl.output.invocation import OutputInvocation

# Lines a drawing keeps for itself around a list (its title, header, the lines under it).
FRAME_LINES = 8
MIN_ROWS = 5
NAMED_FIELDS = 8  # in a "not shown" line; the rest are counted
GAP = 2


def write_resource(
    ctx: OutputInvocation,
    obj: Mapping[str, Any],
    columns: Sequence[Column],
    operation: Operation | None,
    *,
    title: str | None = None,
) -> None:
    """Draw ``obj`` with its plain fields as ``columns`` (the read's defaults, else its
    top-level fields) and every list it holds, under ``title`` when given."""
    from rich.console import Group
    from rich.text import Text

    # The service's names are drawn as well as its values (a list's path is its title, a
    # series' field its label): every one is shown escaped, as table cells are.
    obj = safe_data(obj)
    doc, schema = _answer_schema(ctx, operation)
    view = _View(ctx, doc)
    lists = lists_in(obj, doc, schema)
    shown = [c for c in (columns or infer_columns(obj)) if not _in_list(c.path, lists)]
    parts, joined = view.fields(obj, shown, schema, lists)
    if title:
        parts = [Text(title, style="bold"), Text(""), *parts]
    for part in lists:
        if part.path not in joined:
            parts += view.section(part)
    show_drawing(ctx.ios, Group(*parts))


def _answer_schema(ctx: OutputInvocation, operation: Operation | None) -> tuple[Document, Any]:
    """The contract's schema of the read's answer; none (the data alone) when the read
    has no operation or its contract cannot be read."""
    if operation is None:
        return Document({}), None
    try:
        found = operation_spec(ctx, operation)
    except (OSError, ValueError, KeyError):
        return Document({}), None
    return found.doc, json_response_schema(found.doc, found.spec)


def _in_list(path: str, lists: Sequence[ListPart]) -> bool:
    """Whether a column shows (a summary of) one of the lists drawn on their own."""
    return any(
        path == part.path or path.startswith((f"{part.path}{EACH}", f"{part.path}."))
        for part in lists
        if not part.plain
    )


# -- drawing ---------------------------------------------------------------------------------


class _View:
    def __init__(self, ctx: OutputInvocation, doc: Document) -> None:
        ios = ctx.ios
        self.doc = doc
        self.width = ios.terminal_width()
        self.rows = max(MIN_ROWS, ios.terminal_height() - FRAME_LINES)
        self.color = ios.stdout_color
        self.zone: tzinfo | None = display_zone_of(ctx)

    # -- the plain fields --

    def fields(
        self,
        obj: Mapping[str, Any],
        columns: Sequence[Column],
        schema: Any,
        lists: Sequence[ListPart],
    ) -> tuple[list[RenderableType], set[str]]:
        """The field/value table, one line a field, with the plain lists that fit joined
        in it (their paths are returned: the others get a section); under it what was cut
        or left out."""
        from rich.table import Table
        from rich.text import Text

        plain = {part.path: part for part in lists if part.plain}
        inline = [
            part
            for path, part in plain.items()
            if part.items and not any(c.path == path for c in columns)
        ]
        keys = [c.title for c in columns] + [part.path for part in inline]
        key_width = max((len(key) for key in keys), default=0)
        room = max(1, self.width - key_width - GAP)
        rows: list[tuple[str, Text]] = []
        joined: set[str] = set()
        cells = cell_rows([obj], columns, color=self.color, zone=self.zone)[0] if columns else []
        for column, cell in zip(columns, cells, strict=True):
            if column.path in plain:
                if cell.cell_len > room:
                    continue  # too long for a line: one value a line, in its own section
                joined.add(column.path)
            rows.append((column.title, self._with_unit(obj, column, schema) or cell))
        for part in inline:
            line = Text(human_text(part.items, "text", self.zone))
            if line.cell_len <= room:
                rows.append((part.path, line))
                joined.add(part.path)
        grid = Table.grid(padding=(0, GAP, 0, 0))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(no_wrap=True, overflow="ellipsis", max_width=room)
        for key, cell in rows:
            grid.add_row(Text(key), cell)
        out: list[RenderableType] = [grid] if rows else []
        cut = [key for key, cell in rows if cell.cell_len > room]
        if cut:
            out.append(
                self._note(
                    f"cut to fit {self.width} columns: {_names(cut)} "
                    f"(--columns {','.join(cut[:3])} shows {'it' if len(cut) == 1 else 'them'} "
                    "whole)"
                )
            )
        hidden = [p for p in plain_paths(obj) if not any(_covers(c.path, p) for c in columns)]
        if hidden:
            out.append(
                self._note(f"not shown: {_names(hidden)} (--columns {hidden[0]}, or -o json)")
            )
        return out, joined

    def _with_unit(self, obj: Mapping[str, Any], column: Column, schema: Any) -> Text | None:
        from rich.text import Text

        value = get_path(obj, column.parts)
        owner_path = column.parts[:-1]
        owner = get_path(obj, owner_path) if owner_path else obj
        field_schema = self._schema_at(schema, column.parts)
        unit = unit_of(column.parts[-1] if column.parts else "", field_schema, (value,))
        currency = currency_beside(owner) if isinstance(owner, Mapping) else None
        text = with_unit(value, unit, currency=currency)
        return None if text is None else Text(text)

    def _schema_at(self, schema: Any, parts: Sequence[str]) -> Mapping[str, Any] | None:
        node = schema
        for part in parts:
            if node is None:
                return None
            node = self.doc.properties(node).get(part)
        resolved = self.doc.resolve(node) if node is not None else None
        return resolved if isinstance(resolved, Mapping) else None

    # -- one list --

    def section(self, part: ListPart) -> list[RenderableType]:
        from rich.text import Text

        count = len(part.items)
        if not count:
            return [Text(""), Text.assemble((part.path, "bold"), (": none", "dim"))]
        head = self._title(f"{part.path} · {count}")
        if part.plain:
            return [Text(""), head, *self._plain(part)]
        shape = trend_shape(self.doc, part.item_schema, part.items)
        if shape is not None:
            return [Text(""), head, draw_trend(shape, part.items, width=self.width, zone=self.zone)]
        return [Text(""), head, *self._table(part)]

    def _title(self, text: str) -> RenderableType:
        from rich.rule import Rule
        from rich.text import Text

        return Rule(Text(text, style="bold"), align="left", style="dim")

    def _plain(self, part: ListPart) -> list[RenderableType]:
        from rich.text import Text

        shown = part.items[: self.rows]
        lines: list[RenderableType] = [
            Text(f"• {human_text(item, 'text', self.zone)}", no_wrap=True, overflow="ellipsis")
            for item in shown
        ]
        return lines + self._more(part, len(shown))

    def _table(self, part: ListPart) -> list[RenderableType]:
        columns = [
            replace(column, keep=True) if _is_id(column.path) else column
            for column in columns_from(list_columns(self.doc, part.item_schema))
        ]
        if not columns:
            columns = infer_columns(next(i for i in part.items if isinstance(i, Mapping)))
        shown_items = [_units_read(self.doc, part.item_schema, item) for item in part.items]
        shown_items = shown_items[: self.rows]
        rows = cell_rows(shown_items, columns, color=self.color, zone=self.zone)
        fit = fit_rows(rows, columns, self.width, requested=False)
        out: list[RenderableType] = [rows_table(rows, columns, fit)]
        drawn = {columns[index].parts[0] for index in fit.shown if columns[index].parts}
        left_out = [
            name
            for name in _item_fields(self.doc, part.item_schema, part.items)
            if name not in drawn
        ]
        if left_out:
            out.append(
                self._note(
                    f"not shown: {_names(left_out)} "
                    f"(--columns {part.path}[].{left_out[0]}, or -o json)"
                )
            )
        return out + self._more(part, len(shown_items))

    def _more(self, part: ListPart, shown: int) -> list[RenderableType]:
        left = len(part.items) - shown
        if left <= 0:
            return []
        return [
            self._note(
                f"… {left:,} more of {len(part.items):,} "
                f"(all of them: -o json, or --jq '.{part.path}')"
            )
        ]

    def _note(self, text: str) -> Text:
        from rich.text import Text

        return Text(text, style="dim")  # a sentence: it may wrap, at a space


def _units_read(doc: Document, item_schema: Any, item: Any) -> Any:
    """An item with its percentages and money spelled as such (``23%``), for its row."""
    if not isinstance(item, Mapping):
        return item
    properties = doc.properties(item_schema)
    currency = currency_beside(item)
    out = dict(item)
    for name, value in item.items():
        sub = doc.resolve(properties.get(str(name))) if name in properties else None
        text = with_unit(
            value,
            unit_of(str(name), sub if isinstance(sub, Mapping) else None, (value,)),
            currency=currency,
        )
        if text is not None:
            out[name] = text
    return out


def _item_fields(doc: Document, item_schema: Any, items: Sequence[Any]) -> list[str]:
    names = list(doc.properties(item_schema))
    for item in items:
        if isinstance(item, Mapping):
            names += [str(key) for key in item if str(key) not in names]
    return names


def _covers(column_path: str, path: str) -> bool:
    """Whether a column shows the value at ``path``: the value itself, one inside it, or
    the null an object it reads into was (``modifiedByUser`` null, ``modifiedByUser.name``)."""
    return (
        path == column_path
        or path.startswith(f"{column_path}.")
        or column_path.startswith(f"{path}.")
    )


def _is_id(path: str) -> bool:
    return path == "id" or path.endswith(("Id", "_id", "ID"))


def _names(names: Sequence[str]) -> str:
    listed = ", ".join(names[:NAMED_FIELDS])
    more = len(names) - NAMED_FIELDS
    return f"{listed} and {more} more" if more > 0 else listed
