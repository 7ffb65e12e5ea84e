"""The OpenAPI rules no meta-schema can state, as openapi-spec-validator words them: unique
operationIds, no parameter twice, an allOf schema's required names defined somewhere in
it, a default its own schema admits, unique tag names (3.2: known parents, no cycles).
Path parameters against the path template are ``validate.py``'s own rule.

Each schema is checked where it is written, once: a component at its component (every
operation using it is traced there), an inline schema at its operation or path item. A
``$ref`` is not followed into what it points at, which is checked at its own place.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from leadctl.contract import HTTP_METHODS
from leadctl.contract.budget import Budget
from leadctl.contract.document import Document, operations
from leadctl.contract.formats import schema_to_31, to_31
from leadctl.contract.openapi_meta import DRAFT_2020_12, refuse_fetch

Location = tuple[str, ...]
# The keywords under which a schema holds schemas the rules apply to (as the library's).
NESTED = ("allOf", "anyOf", "oneOf")


def semantic_problems(
    document: Mapping[str, Any], version: str, budget: Budget
) -> Iterator[tuple[Location, str]]:
    doc = Document(document)
    defaults = _Defaults(document, version)
    yield from _operation_ids(document)
    for location, kind, holder in _schema_holders(document):
        budget.check("checking the document's schemas")
        if kind == "parameters":
            yield from ((location, m) for m in _duplicate_parameters(doc, holder))
            for parameter in holder if isinstance(holder, list) else ():
                yield from ((location, m) for m in _holder_problems(doc, defaults, parameter))
        elif kind == "schema":
            yield from ((location, m) for m in _schema_problems(doc, defaults, holder))
        else:
            yield from ((location, m) for m in _holder_problems(doc, defaults, holder))
    yield from _tag_problems(document.get("tags"), version)


def _operation_ids(document: Mapping[str, Any]) -> Iterator[tuple[Location, str]]:
    seen: set[str] = set()
    for path, method, spec in operations(document):
        operation_id = spec.get("operationId")
        if not isinstance(operation_id, str):
            continue  # none, or not a string: the meta-schema says so
        if operation_id in seen:
            yield (
                ("paths", path, method),
                f"Operation ID '{operation_id}' for '{method}' in '{path}' is not unique",
            )
        seen.add(operation_id)


def _schema_holders(document: Mapping[str, Any]) -> Iterator[tuple[Location, str, Any]]:
    """(where, what kind, what): each path item's and operation's parameters (a list),
    request body and answers (holders of schemas), and each component that is a schema or
    holds some."""
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, Mapping):
            continue
        if "parameters" in item:
            yield ("paths", str(path)), "parameters", item["parameters"]
        for method in HTTP_METHODS:
            spec = item.get(method)
            if not isinstance(spec, Mapping):
                continue
            where = ("paths", str(path), method)
            if "parameters" in spec:
                yield where, "parameters", spec["parameters"]
            yield where, "holder", spec.get("requestBody")
            for answer in _values(spec.get("responses")):
                yield where, "holder", answer
    components = document.get("components") or {}
    for kind in ("schemas", "parameters", "requestBodies", "responses", "headers"):
        named = components.get(kind) if isinstance(components, Mapping) else None
        for name, value in named.items() if isinstance(named, Mapping) else ():
            yield (
                ("components", kind, str(name)),
                "schema" if kind == "schemas" else "holder",
                value,
            )


def _duplicate_parameters(doc: Document, parameters: Any) -> Iterator[str]:
    seen: set[tuple[str, str]] = set()
    for raw in parameters if isinstance(parameters, list) else ():
        parameter = doc.resolved(raw)
        if not isinstance(parameter, Mapping) or "name" not in parameter:
            continue  # the meta-schema says what is wrong with it
        key = (str(parameter.get("name")), str(parameter.get("in")))
        if key in seen:
            yield f"Duplicate parameter '{parameter['name']}'"
        seen.add(key)


def _holder_problems(doc: Document, defaults: _Defaults, holder: Any) -> Iterator[str]:
    """A parameter, header, request body or answer written here (not a $ref): its schema
    and the schemas of its content and headers."""
    if not isinstance(holder, Mapping) or "$ref" in holder:
        return
    if "schema" in holder:
        yield from _schema_problems(doc, defaults, holder["schema"])
    for media in _values(holder.get("content")):
        if isinstance(media, Mapping) and "schema" in media:
            yield from _schema_problems(doc, defaults, media["schema"])
    for header in _values(holder.get("headers")):
        yield from _holder_problems(doc, defaults, header)


def _values(node: Any) -> Any:
    """An object's values; nothing for anything else (the meta-schema says what it is)."""
    return node.values() if isinstance(node, Mapping) else ()


