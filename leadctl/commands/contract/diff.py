"""``leadctl contract diff``: operations added, removed or changed against the active contract."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl import __version__
from leadctl.commands._verb import verb_command
from leadctl.commands.contract._shared import (
    SourceArgument,
    TimeLimitOption,
    TreeContract,
    load_checked,
    report_problems,
)
from leadctl.contract.diff import diff_contracts
from leadctl.contract.formats import parse_document, to_31
from leadctl.contract.index import compile_index, curated_command_names
from leadctl.contract.listing import Listing, listing_of
from leadctl.contract.operations import active_index_of
from leadctl.output import emit_list, prints_as_received
from leadctl.output.columns import Column

if TYPE_CHECKING:
    from leadctl.commands.contract._shared import Checked
    from leadctl.context import Context

DIFF_COLUMNS = (
    Column("change"),
    Column("command"),
    Column("method"),
    Column("path"),
    Column("operation"),
    Column("details"),
)


@dataclass(frozen=True)
class Options:
    # FILE, https URL or - (stdin), as typed: read_contract tells them apart.
    source: SourceArgument
    time_limit: TimeLimitOption = None
    tree_contract: TreeContract = None


def run(opts: Options, ctx: Context) -> None:
    if opts.tree_contract is not None:
        ctx.use_active_index(opts.tree_contract)
    active = active_index_of(ctx)
    checked = load_checked(ctx, opts.source, opts.time_limit)
    document, label = checked.loaded.document, checked.label
    report_problems(ctx, checked.loaded)

    current = to_31(
        parse_document(active.contract_path.read_bytes(), what="the active contract", budget=None)
    )
    changes = diff_contracts(current, document)
    commands = _commands(active.listings())
    if any(change.change == "added" for change in changes):
        compiled = _compile(checked)
        commands = {**_commands(listing_of(e) for e in compiled["operations"]), **commands}
    rows = [change.to_json(commands.get(change.operation)) for change in changes]
    # The details are a list in json and ndjson; one cell of text in the other formats.
    if not prints_as_received(ctx):
        for row in rows:
            row["details"] = "; ".join(row["details"])
    emit_list(ctx, rows, columns=DIFF_COLUMNS)
    counts = {kind: sum(1 for c in changes if c.change == kind) for kind in ("added", "removed")}
    changed = len(changes) - counts["added"] - counts["removed"]
    ctx.ios.info(
        f"{label} against the active contract: {counts['added']} added, "
        f"{counts['removed']} removed, {changed} changed"
    )


def _commands(operations: Iterable[Listing]) -> dict[str, str]:
    return {op.id: op.command for op in operations}


def _compile(checked: Checked) -> dict[str, Any]:
    index, _schemas = compile_index(
        checked.loaded.document,
        raw=checked.loaded.raw,
        source=checked.label,
        imported_at=None,
        curated_verbs=curated_command_names(),
        leadctl_version=__version__,
        budget=checked.budget,
    )
    return index


EPILOG = (
    "Examples:\n\n"
    "  leadctl contract diff new-openapi.json\n\n"
    "  leadctl contract diff https://api.example.com/openapi.json -o json | jq '.[].operation'\n\n"
    "  leadctl contract diff openapi.json --columns change,command,details"
)


HELP = """Show operations added, removed or changed in FILE against the active contract.

    Operations are matched by METHOD and path template (one that only moved, by
    operationId). Changed means what a caller notices: operationId, path or method,
    parameters, body fields, responses, retry safety, credentials (which kinds, and
    where they go), pending rules, deprecation. The command column names each
    operation's command (the new contract's for added ones). Operations the new contract
    has but leadctl would leave out (a defect) are named on stderr. Exit 0 whether or not
    anything changed.
    """

command = verb_command(Options, run, help=HELP)
