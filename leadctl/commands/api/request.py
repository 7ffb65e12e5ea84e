"""``leadctl api METHOD PATH``: any operation, raw, with leadctl's auth, retries and errors."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.api.items import method_path_items
from leadctl.commands.api.paginate import paginate
from leadctl.commands.api.response import write_body
from leadctl.contract.operations import operation_for
from leadctl.errors import UsageError
from leadctl.inputs.fields import build_fields, parse_json_text, read_source

if TYPE_CHECKING:
    from leadctl.context import Context

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
    value = value.strip()
    if not (name + value).isascii() or not all(c.isprintable() or c == "\t" for c in value):
        # HTTP carries ASCII here; anything else would be refused on the way out.
        raise UsageError(
            f"-H {raw!r}: a header name and value are printable ASCII",
            hint="percent-encode or base64 other text, as the service expects it",
        )
    return name, value


@dataclass(frozen=True)
class Request:
    # METHOD, PATH and the flags as typed: send checks them in the order users have learnt
    # (method, path, headers, fields), before anything is read or sent.
    method: str
    path: str
    raw_fields: tuple[str, ...] = ()
    typed_fields: tuple[str, ...] = ()
    input_file: str | None = None
    headers: tuple[str, ...] = ()
    paginate: bool = False
    include: bool = False
    # HTTPie's `key:=json` and `name==value` items (their `=` and `:` join -f and -H).
    json_fields: tuple[tuple[str, str], ...] = ()
    query: tuple[tuple[str, str], ...] = ()
    slurp: bool = False


def send(opts: Request, ctx: Context) -> None:
    """Check the request (method, path, headers, fields, in that order), then send it."""
    verb = opts.method.upper()
    if verb not in METHODS:
        raise UsageError(f"unknown method {opts.method!r}", hint=f"use one of {', '.join(METHODS)}")
    if not opts.path.startswith("/"):
        raise UsageError(
            f"PATH must start with '/': {opts.path!r}",
            hint="the request always goes to the profile's base URL",
        )

    if opts.slurp and not opts.paginate:
        raise UsageError("--slurp collects the pages of --paginate: give both")
    extra_headers = [parse_header(h) for h in opts.headers]
    fields = build_fields(
        opts.raw_fields, opts.typed_fields, stdin=ctx.ios.stdin, json_fields=opts.json_fields
    )
    op = operation_for(ctx, verb, opts.path)
    query: dict[str, Any] | None = None
    body: Any = None
    content: bytes | None = None
    if opts.input_file is not None:
        if fields and verb not in ("GET", "HEAD", "DELETE"):
            raise UsageError("--input and fields cannot be combined for a request body")
        text = read_source(opts.input_file, what="--input", stdin=ctx.ios.stdin)
        content = text.encode("utf-8")
        if not any(name.lower() == "content-type" for name, _ in extra_headers):
            extra_headers.append(("Content-Type", "application/json"))
        check_json_input(text, extra_headers)
    if verb in ("GET", "HEAD", "DELETE"):
        query = {k: _query_value(v) for k, v in fields.items()} or None
    elif fields:
        body = fields
    if opts.query:
        query = {**(query or {}), **_query_items(opts.query)}
    if opts.paginate:
        paginate(ctx, op, opts.path, body, content, slurp=opts.slurp)
        return
    response = ctx.client().call(
        dataclasses.replace(op, path=opts.path),
        params=query,
        json_body=body,
        content=content,
        headers=extra_headers,
    )
    out = ctx.ios.data_out()
    if opts.include:
        out.write(f"HTTP/1.1 {response.status_code} {response.reason_phrase}\n")
        for name, value in response.headers.items():
            out.write(f"{name}: {value}\n")
        out.write("\n")
    write_body(ctx, response.content, response.headers.get("Content-Type", ""))


def _query_items(pairs: tuple[tuple[str, str], ...]) -> dict[str, str | list[str]]:
    """``name==value`` items as query parameters; a name given twice is sent twice."""
    query: dict[str, list[str]] = {}
    for name, value in pairs:
        query.setdefault(name, []).append(value)
    return {name: values[0] if len(values) == 1 else values for name, values in query.items()}


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return "" if value is None else str(value)


EPILOG = (
    "Examples:\n\n"
    "  leadctl api /lead-statuses\n\n"
    "  leadctl api /leads/all/my -F pageSize=50 --paginate -o ndjson | jq .id\n\n"
    "  leadctl api PUT /sources/SOURCE_ID -f name='Web form' --include\n\n"
    "  leadctl api -X PUT /sources/SOURCE_ID name='Web form' active:=true X-Trace:abc\n\n"
    "  leadctl api /leads/all/my --paginate --slurp | jq length"
)


@dataclass(frozen=True)
class Options:
    """The command line: METHOD and PATH are among the words, with HTTPie's items."""

    words: Annotated[
        tuple[str, ...],
        typer.Argument(
            metavar="[METHOD] PATH [ITEM...]",
            help="HTTP method (without one: GET, or POST when fields or --input give a "
            "body), the path under the base URL, then HTTPie's request items: name=value "
            "(a string field), name:=JSON (a JSON field), Header:value, name==value (a "
            "query parameter).",
            show_default=False,
        ),
    ] = ()
    raw_fields: Annotated[
        tuple[str, ...],
        typer.Option("-f", "--raw-field", metavar="KEY=VALUE", help="A string field."),
    ] = ()
    typed_fields: Annotated[
        tuple[str, ...],
        typer.Option(
            "-F",
            "--field",
            metavar="KEY=VALUE",
            help="A typed field: true/false/null, numbers, JSON, @FILE.",
        ),
    ] = ()
    input_file: Annotated[
        str | None,
        typer.Option("--input", metavar="FILE|-", help="Request body from a file or stdin."),
    ] = None
    headers: Annotated[
        tuple[str, ...],
        typer.Option("-H", "--header", metavar="'Name: value'", help="An extra header."),
    ] = ()
    paginate: Annotated[
        bool,
        typer.Option("--paginate", help="Follow continuationToken over every page."),
    ] = False
    include: Annotated[
        bool, typer.Option("-i", "--include", help="Print the status line and headers too.")
    ] = False
    method: Annotated[
        str | None,
        typer.Option("-X", "--method", metavar="METHOD", help="The HTTP method, as gh's -X."),
    ] = None
    slurp: Annotated[
        bool,
        typer.Option(
            "--slurp",
            help="With --paginate: every page's items as one JSON array, which --jq reads "
            "whole (--jq length counts them all), on a terminal too.",
        ),
    ] = False


