"""``leadctl automations runs``: an automation's recent runs, or one run's actions and events
(``--watch``: followed until it ends, :mod:`leadctl.commands.automations.watch`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.automations.select import find_run, status_matches
from leadctl.commands.automations.watch import watch_run
from leadctl.contract.operations import curated
from leadctl.contract.shapes import require_objects
from leadctl.errors import BadResponse, NotFound, UsageError
from leadctl.output import Column, display_zone_of, emit_list, emit_object
from leadctl.output.response_columns import output_columns
from leadctl.output.table import note_dropped

if TYPE_CHECKING:
    from rich.console import RenderableType

    from leadctl.context import Context
    from leadctl.output import Column


@dataclass(frozen=True)
class Options:
    automation_id: Annotated[
        str, typer.Argument(metavar="AUTOMATION_ID", help="The automation's id.")
    ]
    status: Annotated[
        str | None,
        typer.Option(
            "--status",
            metavar="S",
            help="Only runs whose status (or status display text) is S, any case.",
        ),
    ] = None
    run_id: Annotated[
        str | None,
        typer.Option(
            "--run",
            metavar="RUN_ID",
            help="Show this run's actions and events (the id, or a unique prefix of it).",
        ),
    ] = None
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Follow the run (--run's, else the newest) until it ends: redrawn in place "
            "on a terminal, one line per change otherwise; exit 0 when it completed (or was "
            "skipped), 6 when it failed or was cancelled, 8 after --wait-timeout.",
        ),
    ] = False
    wait_timeout: Annotated[
        float | None,
        typer.Option(
            "--wait-timeout",
            metavar="SECONDS",
            min=0.1,
            help="How long --watch follows the run in all before exit 8 (default: until it "
            "ends; each request still has --timeout).",
        ),
    ] = None


def run(opts: Options, ctx: Context) -> None:
    if not opts.automation_id.strip():
        raise UsageError("AUTOMATION_ID must not be empty")
    if opts.status is not None and not opts.status.strip():
        raise UsageError("--status must not be empty")
    if opts.run_id is not None and not opts.run_id.strip():
        raise UsageError("--run must not be empty")
    if opts.status is not None and opts.run_id is not None:
        raise UsageError(
            "--status and --run cannot be combined",
            hint="--run shows one run whatever its status",
        )
    if opts.watch and opts.status is not None:
        raise UsageError("--watch follows one run: give --run RUN_ID (or nothing for the newest)")
    if opts.wait_timeout is not None and not opts.watch:
        raise UsageError("--wait-timeout is how long --watch follows a run: add --watch")

    operation = curated(ctx, "GET", "/automations/{id}/runs")
    columns = output_columns(ctx, operation, run_columns(), within="runs")
    data = ctx.client().call_json(operation, path_params={"id": opts.automation_id})
    if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
        raise BadResponse(
            "the service's run history is not an object with a runs array",
            hint="run with --debug, or `leadctl -o json api GET /automations/ID/runs`",
        )

    all_runs = require_objects(data["runs"], what="runs")
    if opts.watch:
        if opts.run_id is not None:
            chosen_run = find_run(all_runs, opts.run_id, opts.automation_id)
        elif all_runs:
            chosen_run = all_runs[0]  # the service lists the newest first
        else:
            raise NotFound(f"automation {opts.automation_id!r} has no recent run to watch")
        watch_run(
            ctx, operation, opts.automation_id, chosen_run, columns, timeout=opts.wait_timeout
        )
        return
    if opts.run_id is not None:
        _show_run(ctx, opts.automation_id, opts.run_id, all_runs, columns)
        return
    if opts.status is None:
        _show_runs(ctx, data, all_runs, columns, note=f"{len(all_runs)} recent runs")
        return
    chosen = [entry for entry in all_runs if status_matches(entry, opts.status)]
    filtered = {**data, "runs": chosen}
    _show_runs(
        ctx,
        filtered,
        chosen,
        columns,
        note=f"{len(chosen)} of {len(all_runs)} recent runs are {opts.status}",
    )


def run_columns() -> list[Column]:
    """Flat per-run fields for csv/tsv/value (and table with --columns)."""

    return [
        Column("id"),
        Column("status"),
        Column("statusDisplay"),
        Column("leadId"),
        Column("automation.name"),
        Column("triggerType"),
        Column("currentStep.name"),
        Column("currentStepOrder", kind="number"),
        Column("retryCount", kind="number"),
        Column("maxRetryCount", kind="number"),
        Column("lastErrorCode"),
        Column("lastErrorMessage"),
        Column("startedAt", kind="datetime"),
        Column("lastExecutionAt", kind="datetime"),
        Column("nextExecutionAt", kind="datetime"),
        Column("nextRetryAt", kind="datetime"),
        Column("completedAt", kind="datetime"),
        Column("failedAt", kind="datetime"),
        Column("cancelledAt", kind="datetime"),
    ]


def _show_runs(
    ctx: Context,
    data: dict[str, Any],
    runs: list[dict[str, Any]],
    columns: list[Column],
    *,
    note: str,
) -> None:

    def draw(ctx: Context, runs: list[dict[str, Any]]) -> None:
        _draw_runs_table(ctx, data, runs, note=note)

    # -o json (and --jq) print the service's object ({automationId, runs}); every other
    # format prints its runs, one row (or line) each.
    emit_list(ctx, runs, columns=columns, view=draw, document=data)


def _draw_runs_table(
    ctx: Context, data: dict[str, Any], runs: list[dict[str, Any]], *, note: str
) -> None:
    """The terminal view: one row a run, long ids whole, dropped columns named on stderr."""
    if not runs:
        ctx.ios.info(f"no runs for automation {data.get('automationId')!s} ({note})")
        return
    from leadctl.views.automation_runs import render_runs_table
    from leadctl.views.console import show

    ios = ctx.ios
    table, dropped = render_runs_table(
        data,
        runs,
        now=ctx.clock.now(),
        note=note,
        zone=display_zone_of(ctx),
        width=ios.terminal_width() if ios.stdout_is_tty else None,
    )
    show(ios, table)
    if dropped:
        note_dropped(ios, dropped)


def _show_run(
    ctx: Context,
    automation_id: str,
    run_id: str,
    runs: list[dict[str, Any]],
    columns: list[Column],
) -> None:
    from leadctl.views.console import view_of

    found = find_run(runs, run_id, automation_id)
    emit_object(ctx, found, columns=columns, view=view_of(_render_run_tree))


def _render_run_tree(ctx: Context, found: dict[str, Any]) -> RenderableType:
    """The terminal view of one run: its actions in step order, each with its events."""
    from leadctl.views.automation_runs import render_run_tree

    return render_run_tree(found, now=ctx.clock.now(), zone=display_zone_of(ctx))


EPILOG = (
    "Examples:\n\n"
    "  leadctl automations runs AUTOMATION_ID --status failed\n\n"
    "  leadctl automations runs AUTOMATION_ID --run RUN_ID\n\n"
    "  leadctl automations runs AUTOMATION_ID --run RUN_ID --watch && echo done\n\n"
    "  leadctl automations runs AUTOMATION_ID -o ndjson | jq -r 'select(.retryCount > 0) | .id'"
)


HELP = """List an automation's recent runs, or show one run's actions and events.

    The table shows each run's status, lead, current step, retries, last error and
    timings. `--run RUN_ID` shows that run as a tree: its actions in step order, each
    with its events, and the events that belong to no action under the run. A run id
    that is not among the automation's recent runs is exit 5. The table shows long ids
    whole (columns that do not fit the terminal are left out, and named on stderr); `--run`
    takes the full id or any unique prefix of at least 4 characters. Times are shown in
    the profile's timezone (else the system's), or UTC with --utc.

    `--status` filters here, after the read (no status query parameter of the service
    is assumed): any word is accepted and compared case-insensitively with each run's
    status and status display text.

    `-o json` prints the service's object unchanged ({automationId, runs}); with
    `--status` it keeps that shape with only the matching runs. `-o ndjson` prints one
    run per line. With `--run`, `-o json` prints that run's JSON unchanged.

    `--watch` follows one run (`--run`'s, else the newest: the first the service lists)
    until it ends, as `gh run watch --exit-status`: on a terminal its tree is redrawn in
    place; piped, each change is one line (the run's JSON under json/ndjson/--jq, a line
    of words otherwise). It exits 0 when the run completed or was skipped, 6 (rejected)
    when it failed or was cancelled, 8 after `--wait-timeout SECONDS`, 130 on Ctrl-C
    (which stops the watching, never the run). The service's documentation shows a run's
    completedAt, failedAt and cancelledAt but not its status values: a run has ended when
    one of those is set, or (assumed) when its status is Completed, Failed, Cancelled or
    Skipped.
    Polls back off from 0.25s to 5s, no faster than the profile's rate_limit, and wait
    out a 429's Retry-After.
    """

command = verb_command(Options, run, help=HELP)
