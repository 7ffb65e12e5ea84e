"""``leadctl batch OPERATION``: one request per NDJSON input line, at the service's pace.

The work is in leadctl/bulk/ (the engine ``leads import`` uses too), imported only when
the command runs; it is handed :class:`leadctl.bulk.options.BatchOptions`, whose fields are
the flags' by name.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.bulk.options import DEFAULT_CONCURRENCY, STDIN, BatchOptions
from leadctl.cli.generated_tree import generated_tree
from leadctl.commands._verb import FromInvocation, verb_command
from leadctl.contract.catalogue import OperationCatalogue

if TYPE_CHECKING:
    from leadctl.context import Context

__all__ = ["EPILOG", "Options", "command", "run"]

EPILOG = (
    "Examples:\n\n"
    "  # archive the leads of a file of ids, one per line\n"
    "  leadctl batch 'leads archive' --input ids.txt --report archive.ndjson\n\n"
    "  # add a tag to many leads\n"
    "  jq -c '{id, tagName: \"vip\"}' leads.ndjson | leadctl batch 'leads add-tag'\n\n"
    "  # check many numbers against the suppression list, keep the suppressed ones\n"
    "  leadctl batch 'suppressions check' <nums.txt | jq 'select(.result.suppressed)'\n\n"
    "  # go on after an interruption: lines done (or unknown) are skipped\n"
    "  leadctl batch 'leads archive' --input ids.txt --resume archive.ndjson\n\n"
    "  # delete many leads at the published limit, without a question\n"
    "  leadctl batch 'leads delete' --input ids.txt --report delete.ndjson --rate 300/60s --yes"
)


@dataclass(frozen=True)
class Options:
    """The command line; the engine's own options are BatchOptions (the same names)."""

    operation: Annotated[
        str,
        typer.Argument(
            metavar="OPERATION",
            help="The operation: `group verb` (e.g. 'leads get'), its operationId, or "
            "'METHOD /path/{param}' as in the contract.",
        ),
    ]
    # The active contract's operations, which OPERATION is looked up in.
    tree: Annotated[OperationCatalogue, FromInvocation(generated_tree)]
    input: Annotated[
        str,
        typer.Option(
            "--input",
            metavar="FILE|-",
            help="NDJSON, one request per line: a JSON object of path, query and body "
            "fields by name; or, for an operation with one path parameter, a bare id, taken "
            "as written (1e3 and 0012 are ids, not numbers; a quoted JSON string is its "
            "text). - reads stdin.",
        ),
    ] = STDIN
    report: Annotated[
        str | None,
        typer.Option(
            "--report",
            metavar="FILE|-",
            help="Append each line's outcome as an NDJSON line: row (the line number), "
            "params (its path parameters), outcome (ok, rejected, invalid, unknown, "
            "unsent), status, result (the answer), id, error, digest, key. A file also "
            "gets a 'sending' line before each line's first request; stdout gets outcomes "
            "only. [default: stdout, or the --resume file]",
        ),
    ] = None
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            metavar="REPORT",
            help="Skip the lines REPORT has as ok (and as unknown, unless the operation "
            "is retry-safe or takes an idempotency key: those go again with their key), "
            "and append to it.",
        ),
    ] = None
    concurrency: Annotated[
        int,
        typer.Option(
            "--concurrency",
            metavar="N",
            help="Requests in flight at most, 1 to 32 (one connection pool).",
        ),
    ] = DEFAULT_CONCURRENCY
    retry_unknown: Annotated[
        bool,
        typer.Option(
            "--retry-unknown",
            help="With --resume, send lines whose outcome was unknown again (for an "
            "operation that is not retry-safe this can act twice).",
        ),
    ] = False
    rate: Annotated[
        str | None,
        typer.Option(
            "--rate",
            metavar="N/WINDOW",
            help="The service's limit, e.g. 300/60s: requests go evenly at that pace from "
            "the first one, instead of bursting until the first 429. [default: the "
            "profile's rate_limit, else paced by the service's 429s]",
        ),
    ] = None
    yes: Annotated[
        bool,
        typer.Option(
            "--yes",
            "-y",
            help="Confirm a destructive operation (a DELETE; remove, revoke, archive, "
            "cancel, purge) for every line at once; required without a terminal.",
        ),
    ] = False


def run(opts: Options, ctx: Context) -> None:
    """Send the lines, paced, and report each outcome."""
    from leadctl.bulk.batch import run_batch

    given = {field.name: getattr(opts, field.name) for field in dataclasses.fields(opts)}
    run_batch(ctx, BatchOptions(**given))


HELP = """One request per NDJSON input line, paced to the service.

    Any operation of the active contract, curated or generated (`leadctl contract show`
    lists them; the examples' 'leads archive', 'leads add-tag' and 'suppressions check'
    stand for what a service's contract calls these operations). Lines are numbered from
    1. A line that is not JSON, lacks a required parameter or names a field the
    operation does not take is reported invalid with its number, nothing is sent for it,
    and the batch goes on.

    Per line it does what the single command does: a collection read whose body is a
    query sends {} when the line gives only the path parameters; a full-replacement PUT
    reads the resource, merges the line's fields into it and sends the whole body (with
    If-Match). A destructive operation asks once on a terminal, else needs --yes.

    Up to --concurrency requests are in flight on one connection pool, at the pace of
    --rate (or the profile's rate_limit) from the first request when given. On 429 every
    worker pauses for the Retry-After (backoff with jitter without one); sending then
    resumes at the rate the service accepted, measured across its window, and back at
    full pace once a window passes without a 429.

    A report file records each line (its number, path parameters and idempotency key)
    before it is sent, then its outcome; one run at a time may use it. A line sent
    without an answer (timeout, dropped connection, 5xx) is sent again only when the
    operation is retry-safe or takes an idempotency key (one key per line, the same on
    every retry and in the report, so --resume sends it with the same key); otherwise it
    is reported unknown and never sent again: --resume skips it (exit 9) unless
    --retry-unknown is given. Ctrl-C records a line waiting to be sent again as unknown
    (or unsent when the service cannot have acted). The batch stops early on 401 or
    403, when the service cannot be reached, or after 10 unknown outcomes in a row.

    The summary goes to stderr. Exit 0 when every line succeeded, 6 when some were
    rejected or invalid, 9 when any outcome is unknown (it wins over 6); an unknown
    OPERATION, a --concurrency outside 1..32, a bad --rate, a report in use by another
    run or a destructive operation without --yes is exit 2, with nothing sent.
    """

command = verb_command(Options, run, help=HELP)
