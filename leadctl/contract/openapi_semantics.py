"""The OpenAPI rules no meta-schema can state, as openapi-spec-validator words them: unique
operationIds, no parameter twice, an allOf schema's required names defined somewhere in
it, unique tag names (3.2: known parents, no cycles). Path parameters against the path
template are ``validate.py``'s own rule; a default its own schema does not admit is a
warning, not a defect (``openapi_defaults.py``).

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

Location = tuple[str, ...]
# The keywords under which a schema holds schemas the rules apply to (as the library's).
NESTED = ("allOf", "anyOf", "oneOf")


def semantic_problems(
    document: Mapping[str, Any], version: str, budget: Budget
) -> Iterator[tuple[Location, str]]:
    doc = Document(document)
    yield from _operation_ids(document)
    for owner, _place, kind, holder in schema_holders(document):
        budget.check("checking the document's schemas")
        if kind == "parameters":
            yield from ((owner, m) for m in _duplicate_parameters(doc, holder))
            for parameter in holder if isinstance(holder, list) else ():
                yield from ((owner, m) for m in _holder_problems(doc, parameter))
        elif kind == "schema":
            yield from ((owner, m) for m in _schema_problems(doc, holder))
        else:
            yield from ((owner, m) for m in _holder_problems(doc, holder))
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


def schema_holders(
    document: Mapping[str, Any],
) -> Iterator[tuple[Location, Location, str, Any]]:
    """(whose, where, what kind, what): each path item's and operation's parameters (a
    list), request body and answers (holders of schemas), and each component that is a
    schema or holds some. ``whose`` is the path item, operation or component a problem
    there is traced to; ``where`` the place of the holder itself."""
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, Mapping):
            continue
        if "parameters" in item:
            shared: Location = ("paths", str(path))
            yield shared, (*shared, "parameters"), "parameters", item["parameters"]
        for method in HTTP_METHODS:
            spec = item.get(method)
            if not isinstance(spec, Mapping):
                continue
            where: Location = ("paths", str(path), method)
            if "parameters" in spec:
                yield where, (*where, "parameters"), "parameters", spec["parameters"]
            yield where, (*where, "requestBody"), "holder", spec.get("requestBody")
            answers = spec.get("responses")
            for code, answer in answers.items() if isinstance(answers, Mapping) else ():
                yield where, (*where, "responses", str(code)), "holder", answer
    components = document.get("components") or {}
    for kind in ("schemas", "parameters", "requestBodies", "responses", "headers"):
        named = components.get(kind) if isinstance(components, Mapping) else None
        for name, value in named.items() if isinstance(named, Mapping) else ():
            component: Location = ("components", kind, str(name))
            yield component, component, "schema" if kind == "schemas" else "holder", value


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


def _holder_problems(doc: Document, holder: Any) -> Iterator[str]:
    """A parameter, header, request body or answer written here (not a $ref): its schema
    and the schemas of its content and headers."""
    for _place, schema in holder_schemas((), holder):
        yield from _schema_problems(doc, schema)


def holder_schemas(place: Location, holder: Any) -> Iterator[tuple[Location, Any]]:
    """(where, schema): the schemas a parameter, header, request body or answer written
    here (not a $ref) holds, its content's and its headers' included; ``place`` is the
    holder's own."""
    if not isinstance(holder, Mapping) or "$ref" in holder:
        return
    if "schema" in holder:
        yield (*place, "schema"), holder["schema"]
    for name, media in _items(holder.get("content")):
        if isinstance(media, Mapping) and "schema" in media:
            yield (*place, "content", name, "schema"), media["schema"]
    for name, header in _items(holder.get("headers")):
        yield from holder_schemas((*place, "headers", name), header)


def _items(node: Any) -> Iterator[tuple[str, Any]]:
    """An object's entries; nothing for anything else (the meta-schema says what it is)."""
    if isinstance(node, Mapping):
        yield from ((str(key), value) for key, value in node.items())


def _schema_problems(doc: Document, top: Any) -> Iterator[str]:
    """The rules over one schema written here."""
    if not isinstance(top, Mapping) or "$ref" in top:
        return
    extra = _undefined_required(doc, top)
    if extra:
        yield f"Required list has not defined properties: {extra}"


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
