"""``leadctl leads list``: the organization's leads, a page or all of them, filtered and sorted."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._verb import verb_command
from leadctl.errors import LeadctlError
from leadctl.http.paging_flags import Paging, check_count_alone
from leadctl.output.columns import Column

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from leadctl.context import Context

# The Lead schema is an assumption of the contract (the reference shows no lead records).
# Most wanted first: on a narrow terminal the columns from the right are left out (and
# named), never cut; --columns shows any others, e.g. email, product, sourceId.
LEAD_COLUMNS = (
    Column("id"),
    Column("firstName"),
    Column("lastName"),
    Column("phone"),
    Column("state"),
    Column("status.name", header="status", color_path="status.color"),
    Column("tags[].name", header="tags"),
    Column("processingStatus", header="processing"),
    Column("createdAt", kind="datetime"),
)


EPILOG = (
    "Examples:\n\n"
    "  leadctl leads list --search smith --order-by -createdAt\n\n"
    "  leadctl leads list --filter state=TX -o csv --columns id,firstName,phone,state > tx.csv\n\n"
    "  leadctl leads list --range 'createdAt>=2026-11-01' --all -o ndjson | jq -r .phone"
)


@dataclass(frozen=True)
class Options:
    search: Annotated[
        str | None, typer.Option("--search", metavar="TEXT", help="Full-text search.")
    ] = None
    search_fields: Annotated[
        tuple[str, ...],
        typer.Option(
            "--search-field",
            metavar="F",
            help="Search only this field (repeatable): firstName, lastName, email, phone.",
        ),
    ] = ()
    filters: Annotated[
        tuple[str, ...],
        typer.Option(
            "--filter",
            metavar="FIELD=VALUE",
            help="Keep leads whose FIELD equals VALUE (repeatable). VALUE is typed like "
            "`api -F`: true/false/null, numbers, JSON arrays (any of); quote it as "
            "'\"123\"' to keep a number a string.",
        ),
    ] = ()  # FIELD=VALUE, typed like `api -F`
    ranges: Annotated[
        tuple[str, ...],
        typer.Option(
            "--range",
            metavar="'FIELD>=VALUE'",
            help="Keep leads with FIELD in a range (repeatable; > >= < <=). Bounds on one "
            "field combine: --range 'createdAt>=2026-01-01' --range 'createdAt<2026-02-01'.",
        ),
    ] = ()  # 'FIELD>=VALUE'
    order_by: Annotated[
        tuple[str, ...],
        typer.Option(
            "--order-by",
            metavar="FIELD",
            help="Sort by FIELD (repeatable). A leading '-' sorts descending: leadctl sends "
            "the descending value the contract lists (e.g. Descending), else desc, in the "
            "property `direction` (assumed where the contract names none; the profile key "
            "order_direction_key names another).",
        ),
    ] = ()  # FIELD, or -FIELD for descending
    paging: Paging = field(default_factory=Paging)


def run(opts: Options, ctx: Context) -> None:
    """POST /leads/all/my with the collection query of the flags; print the page(s)."""
    # Loaded here, not at the top: `leads list --help`, the verb help people read most,
    # needs the flags only (issue 32: a verb's help within 1.2x of importing Typer).
    from leadctl.contract.operations import curated
    from leadctl.verbkit.listing import print_paged

    # RequestDataOptions from flags, shared with generated commands.
    from leadctl.verbkit.query_options import descending_value, direction_key_of, list_body

    check_count_alone(opts.paging)

    operation = curated(ctx, "POST", "/leads/all/my")
    direction_key = direction_key_of(ctx.settings)
    body = list_body(
        search=opts.search,
        search_fields=opts.search_fields,
        filters=opts.filters,
        ranges=opts.ranges,
        order_by=opts.order_by,
        direction_key=direction_key,
        stdin=ctx.ios.stdin,
        zone=ctx.input_zone() if opts.ranges else None,
        now=ctx.clock.now(),
        descending=descending_value(ctx, operation, direction_key) if opts.order_by else "desc",
    )
    print_paged(
        ctx,
        operation,
        body,
        columns=LEAD_COLUMNS,
        paging=opts.paging,
        table_view=_with_status_colors(ctx),
    )


HELP = """List the organization's leads (POST /leads/all/my), newest first unless sorted.

    Filters, ranges, search and sort go to the service in the query of the list and stay the
    same on every page. Without --all or --limit one page is printed; on a terminal the
    footer tells how to get the next one, and otherwise stderr says in one line that more
    exist, wherever it goes (a file, a cron job's log; -q silences it). The table shows id,
    firstName, lastName, phone, state, status (in the lead status's color), tag names,
    processingStatus and createdAt (in the profile's timezone; --utc for UTC), each where
    the service's leads have that field (else one they have, such as
    currentLeadStatus.name), leaving out from the right what the terminal has no room for;
    --columns picks others (email, product, sourceId, tags[].name...), for -o json too. -o
    csv writes what `leads import` reads back.
    Range values that are times (2026-11-01, 2026-11-01T09:00, today, yesterday, -7d,
    -2h) are read in the profile's timezone (else the system's) and sent in UTC.
    """

command = verb_command(Options, run, help=HELP)


def _with_status_colors(ctx: Any) -> Any:
    """For the default table on a color terminal: each lead's status gets the color its
    lead status has (one GET /lead-statuses, made once the first lead is in)."""

    def view(leads: Iterable[Any]) -> Iterator[Any]:
        colors: dict[Any, str] | None = None
        for lead in leads:
            status = lead.get("status") if isinstance(lead, dict) else None
            if isinstance(status, dict) and ctx.ios.stdout_color:
                if colors is None:
                    colors = _status_colors(ctx)
                color = colors.get(status.get("id"))
                if color and "color" not in status:
                    lead = {**lead, "status": {**status, "color": color}}
            yield lead

    return view


def _status_colors(ctx: Any) -> dict[Any, str]:
    """Lead status id -> color; empty when the statuses cannot be read (colors are a
    nicety: the list still prints)."""

    from leadctl.verbkit.shared_reads import read_lead_statuses

    try:
        statuses = read_lead_statuses(ctx)
    except LeadctlError:
        return {}
    return {
        status.get("id"): status["color"]
        for status in statuses
        if isinstance(status.get("color"), str)
    }
