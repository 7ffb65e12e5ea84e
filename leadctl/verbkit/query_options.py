"""RequestDataOptions from command-line flags: --search, --filter, --range, --order-by.

Shared by curated collection commands (`leads list`) and generated ones, so it lives
outside both ``leadctl.commands`` and ``leadctl.generated``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from leadctl.contract.body_schema import body_schema
from leadctl.errors import UsageError
from leadctl.inputs.datetimes import datetime_option, looks_like_datetime
from leadctl.inputs.fields import parse_json_text, split_field, typed_value

if TYPE_CHECKING:
    from datetime import datetime, tzinfo

    from leadctl.contract.operations import Operation
    from leadctl.verbkit.invocation import RequestInvocation

# RangeFilter bound names, by the operator a user types.
RANGE_OPERATORS = {
    ">": "greaterThan",
    ">=": "greaterThanOrEqual",
    "<": "lessThan",
    "<=": "lessThanOrEqual",
}
# The reference shows only `field` on orderBy items; the contract assumes `direction`.
DEFAULT_ORDER_DIRECTION_KEY = "direction"
_FIELD_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
# A field named as a time (createdAt, modifiedAt, dueDate, startTime): its bounds are times.
_TIME_NAME = re.compile(r"(?:^|[a-z0-9_])(?:At|Date|Time|_at|_date|_time)$|^(?:date|time)$")


def query_value(raw: str, *, field: str, flag: str, stdin: TextIO | None) -> Any:
    """A --filter or --range value typed like `api -F`; a JSON string literal ("123")
    stays a string."""

    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return parse_json_text(raw, what=f"{flag} {field}")
    return typed_value(raw, key=field, stdin=stdin)


def parse_filters(raw_filters: Iterable[str], *, stdin: TextIO | None) -> list[dict[str, Any]]:

    filters = []
    for raw in raw_filters:
        field, value = split_field(raw, flag="--filter")
        _check_field_name(field, flag="--filter", raw=raw)
        typed = query_value(value, field=field, flag="--filter", stdin=stdin)
        filters.append({"field": field, "value": typed})
    return filters


def _check_field_name(field: str, *, flag: str, raw: str) -> None:
    if not _FIELD_NAME.match(field):
        raise UsageError(f"{flag} {raw!r}: {field!r} is not a field name")


def parse_range(raw: str) -> tuple[str, str, str]:
    """``FIELD>=VALUE`` as (field, bound name, raw value); the error names the bad part."""
    usage = "expected FIELD>=VALUE with one of the operators > >= < <="
    position = next((i for i, char in enumerate(raw) if char in "<>"), -1)
    if position < 0:
        if "=" in raw:
            raise UsageError(
                f"--range {raw!r}: '=' alone is not a range operator",
                hint="use --filter FIELD=VALUE for equality, or one of > >= < <=",
            )
        raise UsageError(f"--range {raw!r}: no operator; {usage}")
    field = raw[:position].strip()
    operator = raw[position]
    rest = raw[position + 1 :]
    if rest.startswith("="):
        operator += "="
        rest = rest[1:]
    if not field:
        raise UsageError(f"--range {raw!r}: no field name before {operator!r}; {usage}")
    if field.endswith("="):
        raise UsageError(f"--range {raw!r}: {'=' + operator!r} is not an operator; {usage}")
    _check_field_name(field, flag="--range", raw=raw)
    if rest[:1] in ("<", ">", "="):
        raise UsageError(f"--range {raw!r}: {operator + rest[0]!r} is not an operator; {usage}")
    value = rest.strip()
    if not value:
        raise UsageError(f"--range {raw!r}: no value after {operator!r}; {usage}")
    return field, RANGE_OPERATORS[operator], value


def parse_ranges(
    raw_ranges: Iterable[str],
    *,
    stdin: TextIO | None,
    zone: tzinfo | None = None,
    now: datetime | None = None,
) -> list[dict[str, Any]]:
    """RangeFilter objects, one per field: bounds on the same field merge into one.

    A bound that is a time (a date shape or a relative form such as ``yesterday`` or
    ``-7d``) is read in ``zone`` (None: the system's) and sent in UTC; an impossible date
    is a usage error rather than a query that quietly matches nothing.
    """

    by_field: dict[str, dict[str, Any]] = {}
    for raw in raw_ranges:
        field, bound, value = parse_range(raw)
        entry = by_field.setdefault(field, {"field": field})
        if bound in entry:
            raise UsageError(f"--range {raw!r}: {field} already has a {bound} bound")
        if looks_like_datetime(value):
            instant = datetime_option("--range", raw, zone=zone, now=now, value=value)
            entry[bound] = instant.isoformat()
        elif _TIME_NAME.search(field.rsplit(".", 1)[-1]):
            raise UsageError(
                f"--range {raw!r}: {field} is a time, and {value!r} is not one",
                hint="give an ISO 8601 time (2026-01-31, 2026-01-31T09:00) or a relative "
                "form (-7d, -2h, today, yesterday)",
            )
        else:
            entry[bound] = query_value(value, field=field, flag="--range", stdin=stdin)
    return list(by_field.values())


def parse_order_by(
    raw_fields: Iterable[str], *, direction_key: str, descending: str = "desc"
) -> list[dict[str, Any]]:
    order = []
    for raw in raw_fields:
        reverse = raw.startswith("-")
        field = raw[1:] if reverse else raw
        _check_field_name(field, flag="--order-by", raw=raw)
        item: dict[str, Any] = {"field": field}
        if reverse:
            item[direction_key] = descending
        order.append(item)
    return order


def list_body(
    *,
    search: str | None,
    search_fields: Sequence[str],
    filters: Sequence[str],
    ranges: Sequence[str],
    order_by: Sequence[str],
    direction_key: str,
    stdin: TextIO | None,
    zone: tzinfo | None = None,
    now: datetime | None = None,
    descending: str = "desc",
) -> dict[str, Any]:
    """The RequestDataOptions of `leads list`, without paging fields; empty parts are left out."""
    if search_fields and search is None:
        raise UsageError("--search-field narrows --search: give --search TEXT too")
    for field in search_fields:
        _check_field_name(field, flag="--search-field", raw=field)
    body: dict[str, Any] = {}
    if search is not None:
        body["search"] = search
    if search_fields:
        body["searchFields"] = list(search_fields)
    if filters:
        body["filters"] = parse_filters(filters, stdin=stdin)
    if ranges:
        body["rangeFilters"] = parse_ranges(ranges, stdin=stdin, zone=zone, now=now)
    if order_by:
        body["orderBy"] = parse_order_by(
            order_by, direction_key=direction_key, descending=descending
        )
    return body


def descending_value(ctx: RequestInvocation, op: Operation, direction_key: str) -> str:
    """The value of ``orderBy[].<direction_key>`` that sorts descending: the contract's own
    where its schema lists the values (ASP.NET services say ``Descending``), else ``desc``
    (assumed: the API docs show only ``field``)."""

    found = body_schema(ctx, op)
    if found is None:
        return "desc"
    doc = found.doc
    order_by = doc.properties(found.schema).get("orderBy")
    items = doc.keyword(order_by, "items") if order_by is not None else None
    direction = doc.properties(items).get(direction_key) if items is not None else None
    values = doc.keyword(direction, "enum") if direction is not None else None
    for value in values if isinstance(values, list) else ():
        if isinstance(value, str) and value.lower().startswith("desc"):
            return value
    return "desc"


def direction_key_of(settings: Any) -> str:
    """The orderBy property that carries the direction: the profile's order_direction_key,
    else the assumed ``direction``."""
    value = settings.get("order_direction_key")
    return value if isinstance(value, str) and value else DEFAULT_ORDER_DIRECTION_KEY
