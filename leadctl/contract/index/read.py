"""Stage 1: the operations of an OpenAPI document, and the parts of it the others read.

Nothing here decides anything about the CLI: it finds each operation with its parameters
(resolved, path-level ones merged in) and the media and schemas of its request and answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from leadctl.contract import HTTP_METHODS
from leadctl.contract.document import Document
from leadctl.contract.index.model import Found

JSON_MEDIA = "application/json"
MULTIPART_MEDIA = "multipart/form-data"
FORM_MEDIA = "application/x-www-form-urlencoded"


def walk_operations(
    doc: Document,
) -> Iterator[tuple[str, str, Mapping[str, Any], list[Mapping[str, Any]], list[Mapping[str, Any]]]]:
    """Each operation: path, METHOD, spec, and its path-level and own parameters, resolved."""
    for path, raw_item in (doc.document.get("paths") or {}).items():
        item = doc.resolve(raw_item)
        shared = [doc.resolve(p) for p in item.get("parameters", ())]
        for method in HTTP_METHODS:
            spec = item.get(method)
            if not isinstance(spec, Mapping):
                continue
            own = [doc.resolve(p) for p in spec.get("parameters", ())]
            yield str(path), method.upper(), spec, shared, own


def operations(doc: Document) -> Iterator[Found]:
    """Each operation with its parameters; its own ones replace path-level ones of the same
    name. Path parameters come in the order of the path template: a command's positional
    arguments follow the path, whatever order the contract lists them in."""
    for path, method, spec, shared, own in walk_operations(doc):
        keys = {(p.get("name"), p.get("in")) for p in own}
        params = [p for p in shared if (p.get("name"), p.get("in")) not in keys] + own
        order = {name: i for i, name in enumerate(re.findall(r"\{([^}/]+)\}", path))}
        in_path = sorted(
            (p for p in params if p.get("in") == "path"),
            key=lambda p: order.get(str(p.get("name")), len(order)),
        )
        rest = (p for p in params if p.get("in") != "path")
        yield Found(path, method, spec, (*in_path, *rest))


def tag_help(document: Mapping[str, Any]) -> dict[str, str]:
    """Each tag's description, by name."""
    return {
        str(tag.get("name")): str(tag.get("description") or "") for tag in document.get("tags", ())
    }


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    end = text.find(". ")
    return text[: end + 1] if end >= 0 else text


def content(found: Any) -> tuple[str, str, Mapping[str, Any]] | None:
    """The media type leadctl sends, its kind (json, multipart, form) and its spec: JSON
    first (application/json itself when listed: ASP.NET lists application/json-patch+json
    first and means JSON Patch by it; else the first application/*+json), then the two
    form encodings."""
    if not isinstance(found, Mapping):
        return None
    kinds: dict[str, tuple[str, str, Mapping[str, Any]]] = {}
    for media, spec in found.items():
        base = str(media).split(";")[0].strip().lower()
        value = spec if isinstance(spec, Mapping) else {}
        if base == JSON_MEDIA:
            kinds["json"] = (str(media), "json", value)
        elif base.startswith("application/") and base.endswith("+json"):
            kinds.setdefault("json", (str(media), "json", value))
        elif base == MULTIPART_MEDIA:
            kinds.setdefault("multipart", (str(media), "multipart", value))
        elif base == FORM_MEDIA:
            kinds.setdefault("form", (str(media), "form", value))
    for kind in ("json", "multipart", "form"):
        if kind in kinds:
            return kinds[kind]
    return None


def json_content(found: Any) -> tuple[str, Mapping[str, Any]] | None:
    media = content(found)
    if media is None or media[1] != "json":
        return None
    return media[0], media[2]


def body_schema(doc: Document, spec: Mapping[str, Any]) -> Any:
    """The schema of the request body leadctl sends, if any."""
    request = doc.resolve(spec.get("requestBody"))
    if not isinstance(request, Mapping):
        return None
    media = content(request.get("content"))
    if media is None:
        return None
    return media[2].get("schema")


def schema_ref(doc: Document, schema: Any) -> str | None:
    """The first $ref the schema goes through (allOf-wrapped included)."""
    node = schema
    for _ in range(8):
        if not isinstance(node, Mapping):
            return None
        if isinstance(node.get("$ref"), str):
            return str(node["$ref"])
        parts = [p for key in ("allOf", "anyOf", "oneOf") for p in node.get(key, ())]
        parts = [p for p in parts if doc.resolve(p) != {"type": "null"}]
        if len(parts) != 1:
            return None
        node = parts[0]
    return None


def refs_in(doc: Document, schema: Any) -> set[str]:
    """Every local $ref reachable from ``schema``."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref not in found:
                found.add(ref)
                stack.append(doc.pointer(ref))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def bundle(doc: Document, refs: set[str]) -> dict[str, Any]:
    """A document holding just the referenced components, at their own pointers, so the
    bodies' $refs resolve against it unchanged."""
    found: dict[str, Any] = {}
    for ref in sorted(refs):
        parts = ref[2:].split("/")
        # The whole named component: a pointer into it resolves inside the copy.
        top = parts[:3] if parts[0] == "components" else parts[:1]
        node: Any = doc.document
        target = found
        for index, raw in enumerate(top):
            part = raw.replace("~1", "/").replace("~0", "~")
            node = node[part]
            if index == len(top) - 1:
                target[part] = node
            else:
                target = target.setdefault(part, {})
    return found
