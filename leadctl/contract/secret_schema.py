"""Which fields of a contract's schemas are secrets, by what the contract says of them.

The facts (``writeOnly``, ``format``, type, description) are read here and judged by the
one rule, :func:`leadctl.util.secret_fields.is_secret`, which name-only masking uses too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from leadctl.util.secret_fields import is_secret

if TYPE_CHECKING:
    from leadctl.contract.document import Document

# Secrets sit near the top of a resource; a deeper walk would only follow cycles longer.
MAX_DEPTH = 8


def field_is_secret(doc: Document, name: str, schema: Any) -> bool:
    """Whether property ``name`` with ``schema`` holds a secret."""
    description = doc.keyword(schema, "description")
    fmt = doc.keyword(schema, "format")
    return is_secret(
        name,
        description=description if isinstance(description, str) else None,
        write_only=doc.keyword(schema, "writeOnly") is True,
        fmt=fmt if isinstance(fmt, str) else None,
        kind=doc.type_of(schema),
    )


def secret_properties(doc: Document, schema: Any) -> dict[str, Any]:
    """The top-level properties of ``schema`` that hold a secret, with their schemas."""
    return {
        name: sub for name, sub in doc.properties(schema).items() if field_is_secret(doc, name, sub)
    }


def secret_names(doc: Document, schema: Any) -> frozenset[str]:
    """The names of the secret properties anywhere in ``schema`` (objects, list items)."""
    return frozenset(_walk(doc, schema, depth=0, seen=set()))


def _walk(doc: Document, schema: Any, *, depth: int, seen: set[int]) -> Iterator[str]:
    # Each schema that lists properties or items is walked once: components refer to
    # each other, and walking every path through them would grow without bound.
    shapes = {id(b) for b in doc.branches(schema) if "properties" in b or "items" in b}
    if depth > MAX_DEPTH or not shapes or shapes <= seen:
        return
    seen |= shapes
    if doc.type_of(schema) == "array":
        yield from _walk(doc, doc.keyword(schema, "items") or {}, depth=depth + 1, seen=seen)
        return
    for name, sub in doc.properties(schema).items():
        if field_is_secret(doc, name, sub):
            yield name
        else:
            yield from _walk(doc, sub, depth=depth + 1, seen=seen)
