"""Read-modify-write for PUTs that replace a whole resource (cli.md "Commands", issues 12, 21).

A PUT whose request schema requires fields the user did not give cannot be sent as typed: the
service would answer 400, or, worse, reset what was left out. So the command reads the
resource first (the GET on the same path template, or the read the caller names), keeps of it
what the PUT's schema takes, merges the user's changes over it, checks the result against the
schema and sends the whole body; with ``If-Match`` when the read carried an ``ETag``, so a
change made meanwhile is leadctl's own "changed meanwhile" error (exit 6) rather than lost.
``--dry-run`` still reads (a GET changes nothing) and prints the PUT it would send.

Of the read, nothing the PUT does not take is sent back: properties its schema does not list,
read-only ones, nulls where it wants a value, and secrets (the source's intake key the read
carried) unless the schema requires them. A required field the read carries in another shape
(names of its tag objects) is derived (``read_shapes``); one that cannot be had stops the
command before sending (exit 2), naming the field and the flag that gives it.

The schemas come from the contract document the operation came from (the active one, or the
bundled one for a curated command the active contract lacks), in its 3.1 form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.config.redact import mask_secrets, secret_values
from leadctl.contract.body_schema import (
    admits_null,
    body_schema,
    find_spec,
    json_response_schema,
    schema_problems,
)
from leadctl.contract.operations import Operation
from leadctl.contract.secret_schema import field_is_secret, secret_names
from leadctl.contract.shapes import require_object
from leadctl.errors import ApiError, UsageError
from leadctl.http.client import decode_json
from leadctl.inputs.fields import merge_over
from leadctl.verbkit.read_shapes import derived_fields

if TYPE_CHECKING:
    import httpx

    from leadctl.contract.document import Document
    from leadctl.contract.operations import Operation
    from leadctl.verbkit.invocation import RequestInvocation

SHOWN_ERRORS = 8
PRECONDITION_FAILED = 412
# A 412 to the PUT after the read, in leadctl's words (the service's may be anything).
CHANGED_MEANWHILE = "the resource changed after leadctl read it; nothing was replaced"


@dataclass(frozen=True)
class PutShape:
    """What a PUT takes, from its contract."""

    doc: Document
    schema: Any  # the JSON request body's schema
    required: tuple[str, ...]
    get: Operation | None  # the read on the same path template, if the contract has one
    # Fields the read's answer holds secrets in (by what its schema says of them).
    read_secrets: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Replacement:
    """A PUT ready to send: the whole body, its headers, the resource as read (None when the
    changes were the whole body) and the If-Match leadctl added from the read's ETag."""

    body: dict[str, Any]
    headers: list[tuple[str, str]]
    read: Any = None
    if_match: str | None = None


class ReplacedMeanwhile(ApiError):
    """412 after leadctl's own read: the resource changed between the read and the write.

    Worded by leadctl, whatever the service said: what happened is known (the If-Match of
    leadctl's read no longer held), and what to do is the same on every service."""

    def __init__(self, trace_id: str | None) -> None:
        super().__init__(
            PRECONDITION_FAILED,
            title="Precondition Failed",
            detail=CHANGED_MEANWHILE,
            trace_id=trace_id,
            problem={"traceId": trace_id} if trace_id else None,
            hint="run the command again to apply your change to the current version",
        )


def replace_resource(
    ctx: RequestInvocation,
    op: Operation,
    *,
    path_params: Mapping[str, str] | None,
    changes: Mapping[str, Any],
    params: Mapping[str, Any] | None = None,
    headers: Sequence[tuple[str, str]] = (),
    flags: Mapping[str, str] | None = None,
) -> httpx.Response:
    """Send PUT ``op`` with ``changes``, reading and merging the rest when the schema needs it.
    ``params`` and ``headers`` go with the PUT as given; ``flags`` names the option that
    gives a field (``{"defaultTagNames": "--default-tag-name"}``) for the error when one is
    missing."""
    planned = plan_replacement(
        ctx, op, path_params=path_params, changes=changes, headers=headers, flags=flags
    )
    return send_replacement(ctx, op, planned, path_params=path_params, params=params)


