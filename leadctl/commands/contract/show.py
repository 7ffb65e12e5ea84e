"""``leadctl contract show``: the active contract, per group or per operation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.contract._shared import TreeContract
from leadctl.commands.contract.summary import print_summary, summary
from leadctl.contract.operations import active_index_of
from leadctl.output import emit_list
from leadctl.output.columns import Column

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.store import ActiveIndex

OPERATION_COLUMNS = (
    Column("command"),
    Column("kind"),
    Column("method"),
    Column("path"),
    Column("operationId"),
    Column("retrySafe", kind="bool"),
    Column("credentials"),
    Column("summary"),
)


@dataclass(frozen=True)
class Options:
    operations: Annotated[
        bool, typer.Option("--operations", help="List every operation and its command instead.")
    ] = False
    tree_contract: TreeContract = None


def run(opts: Options, ctx: Context) -> None:
    if opts.tree_contract is not None:
        ctx.use_active_index(opts.tree_contract)
    active = active_index_of(ctx)
    if opts.operations:
        emit_list(ctx, _operation_rows(active), columns=OPERATION_COLUMNS)
        return
    print_summary(ctx, summary(active, ctx.profile_name))


def _operation_rows(active: ActiveIndex) -> list[dict[str, Any]]:
    return [
        {
            "command": op.command,
            "kind": "generated" if op.generated else "curated",
            "method": op.method,
            "path": op.path,
            "operationId": op.operation_id,
            "retrySafe": op.retry_safe,
            "retryReason": op.retry_reason,
            # Empty: the operation takes no credential (security: []).
            "credentials": ",".join(op.kinds) or "none",
            "summary": op.summary,
        }
        for op in active.listings()
    ]


EPILOG = (
    "Examples:\n\n"
    "  leadctl contract show\n\n"
    "  leadctl contract show --operations -o csv > operations.csv\n\n"
    "  leadctl -p sandbox contract show -o json | jq '.groups[] | {group, generated}'"
)


HELP = """Show the active contract: where it came from, its version, operations per group.

    The active contract is the one imported or pulled for the profile's service (base
    URL), else, for the sandbox profile, the one the sandbox publishes, else the contract
    bundled with leadctl. Curated commands are counted by the operations they are bound to
    (METHOD and path template).

    --operations also shows each operation's retry safety and the credentials its
    contract security admits: a source key for a scheme whose name, bearerFormat or
    description says it takes a source (or intake) key; organization keys and user tokens
    for every other scheme (bearer, basic, apiKey, oauth2, openIdConnect); none for
    security: [] or optional security ([{}, ...]).

    -o json prints one object with a groups array; csv, tsv and value print the groups
    (or, with --operations, the operations).
    """

command = verb_command(Options, run, help=HELP)
