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
from typing import TYPE_CHECKING, Any

from leadctl.errors import ApiError, UsageError

if TYPE_CHECKING:
    import httpx

    from leadctl.context import Context
    from leadctl.contract.index import Document
    from leadctl.operations import Operation

SHOWN_ERRORS = 8
# A 412 to the PUT after the read, in leadctl's words (the service's may be anything).
CHANGED_MEANWHILE = "the resource changed after leadctl read it; nothing was replaced"


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
    if shape is None:
        return client.call(
            op, path_params=path_params, params=params, json_body=dict(changes), headers=headers
        )
    body, sent = whole_body(
        ctx, op, shape, path_params=path_params, changes=changes, headers=headers
    )
    try:
        return client.call(op, path_params=path_params, params=params, json_body=body, headers=sent)
    except ApiError as error:
        if error.status != 412:
            raise
        changed = ReplacedMeanwhile(
            412,
            title=error.title,
            detail=CHANGED_MEANWHILE,
            trace_id=error.trace_id,
            problem=error.problem,
            hint="run the command again to apply your change to the current version",
        )
        raise changed from None


def whole_body(
    ctx: Context,
    op: Operation,
    shape: PutShape,
    *,
    path_params: Mapping[str, str] | None,
    changes: Mapping[str, Any],
    headers: Sequence[tuple[str, str]] = (),
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The body and headers PUT ``op`` sends: ``changes`` as given when they hold every
    required field, else the resource read (the GET), ``changes`` merged over it, checked
    against the schema, with ``If-Match`` when the read carried an ETag. Exit 2 when the
    whole body cannot be had (``batch`` sends each line's PUT through this too)."""
    missing = missing_fields(shape, changes)
    if not missing:
        return dict(changes), list(headers)
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
    return body, sent


def replace_resource_json(
    ctx: Context,
    op: Operation,
    *,
    path_params: Mapping[str, str],
    changes: Mapping[str, Any],
    what: str,
) -> dict[str, Any]:
    """``replace_resource`` and the resource it answered: an object with an id, else exit 8
    naming ``what`` ("the updated source")."""
    from leadctl.client import decode_json
    from leadctl.shapes import require_object

    answer = decode_json(
        replace_resource(ctx, op, path_params=path_params, changes=changes), trace=None
    )
    return require_object(answer, what=what, required=("id",))


def put_shape(ctx: Context, op: Operation) -> PutShape | None:
    """The PUT's JSON body schema and the GET beside it; None when the contract shows no JSON
    body schema (the body is then sent as given)."""
    from leadctl.body_schema import body_schema
    from leadctl.operations import Operation, find_entry

    found = body_schema(ctx, op)
    if found is None:
        return None
    doc, schema = found.doc, found.schema
    entry = find_entry(found.index, "GET", op.path)
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
    from leadctl.body_schema import admits_null

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


def body_problems(shape: PutShape, body: Any) -> list[str]:
    """Why ``body`` does not satisfy the PUT's schema, one line each (empty when it does)."""
    from leadctl.body_schema import schema_problems

    return schema_problems(shape.doc, shape.schema, body)


# -- helpers ------------------------------------------------------------------------------


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
    reading = ctx.with_options(ctx.options.replaced(dry_run=False))
    client = Client.from_context(reading)
    try:
        response = client.call(get, path_params=path_params)
        return decode_json(response, trace=None), response.headers.get("ETag")
    finally:
        client.close()
