"""Running a generated verb: its request through leadctl's client (auth, retries, errors,
``--dry-run``), paging through ``print_paged``, output through the output layer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from leadctl.context import Context
from leadctl.contract.document import Document
from leadctl.contract.operations import Operation, with_query
from leadctl.errors import BadResponse, UsageError
from leadctl.generated.body import (
    BodyInvalid,
    body_document,
    build_body,
    check_body,
    check_field_keys,
    check_params,
    load_schemas,
)
from leadctl.generated.confirm import confirm_destructive
from leadctl.generated.form import form_body
from leadctl.generated.window import window_of, window_title, with_since
from leadctl.http.client import decode_json
from leadctl.http.paging_flags import check_count_alone, paging_from_flags
from leadctl.inputs.fields import merge_over
from leadctl.inputs.values import Conversions, normalised, normalised_param
from leadctl.output import display_zone_of, emit_list, emit_object
from leadctl.output.response_columns import columns_of, output_columns
from leadctl.verbkit.download import deliver, is_redirect
from leadctl.verbkit.listing import print_paged
from leadctl.verbkit.query_options import descending_value, direction_key_of, list_body
from leadctl.verbkit.replace import replace_resource
from leadctl.verbkit.waiting import PendingRule, poll_function, wait_for

if TYPE_CHECKING:
    import typer

    from leadctl.context import Context
    from leadctl.contract.catalogue import OperationCatalogue
    from leadctl.contract.entries import Body, Parameter


def get_context(typer_ctx: typer.Context) -> Context:
    """The leadctl Context the root callback stored for this invocation."""

    obj = typer_ctx.find_root().obj
    if not isinstance(obj, Context):
        raise RuntimeError("leadctl context missing: the command ran outside the root app")
    return obj


def _plain(value: Any) -> Any:
    """A choice's value (choices are enums), anything else as it is."""
    return value.value if isinstance(value, Enum) else value


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Request:
    """What the flags put where: path parameters, the query, headers, and the values by
    the contract's parameter names (checked against their schemas)."""

    def __init__(self) -> None:
        self.path_params: dict[str, str] = {}
        self.query: dict[str, Any] = {}
        self.headers: list[tuple[str, str]] = []
        self.typed: dict[str, Any] = {}


def _request(
    ctx: Context, values: Mapping[str, Any], bindings: Sequence[tuple[str, Parameter]]
) -> Request:
    request = Request()
    for name, spec in bindings:
        value = values.get(name)
        if value is None or value == []:
            continue
        value = [_plain(v) for v in value] if isinstance(value, list) else _plain(value)
        value = normalised_param(ctx, spec, value)
        request.typed[spec.name] = value
        if spec.where == "path":
            request.path_params[spec.name] = _text(value)
        elif spec.where == "query":
            request.query[spec.name] = (
                [_text(v) for v in value] if isinstance(value, list) else _text(value)
            )
        else:
            request.headers.append(_header(spec, _text(value)))
    return request


def run_operation(
    typer_ctx: typer.Context,
    op: Operation,
    tree: OperationCatalogue,
    values: Mapping[str, Any],
    bindings: Sequence[tuple[str, Parameter]],
) -> None:
    ctx = get_context(typer_ctx)
    window = window_of(op.parameters)
    if window is not None:
        values = with_since(ctx, window, values, bindings)
    request = _request(ctx, values, bindings)
    schemas: dict[str, Any] | None = None
    if any(p.checked for p in op.parameters if p.name in request.typed):
        schemas = load_schemas(tree.active.schemas_path)
        check_params(schemas, op.id, request.typed)
    meta = op.body
    content: bytes | None = None
    body: Any = None
    if meta is not None and meta.form:
        content = _form(ctx, op, meta, tree, values, request, schemas)
    elif meta is not None and not meta.json:
        raise UsageError(
            f"{op.method} {op.path} takes a {meta.media} body; "
            "leadctl sends JSON, multipart/form-data and form-urlencoded bodies only"
        )
    elif meta is not None and meta.paged:
        confirm_destructive(ctx, op, request.path_params, yes=bool(values.get("yes")))
        _run_paged(ctx, op, tree, values, request.path_params, request.query)
        return
    else:
        body = _body(ctx, op, tree, values, schemas)
    confirm_destructive(ctx, op, request.path_params, yes=bool(values.get("yes")))
    operation = op.with_overrides(ctx.settings)
    # --columns is checked against the answer's schema before anything is sent.
    output_columns(ctx, operation, columns_of(op), from_contract=True)
    response = _send(ctx, operation, request, body, content)
    if _is_bytes(operation, response) or values.get("output_file") is not None:
        deliver(ctx, operation, response, output_file=values.get("output_file"))
        return
    data = _decode(response)
    download = values.get("download")
    if (values.get("wait") or download) and op.waits:
        data = _wait(ctx, op, tree, data, timeout=float(values["wait_timeout"]))
    if download:
        _download(ctx, op, tree, data, download)
        return
    title = window_title(window, request.query, display_zone_of(ctx)) if window else None
    _emit(ctx, op, data, response.status_code, title=title)


