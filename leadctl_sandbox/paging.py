"""Collections read with RequestDataOptions: search, filters, range filters, sorting, paging.

Pages are cut by keyset (the last row's sort values), so rows added while a client pages do
not shift later pages. The keyset predicate and the ORDER BY are written on the sort
expressions themselves (never on a computed subquery column), so a collection that declares
its sorts (``Collection.indexed_sorts``) is read from an index ``(sort key, id)`` and a page
costs the same at the start and at the end of a million rows. The scope (the organization)
is checked on the rows the index yields, not part of the index: half the build time when a
million leads are seeded, at the price of a longer walk for an organization that holds few
of the table's rows (the sandbox's second organization, there to show isolation). When every key
runs the same direction the predicate is one row-value comparison, which SQLite seeks on;
mixed directions fall back to the expanded OR form (still exact, not always indexed).

The continuation token is opaque: signed, and bound to the search, filters, range filters
and sort it was issued for (pageSize and includeCount may change between pages). A page
holds at most pageSize items, and at most ``PAGE_CAP`` whatever pageSize says, so a full page
is never a sign that the collection ended.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from leadctl_sandbox.problems import validation_problem
from leadctl_sandbox.tags import normalize
from leadctl_sandbox.times import iso, parse_date, parse_datetime, start_of_day

DEFAULT_PAGE_SIZE = 25
PAGE_CAP = 200
TEXT = "text"
DATETIME = "datetime"
BOOL = "bool"
TAGS = "tags"


# A NamedTuple, not a dataclass: every `-p sandbox` command defines it again at its start,
# and a frozen dataclass costs five times as much to define (issue 32).
class Field(NamedTuple):
    expr: str
    kind: str = TEXT
    # A NOT NULL column sorts on itself, so an index on the plain column serves it.
    not_null: bool = False
    # A column holding the sort key (a generated COALESCE(expr, '')), for an index to seek.
    sort_column: str | None = None


class Collection(NamedTuple):
    """How one collection maps API field names onto SQL."""

    select: str  # SELECT ... FROM ... (may hold placeholders, bound first)
    scope: str  # the WHERE part every query has (organization, user)
    fields: Mapping[str, Field]
    search_fields: Sequence[str]
    default_order: Sequence[tuple[str, str]]
    id_field: str = "id"
    # Sorts with an index (see sort_indexes), on this table.
    table: str | None = None
    indexed_sorts: Sequence[str] = ()


def sort_indexes(collection: Collection) -> list[str]:
    """CREATE INDEX statements, one per indexed sort: (sort key, id)."""
    assert collection.table is not None
    statements = []
    id_expr = _sort_expr(collection.fields[collection.id_field])
    for name in collection.indexed_sorts:
        if name == collection.id_field:
            continue  # the primary key's own index
        columns = [_sort_expr(collection.fields[name]), id_expr]
        index = f"{collection.table}_by_{name.replace('.', '_')}"
        statements.append(
            f"CREATE INDEX IF NOT EXISTS {index} ON {collection.table} ({', '.join(columns)})"
        )
    return statements


def sort_index_names(collection: Collection) -> list[str]:
    return [
        f"{collection.table}_by_{name.replace('.', '_')}"
        for name in collection.indexed_sorts
        if name != collection.id_field
    ]


class Page(NamedTuple):
    rows: list[sqlite3.Row]
    page_size: int
    total_count: int | None
    continuation_token: str | None


def collection_json(items: list[Any], page: Page) -> dict[str, Any]:
    """The collection response of the contract."""
    return {
        "items": items,
        "pageSize": page.page_size,
        "totalCount": page.total_count,
        "continuationToken": page.continuation_token,
    }


class _Query(NamedTuple):
    """A WHERE clause being built: its parts and their parameters (both appended to)."""

    where: list[str]
    params: list[Any]


def fetch_page(
    conn: sqlite3.Connection,
    collection: Collection,
    options: Mapping[str, Any],
    *,
    scope_params: Sequence[Any],
    secret: bytes,
) -> Page:
    order = _order(collection, options.get("orderBy"))
    query = _Query(where=[collection.scope], params=list(scope_params))
    _add_search(query, collection, options.get("search"), options.get("searchFields"))
    for item in options.get("filters") or ():
        _add_filter(query, collection, item["field"], item.get("value"))
    for item in options.get("rangeFilters") or ():
        _add_range(query, collection, item)
    binding = _binding(secret, options, order)
    # int(): JSON may spell an integer 1.0
    page_size = min(int(options.get("pageSize") or DEFAULT_PAGE_SIZE), PAGE_CAP)
    total = None
    if options.get("includeCount"):
        total = _count(conn, collection, query)
    keyset = _Query(list(query.where), list(query.params))
    token = options.get("continuationToken")
    if token:
        last = _decode_token(secret, token, binding, len(order))
        _add_keyset(keyset, collection, order, last)
    sort_exprs = [_sort_expr(collection.fields[name]) for name, _ in order]
    keys = ", ".join(f"{expr} AS _k{i}" for i, expr in enumerate(sort_exprs))
    order_sql = ", ".join(
        f"{expr} {'DESC' if direction == 'desc' else 'ASC'}"
        for expr, (_, direction) in zip(sort_exprs, order, strict=True)
    )
    # A plain "SELECT * FROM table" is flattened into this query by SQLite, so the WHERE and
    # ORDER BY below reach the table's indexes.
    sql = (
        f"SELECT q.*, {keys} FROM ({collection.select}) q "
        f"WHERE {' AND '.join(keyset.where)} ORDER BY {order_sql} LIMIT ?"
    )
    rows = conn.execute(sql, (*keyset.params, page_size + 1)).fetchall()
    next_token = None
    if len(rows) > page_size:
        rows = rows[:page_size]
        last_row = rows[-1]
        values = [last_row[f"_k{i}"] for i in range(len(order))]
        next_token = _encode_token(secret, binding, values)
    return Page(rows, page_size, total, next_token)


# -- options -> SQL ------------------------------------------------------------------------


def _order(collection: Collection, order_by: Any) -> list[tuple[str, str]]:
    order = [(item["field"], item.get("direction") or "asc") for item in order_by or ()]
    if not order:
        order = list(collection.default_order)
    if all(name != collection.id_field for name, _ in order):
        # A total order, so keysets are exact; the id runs the way the last key runs, so a
        # one-direction sort stays one row-value seek on its index.
        order.append((collection.id_field, order[-1][1]))
    return order


def _sort_expr(spec: Field) -> str:
    if spec.sort_column is not None:
        return spec.sort_column
    return spec.expr if spec.kind == BOOL or spec.not_null else f"COALESCE({spec.expr}, '')"


def _add_search(query: _Query, collection: Collection, search: Any, fields: Any) -> None:
    if not search:
        return
    names = fields or collection.search_fields
    pattern = "%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    clauses = [f"COALESCE({collection.fields[name].expr}, '') LIKE ? ESCAPE '\\'" for name in names]
    query.where.append("(" + " OR ".join(clauses) + ")")
    query.params.extend(pattern for _ in names)


def _add_filter(query: _Query, collection: Collection, name: str, value: Any) -> None:
    spec = collection.fields[name]
    values = value if isinstance(value, list) else [value]
    if not values:
        query.where.append("0")
        return
    clauses = []
    for item in values:
        clause, params = _equals(spec, item)
        clauses.append(clause)
        query.params.extend(params)
    query.where.append("(" + " OR ".join(clauses) + ")")


def _equals(spec: Field, value: Any) -> tuple[str, list[Any]]:
    if spec.kind == TAGS:
        if not isinstance(value, str):
            return "0", []
        return (
            f"EXISTS (SELECT 1 FROM json_each({spec.expr}) je JOIN tags t ON t.id = je.value "
            "WHERE t.normalized_name = ?)",
            [normalize(value)],
        )
    if spec.kind == BOOL:
        truth = {True: 1, False: 0, "true": 1, "false": 0}.get(value) if _hashable(value) else None
        if truth is None:
            return "0", []
        return f"{spec.expr} = ?", [truth]
    if value is None:
        return f"{spec.expr} IS NULL", []
    return f"{spec.expr} = ? COLLATE NOCASE", [_comparable(spec, value)]


def _hashable(value: Any) -> bool:
    return isinstance(value, (str, bool, int, float)) or value is None


_RANGE_OPERATORS = {
    "greaterThan": ">",
    "greaterThanOrEqual": ">=",
    "lessThan": "<",
    "lessThanOrEqual": "<=",
}


def _add_range(query: _Query, collection: Collection, item: Mapping[str, Any]) -> None:
    spec = collection.fields[item["field"]]
    for key, operator in _RANGE_OPERATORS.items():
        bound = item.get(key)
        if bound is None:
            continue
        query.where.append(f"({spec.expr} IS NOT NULL AND {spec.expr} {operator} ?)")
        query.params.append(_comparable(spec, bound))


def _comparable(spec: Field, value: Any) -> Any:
    """A filter value as the stored text it is compared with."""
    if isinstance(value, str):
        if spec.kind == DATETIME:
            moment = parse_datetime(value)
            if moment is not None:
                return iso(moment)
            day = parse_date(value)
            if day is not None:
                return iso(start_of_day(day))
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, separators=(",", ":"))


def _count(conn: sqlite3.Connection, collection: Collection, query: _Query) -> int:
    sql = f"SELECT COUNT(*) AS n FROM ({collection.select}) q WHERE {' AND '.join(query.where)}"
    return int(conn.execute(sql, query.params).fetchone()["n"])


def _add_keyset(
    query: _Query, collection: Collection, order: Sequence[tuple[str, str]], last: list[Any]
) -> None:
    exprs = [_sort_expr(collection.fields[name]) for name, _ in order]
    directions = {direction for _, direction in order}
    if len(directions) == 1:
        # (k0, k1, ...) > (v0, v1, ...): one seek on an index of the same keys.
        operator = "<" if directions == {"desc"} else ">"
        marks = ", ".join("?" for _ in exprs)
        query.where.append(f"({', '.join(exprs)}) {operator} ({marks})")
        query.params.extend(last)
        return
    # (k0 > v0) OR (k0 = v0 AND k1 > v1) OR ... with > as < for descending keys.
    alternatives = []
    for i, (_, direction) in enumerate(order):
        parts = [f"{exprs[j]} = ?" for j in range(i)]
        parts.append(f"{exprs[i]} {'<' if direction == 'desc' else '>'} ?")
        alternatives.append("(" + " AND ".join(parts) + ")")
        query.params.extend([*last[:i], last[i]])
    query.where.append("(" + " OR ".join(alternatives) + ")")


# -- tokens --------------------------------------------------------------------------------


def _binding(secret: bytes, options: Mapping[str, Any], order: list[tuple[str, str]]) -> str:
    search = options.get("search") or None
    bound = {
        "search": search,
        "searchFields": (options.get("searchFields") or None) if search else None,
        "filters": options.get("filters") or [],
        "rangeFilters": options.get("rangeFilters") or [],
        "orderBy": order,
    }
    text = json.dumps(bound, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new(secret, text.encode("utf-8"), hashlib.sha256).hexdigest()[:24]


def _sign(secret: bytes, payload: str) -> str:
    digest = hmac.new(secret, b"token:" + payload.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode("ascii").rstrip("=")


def _encode_token(secret: bytes, binding: str, values: list[Any]) -> str:
    raw = json.dumps({"b": binding, "k": values}, separators=(",", ":"), ensure_ascii=False)
    payload = base64.urlsafe_b64encode(raw.encode("utf-8")).decode("ascii").rstrip("=")
    return f"{payload}.{_sign(secret, payload)}"


def _decode_token(secret: bytes, token: str, binding: str, width: int) -> list[Any]:
    payload, _, signature = token.partition(".")
    decoded: Any = None
    try:
        valid = hmac.compare_digest(_sign(secret, payload), signature)
        decoded = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (ValueError, UnicodeError, binascii.Error):
        valid = False
    if not valid or not isinstance(decoded, dict) or not isinstance(decoded.get("k"), list):
        raise validation_problem({"continuationToken": ["is not a token this service issued"]})
    if decoded.get("b") != binding or len(decoded["k"]) != width:
        raise validation_problem(
            {
                "continuationToken": [
                    "belongs to a different search, filters or sort: send the same ones as "
                    "the request that returned it"
                ]
            }
        )
    values: list[Any] = decoded["k"]
    return values
