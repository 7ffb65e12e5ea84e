"""``--columns`` for JSON and NDJSON: each object keeps just the fields asked for, nested as
the paths say, as gh's ``--json FIELDS``.

``--columns id,status.name,tags[].name`` turns a lead into
``{"id": ..., "status": {"name": ...}, "tags": [{"name": ...}, ...]}``: keys in the order
asked, the service's JSON otherwise as received. A field the item lacks, or a null on the
way, is there as null, so every line of an NDJSON stream has the same keys. A path that
names a whole field and one inside it (``tags,tags[].name``) keeps the whole field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from leadctl.output.columns import EACH, split_path

# A selection tree: each key maps to the selection inside it; WHOLE keeps the value as it is.
Selection = dict[str, Any]
WHOLE: Selection = {}


def selection_of(paths: Sequence[str]) -> Selection:
    """The tree of ``paths`` (``tags[].name`` and ``tags.name`` alike step into each element;
    a number steps into one element)."""
    tree: Selection = {}
    for path in paths:
        parts = split_path(path)
        if not parts:
            return WHOLE  # the item itself
        node = tree
        for position, part in enumerate(parts):
            last = position == len(parts) - 1
            if last:
                node[part] = WHOLE
                break
            inner = node.get(part)
            if inner is WHOLE:
                break  # the whole field is asked for already
            node = node.setdefault(part, {})
    return tree


def project(value: Any, selection: Selection) -> Any:
    """``value`` with only the selected fields; what is not an object is kept whole."""
    if selection is WHOLE:
        return value
    if isinstance(value, list):
        picked = _by_index(value, selection)
        if picked is not None:
            return picked
        each = _merged({k: v for k, v in selection.items() if k != EACH}, selection.get(EACH))
        return [project(element, each) for element in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, inner in selection.items():
        if key == EACH:
            continue
        found = value.get(key)
        out[key] = None if found is None else project(found, inner)
    return out


def _merged(one: Selection, other: Selection | None) -> Selection:
    """Two selections of the same value as one (``tags[].name`` with ``tags.id``)."""
    if other is None:
        return one
    if one is WHOLE or other is WHOLE:
        return WHOLE
    merged = dict(one)
    for key, inner in other.items():
        merged[key] = _merged(merged[key], inner) if key in merged else inner
    return merged


def _by_index(elements: list[Any], selection: Selection) -> list[Any] | None:
    """``defaultTags.0.name``: the element at each index asked for, in the order asked,
    or None when the selection names no index."""
    picked = []
    for key, inner in selection.items():
        if not key.lstrip("-").isdigit():
            return None
        try:
            picked.append(project(elements[int(key)], inner))
        except IndexError:
            continue
    return picked
