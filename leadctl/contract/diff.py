"""What changed between two contracts: operations added, removed or changed.

Operations are matched by METHOD and path template (parameter names aside), as curated
commands are bound: a contract that renames its operationIds changes no operation. A change
is described by what a caller notices: a new path or method, parameters added, removed or
changed, request body fields added, removed or changed, responses, retry safety,
credentials (which kinds, and where the security scheme puts them), pending-status rules,
deprecation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from leadctl.contract.document import Document
from leadctl.contract.index import walk_operations
from leadctl.contract.security import credential_rule
from leadctl.contract.templates import template_key

EXTENSIONS = ("x-leadctl-retry-safe", "x-leadctl-credential-kinds", "x-leadctl-pending")


@dataclass(frozen=True)
class Change:
    change: str  # added | removed | changed
    operation: str
    method: str
    path: str
    details: list[str] = field(default_factory=list)

    def to_json(self, command: str | None) -> dict[str, Any]:
        return {
            "change": self.change,
            "operation": self.operation,
            "command": command,
            "method": self.method,
            "path": self.path,
            "details": self.details,
        }


@dataclass(frozen=True)
class _Op:
    key: str
    method: str
    path: str
    spec: Mapping[str, Any]
    params: dict[tuple[str, str], Mapping[str, Any]]


def _operations(doc: Document) -> dict[str, _Op]:
    found: dict[str, _Op] = {}
    for path, method, spec, shared, own in walk_operations(doc):
        params = {(str(p.get("in")), str(p.get("name"))): p for p in shared}
        for p in own:
            params[(str(p.get("in")), str(p.get("name")))] = p
        label = str(spec.get("operationId") or f"{method} {path}")
        found["\0".join(template_key(method, path))] = _Op(label, method, path, spec, params)
    return found


def diff_contracts(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Change]:
    """Removed operations first, then changed, then added, each in document order."""
    old_doc, new_doc = Document(old), Document(new)
    before, after = _operations(old_doc), _operations(new_doc)
    # Left over on both sides with one operationId: the operation moved to another path.
    gone = {op.key: k for k, op in before.items() if k not in after}
    moved = {k: gone[op.key] for k, op in after.items() if k not in before and op.key in gone}
    changes = [
        Change("removed", op.key, op.method, op.path)
        for k, op in before.items()
        if k not in after and k not in moved.values()
    ]
    for key, op in after.items():
        previous = before.get(key) or before.get(moved.get(key, ""))
        if previous is None:
            continue
        details = list(_op_details(old_doc, previous, new_doc, op))
        if previous.key != op.key:
            details.insert(0, f"operationId was {previous.key}")
        if details:
            changes.append(Change("changed", op.key, op.method, op.path, details))
    changes += [
        Change("added", op.key, op.method, op.path)
        for k, op in after.items()
        if k not in before and k not in moved
    ]
    return changes


def _op_details(old_doc: Document, old: _Op, new_doc: Document, new: _Op) -> Iterator[str]:
    if (old.method, old.path) != (new.method, new.path):
        yield f"moved from {old.method} {old.path}"
    yield from _param_details(old_doc, old, new_doc, new)
    yield from _body_details(old_doc, old.spec, new_doc, new.spec)
    yield from _response_details(old_doc, old.spec, new_doc, new.spec)
    credentials_before = _credentials(old_doc, old.spec)
    credentials_after = _credentials(new_doc, new.spec)
    if credentials_before != credentials_after:
        yield f"credentials: {credentials_before} -> {credentials_after}"
    for name in EXTENSIONS:
        if old.spec.get(name) != new.spec.get(name):
            yield f"{name}: {_short(old.spec.get(name))} -> {_short(new.spec.get(name))}"
    if bool(old.spec.get("deprecated")) != bool(new.spec.get("deprecated")):
        yield "deprecated" if new.spec.get("deprecated") else "no longer deprecated"
    if old.spec.get("summary") != new.spec.get("summary"):
        yield "summary changed"


def _credentials(doc: Document, spec: Mapping[str, Any]) -> str:
    """Which kinds the operation admits and where each requirement puts the credential."""
    rule = credential_rule(doc.document, spec)
    if not rule["kinds"]:
        return "none"
    places = " or ".join(
        "+".join(f"{p['in']} {p['name']} ({p['scheme']})" for p in alternative["places"])
        for alternative in rule["auth"]
    )
    return f"{','.join(rule['kinds'])} in {places}"


def _short(value: Any) -> str:
    return "unset" if value is None else json.dumps(value, separators=(",", ":"))


def _param_details(old_doc: Document, old: _Op, new_doc: Document, new: _Op) -> Iterator[str]:
    for key in old.params:
        if key not in new.params:
            yield f"parameter removed: {key[1]} ({key[0]})"
    for key, param in new.params.items():
        if key not in old.params:
            required = " (required)" if param.get("required") else ""
            yield f"parameter added: {key[1]} ({key[0]}){required}"
            continue
        before = old.params[key]
        if bool(before.get("required")) != bool(param.get("required")):
            now = "required" if param.get("required") else "optional"
            yield f"parameter {key[1]} ({key[0]}) is now {now}"
        if _canonical(old_doc, before.get("schema")) != _canonical(new_doc, param.get("schema")):
            yield f"parameter {key[1]} ({key[0]}): schema changed"


def _json_schema(doc: Document, node: Any) -> Any:
    node = doc.resolve(node)
    if not isinstance(node, Mapping):
        return None
    for media, spec in (node.get("content") or {}).items():
        if "json" in str(media):
            return spec.get("schema") if isinstance(spec, Mapping) else None
    return None


def _body_details(
    old_doc: Document, old: Mapping[str, Any], new_doc: Document, new: Mapping[str, Any]
) -> Iterator[str]:
    before, after = old_doc.resolve(old.get("requestBody")), new_doc.resolve(new.get("requestBody"))
    if before is None and after is None:
        return
    if before is None:
        yield "request body added"
        return
    if after is None:
        yield "request body removed"
        return
    if bool(before.get("required")) != bool(after.get("required")):
        yield "request body is now " + ("required" if after.get("required") else "optional")
    old_schema, new_schema = _json_schema(old_doc, before), _json_schema(new_doc, after)
    if _canonical(old_doc, old_schema) == _canonical(new_doc, new_schema):
        return
    fields = list(_field_details(old_doc, old_schema, new_doc, new_schema))
    yield from fields or ["request body schema changed"]


def _field_details(old_doc: Document, old: Any, new_doc: Document, new: Any) -> Iterator[str]:
    before, after = old_doc.properties(old), new_doc.properties(new)
    old_required, new_required = set(old_doc.required(old)), set(new_doc.required(new))
    for name in before:
        if name not in after:
            yield f"body field removed: {name}"
    for name, schema in after.items():
        if name not in before:
            yield f"body field added: {name}" + (" (required)" if name in new_required else "")
        elif _canonical(old_doc, before[name]) != _canonical(new_doc, schema):
            yield f"body field changed: {name}"
    for name in sorted((new_required - old_required) & set(before)):
        yield f"body field now required: {name}"
    for name in sorted((old_required - new_required) & set(after)):
        yield f"body field now optional: {name}"
    if not (before or after):
        return
    if _canonical(old_doc, _shape(old_doc, old)) != _canonical(new_doc, _shape(new_doc, new)):
        yield "request body schema changed"


def _shape(doc: Document, schema: Any) -> dict[str, Any]:
    """A schema's keywords other than its fields (which are compared one by one)."""
    node = doc.resolve(schema)
    if not isinstance(node, Mapping):
        return {}
    return {k: v for k, v in node.items() if k not in ("properties", "required")}


