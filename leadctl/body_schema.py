"""The JSON request body schema of an operation, from the contract it came from.

The compiled index keeps only what generated commands show; commands that shape a body by the
contract (read-modify-write PUTs, lead fields as dot paths) read the document itself (the
active one, or the bundled one for a curated command the active contract lacks), in its 3.1
form. Loaded only by the commands that need it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.index import Document
    from leadctl.operations import Operation

JSON_MEDIA = "application/json"


@dataclass(frozen=True)
class BodySchema:
    doc: Document  # the whole contract, for $refs
    schema: Any
    index: Mapping[str, Any]  # the compiled index of the same contract


def body_schema(ctx: Context, op: Operation) -> BodySchema | None:
    """``op``'s JSON request body schema; None when the contract shows none."""
    from leadctl.contract.formats import parse_document, to_31
    from leadctl.contract.index import Document
    from leadctl.contract.store import bundled_index
    from leadctl.operations import active_index_of, template_key

    active = bundled_index() if op.bundled else active_index_of(ctx)
    path = Path(active.contract_path)
    doc = Document(to_31(parse_document(path.read_bytes(), what=str(path), budget=None)))
    wanted = template_key(op.method, op.path)
    spec: Any = None
    for template, item in (doc.document.get("paths") or {}).items():
        if template_key(op.method, str(template)) == wanted:
            spec = doc.resolve(item).get(op.method.lower())
            break
    schema = json_body_schema(doc, spec)
    return None if schema is None else BodySchema(doc, schema, active.index)


def json_body_schema(doc: Document, spec: Any) -> Any:
    if not isinstance(spec, Mapping):
        return None
    request = doc.resolve(spec.get("requestBody"))
    if not isinstance(request, Mapping):
        return None
    for media, entry in (request.get("content") or {}).items():
        base = str(media).split(";")[0].strip().lower()
        if base in (JSON_MEDIA, "text/json") or base.endswith("+json"):
            return (entry or {}).get("schema")
    return None


def schema_problems(doc: Document, schema: Any, value: Any) -> list[str]:
    """Why ``value`` does not satisfy ``schema``, one ``where: message`` line each."""
    import jsonschema_rs

    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": doc.document.get("components", {}),
        "allOf": [schema],
    }
    found = []
    for error in jsonschema_rs.validator_for(root).iter_errors(value):
        where = ".".join(str(part) for part in error.instance_path) or "body"
        found.append(f"{where}: {error.message}")
    return found


def admits_null(doc: Document, schema: Any) -> bool:
    """Whether ``schema`` accepts null (an unconstrained schema does)."""
    node = doc.resolve(schema)
    if not isinstance(node, Mapping):
        return True
    kind = node.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if isinstance(node.get("enum"), list):
        return None in node["enum"]
    if any(admits_null(doc, o) for key in ("anyOf", "oneOf") for o in node.get(key, ())):
        return True
    if kind is not None or "properties" in node or "$ref" in node:
        return False
    return all(admits_null(doc, part) for part in node.get("allOf", ()))