def _form(
    ctx: Context,
    op: Operation,
    meta: Body,
    tree: OperationCatalogue,
    values: Mapping[str, Any],
    request: Request,
    schemas: dict[str, Any] | None,
) -> bytes | None:
    """The form body (its Content-Type added to the request's headers), or None."""

    if values.get("fields"):
        schemas = schemas or load_schemas(tree.active.schemas_path)
        check_field_keys(body_document(schemas, op.id), values["fields"])
    content, media = form_body(
        meta,
        fields=values.get("fields") or [],
        files=values.get("files") or [],
        data=values.get("data"),
        stdin=ctx.ios.stdin,
        phones=frozenset(meta.phones),
        region=ctx.settings.get("region"),
    )
    if content is not None:
        request.headers.append(("Content-Type", media))
    return content


def _send(
    ctx: Context, operation: Operation, request: Request, body: Any, content: bytes | None
) -> Any:
    if operation.method == "PUT" and isinstance(body, dict):
        # A PUT replaces the resource: what its schema requires and was not given is read.
        return replace_resource(
            ctx,
            operation,
            path_params=request.path_params or None,
            changes=body,
            params=request.query or None,
            headers=request.headers,
        )
    return ctx.client().call(
        operation,
        path_params=request.path_params or None,
        params=request.query or None,
        json_body=body,
        content=content,
        headers=request.headers,
    )


def _body(
    ctx: Context,
    op: Operation,
    tree: OperationCatalogue,
    values: Mapping[str, Any],
    schemas: dict[str, Any] | None,
) -> Any:
    meta = op.body
    if meta is None:
        return None

    body = build_body(
        meta.fields, fields=values.get("fields") or [], data=values.get("data"), stdin=ctx.ios.stdin
    )
    if body is None:
        if meta.required:
            needed = [f.name for f in meta.fields if f.required]
            example = " ".join(f"--field {name}=..." for name in needed) or "--field KEY=VALUE"
            raise UsageError(
                "nothing to send: this operation needs a JSON body",
                hint=f"give {example}, or --data JSON|@FILE|-",
            )
        return None
    schemas = schemas or load_schemas(tree.active.schemas_path)
    found = body_document(schemas, op.id)
    check_field_keys(found, values.get("fields") or [])
    problems: dict[str, list[str]] = {}
    body = _converted(ctx, op, found, body, problems)
    missing = isinstance(body, dict) and any(f.name not in body for f in meta.fields if f.required)
    if op.method == "PUT" and missing:
        if problems:
            raise BodyInvalid(problems)
        return body  # leadctl.verbkit.replace reads the rest and checks the whole body
    idem = op.idempotency
    checked = body
    if idem and idem.where == "body" and isinstance(body, dict) and idem.name not in body:
        # The client adds a fresh key when it sends; a stand-in of its shape is checked.
        checked = {**body, idem.name: "00000000-0000-4000-8000-000000000000"}
    try:
        check_body(schemas, op.id, checked)
    except BodyInvalid as invalid:
        for field, messages in invalid.errors.items():
            problems.setdefault(field, []).extend(messages)
    if problems:
        raise BodyInvalid(problems)
    return body


def _converted(
    ctx: Context,
    op: Operation,
    found: tuple[Any, Any] | None,
    body: Any,
    problems: dict[str, list[str]],
) -> Any:
    """``body`` with its times in UTC and its phone numbers in E.164."""

    doc, schema = found if found is not None else (Document({}), None)
    conversions = Conversions(
        zone=ctx.input_zone(),
        now=ctx.clock.now(),
        region=ctx.settings.get("region"),
        phones=frozenset(op.body.phones if op.body else ()),
    )
    return normalised(doc, schema, body, conversions, problems)


