"""``leadctl status-changes delete``: remove an entry of a lead's status history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.contract.operations import curated
from leadctl.errors import ApiError, BadResponse, NotFound
from leadctl.http.client import decode_json
from leadctl.output import emit_object, prints_as_received

if TYPE_CHECKING:
    import httpx

    from leadctl.context import Context

EPILOG = (
    "Examples:\n\n"
    "  leadctl status-changes delete CHANGE_ID\n\n"
    "  leadctl status-changes delete CHANGE_ID --yes        # in scripts and cron"
)


@dataclass(frozen=True)
class Options:
    change_id: Annotated[str, typer.Argument(metavar="ID", help="The status change to delete.")]
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask; required without a terminal.")
    ] = False


def run(opts: Options, ctx: Context) -> None:
    """Confirm (unless --yes or --dry-run), DELETE, and say so on stderr."""

    change_id = opts.change_id
    if not ctx.options.dry_run:
        ctx.ios.confirm(f"Delete status change {change_id}?", assume_yes=opts.yes)
    try:
        response = ctx.client().call(
            curated(ctx, "DELETE", "/lead-status-changes/{id}"), path_params={"id": change_id}
        )
    except ApiError as error:
        if error.status == 404 and error.attempts > 1:
            # The first answer was lost; a retry cannot tell "we deleted it" from "never was".
            raise NotFound(
                f"status change {change_id} is gone, but leadctl cannot confirm it deleted it",
                hint="an earlier attempt's answer was lost and the retry got 404: that "
                "attempt most likely deleted it (or the ID never existed)",
            ) from None
        raise
    if response.content and "json" in response.headers.get("Content-Type", ""):
        _show_answer(ctx, response)
    ctx.ios.info(f"deleted status change {change_id}")


def _show_answer(ctx: Context, response: httpx.Response) -> None:
    """The service's JSON answer, printed only where its JSON is printed as received
    (it is not a status change: never as columns or a table)."""

    if not prints_as_received(ctx):
        return

    try:
        answer = decode_json(response, trace=None)
    except BadResponse:
        # The 2xx is what says it was deleted; an unreadable body must not turn that
        # into a failure a script would retry or alert on.
        ctx.ios.warn("the service's answer had a body that is not JSON; not shown")
    else:
        emit_object(ctx, answer, columns=())


HELP = """Delete an entry of a lead's status history (DELETE /lead-status-changes/{id}).

    It no longer appears in event or reporting views. Asks for confirmation on a terminal
    and needs --yes without one. Prints `deleted status change ID` on stderr and nothing
    on stdout (the contract assumes the service answers 204 with no body; a JSON body,
    if one comes, is printed under -o json).
    """

command = verb_command(Options, run, help=HELP)
