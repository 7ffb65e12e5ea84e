"""``leadctl lead-statuses list``: the organization's lead statuses, in display order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.commands._verb import verb_command
from leadctl.contract.operations import curated
from leadctl.output import emit_list, prints_as_received
from leadctl.output.columns import Column
from leadctl.output.response_columns import output_columns
from leadctl.verbkit.shared_reads import read_lead_statuses

if TYPE_CHECKING:
    from leadctl.context import Context

STATUS_COLUMNS = (
    Column("name"),
    Column("color", kind="color"),
    Column("category"),
    Column("sortOrder", kind="number"),
    Column("isArchived", kind="bool"),
    # Last, but never left out on a narrow terminal: it is what other commands take.
    Column("id", keep=True),
)

EPILOG = (
    "Examples:\n\n"
    "  leadctl lead-statuses list\n\n"
    "  leadctl lead-statuses list -o value --columns id,name\n\n"
    "  leadctl lead-statuses list -o json | jq -r '.[] | select(.category==\"Converted\") | .id'"
)


@dataclass(frozen=True)
class Options:
    """`lead-statuses list` takes only the global options."""


def display_order(statuses: list[Any]) -> list[Any]:
    """By sortOrder; ties and statuses without one keep the service's order (last)."""

    def key(status: Any) -> tuple[int, int]:
        order = status.get("sortOrder") if isinstance(status, dict) else None
        if isinstance(order, int) and not isinstance(order, bool):
            return (0, order)
        return (1, 0)

    return sorted(statuses, key=key)


def status_columns(ctx: Context) -> list[Column]:
    """The columns of a status, fitted to the active contract (--columns checked)."""

    return output_columns(ctx, curated(ctx, "GET", "/lead-statuses"), STATUS_COLUMNS)


def run(opts: Options, ctx: Context) -> None:
    """GET /lead-statuses, checked, printed in display order (JSON formats as received)."""

    columns = status_columns(ctx)
    statuses: list[Any] = read_lead_statuses(ctx)
    # json and ndjson are the service's JSON unchanged, order included; the formats for
    # people and spreadsheets follow the display order the statuses define.
    if not prints_as_received(ctx):
        statuses = display_order(statuses)
    emit_list(ctx, statuses, columns=columns)


HELP = """List the organization's lead statuses (GET /lead-statuses), in display order.

    Table, csv, tsv and value views are ordered by sortOrder (ties keep the service's
    order); -o json and -o ndjson print the service's array exactly as received. On a
    terminal the color column shows a swatch of the status color; archived statuses read
    'yes' under isArchived.
    """

command = verb_command(Options, run, help=HELP)
