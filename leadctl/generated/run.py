"""Running a generated verb: its request through leadctl's client (auth, retries, errors,
``--dry-run``), paging through ``print_paged``, output through the output layer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from leadctl.contract.operations import Operation, to_operation
from leadctl.errors import UsageError
from leadctl.generated.confirm import confirm_destructive
from leadctl.generated.values import normalised_param
from leadctl.output.response_columns import columns_of, output_columns

if TYPE_CHECKING:
    import typer

    from leadctl.context import Context
    from leadctl.generated.tree import GeneratedTree


def get_context(typer_ctx: typer.Context) -> Context:
    """The leadctl Context the root callback stored for this invocation."""
    from leadctl.context import Context

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


def run_operation(
    typer_ctx: typer.Context,
    op: Mapping[str, Any],
    tree: GeneratedTree,
    values: Mapping[str, Any],
    bindings: Sequence[tuple[str, Mapping[str, Any]]],
) -> None:
    ctx = get_context(typer_ctx)
    path_params: dict[str, str] = {}
    query: dict[str, Any] = {}
    headers: list[tuple[str, str]] = []
    typed: dict[str, Any] = {}
    for name, spec in bindings:
        value = values.get(name)
        if value is None or value == []:
            continue
        value = [_plain(v) for v in value] if isinstance(value, list) else _plain(value)
        value = normalised_param(ctx, spec, value)
        typed[spec["name"]] = value
        if spec["in"] == "path":
            path_params[spec["name"]] = _text(value)
        elif spec["in"] == "query":
            query[spec["name"]] = (
                [_text(v) for v in value] if isinstance(value, list) else _text(value)
            )
        else:
            headers.append(_header(spec, _text(value)))
    schemas: dict[str, Any] | None = None
    if any(p.get("checked") for p in op["params"] if p["name"] in typed):
        from leadctl.generated.body import check_params, load_schemas

        schemas = load_schemas(tree.active.schemas_path)
        check_params(schemas, op["id"], typed)
    body_meta = op.get("body") or {}
    content: bytes | None = None
    body: Any = None
    if body_meta.get("form"):
        from leadctl.generated.body import body_document, check_field_keys, load_schemas
        from leadctl.generated.form import form_body

        if values.get("fields"):
            schemas = schemas or load_schemas(tree.active.schemas_path)
            check_field_keys(body_document(schemas, op["id"]), values["fields"])
        content, media = form_body(
            body_meta,
            fields=values.get("fields") or [],
            files=values.get("files") or [],
            data=values.get("data"),
            stdin=ctx.ios.stdin,
            phones=frozenset(body_meta.get("phones", ())),
            region=ctx.settings.get("region"),
        )
        if content is not None:
            headers.append(("Content-Type", media))
    elif body_meta and not body_meta.get("json"):
        raise UsageError(
            f"{op['method']} {op['path']} takes a {body_meta.get('media')} body; "
            "leadctl sends JSON, multipart/form-data and form-urlencoded bodies only"
        )
    elif body_meta.get("paged"):
        confirm_destructive(ctx, op, path_params, yes=bool(values.get("yes")))
        _run_paged(ctx, op, tree, values, path_params, query)
        return
    else:
        body = _body(ctx, op, tree, values, schemas)
    confirm_destructive(ctx, op, path_params, yes=bool(values.get("yes")))
    operation = to_operation(op, ctx.settings)

    # --columns is checked against the answer's schema before anything is sent.
    output_columns(ctx, operation, columns_of(op), from_contract=True)
    if operation.method == "PUT" and isinstance(body, dict):
        from leadctl.http.replace import replace_resource

        # A PUT replaces the resource: what its schema requires and was not given is read.
        response = replace_resource(
            ctx,
            operation,
            path_params=path_params or None,
            changes=body,
            params=query or None,
            headers=headers,
        )
    else:
        response = ctx.client().call(
            operation,
            path_params=path_params or None,
            params=query or None,
            json_body=body,
            content=content,
            headers=headers,
        )
    if _is_bytes(operation, response) or values.get("output_file") is not None:
        from leadctl.http.download import deliver

        deliver(ctx, operation, response, output_file=values.get("output_file"))
        return
    data = _decode(response)
    pending = op.get("pending")
    if values.get("wait") and pending and pending.get("poll"):
        data = _wait(ctx, op, tree, data, timeout=float(values["wait_timeout"]))
    _emit(ctx, op, data, response.status_code)


def _body(
    ctx: Context,
    op: Mapping[str, Any],
    tree: GeneratedTree,
    values: Mapping[str, Any],
    schemas: dict[str, Any] | None,
) -> Any:
    body_meta = op.get("body") or {}
    if not body_meta:
        return None
    from leadctl.generated.body import (
        BodyInvalid,
        body_document,
        build_body,
        check_body,
        check_field_keys,
        load_schemas,
    )

    body = build_body(
        body_meta.get("fields", ()),
        fields=values.get("fields") or [],
        data=values.get("data"),
        stdin=ctx.ios.stdin,
    )
    if body is None:
        if body_meta.get("required"):
            needed = [f["name"] for f in body_meta.get("fields", ()) if f.get("required")]
            example = " ".join(f"--field {name}=..." for name in needed) or "--field KEY=VALUE"
            raise UsageError(
                "nothing to send: this operation needs a JSON body",
                hint=f"give {example}, or --data JSON|@FILE|-",
            )
        return None
    schemas = schemas or load_schemas(tree.active.schemas_path)
    found = body_document(schemas, op["id"])
    check_field_keys(found, values.get("fields") or [])
    problems: dict[str, list[str]] = {}
    body = _converted(ctx, op, found, body, problems)
    if op["method"] == "PUT" and isinstance(body, dict):
        required = [f["name"] for f in body_meta.get("fields", ()) if f.get("required")]
        if any(name not in body for name in required):
            if problems:
                raise BodyInvalid(problems)
            return body  # leadctl.http.replace reads the rest and checks the whole body
    idem = op.get("idempotency")
    checked = body
    if idem and idem["in"] == "body" and isinstance(body, dict) and idem["name"] not in body:
        # The client adds a fresh key when it sends; a stand-in of its shape is checked.
        checked = {**body, idem["name"]: "00000000-0000-4000-8000-000000000000"}
    try:
        check_body(schemas, op["id"], checked)
    except BodyInvalid as invalid:
        for field, messages in invalid.errors.items():
            problems.setdefault(field, []).extend(messages)
    if problems:
        raise BodyInvalid(problems)
    return body


def _converted(
    ctx: Context,
    op: Mapping[str, Any],
    found: tuple[Any, Any] | None,
    body: Any,
    problems: dict[str, list[str]],
) -> Any:
    """``body`` with its times in UTC and its phone numbers in E.164."""
    from leadctl.contract.index import Document
    from leadctl.generated.values import Conversions, normalised

    doc, schema = found if found is not None else (Document({}), None)
    conversions = Conversions(
        zone=ctx.input_zone(),
        now=ctx.clock.now(),
        region=ctx.settings.get("region"),
        phones=frozenset((op.get("body") or {}).get("phones", ())),
    )
    return normalised(doc, schema, body, conversions, problems)


def _run_paged(
    ctx: Context,
    op: Mapping[str, Any],
    tree: GeneratedTree,
    values: Mapping[str, Any],
    path_params: Mapping[str, str],
    query: Mapping[str, Any],
) -> None:
    from leadctl.generated.body import (
        body_document,
        build_body,
        check_body,
        check_field_keys,
        load_schemas,
    )
    from leadctl.http.listing import check_count_alone, paging_from_flags, print_paged
    from leadctl.inputs.fields import merge_over

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
        from leadctl.http.query_options import descending_value, direction_key_of, list_body

        direction_key = direction_key_of(ctx.settings)
        descending = "desc"
        if values.get("order_by"):
            descending = descending_value(ctx, to_operation(op, ctx.settings), direction_key)
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
        (op.get("body") or {}).get("fields", ()),
        fields=values.get("fields") or [],
        data=values.get("data"),
        stdin=ctx.ios.stdin,
    )
    page_size = paging.page_size
    if given is not None or body or page_size is not None:
        # Only what the user typed needs checking; an empty query is valid by construction.
        schemas = load_schemas(tree.active.schemas_path)
        check_field_keys(body_document(schemas, op["id"]), values.get("fields") or [])
        if given is not None:
            body = merge_over(given, body)
        checked = {**body, "pageSize": page_size} if page_size is not None else body
        check_body(schemas, op["id"], checked)
    operation = to_operation(op, ctx.settings, query=urlencode(query, doseq=True))
    print_paged(
        ctx,
        operation,
        body,
        columns=columns_of(op),
        paging=paging,
        path_params=path_params or None,
        columns_from_contract=True,
    )


def _header(spec: Mapping[str, Any], value: str) -> tuple[str, str]:
    """A header parameter as sent: HTTP carries printable ASCII there (the name comes from
    the contract, the value from the user; either would be refused on the way out)."""
    name = str(spec["name"])
    for text in (name, value):
        if not text.isascii() or not all(c.isprintable() or c == "\t" for c in text):
            raise UsageError(
                f"{spec.get('flag') or name} {value!r}: the header {name!r} takes printable "
                "ASCII only",
                hint="percent-encode or base64 other text, as the service expects it",
            )
    return name, value


def _is_bytes(operation: Operation, response: Any) -> bool:
    """A read's redirect (followed to the bytes), or an answer that is not JSON."""
    from leadctl.http.download import is_redirect

    if is_redirect(response):
        return operation.method == "GET"
    return bool(response.content) and "json" not in response.headers.get("Content-Type", "")


