"""An OpenAPI document read through its local ``$ref``s: what the index compiler, body
checks, phone and secret detection and field paths all read schemas with.

Its own module so that reading a schema needs neither the compiler (``leadctl.contract.
index``) nor an import back into it from the modules the compiler uses.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from leadctl.contract import HTTP_METHODS


def operations(document: Mapping[str, Any]) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """Each operation as written: path, method (lower case) and its object; a path item or
    operation that is not an object is skipped (the meta-schema reports it)."""
    for path, item in (document.get("paths") or {}).items():
        if isinstance(item, Mapping):
            for method in HTTP_METHODS:
                if isinstance(item.get(method), Mapping):
                    yield str(path), method, item[method]


def escape(part: str) -> str:
    """One step of a JSON pointer, written as a pointer writes it (``/`` as ``~1``)."""
    return part.replace("~", "~0").replace("/", "~1")


def pointer_to(location: tuple[str, ...]) -> str:
    """``#/paths/~1leads/get`` for the place ``("paths", "/leads", "get")``."""
    return "#/" + "/".join(escape(part) for part in location)


def pointer_parts(ref: str) -> list[str]:
    """The steps of a local $ref (``#/a~1b/c``: ``a/b``, ``c``)."""
    return [raw.replace("~1", "/").replace("~0", "~") for raw in ref[2:].split("/")]


def component_of_ref(ref: str) -> str | None:
    """``#/components/schemas/Lead`` for a local $ref to that component or anywhere in it."""
    parts = ref[2:].split("/")
    if ref.startswith("#/components/") and len(parts) >= 3:
        return "#/" + "/".join(parts[:3])
    return None


def refs_under(node: Any) -> set[str]:
    """The components every local $ref under ``node`` points into."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Mapping):
            ref = current.get("$ref")
            if isinstance(ref, str):
                component = component_of_ref(ref)
                if component is not None:
                    found.add(component)
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return found


class Document:
    """Local ``$ref`` resolution and merged views of an OpenAPI document's schemas."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        # Where each $ref followed so far leads: compiling a 1,500-operation contract
        # follows the same few thousand $refs over 100,000 times. (Its readers never
        # change the document.)
        self._found: dict[str, Any] = {}

    def pointer(self, ref: str) -> Any:
        found = self._found.get(ref, self)
        if found is not self:
            return found
        if not ref.startswith("#/"):
            raise KeyError(f"only local references are supported, not {ref!r}")
        node: Any = self.document
        for part in pointer_parts(ref):
            node = node[int(part)] if isinstance(node, list) else node[part]
        self._found[ref] = node
        return node

    def resolve(self, node: Any) -> Any:
        """Follow ``$ref`` until a node without one (at most 64 hops)."""
        for _ in range(64):
            # A dict first: the ABC check of Mapping is most of the cost of a call.
            if not (
                (type(node) is dict or isinstance(node, Mapping))
                and isinstance(node.get("$ref"), str)
            ):
                return node
            node = self.pointer(node["$ref"])
        raise KeyError("a $ref chain does not end")

    def resolved(self, node: Any) -> Any:
        """:meth:`resolve`, or None where a ``$ref`` leads nowhere: for checks that report
        such a ``$ref`` on its own."""
        try:
            return self.resolve(node)
        except (KeyError, IndexError, ValueError, TypeError):
            return None

    def branches(self, schema: Any, depth: int = 0) -> Iterator[Mapping[str, Any]]:
        """The schema and, through $ref, allOf and the non-null branch of anyOf/oneOf,
        the schemas whose keywords all apply to the same value."""
        node = self.resolve(schema)
        if not (type(node) is dict or isinstance(node, Mapping)) or depth > 16:
            return
        yield node
        if isinstance(node.get("$ref"), str):
            yield from self.branches(self.pointer(node["$ref"]), depth + 1)
        for sub in node.get("allOf", ()):
            yield from self.branches(sub, depth + 1)
        for key in ("anyOf", "oneOf"):
            options = [o for o in node.get(key, ()) if self.resolve(o) != {"type": "null"}]
            if len(options) == 1:
                yield from self.branches(options[0], depth + 1)

    def properties(self, schema: Any) -> dict[str, Any]:
        """Every property of the schema's branches; where an allOf part restates one (a
        collection narrowing its items), the later, non-empty statement wins."""
        merged: dict[str, Any] = {}
        for branch in self.branches(schema):
            for name, sub in (branch.get("properties") or {}).items():
                if name not in merged or sub:
                    merged[name] = sub
        return merged

    def required(self, schema: Any) -> list[str]:
        names: list[str] = []
        for branch in self.branches(schema):
            names += [n for n in branch.get("required", ()) if n not in names]
        return names

    def type_of(self, schema: Any) -> str | None:
        """The JSON type a value must have, nullability aside; None when not one type."""
        for branch in self.branches(schema):
            wanted = branch.get("type")
            if isinstance(wanted, str):
                return wanted
            if isinstance(wanted, list):
                types = [t for t in wanted if t != "null"]
                if len(types) == 1:
                    return str(types[0])
        return None

    def keyword(self, schema: Any, name: str) -> Any:
        for branch in self.branches(schema):
            if name in branch:
                return branch[name]
        return None
