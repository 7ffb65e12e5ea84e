"""Read-modify-write for PUTs that replace a whole resource (cli.md "Commands", issue 12).

A PUT whose request schema requires fields the user did not give cannot be sent as typed: the
service would answer 400, or, worse, reset what was left out. So the command reads the
resource first (the GET on the same path template), keeps of it what the PUT's schema takes
(read-only fields and fields the schema does not list are dropped), merges the user's changes
over it, checks the result against the schema and sends the whole body; with ``If-Match`` when
the read carried an ``ETag``, so a change made meanwhile is a 412 (exit 6) rather than lost.
``--dry-run`` still reads (a GET changes nothing) and prints the PUT it would send. Without a
GET on that path the command stops before sending (exit 2), naming the missing fields.

The schemas come from the contract document the operation came from (the active one, or the
bundled one for a curated command the active contract lacks), in its 3.1 form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leadctl.errors import ApiError, UsageError

if TYPE_CHECKING:
    import httpx

    from leadctl.context import Context
    from leadctl.contract.index import Document
    from leadctl.operations import Operation

JSON_MEDIA = "application/json"
SHOWN_ERRORS = 8


@dataclass(frozen=True)
class PutShape:
    """What a PUT takes, from its contract."""

    doc: Document
    schema: Any  # the JSON request body's schema
    required: tuple[str, ...]
    get: Operation | None  # the read on the same path template, if the contract has one


class ReplacedMeanwhile(ApiError):
    """412: the resource changed between the read and the replacement."""


def replace_resource(
    ctx: Context,
    op: Operation,
    *,
    path_params: Mapping[str, str] | None,
    changes: Mapping[str, Any],
    params: Mapping[str, Any] | None = None,
    headers: Sequence[tuple[str, str]] = (),
) -> httpx.Response:
    """Send PUT ``op`` with ``changes``, reading and merging the rest when the schema needs it.
    ``params`` and ``headers`` go with the PUT as given."""
    shape = put_shape(ctx, op)
    client = ctx.client()
    missing = [] if shape is None else missing_fields(shape, changes)
    if shape is None or not missing:
        return client.call(
            op, path_params=path_params, params=params, json_body=dict(changes), headers=headers
        )
    if shape.get is None:
        raise UsageError(
            f"{op.method} {op.path} replaces the whole resource and {', '.join(missing)} "
            "were not given; the contract has no GET on that path to read them from",
            hint="give them in the command (--data takes a JSON object)",
        )
    current, etag = _read(ctx, shape.get, path_params or {})
    body = merged_body(shape, current, changes)
    problems = body_problems(shape, body)
    if problems:
        raise UsageError(
            f"the merged body for {op.method} {op.path} does not fit the contract",
            hint="\n".join(f"  {p}" for p in problems[:SHOWN_ERRORS]),
        )
    given = {name.lower() for name, _value in headers}
    sent = [*headers, ("If-Match", etag)] if etag and "if-match" not in given else list(headers)
    try:
        return client.call(op, path_params=path_params, params=params, json_body=body, headers=sent)
    except ApiError as error:
        if error.status != 412:
            raise
        changed = ReplacedMeanwhile(
            412,
            title=error.title,
            detail="the resource changed after leadctl read it; nothing was replaced",
            trace_id=error.trace_id,
            problem=error.problem,
            hint="run the command again to apply your change to the current version",
        )
        raise changed from None


def replace_resource_json(
    ctx: Context, op: Operation, *, path_params: Mapping[str, str], changes: Mapping[str, Any]
) -> Any:
    """``replace_resource`` and the JSON it answered."""
    from leadctl.client import decode_json

    return decode_json(
        replace_resource(ctx, op, path_params=path_params, changes=changes), trace=None
    )


def put_shape(ctx: Context, op: Operation) -> PutShape | None:
    """The PUT's JSON body schema and the GET beside it; None when the contract shows no JSON
    body schema (the body is then sent as given)."""
    from leadctl.contract.index import Document
    from leadctl.operations import Operation, find_entry, template_key

    document, index = _contract_of(ctx, op)
    doc = Document(document)
    wanted = template_key(op.method, op.path)
    spec: Mapping[str, Any] | None = None
    for path, item in (document.get("paths") or {}).items():
        if template_key(op.method, str(path)) == wanted:
            spec = doc.resolve(item).get(op.method.lower())
            break
    schema = _json_body_schema(doc, spec)
    if schema is None:
        return None
    entry = find_entry(index, "GET", op.path)
    get = None
    if entry is not None:
        get = Operation.from_entry(entry, bundled=op.bundled)
        get = dataclasses.replace(get, path=_named_like(get.path, op.path))
    return PutShape(doc, schema, tuple(doc.required(schema)), get)


def missing_fields(shape: PutShape, changes: Mapping[str, Any]) -> list[str]:
    return [name for name in shape.required if name not in changes]


def merged_body(shape: PutShape, current: Any, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The resource as the PUT takes it, with ``changes`` merged over it."""
    from leadctl.fields import merge_over

    kept = project(shape.doc, shape.schema, current)
    return merge_over(kept if isinstance(kept, Mapping) else {}, changes)


