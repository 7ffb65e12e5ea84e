"""``leadctl lead-statuses get``: one lead status, by id or by name.

Scripts need a status's id (``status-changes update --status-id``) but people know its
name; this verb turns one into the other. The reference shows no read of one status, so
it reads the list (GET /lead-statuses) and picks: every service has that operation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.cli.suggest import close_matches
from leadctl.commands._verb import verb_command
from leadctl.commands.lead_statuses.list_ import status_columns
from leadctl.errors import NotFound, UsageError
from leadctl.output import emit_object
from leadctl.verbkit.shared_reads import read_lead_statuses

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = (
    "Examples:\n\n"
    "  leadctl lead-statuses get Converted\n\n"
    "  leadctl lead-statuses get 'Follow up' -o value --columns id\n\n"
    "  leadctl lead-statuses get LEAD_STATUS_ID -o json"
)


@dataclass(frozen=True)
class Options:
    # An id, or a name compared without regard to case.
    status: Annotated[str, typer.Argument(help="The status's id, or its name (any case).")]


def pick(statuses: list[Any], wanted: str) -> Any:
    """The status whose id is ``wanted``, else the one whose name is (any case); two with
    that name are a usage error naming their ids, none is not found."""
    for status in statuses:
        if status.get("id") == wanted:
            return status
    folded = wanted.casefold()
    named = [s for s in statuses if str(s.get("name", "")).casefold() == folded]
    if len(named) == 1:
        return named[0]
    if named:
        ids = ", ".join(str(s.get("id")) for s in named)
        raise UsageError(
            f"{len(named)} lead statuses are named {wanted!r}: {ids}", hint="give its id"
        )

    # Compared folded, as the names are matched; shown as the service spells them.
    by_folded = {
        s["name"].casefold(): s["name"] for s in statuses if isinstance(s.get("name"), str)
    }
    close = [by_folded[name] for name in close_matches(folded, by_folded)]
    raise NotFound(
        f"no lead status has the id or name {wanted!r}",
        hint=f"did you mean {' or '.join(repr(n) for n in close)}?"
        if close
        else "`leadctl lead-statuses list` shows them all",
    )


def run(opts: Options, ctx: Context) -> None:

    columns = status_columns(ctx)
    emit_object(ctx, pick(read_lead_statuses(ctx), opts.status), columns=columns)


HELP = """Show one lead status, found by id or by name (reads GET /lead-statuses).

    -o json prints the status as the service sent it; a table shows its fields. A name
    that two statuses share is refused with their ids (exit 2); an unknown id or name
    exits 5 with the closest names.
    """

command = verb_command(Options, run, help=HELP)
