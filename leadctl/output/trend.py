"""A list whose items pair a time (or a period's label) with numbers, drawn as a chart.

``leadTrend.points[{date, count}]`` is a series: one sparkline per numeric field, with its
minimum, maximum and last value, over an axis naming the first and last time in the
user's zone. Which lists are series is read from the items' schema (a ``date-time`` or
``date`` field, or a period's label, beside number/integer fields); where no schema says,
from the items themselves. Everything reads without color: the blocks carry the values,
the figures beside them say them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, tzinfo
from typing import TYPE_CHECKING, Any

from leadctl.inputs.datetimes import format_moment
from leadctl.output.sparkline import merge_buckets, sparkline
from leadctl.output.units import Unit, currency_beside, unit_of, with_unit
from leadctl.util.isotime import parse_timestamp

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

    from leadctl.contract.document import Document

# A period's name, where a series is labelled rather than timed ("Mon", "week 47").
LABEL_FIELDS = ("label", "period", "bucket", "day", "week", "month", "hour", "date")
TIME_FORMATS = ("date-time", "date")
SERIES_STYLES = ("green", "cyan", "magenta", "yellow", "blue")
MAX_STRETCH = 4
MIN_SPARK = 8
GAP = 2


@dataclass(frozen=True)
class Series:
    name: str
    unit: Unit | None


@dataclass(frozen=True)
class TrendShape:
    axis: str  # the field that says when (or which period) a point is
    series: tuple[Series, ...]


def trend_shape(doc: Document, item_schema: Any, items: Sequence[Any]) -> TrendShape | None:
    """The series of a list, or None when its items are not points of one: a time or a
    period's label, and at least one number that is not an id. Items that carry an id
    of their own (a source with its lead count) are rows of a table, not points."""
    properties = doc.properties(item_schema)
    objects = [item for item in items if isinstance(item, Mapping)]
    if not properties or any(_is_id(name) for name in properties):
        return None
    axis = None
    for name, sub in properties.items():
        if doc.type_of(sub) == "string" and doc.keyword(sub, "format") in TIME_FORMATS:
            axis = name
            break
    if axis is None:
        axis = next(
            (
                name
                for name, sub in properties.items()
                if doc.type_of(sub) == "string" and name.lower() in LABEL_FIELDS
            ),
            None,
        )
    series = tuple(
        Series(name, unit_of(name, doc.resolve(sub), (o.get(name) for o in objects)))
        for name, sub in properties.items()
        if doc.type_of(sub) in ("integer", "number") and not _is_id(name)
    )
    if axis is None or not series:
        return None
    return TrendShape(axis, series)


def _is_id(name: str) -> bool:
    return name == "id" or name.endswith(("Id", "_id", "ID"))


def draw_trend(
    shape: TrendShape, items: Sequence[Any], *, width: int, zone: tzinfo | None
) -> RenderableType:
    """One line a series: name, sparkline, ``min 3 · max 41 · last 27``; under them the
    first and last point's time. A series longer than the room is summed (averaged, for
    percentages) into fewer blocks, and the axis says how many points each block holds."""
    from rich.table import Table
    from rich.text import Text

    points = [item for item in items if isinstance(item, Mapping)]
    currency = next((c for c in map(currency_beside, points) if c), None)
    rows: list[tuple[Series, list[float], str]] = []
    for series in shape.series:
        raw = [_number(point.get(series.name)) for point in points]
        rows.append((series, [v or 0.0 for v in raw], _figures(raw, series.unit, currency)))
    name_width = max(len(series.name) for series, _v, _f in rows)
    figures_width = max(len(figures) for _s, _v, figures in rows)
    room = max(MIN_SPARK, width - name_width - figures_width - 2 * GAP)
    grid = Table.grid(padding=(0, GAP, 0, 0))
    grid.add_column(no_wrap=True, overflow="ellipsis")
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    per = 1
    drawn_width = 0
    for index, (series, values, figures) in enumerate(rows):
        merged, per = _merged(values, room, series.unit)
        stretch = max(1, min(MAX_STRETCH, room // max(1, len(merged))))
        line = "".join(block * stretch for block in sparkline(merged))
        drawn_width = len(line)
        style = SERIES_STYLES[index % len(SERIES_STYLES)]
        grid.add_row(Text(series.name), Text(line, style=style), Text(figures, style="dim"))
    grid.add_row(Text(""), _axis(points, shape.axis, drawn_width, zone), _per_block(per))
    return grid


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _figures(raw: Sequence[float | None], unit: Unit | None, currency: str | None) -> str:
    present = [v for v in raw if v is not None]
    if not present:
        return "no values"
    last = raw[-1]
    missing = "\u2013"  # an en dash: the service sent no value
    return (
        f"min {_shown(min(present), unit, currency)} · max {_shown(max(present), unit, currency)}"
        f" · last {missing if last is None else _shown(last, unit, currency)}"
    )


def _shown(value: float, unit: Unit | None, currency: str | None) -> str:
    text = with_unit(value, unit, currency=currency)
    if text is not None:
        return text
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def _merged(values: list[float], room: int, unit: Unit | None) -> tuple[list[float], int]:
    """Neighbouring points summed until the series fits ``room``; a percentage is an
    average, never a sum (two days at 50% are not 100%)."""
    merged, per = merge_buckets(values, room)
    if per == 1 or unit not in ("percent", "fraction"):
        return merged, per
    sizes, _per = merge_buckets([1.0] * len(values), room)
    return [total / size for total, size in zip(merged, sizes, strict=True)], per


def _per_block(per: int) -> Text:
    from rich.text import Text

    return Text(f"{per} points per block" if per > 1 else "", style="dim")


def _axis(points: Sequence[Mapping[str, Any]], axis: str, width: int, zone: tzinfo | None) -> Text:
    from rich.text import Text

    if not points:
        return Text("")
    first = _when(points[0].get(axis), zone)
    last = _when(points[-1].get(axis), zone)
    if len(points) == 1 or first == last:
        return Text(first, style="dim")
    gap = width - len(first) - len(last)
    if gap < 1:
        return Text(f"{first} … {last}", style="dim")
    return Text(first + " " * gap + last, style="dim")


def _when(value: Any, zone: tzinfo | None) -> str:
    """A point's time in the user's zone (a plain date as written: it has no zone)."""
    if not isinstance(value, str):
        return "" if value is None else str(value)
    if len(value) == len("2026-11-20"):
        try:
            return date.fromisoformat(value).isoformat()
        except ValueError:
            return value
    moment = parse_timestamp(value, time_required=True)
    return value if moment is None else format_moment(moment, zone)