def _run_paged(
    ctx: Context,
    op: Operation,
    tree: OperationCatalogue,
    values: Mapping[str, Any],
    path_params: Mapping[str, str],
    query: Mapping[str, Any],
) -> None:

    paging = paging_from_flags(
        page_size=values.get("page_size"),
        limit=values.get("limit"),
        all_pages=values.get("all_pages"),
        cursor=values.get("cursor"),
        count=values.get("count"),
    )
    check_count_alone(paging)
    query_flags = ("search", "filters", "ranges", "order_by")
    body: dict[str, Any] = {}
    if any(values.get(name) for name in query_flags):
        # The same RequestDataOptions syntax as `leads list`.

        direction_key = direction_key_of(ctx.settings)
        descending = "desc"
        if values.get("order_by"):
            descending = descending_value(ctx, op.with_overrides(ctx.settings), direction_key)
        body = list_body(
            search=values.get("search"),
            search_fields=[],
            filters=values.get("filters") or [],
            ranges=values.get("ranges") or [],
            order_by=values.get("order_by") or [],
            direction_key=direction_key,
            stdin=ctx.ios.stdin,
            descending=descending,
        )

    given = build_body(
        op.body.fields if op.body else (),
        fields=values.get("fields") or [],
        data=values.get("data"),
        stdin=ctx.ios.stdin,
    )
    page_size = paging.page_size
    if given is not None or body or page_size is not None:
        # Only what the user typed needs checking; an empty query is valid by construction.
        schemas = load_schemas(tree.active.schemas_path)
        check_field_keys(body_document(schemas, op.id), values.get("fields") or [])
        if given is not None:
            body = merge_over(given, body)
        checked = {**body, "pageSize": page_size} if page_size is not None else body
        check_body(schemas, op.id, checked)
    operation = with_query(op.with_overrides(ctx.settings), urlencode(query, doseq=True))
    print_paged(
        ctx,
        operation,
        body,
        columns=columns_of(op),
        paging=paging,
        path_params=path_params or None,
        columns_from_contract=True,
    )


def _header(spec: Parameter, value: str) -> tuple[str, str]:
    """A header parameter as sent: HTTP carries printable ASCII there (the name comes from
    the contract, the value from the user; either would be refused on the way out)."""
    name = spec.name
    for text in (name, value):
        if not text.isascii() or not all(c.isprintable() or c == "\t" for c in text):
            raise UsageError(
                f"{spec.flag or name} {value!r}: the header {name!r} takes printable ASCII only",
                hint="percent-encode or base64 other text, as the service expects it",
            )
    return name, value


def _is_bytes(operation: Operation, response: Any) -> bool:
    """A read's redirect (followed to the bytes), or an answer that is not JSON."""

    if is_redirect(response):
        return operation.method == "GET"
    return bool(response.content) and "json" not in response.headers.get("Content-Type", "")


def _decode(response: Any) -> Any:
    """The JSON answer, or None for no content."""
    if not response.content:
        return None

    return decode_json(response, trace=None)


def _emit(ctx: Context, op: Operation, data: Any, status: int, *, title: str | None) -> None:

    if data is None:
        ctx.ios.info(f"done: {op.method} {op.path} answered {status} with no content")
    elif isinstance(data, list):
        emit_list(ctx, data, columns=columns_of(op))
    elif isinstance(data, dict):
        emit_object(ctx, data, columns=columns_of(op), operation=op, title=title)
    else:
        import json

        ctx.ios.data_out(json=True).write(json.dumps(data, ensure_ascii=False) + "\n")


def _download(ctx: Context, op: Operation, tree: OperationCatalogue, data: Any, path: str) -> None:
    """``--download FILE``: the settled resource's file, by the contract's
    x-leadctl-pending.download (a GET taking the resource's id as its path parameter)."""
    pending = op.pending
    download = tree.operation(pending.download) if pending and pending.download else None
    if pending is None or download is None:
        raise UsageError(f"{op.method} {op.path} names no download in its contract")
    ident = data.get(pending.id_field) if isinstance(data, dict) else None
    if not isinstance(ident, (str, int)) or isinstance(ident, bool):
        raise BadResponse(f"cannot download: the answer has no {pending.id_field}")
    operation = download.with_overrides(ctx.settings)
    name = next(p.name for p in download.parameters if p.where == "path")
    request = Request()
    request.path_params[name] = str(ident)
    response = _send(ctx, operation, request, None, None)
    deliver(ctx, operation, response, output_file=path)


def _wait(
    ctx: Context, op: Operation, tree: OperationCatalogue, data: Any, *, timeout: float
) -> Any:

    pending = op.pending
    poll_op = tree.operation(pending.poll) if pending is not None and pending.poll else None
    if pending is None or poll_op is None:
        return data
    return wait_for(
        ctx,
        data,
        PendingRule.from_pending(pending),
        poll_function(ctx, poll_op),
        timeout=timeout,
        what=op.group,
    )