def _schema_problems(doc: Document, defaults: _Defaults, top: Any) -> Iterator[str]:
    """The rules over one schema written here and the schemas nested in it."""
    if not isinstance(top, Mapping) or "$ref" in top:
        return
    extra = _undefined_required(doc, top)
    if extra:
        yield f"Required list has not defined properties: {extra}"
    pending: list[Any] = [top]
    while pending:
        schema = pending.pop()
        if not isinstance(schema, Mapping) or "$ref" in schema:
            continue
        pending.extend(_nested(schema))
        if "default" in schema:
            yield from defaults.problems(schema)


def _nested(schema: Mapping[str, Any]) -> list[Any]:
    found: list[Any] = []
    for key in NESTED:
        if isinstance(schema.get(key), list):
            found += schema[key]
    for key in ("not", "items"):
        if key in schema:
            found.append(schema[key])
    if isinstance(schema.get("properties"), Mapping):
        found += schema["properties"].values()
    return found


def _undefined_required(doc: Document, schema: Mapping[str, Any]) -> list[str]:
    """Names an allOf schema requires that neither it nor any of its parts defines."""
    required = schema.get("required")
    if "allOf" not in schema or not isinstance(required, list):
        return []
    own = schema.get("properties")
    defined = {str(name) for name in own} if isinstance(own, Mapping) else set()
    for part in schema["allOf"] if isinstance(schema["allOf"], list) else ():
        defined |= _property_names(doc, part)
    return sorted({str(name) for name in required} - defined)


def _property_names(doc: Document, schema: Any) -> set[str]:
    """Every property name reachable through allOf/anyOf/oneOf, items and not."""
    names: set[str] = set()
    seen: set[int] = set()
    pending = [schema]
    while pending:
        node = doc.resolved(pending.pop())
        if not isinstance(node, Mapping) or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node.get("properties"), Mapping):
            names.update(str(name) for name in node["properties"])
        for key in NESTED:
            if isinstance(node.get(key), list):
                pending.extend(node[key])
        pending.extend(node[key] for key in ("items", "not") if key in node)
    return names


class _Defaults:
    """Whether a default satisfies the schema it is the default of (that schema's
    ``$ref``s resolved in the document), on jsonschema-rs, in 3.1 form."""

    def __init__(self, document: Mapping[str, Any], version: str) -> None:
        self.document = document
        self.version = version
        self._components: Any = None

    def problems(self, schema: Mapping[str, Any]) -> Iterator[str]:
        import jsonschema_rs

        value = schema["default"]
        if value is None and schema.get("nullable") is True:
            return
        root = {
            "$schema": DRAFT_2020_12,
            "components": self.components(),
            "allOf": [schema_to_31(dict(schema)) if self.version == "3.0" else schema],
        }
        try:
            validator = jsonschema_rs.validator_for(
                root, validate_formats=True, retriever=refuse_fetch
            )
        except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError, ValueError):
            return  # not a schema: the meta-schema says why
        for error in validator.iter_errors(value):
            yield f"default {error.message}"

    def components(self) -> Any:
        """The document's components, their schemas in 3.1 form (built once)."""
        if self._components is None:
            components = self.document.get("components") or {}
            if self.version == "3.0" and isinstance(components, Mapping):
                components = to_31({"openapi": "3.0.3", "components": components})["components"]
            self._components = components
        return self._components


def _tag_problems(tags: Any, version: str) -> Iterator[tuple[Location, str]]:
    tags = [tag for tag in tags if isinstance(tag, Mapping)] if isinstance(tags, list) else []
    seen: set[str] = set()
    for name in (str(tag.get("name")) for tag in tags):
        if name in seen:
            yield ("tags",), f"Duplicate tag name '{name}'"
        seen.add(name)
    if version != "3.2":
        return
    parents = {
        str(tag.get("name")): str(tag["parent"]) for tag in tags if tag.get("parent") is not None
    }
    for name, parent in parents.items():
        if parent not in seen:
            yield ("tags",), f"Tag '{name}' references unknown parent tag '{parent}'"
    reported: set[str] = set()
    for start in parents:
        trail = [start]
        while trail[-1] in parents and parents[trail[-1]] in seen:
            following = parents[trail[-1]]
            if following in trail:
                cycle = " -> ".join(str(t) for t in [*trail[trail.index(following) :], following])
                if cycle not in reported:
                    reported.add(cycle)
                    yield ("tags",), f"Circular tag hierarchy detected: {cycle}"
                break
            trail.append(following)