def _decode(response: Any) -> Any:
    """The JSON answer, or None for no content."""
    if not response.content:
        return None
    from leadctl.http.client import decode_json

    return decode_json(response, trace=None)


def _emit(ctx: Context, op: Mapping[str, Any], data: Any, status: int) -> None:
    from leadctl.output import emit_list, emit_object

    if data is None:
        ctx.ios.info(f"done: {op['method']} {op['path']} answered {status} with no content")
    elif isinstance(data, list):
        emit_list(ctx, data, columns=columns_of(op))
    elif isinstance(data, dict):
        emit_object(ctx, data, columns=columns_of(op))
    else:
        import json

        ctx.ios.data_out(json=True).write(json.dumps(data, ensure_ascii=False) + "\n")


def _wait(
    ctx: Context, op: Mapping[str, Any], tree: GeneratedTree, data: Any, *, timeout: float
) -> Any:
    from leadctl.http.waiting import PendingRule, poll_function, wait_for

    rule_raw = op["pending"]
    poll_op = tree.operation(rule_raw["poll"])
    if poll_op is None:
        return data
    what = str(op["group"])
    return wait_for(
        ctx,
        data,
        PendingRule.from_index(rule_raw),
        poll_function(ctx, poll_op),
        timeout=timeout,
        what=what,
    )
