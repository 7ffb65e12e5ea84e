"""Where an answer's lists are, and what its items are, from the schema or the data.

The one-resource view (:mod:`leadctl.output.resource_view`) draws each list this finds;
where the read has no response schema (a curated verb, ``api``), the items' own values
say what each field is (a time, a number), as a schema would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from leadctl.contract.document import Document
from leadctl.util.isotime import parse_timestamp

MAX_DEPTH = 6


@dataclass(frozen=True)
class ListPart:
    """A list of the answer: where it is, its items and what the schema says of one."""

    path: str
    items: list[Any]
    item_schema: Any
    plain: bool  # plain values (strings, numbers), not objects


def lists_in(obj: Any, doc: Document, schema: Any, prefix: str = "") -> list[ListPart]:
    """Every list in ``obj``, outside other lists (a list in a list's items is summed up
    in its cell), in the answer's order; a null where the schema says a list is an empty
    one."""
    found: list[ListPart] = []
    if not isinstance(obj, Mapping) or prefix.count(".") >= MAX_DEPTH:
        return found
    properties = doc.properties(schema) if schema is not None else {}
    for key, value in obj.items():
        sub = properties.get(str(key))
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping):
            found += lists_in(value, doc, sub, path)
        elif isinstance(value, list) or (value is None and _kind(doc, sub) == "array"):
            found.append(_list_part(path, value or [], doc, sub))
    return found


def _list_part(path: str, items: list[Any], doc: Document, schema: Any) -> ListPart:
    item_schema = doc.keyword(schema, "items") if schema is not None else None
    objects = [item for item in items if isinstance(item, Mapping)]
    plain = not objects and _kind(doc, item_schema) != "object"
    if not plain and not doc.properties(item_schema):
        item_schema = schema_of(objects)  # no schema to read: the items say what they are
    return ListPart(path, items, item_schema, plain)


def _kind(doc: Document, schema: Any) -> str | None:
    if schema is None:
        return None
    kind = doc.type_of(schema)
    return "object" if kind is None and doc.properties(schema) else kind


def schema_of(objects: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A schema for items no schema describes, from their values: a time is a
    ``date-time``, a number a ``number``, so they are drawn as the schema would have them."""
    properties: dict[str, Any] = {}
    for item in objects:
        for key, value in item.items():
            if properties.get(str(key)) in (None, {}):
                properties[str(key)] = _value_schema(value)
    return {"type": "object", "properties": properties}


def _value_schema(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, str):
        if parse_timestamp(value, time_required=True) is not None:
            return {"type": "string", "format": "date-time"}
        if len(value) == len("2026-11-20") and parse_timestamp(value) is not None:
            return {"type": "string", "format": "date"}
        return {"type": "string"}
    if isinstance(value, list):
        return {"type": "array"}
    if isinstance(value, Mapping):
        return {"type": "object"}
    return {}


def plain_paths(obj: Any, prefix: str = "") -> list[str]:
    """The dot paths of an object's plain values, outside lists (``summary.leads``)."""
    found: list[str] = []
    if not isinstance(obj, Mapping):
        return found
    for key, value in obj.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping):
            found += plain_paths(value, path)
        elif not isinstance(value, list):
            found.append(path)
    return found
