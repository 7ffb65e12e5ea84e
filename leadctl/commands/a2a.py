"""``leadctl a2a``: agent operations over JSON-RPC 2.0 (POST /a2a)."""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.errors import BadResponse, ExitCode, LeadctlError, UsageError

app = typer.Typer(help="Call an agent operation over JSON-RPC.", no_args_is_help=True)


@app.callback()
def group() -> None:
    """Call an agent operation over JSON-RPC."""
    # A Typer app with one command would otherwise collapse into that command, and
    # `leadctl GROUP VERB` would stop working.


_INTEGER_ID = re.compile(r"^-?(0|[1-9][0-9]{0,17})$")


class JsonRpcError(LeadctlError):
    """The service answered the call with a JSON-RPC error object: it was rejected."""

    exit_code = ExitCode.REJECTED

    def __init__(self, error: dict[str, Any]) -> None:
        self.error = error
        code = error.get("code")
        message = error.get("message")
        super().__init__(f"JSON-RPC error {code}: {message}")

    def detail_lines(self) -> list[str]:
        if "data" not in self.error:
            return super().detail_lines()
        from leadctl.output.json_out import COMPACT_JSON

        return [f"data: {COMPACT_JSON.encode(self.error['data'])}", *super().detail_lines()]

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        body["error"] = self.error
        return body


def request_id(raw: str | None) -> str | int:
    """The --id as sent: digits as a JSON number, anything else as a string; a fresh
    random string when not given."""
    if raw is None:
        import uuid

        return uuid.uuid4().hex
    if not raw.strip():
        raise UsageError("--id must not be empty")
    return int(raw) if _INTEGER_ID.match(raw) else raw


def envelope(
    method: str, params: dict[str, Any] | list[Any] | None, call_id: str | int
) -> dict[str, Any]:
    if not method.strip() or method != method.strip():
        raise UsageError(f"METHOD {method!r}: expected a method name such as agent.ping")
    if method.startswith("rpc."):
        raise UsageError(f"METHOD {method!r}: names starting with 'rpc.' are reserved")
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": call_id, "method": method}
    if params is not None:
        body["params"] = params
    return body


def result_of(response: Any, call_id: str | int) -> Any:
    """The call's result; a JSON-RPC error raises (exit 6), a malformed answer exit 8."""
    if not isinstance(response, dict):
        raise BadResponse(
            f"POST /a2a answered with {type(response).__name__}, not a JSON-RPC response"
        )
    error = response.get("error")
    answered_id = response.get("id")
    if error is not None:
        if not isinstance(error, dict) or "code" not in error:
            raise BadResponse("POST /a2a answered with a malformed JSON-RPC error")
        # A request the service could not read at all is answered with id null.
        if answered_id is not None and not _same_id(answered_id, call_id):
            raise _id_mismatch(answered_id, call_id)
        raise JsonRpcError(error)
    if not _same_id(answered_id, call_id):
        raise _id_mismatch(answered_id, call_id)
    if "result" not in response:
        raise BadResponse("POST /a2a answered with neither result nor error")
    return response["result"]


def _same_id(answered: Any, sent: str | int) -> bool:
    return type(answered) is type(sent) and answered == sent


def _id_mismatch(answered: Any, sent: str | int) -> BadResponse:
    from leadctl.output.json_out import COMPACT_JSON

    return BadResponse(
        f"POST /a2a answered id {COMPACT_JSON.encode(answered)}, "
        f"not the request's {COMPACT_JSON.encode(sent)}"
    )


@app.command(
    epilog="Examples:\n\n"
    "  leadctl a2a call agent.ping\n\n"
    '  leadctl a2a call leads.get --params \'{"id": "lead_123"}\' -o json | jq .statusChanges\n\n'
    "  leadctl a2a call leads.search --params @query.json --id 1",
)
def call(
    typer_ctx: typer.Context,
    method: Annotated[
        str, typer.Argument(metavar="METHOD", help="The JSON-RPC method, e.g. agent.ping.")
    ],
    params: Annotated[
        str | None,
        typer.Option(
            "--params",
            metavar="JSON|@FILE|-",
            help="The method's params: a JSON object or array.",
        ),
    ] = None,
    call_id: Annotated[
        str | None,
        typer.Option(
            "--id",
            metavar="ID",
            help="The request id: digits are sent as a number, anything else as a string "
            "(default: a random 32-character hex string).",
        ),
    ] = None,
) -> None:
    """Call an agent operation with a JSON-RPC 2.0 request (POST /a2a); print its result.

    The API docs do not show the body of /a2a: the envelope and the methods are the
    contract's assumption (agent.ping; leads.get {id}; leads.search with RequestDataOptions;
    leadStatusChanges.list {leadId}). A JSON-RPC error in the answer is exit 6 with its
    code and message; an answer for another id is exit 8. -o json prints the result
    itself, without the envelope. The call is not retried once sent: an unknown outcome
    is exit 9.
    """
    ctx = get_context(typer_ctx)
    from leadctl.fields import load_data_option

    parsed = None
    if params is not None:
        parsed = load_data_option(params, stdin=ctx.ios.stdin, flag="--params")
        if not isinstance(parsed, (dict, list)):
            raise UsageError("--params must be a JSON object or array")
    sent_id = request_id(call_id)
    body = envelope(method, parsed, sent_id)
    from leadctl.operations import curated
    from leadctl.output import emit_list, emit_object

    result = result_of(
        ctx.client().call_json(curated(ctx, "POST", "/a2a"), json_body=body), sent_id
    )
    if isinstance(result, list):
        emit_list(ctx, result, columns=())
    else:
        emit_object(ctx, result, columns=())
