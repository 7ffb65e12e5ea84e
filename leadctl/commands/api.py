"""``leadctl api METHOD PATH``: any operation, raw, with leadctl's auth, retries and errors."""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.errors import LeadctlError, UsageError

app = typer.Typer()

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_FORBIDDEN_HEADERS = {"authorization", "proxy-authorization", "cookie", "host", "content-length"}


def parse_header(raw: str) -> tuple[str, str]:
    name, sep, value = raw.partition(":")
    name = name.strip()
    if not sep or not name or any(c in name for c in ' \t()<>@,;\\"/[]?={}'):
        raise UsageError(f"-H {raw!r}: expected 'Name: value'")
    if name.lower() in _FORBIDDEN_HEADERS:
        raise UsageError(
            f"-H {name}: leadctl sets this header itself",
            hint="credentials never go on the command line: use `leadctl auth login` "
            "or LEADCTL_TOKEN",
        )
    return name, value.strip()


@app.command(
    epilog="Examples:\n\n"
    "  leadctl api GET /lead-statuses\n\n"
    "  leadctl api POST /leads/all/my -F pageSize=50 --paginate -o ndjson | jq .id\n\n"
    "  leadctl api PUT /sources/src_1 -f name='Web form' --include",
)
def api(
    typer_ctx: typer.Context,
    method: Annotated[str, typer.Argument(metavar="METHOD", help="HTTP method.")],
    path: Annotated[str, typer.Argument(metavar="PATH", help="Path under the base URL.")],
    raw_fields: Annotated[
        list[str] | None,
        typer.Option("-f", "--raw-field", metavar="KEY=VALUE", help="A string field."),
    ] = None,
    typed_fields: Annotated[
        list[str] | None,
        typer.Option(
            "-F",
            "--field",
            metavar="KEY=VALUE",
            help="A typed field: true/false/null, numbers, JSON, @FILE.",
        ),
    ] = None,
    input_file: Annotated[
        str | None,
        typer.Option("--input", metavar="FILE|-", help="Request body from a file or stdin."),
    ] = None,
    headers: Annotated[
        list[str] | None,
        typer.Option("-H", "--header", metavar="'Name: value'", help="An extra header."),
    ] = None,
    paginate: Annotated[
        bool,
        typer.Option("--paginate", help="Follow continuationToken over every page."),
    ] = False,
    include: Annotated[
        bool, typer.Option("-i", "--include", help="Print the status line and headers too.")
    ] = False,
) -> None:
    """Call any API operation with a raw request.

    Fields become the JSON body (query parameters for GET, HEAD and DELETE). The
    credential, retries, errors and exit codes are those of every leadctl command: a
    POST the operation table does not know is treated as not retry-safe.
    """
    ctx = get_context(typer_ctx)
    verb = method.upper()
    if verb not in METHODS:
        raise UsageError(f"unknown method {method!r}", hint=f"use one of {', '.join(METHODS)}")
    if not path.startswith("/"):
        raise UsageError(
            f"PATH must start with '/': {path!r}",
            hint="the request always goes to the profile's base URL",
        )
    from leadctl.fields import build_fields, read_source
    from leadctl.operations import operation_for

    extra_headers = [parse_header(h) for h in headers or []]
    fields = build_fields(raw_fields or [], typed_fields or [], stdin=ctx.ios.stdin)
    op = operation_for(ctx, verb, path)
    query: dict[str, Any] | None = None
    body: Any = None
    content: bytes | None = None
    if input_file is not None:
        if fields and verb not in ("GET", "HEAD", "DELETE"):
            raise UsageError("--input and fields cannot be combined for a request body")
        content = read_source(input_file, what="--input", stdin=ctx.ios.stdin).encode("utf-8")
        if not any(name.lower() == "content-type" for name, _ in extra_headers):
            extra_headers.append(("Content-Type", "application/json"))
    if verb in ("GET", "HEAD", "DELETE"):
        query = {k: _query_value(v) for k, v in fields.items()} or None
    elif fields:
        body = fields
    if paginate:
        _paginate(ctx, op, path, body, content)
        return
    response = ctx.client().call(
        dataclasses.replace(op, path=path),
        params=query,
        json_body=body,
        content=content,
        headers=extra_headers,
    )
    out = ctx.ios.stdout
    if include:
        out.write(f"HTTP/1.1 {response.status_code} {response.reason_phrase}\n")
        for name, value in response.headers.items():
            out.write(f"{name}: {value}\n")
        out.write("\n")
    _write_body(ctx, response.content, response.headers.get("Content-Type", ""))


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return "" if value is None else str(value)


def _write_body(ctx: Any, content: bytes, content_type: str) -> None:
    out = ctx.ios.stdout
    if not content:
        return
    if "json" in content_type and _formatted_output_wanted(ctx):
        try:
            data = json.loads(content)
        except ValueError:
            data = None
        if data is not None:
            _emit_data(ctx, data)
            return
    if "json" in content_type and ctx.ios.stdout_is_tty:
        try:
            out.write(json.dumps(json.loads(content), indent=2, ensure_ascii=False) + "\n")
            return
        except ValueError:
            pass
    text = content.decode("utf-8", errors="replace")
    out.write(text if text.endswith("\n") else text + "\n")


def _formatted_output_wanted(ctx: Any) -> bool:
    """--jq, --columns or an -o other than json: the body goes through the output layer
    (raw JSON stays the default, even on a terminal)."""
    options = ctx.options
    return bool(
        options.jq is not None
        or options.columns
        or (options.output is not None and options.output not in ("json", "ndjson"))
    )


def _emit_data(ctx: Any, data: Any) -> None:
    """A decoded answer in the chosen format; a collection page shows its items."""
    from leadctl.output import emit_list, emit_object

    if ctx.options.jq is not None or isinstance(data, (str, int, float, bool)):
        emit_object(ctx, data, columns=[])
    elif isinstance(data, list):
        emit_list(ctx, data, columns=[])
    elif isinstance(data, dict) and isinstance(data.get("items"), list):
        emit_list(ctx, data["items"], columns=[])
    else:
        emit_object(ctx, data, columns=[])


def _paginate(ctx: Any, op: Any, path: str, body: Any, content: bytes | None) -> None:
    from leadctl.fields import parse_json_text
    from leadctl.output import emit_list
    from leadctl.paging import Pager, PageRequest

    if op.method == "GET":
        raise UsageError("--paginate follows RequestDataOptions bodies: use it with POST")
    if content is not None:
        body = parse_json_text(content.decode("utf-8", errors="replace"), what="--input")
    if body is not None and not isinstance(body, dict):
        raise UsageError("--paginate needs a JSON object body (RequestDataOptions)")
    paged_op = dataclasses.replace(op, path=path, paged=True)
    pager = Pager(ctx.client(), paged_op, body or {}, PageRequest(all_pages=True))
    try:
        emit_list(ctx, pager, columns=[], streamed=True)
    except LeadctlError as error:
        pager.note_resume_point(error)
        raise
    if pager.interrupted:
        raise pager.interruption_error()
