"""The table columns of a resource, chosen once when the index is compiled (and for a
list inside one object's answer, when it is drawn: ``leadctl.output.resource_view``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from leadctl.contract.document import Document
from leadctl.contract.phones import is_phone_value
from leadctl.contract.secret_schema import field_is_secret

LIST_COLUMNS = 7
OBJECT_COLUMNS = 24
SCALAR_TYPES = ("string", "integer", "number", "boolean")

NAME_FIELDS = ("name", "title", "displayname", "fullname", "label", "subject", "to", "from")
NAME_PARTS = ("firstname", "lastname")
STATUS_WORDS = ("status", "stage", "outcome")
# What a row is, beside its status: a timeline entry's type, a status change's category.
CLASS_WORDS = (*STATUS_WORDS, "type", "kind", "category", "direction", "channel")
MAIN_TIMES = (
    "createdat", "updatedat", "modifiedat", "createdon", "updatedon", "modifiedon",
    "lastmodifiedat", "created", "updated", "modified",
)  # fmt: skip


def list_columns(doc: Document, item_schema: Any) -> list[list[str]]:
    """The table columns of a list's items, as a listing's answer gets them: for a list
    inside one object's answer, drawn as its own table on a terminal."""
    return resource_columns(doc, item_schema, LIST_COLUMNS)


def resource_columns(
    doc: Document, schema: Any, limit: int, *, one_object: bool = False
) -> list[list[str]]:
    """Table columns for a resource, most wanted first: the id, what names it, what it is
    (status, type, category), phone numbers, its main time, other statuses and kinds, then
    the rest in the schema's order, and other ids last (wide, and rarely what a person
    reads). A nested object is
    shown by its name field (``user.name``), a list of named objects by their names
    (``tags[].name``). The answer of one object also shows a nested object without a name
    by its plain fields (``summary.totalLeads``) and any list (summed up in a table). An
    entry is [path, kind], with "whole" third for ids and phone numbers, which a table
    never cuts."""
    properties = doc.properties(schema)
    main_time = _main_time(doc, properties)
    columns: list[tuple[int, int, list[str]]] = []
    for order, (name, sub) in enumerate(properties.items()):
        kind = doc.type_of(sub)
        if kind in SCALAR_TYPES:
            rank, column = _scalar_column(doc, name, sub, kind, main_time)
            columns.append((rank, order, column))
        elif kind == "object":
            columns += ((rank, order, c) for rank, c in _object_columns(doc, name, sub, one_object))
        elif kind == "array":
            listed = _array_column(doc, name, sub, one_object)
            if listed is not None:
                columns.append((6, order, listed))
    columns.sort(key=lambda entry: entry[:2])
    return [column for _rank, _order, column in columns[:limit]]


Ranked = tuple[int, list[str]]  # a column and its rank (see _column_rank)


def _scalar_column(
    doc: Document, name: str, sub: Any, kind: str | None, main_time: str | None
) -> Ranked:
    column = [name, _column_kind(doc, name, sub, kind)]
    if _is_id(name) or (kind == "string" and is_phone_value(doc, name, sub)):
        column.append("whole")
    return _column_rank(doc, name, sub, main_time), column


def _object_columns(doc: Document, name: str, sub: Any, one_object: bool) -> list[Ranked]:
    """A nested object by its name field; in one object's answer, else by its plain fields."""
    label = _name_field(doc, sub)
    if label == "number":  # a phone object: {number, type...}
        return [(3, [f"{name}.{label}", "text", "whole"])]
    if label is not None:
        return [(2 if _is_status(name) else 6, [f"{name}.{label}", "text"])]
    if not one_object:
        return []
    return [
        (6, [f"{name}.{inner_name}", _column_kind(doc, inner_name, inner, doc.type_of(inner))])
        for inner_name, inner in doc.properties(sub).items()
        if doc.type_of(inner) in SCALAR_TYPES
    ]


def _array_column(doc: Document, name: str, sub: Any, one_object: bool) -> list[str] | None:
    """A list of named objects by their names; a list of values (any list in one object's
    answer) as text."""
    items = doc.keyword(sub, "items") or {}
    label = _name_field(doc, items) if doc.type_of(items) == "object" else None
    if label is not None and label != "number":
        return [f"{name}[].{label}", "text"]
    if one_object or doc.type_of(items) in SCALAR_TYPES:
        return [name, "text"]
    return None


def _main_time(doc: Document, properties: Mapping[str, Any]) -> str | None:
    """The time a row is known by: its creation time where it has one (createdAt...),
    else its first date-time (a timeline entry's timestamp)."""
    times = [name for name, sub in properties.items() if doc.keyword(sub, "format") == "date-time"]
    by_name = {name.lower(): name for name in times}
    for wanted in MAIN_TIMES:
        if wanted in by_name:
            return by_name[wanted]
    return times[0] if times else None


def _is_id(name: str) -> bool:
    return name == "id" or name.endswith(("Id", "_id", "ID"))


def _is_status(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in STATUS_WORDS)


def _name_field(doc: Document, schema: Any) -> str | None:
    """The field that names a nested object (``name``, ``title``...), if it has one."""
    props = {n.lower(): n for n, sub in doc.properties(schema).items()}
    for wanted in (*NAME_FIELDS[:5], "email", "number"):
        if wanted in props and doc.type_of(doc.properties(schema)[props[wanted]]) == "string":
            return props[wanted]
    return None


def _column_rank(doc: Document, name: str, schema: Any, main_time: str | None) -> int:
    """0 the id, 1 what names a thing, 2 what it is (type, status, category), 3 phone
    numbers, 4 the main time, 5 other statuses and kinds (processingStatus,
    oldChangeType), 6 the rest, 7 other ids."""
    lowered = name.lower()
    if lowered == "id":
        return 0
    if lowered in NAME_FIELDS or lowered in NAME_PARTS:
        return 1
    if _is_id(name):
        return 7
    text = doc.type_of(schema) == "string"
    if text and lowered in CLASS_WORDS:
        return 2
    if text and is_phone_value(doc, name, schema):
        return 3
    if name == main_time:
        return 4
    if text and lowered.endswith(CLASS_WORDS):
        return 5
    return 6


def _column_kind(doc: Document, name: str, schema: Any, kind: str | None) -> str:
    if field_is_secret(doc, name, schema):
        return "secret"
    if kind == "boolean":
        return "bool"
    if name.lower() == "color":
        return "color"
    if kind in ("integer", "number"):
        return "number"
    if doc.keyword(schema, "format") == "date-time":
        return "datetime"
    return "text"