def replace_resource_json(
    ctx: RequestInvocation,
    op: Operation,
    *,
    path_params: Mapping[str, str],
    changes: Mapping[str, Any],
    what: str,
    flags: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """``replace_resource`` and the resource it answered: an object with an id, else exit 8
    naming ``what`` ("the updated source")."""

    response = replace_resource(ctx, op, path_params=path_params, changes=changes, flags=flags)
    return require_object(decode_json(response, trace=None), what=what, required=("id",))


def plan_replacement(
    ctx: RequestInvocation,
    op: Operation,
    *,
    path_params: Mapping[str, str] | None,
    changes: Mapping[str, Any],
    headers: Sequence[tuple[str, str]] = (),
    flags: Mapping[str, str] | None = None,
    read_with: Operation | None = None,
) -> Replacement:
    """The body and headers PUT ``op`` will carry: ``changes`` alone when they are all the
    schema requires, else merged over the resource as read (``read_with``, else the GET on
    the same path). Raises UsageError (nothing sent) when a required field cannot be had."""
    shape = put_shape(ctx, op, read_with=read_with)
    if shape is None:
        return Replacement(dict(changes), list(headers))
    return whole_body(
        ctx, op, shape, path_params=path_params, changes=changes, headers=headers, flags=flags
    )


def whole_body(
    ctx: RequestInvocation,
    op: Operation,
    shape: PutShape,
    *,
    path_params: Mapping[str, str] | None,
    changes: Mapping[str, Any],
    headers: Sequence[tuple[str, str]] = (),
    flags: Mapping[str, str] | None = None,
) -> Replacement:
    """:func:`plan_replacement` with the PUT's shape already known (``batch`` plans each
    line's PUT with the one shape it found once)."""
    missing = missing_fields(shape, changes)
    if not missing:
        return Replacement(dict(changes), list(headers))
    if shape.get is None:
        raise UsageError(
            f"{op.method} {op.path} replaces the whole resource and {', '.join(missing)} "
            "were not given; the contract has no GET on that path to read them from",
            hint=_giving_hint(missing, flags),
        )
    current, etag = _read(ctx, shape.get, path_params or {})
    body = merged_body(shape, current, changes)
    _check_merged(op, shape, body, flags)
    given = {name.lower() for name, _value in headers}
    ours = etag if etag and "if-match" not in given else None
    sent = [*headers, ("If-Match", ours)] if ours else list(headers)
    return Replacement(body, sent, read=current, if_match=ours)


def send_replacement(
    ctx: RequestInvocation,
    op: Operation,
    planned: Replacement,
    *,
    path_params: Mapping[str, str] | None,
    params: Mapping[str, Any] | None = None,
) -> httpx.Response:
    """Send the planned PUT; a 412 to the If-Match leadctl added is :class:`ReplacedMeanwhile`."""
    client = ctx.client()
    try:
        return client.call(
            op,
            path_params=path_params,
            params=params,
            json_body=planned.body,
            headers=planned.headers,
        )
    except ApiError as error:
        if error.status != PRECONDITION_FAILED or planned.if_match is None:
            raise
        raise ReplacedMeanwhile(error.trace_id) from None


def put_shape(
    ctx: RequestInvocation, op: Operation, *, read_with: Operation | None = None
) -> PutShape | None:
    """The PUT's JSON body schema and the read beside it; None when the contract shows no
    JSON body schema (the body is then sent as given)."""

    found = body_schema(ctx, op)
    if found is None:
        return None
    doc, schema = found.doc, found.schema
    get = read_with
    if get is None:
        listing = found.active.find("GET", op.path)
        if listing is not None:
            get = Operation.of(listing, bundled=op.bundled)
            get = dataclasses.replace(get, path=_named_like(get.path, op.path))
    read_secrets: frozenset[str] = frozenset()
    if get is not None:
        answer = json_response_schema(doc, find_spec(doc, get.method, get.path))
        read_secrets = frozenset() if answer is None else secret_names(doc, answer)
    return PutShape(doc, schema, tuple(doc.required(schema)), get, read_secrets)


def missing_fields(shape: PutShape, changes: Mapping[str, Any]) -> list[str]:
    return [name for name in shape.required if name not in changes]


def merged_body(shape: PutShape, current: Any, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The resource as the PUT takes it (with what it requires in another shape derived from
    the read), ``changes`` merged over it."""

    kept = project(shape.doc, shape.schema, current, read_secrets=shape.read_secrets)
    base = kept if isinstance(kept, Mapping) else {}
    merged = merge_over(base, changes)
    return {**merged, **derived_fields(list(shape.required), current, merged)}


def project(
    doc: Document, schema: Any, value: Any, *, read_secrets: frozenset[str] = frozenset()
) -> Any:
    """``value`` (as read) cut to what ``schema`` (the request's) takes, at every level:
    properties it does not list, read-only ones, nulls where it wants a value, and secrets
    (by the request's schema or, in ``read_secrets``, the read's) it does not require are
    dropped."""

    if isinstance(value, Mapping):
        properties = doc.properties(schema)
        if not properties:
            return dict(value)
        required = set(doc.required(schema))
        kept: dict[str, Any] = {}
        for name, item in value.items():
            sub = properties.get(name)
            if sub is None or doc.keyword(sub, "readOnly") is True:
                continue
            if item is None and not admits_null(doc, sub):
                continue
            secret = name in read_secrets or field_is_secret(doc, name, sub)
            if secret and name not in required:
                continue
            kept[name] = project(doc, sub, item, read_secrets=read_secrets)
        return kept
    if isinstance(value, list):
        items = doc.keyword(schema, "items") or {}
        return [project(doc, items, item, read_secrets=read_secrets) for item in value]
    return value


def body_problems(shape: PutShape, body: Any) -> list[str]:
    """Why ``body`` does not satisfy the PUT's schema, one line each (empty when it does);
    a secret the body holds is never quoted."""

    hidden = secret_values(body)
    return [mask_secrets(line, hidden) for line in schema_problems(shape.doc, shape.schema, body)]


# -- helpers ------------------------------------------------------------------------------


def _check_merged(
    op: Operation, shape: PutShape, body: dict[str, Any], flags: Mapping[str, str] | None
) -> None:
    """Exit 2 before sending when the merged body is still not what the PUT takes: a
    required field neither given, read nor derived is named with the flag that gives it."""
    lacking = [name for name in shape.required if name not in body]
    if lacking:
        raise UsageError(
            f"{op.method} {op.path} requires {', '.join(lacking)}, which the read "
            f"({shape.get.method if shape.get else 'GET'} "
            f"{shape.get.path if shape.get else op.path}) does not carry in a form leadctl "
            "can send back",
            hint=_giving_hint(lacking, flags),
        )
    problems = body_problems(shape, body)
    if problems:
        raise UsageError(
            f"the merged body for {op.method} {op.path} does not fit the contract",
            hint="\n".join(f"  {p}" for p in problems[:SHOWN_ERRORS]),
        )


def _giving_hint(fields: Sequence[str], flags: Mapping[str, str] | None) -> str:
    given = [f"{name} with {flags[name]}" for name in fields if flags and name in flags]
    raw = [name for name in fields if not flags or name not in flags]
    parts = []
    if given:
        parts.append("give " + ", ".join(given))
    if raw:
        example = ", ".join(f'"{name}": ...' for name in raw)
        parts.append(f"give {', '.join(raw)} in the command (--data '{{{example}}}')")
    return "; ".join(parts)


def _named_like(path: str, like: str) -> str:
    """``path`` with its parameters named as in ``like`` (the same template)."""
    import re

    names = iter(re.findall(r"\{[^}/]*\}", like))
    return re.sub(r"\{[^}/]*\}", lambda _m: next(names), path)


def _read(
    ctx: RequestInvocation, get: Operation, path_params: Mapping[str, str]
) -> tuple[Any, str | None]:
    """The resource and its ETag. Sent even under --dry-run: reading changes nothing, and the
    dry run's point is to show the whole body the PUT would carry."""

    wanted = {name: value for name, value in path_params.items() if "{" + name + "}" in get.path}
    if not ctx.options.dry_run:
        response = ctx.client().call(get, path_params=wanted or None)
        return decode_json(response, trace=None), response.headers.get("ETag")
    reading = ctx.with_options(ctx.options.replaced(dry_run=False))
    client = reading.new_client()
    try:
        response = client.call(get, path_params=wanted or None)
        return decode_json(response, trace=None), response.headers.get("ETag")
    finally:
        client.close()
