"""``leadctl a2a call``: one agent operation as a JSON-RPC 2.0 request (POST /a2a)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.a2a.jsonrpc import envelope, request_id, result_of
from leadctl.contract.operations import curated
from leadctl.errors import UsageError
from leadctl.inputs.fields import load_data_option
from leadctl.output import emit_list, emit_object

if TYPE_CHECKING:
    from leadctl.context import Context


@dataclass(frozen=True)
class Options:
    method: Annotated[
        str, typer.Argument(metavar="METHOD", help="The JSON-RPC method, e.g. agent.ping.")
    ]
    # As typed (JSON, @FILE or -): reading stdin or a file is run's job, after Typer's checks.
    params: Annotated[
        str | None,
        typer.Option(
            "--params",
            metavar="JSON|@FILE|-",
            help="The method's params: a JSON object or array.",
        ),
    ] = None
    # As typed: digits become a JSON number, nothing a fresh random id (request_id).
    call_id: Annotated[
        str | None,
        typer.Option(
            "--id",
            metavar="ID",
            help="The request id: digits are sent as a number, anything else as a string "
            "(default: a random 32-character hex string).",
        ),
    ] = None


def run(opts: Options, ctx: Context) -> None:

    parsed = None
    if opts.params is not None:
        parsed = load_data_option(opts.params, stdin=ctx.ios.stdin, flag="--params")
        if not isinstance(parsed, (dict, list)):
            raise UsageError("--params must be a JSON object or array")
    sent_id = request_id(opts.call_id)
    body = envelope(opts.method, parsed, sent_id)

    result = result_of(
        ctx.client().call_json(curated(ctx, "POST", "/a2a"), json_body=body), sent_id
    )
    if isinstance(result, list):
        emit_list(ctx, result, columns=())
    else:
        emit_object(ctx, result, columns=())


EPILOG = (
    "Examples:\n\n"
    "  leadctl a2a call agent.ping\n\n"
    '  leadctl a2a call leads.get --params \'{"id": "LEAD_ID"}\' -o json | jq .statusChanges\n\n'
    "  leadctl a2a call leads.search --params @query.json --id 1"
)


HELP = """Call an agent operation with a JSON-RPC 2.0 request (POST /a2a); print its result.

    The JSON-RPC envelope and the methods are leadctl's assumption about the service
    (agent.ping; leads.get {id}; leads.search with a collection query like `leads list`
    sends; leadStatusChanges.list {leadId}); --params passes whatever a method takes. A
    JSON-RPC error in the answer is exit 6 with its code and message; an answer for another
    id is exit 8. -o json prints the result itself, without the envelope. The call is not
    retried once sent: an unknown outcome is exit 9.
    """

command = verb_command(Options, run, help=HELP)