def project(doc: Document, schema: Any, value: Any) -> Any:
    """``value`` (as read) cut to what ``schema`` (the request's) takes: properties it does
    not list, read-only ones, and nulls where it wants a value are dropped, at every level."""
    if isinstance(value, Mapping):
        properties = doc.properties(schema)
        if not properties:
            return dict(value)
        kept: dict[str, Any] = {}
        for name, item in value.items():
            sub = properties.get(name)
            if sub is None or doc.keyword(sub, "readOnly") is True:
                continue
            if item is None and not admits_null(doc, sub):
                continue
            kept[name] = project(doc, sub, item)
        return kept
    if isinstance(value, list):
        items = doc.keyword(schema, "items") or {}
        return [project(doc, items, item) for item in value]
    return value


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


def body_problems(shape: PutShape, body: Any) -> list[str]:
    """Why ``body`` does not satisfy the PUT's schema, one line each (empty when it does)."""
    import jsonschema_rs

    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": shape.doc.document.get("components", {}),
        "allOf": [shape.schema],
    }
    found = []
    for error in jsonschema_rs.validator_for(root).iter_errors(body):
        where = ".".join(str(part) for part in error.instance_path) or "body"
        found.append(f"{where}: {error.message}")
    return found


# -- helpers ------------------------------------------------------------------------------


def _contract_of(ctx: Context, op: Operation) -> tuple[dict[str, Any], Mapping[str, Any]]:
    """The contract document (3.1 form) and compiled index the operation came from."""
    from leadctl.contract.formats import parse_document, to_31
    from leadctl.contract.store import bundled_index
    from leadctl.operations import active_index_of

    active = bundled_index() if op.bundled else active_index_of(ctx)
    path = Path(active.contract_path)
    document = to_31(parse_document(path.read_bytes(), what=str(path)))
    return document, active.index


def _json_body_schema(doc: Document, spec: Mapping[str, Any] | None) -> Any:
    if not isinstance(spec, Mapping):
        return None
    request = doc.resolve(spec.get("requestBody"))
    if not isinstance(request, Mapping):
        return None
    for media, entry in (request.get("content") or {}).items():
        base = str(media).split(";")[0].strip().lower()
        if base == JSON_MEDIA or base.endswith("+json") or base == "text/json":
            schema = (entry or {}).get("schema")
            return schema if schema is not None else None
    return None


def _named_like(path: str, like: str) -> str:
    """``path`` with its parameters named as in ``like`` (the same template)."""
    import re

    names = iter(re.findall(r"\{[^}/]*\}", like))
    return re.sub(r"\{[^}/]*\}", lambda _m: next(names), path)


def _read(ctx: Context, get: Operation, path_params: Mapping[str, str]) -> tuple[Any, str | None]:
    """The resource and its ETag. Sent even under --dry-run: reading changes nothing, and the
    dry run's point is to show the whole body the PUT would carry."""
    from leadctl.client import Client, decode_json

    if not ctx.options.dry_run:
        response = ctx.client().call(get, path_params=path_params)
        return decode_json(response, trace=None), response.headers.get("ETag")
    reading = dataclasses.replace(
        ctx, options=dataclasses.replace(ctx.options, dry_run=False), _client=None
    )
    client = Client.from_context(reading)
    try:
        response = client.call(get, path_params=path_params)
        return decode_json(response, trace=None), response.headers.get("ETag")
    finally:
        client.close()
