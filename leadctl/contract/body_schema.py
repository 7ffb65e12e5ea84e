"""The JSON request body schema of an operation, from the contract it came from.

The compiled index keeps only what generated commands show; commands that shape a body by the
contract (read-modify-write PUTs, lead fields as dot paths) read the document itself (the
active one, or the bundled one for a curated command the active contract lacks), in its 3.1
form. Loaded only by the commands that need it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leadctl.contract.document import Document
from leadctl.contract.operations import active_index_of
from leadctl.contract.store import bundled_index
from leadctl.contract.templates import template_key

if TYPE_CHECKING:
    from leadctl.contract.document import Document
    from leadctl.contract.invocation import ContractInvocation
    from leadctl.contract.operations import Operation
    from leadctl.contract.store import ActiveIndex

JSON_MEDIA = "application/json"


@dataclass(frozen=True)
class BodySchema:
    doc: Document  # the whole contract, for $refs
    schema: Any
    active: ActiveIndex  # the compiled index of the same contract


@dataclass(frozen=True)
class OperationSpec:
    doc: Document  # the whole contract, for $refs
    spec: Any  # the operation object (None when the contract has no such operation)
    active: ActiveIndex  # the compiled index of the same contract


def operation_spec(ctx: ContractInvocation, op: Operation) -> OperationSpec:
    """``op`` as the contract it came from describes it."""

    active = bundled_index() if op.bundled else active_index_of(ctx)
    path = Path(active.contract_path)
    doc = _document(str(path), path.stat().st_mtime_ns)
    return OperationSpec(doc, find_spec(doc, op.method, op.path), active)


@lru_cache(maxsize=4)
def _document(path: str, _mtime_ns: int) -> Document:
    """The contract at ``path``, parsed once per invocation (a command may ask several
    times: its flags, its read, its write)."""
    from leadctl.contract.formats import parse_document, to_31

    parsed = parse_document(Path(path).read_bytes(), what=path, budget=None)
    return Document(to_31(parsed, owned=True))


def find_spec(doc: Document, method: str, path: str) -> Any:
    """The operation object of METHOD + path template in ``doc``, or None."""
    wanted = template_key(method, path)
    for template, item in (doc.document.get("paths") or {}).items():
        if template_key(method, str(template)) == wanted:
            return doc.resolve(item).get(method.lower())
    return None


def body_schema(ctx: ContractInvocation, op: Operation) -> BodySchema | None:
    """``op``'s JSON request body schema; None when the contract shows none."""
    found = operation_spec(ctx, op)
    schema = json_body_schema(found.doc, found.spec)
    return None if schema is None else BodySchema(found.doc, schema, found.active)


def json_response_schema(doc: Document, spec: Any) -> Any:
    """The JSON schema of ``spec``'s first success answer; None when it shows none."""
    if not isinstance(spec, Mapping):
        return None
    responses = spec.get("responses") or {}
    success = sorted((str(code), raw) for code, raw in responses.items() if str(code)[:1] == "2")
    for _status, raw in success:
        response = doc.resolve(raw)
        if not isinstance(response, Mapping):
            continue
        for media, entry in (response.get("content") or {}).items():
            base = str(media).split(";")[0].strip().lower()
            if base in (JSON_MEDIA, "text/json") or base.endswith("+json"):
                return (entry or {}).get("schema")
    return None


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