def run(opts: Options, ctx: Context) -> None:
    """The words typed as METHOD, PATH and request items; the method GET unless a body is
    given (then POST); then the request is sent."""
    named, target, items = method_path_items(
        list(opts.words), method_flag=opts.method, methods=METHODS
    )
    has_body = bool(
        opts.raw_fields
        or opts.typed_fields
        or items.has_body
        or opts.input_file is not None
        or opts.paginate
    )
    send(
        Request(
            named or ("POST" if has_body else "GET"),
            target,
            raw_fields=(*opts.raw_fields, *items.raw_fields),
            typed_fields=opts.typed_fields,
            input_file=opts.input_file,
            headers=(*opts.headers, *items.headers),
            paginate=opts.paginate,
            include=opts.include,
            json_fields=tuple(items.json_fields),
            query=tuple(items.query),
            slurp=opts.slurp,
        ),
        ctx,
    )


HELP = """Call any API operation with a raw request.

    As with gh api, the method is GET unless fields or --input give a body (or --paginate
    reads a collection's pages), then POST; name it (or -X METHOD) to send another.
    HTTPie's request items work too: `leadctl api /leads/all/my pageSize:=2 X-Trace:abc`.
    Fields become the JSON body (query parameters for GET, HEAD and DELETE). The
    credential, retries, errors and exit codes are those of every leadctl command: a POST
    the active contract does not describe is treated as not retry-safe.
    """

command = verb_command(Options, run, help=HELP)


def check_json_input(text: str, headers: list[tuple[str, str]]) -> None:
    """``--input`` sent as JSON must be JSON: NaN, a repeated key or a typo is exit 2
    before sending, never a body the service reads otherwise (or not at all)."""

    content_type = next((value for name, value in headers if name.lower() == "content-type"), "")
    if "json" not in content_type.lower():
        return
    try:
        parse_json_text(text, what="--input")
    except UsageError as error:
        error.hint = "to send it as it is, name another type: -H 'Content-Type: text/plain'"
        raise