def _response_details(
    old_doc: Document, old: Mapping[str, Any], new_doc: Document, new: Mapping[str, Any]
) -> Iterator[str]:
    before, after = old.get("responses") or {}, new.get("responses") or {}
    for status in before:
        if status not in after:
            yield f"response removed: {status}"
    for status in after:
        if status not in before:
            yield f"response added: {status}"
        elif str(status).startswith("2"):
            old_schema = _json_schema(old_doc, before[status])
            new_schema = _json_schema(new_doc, after[status])
            if _canonical(old_doc, old_schema) != _canonical(new_doc, new_schema):
                yield f"response {status}: schema changed"


def _canonical(doc: Document, schema: Any) -> str:
    """The schema with local $refs inlined (a recursive one stays a $ref), as sorted JSON,
    so two documents that name their components differently still compare equal."""
    return json.dumps(_inline(doc, schema, ()), sort_keys=True, separators=(",", ":"))


DOC_KEYS = frozenset({"description", "summary", "title", "example", "examples"})
# Keywords whose value maps names to schemas: their keys are data, never documentation.
NAMED_SCHEMAS = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})


def _inline(doc: Document, node: Any, seen: tuple[str, ...], named: bool = False) -> Any:
    if isinstance(node, Mapping):
        if named:
            return {k: _inline(doc, v, seen) for k, v in node.items()}
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            if ref in seen or len(seen) > 32:
                return {"$ref": ref.rsplit("/", 1)[-1]}
            target = _inline(doc, doc.pointer(ref), (*seen, ref))
            rest = {k: _inline(doc, v, seen) for k, v in node.items() if k != "$ref"}
            rest = {k: v for k, v in rest.items() if k not in DOC_KEYS}
            return {**target, **rest} if isinstance(target, dict) and rest else target
        return {
            k: _inline(doc, v, seen, named=k in NAMED_SCHEMAS)
            for k, v in node.items()
            if k not in DOC_KEYS
        }
    if isinstance(node, list):
        return [_inline(doc, item, seen) for item in node]
    return node
