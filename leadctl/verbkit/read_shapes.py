"""A field a write requires that its read carries in another shape (issue 21 point 5).

A PUT may require ``defaultTagNames`` (tag names) where the read has ``defaultTags`` (tag
objects with an id and a name), ``defaultTagIds`` where it has the same objects, or ``userId``
where the read has ``user: {id, name}``. What the read holds is the resource as it is, so the
value is taken from there; a field no such shape gives stays missing for the caller to name.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

# The end of a required field's name: the member of the read's object(s) it is made of, and
# whether it is a list (of the member of each object) or a single value.
SUFFIXES = (
    ("Names", "name", True),
    ("_names", "name", True),
    ("Ids", "id", True),
    ("IDs", "id", True),
    ("_ids", "id", True),
    ("Name", "name", False),
    ("_name", "name", False),
    ("Id", "id", False),
    ("ID", "id", False),
    ("_id", "id", False),
)


def derived_fields(required: list[str], read: Any, body: Mapping[str, Any]) -> dict[str, Any]:
    """The ``required`` fields ``body`` lacks that ``read`` gives in another shape."""
    if not isinstance(read, Mapping):
        return {}
    found: dict[str, Any] = {}
    for name in required:
        if name in body or name in read:
            continue
        value = derived(name, read)
        if value is not _MISSING:
            found[name] = value
    return found


class _Missing:
    pass


_MISSING: Any = _Missing()


def derived(name: str, read: Mapping[str, Any]) -> Any:
    """``name``'s value from the read's objects, or ``_MISSING``."""
    for suffix, member, many in SUFFIXES:
        if not name.endswith(suffix) or len(name) == len(suffix):
            continue
        stem = name[: -len(suffix)]
        for key in _holders(stem, many=many):
            value = read.get(key)
            if many and isinstance(value, list) and _all_have(value, member):
                return [item[member] for item in value]
            if not many and isinstance(value, Mapping) and value.get(member) is not None:
                return value[member]
    return _MISSING


def _all_have(items: list[Any], member: str) -> bool:
    return all(isinstance(item, Mapping) and item.get(member) is not None for item in items)


def _holders(stem: str, *, many: bool) -> Iterator[str]:
    """Where the objects may be: ``tag`` -> ``tags``, ``category`` -> ``categories``."""
    if not many:
        yield stem
        return
    yield stem + "s"
    yield stem + "es"
    if stem.endswith("y"):
        yield stem[:-1] + "ies"
    yield stem
    yield stem + "List"
