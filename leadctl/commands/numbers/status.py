"""``leadctl numbers status``: a phone number's capacity, warmup, opt-outs and traffic."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.numbers.window import window_query
from leadctl.contract.operations import curated
from leadctl.contract.phones import is_identifier
from leadctl.contract.shapes import require_object
from leadctl.inputs.phone import to_e164
from leadctl.output import Column, emit_object
from leadctl.output.response_columns import output_columns
from leadctl.views.console import view_of

if TYPE_CHECKING:
    from rich.console import RenderableType

    from leadctl.context import Context
    from leadctl.output import Column


@dataclass(frozen=True)
class Options:
    number: Annotated[
        str,
        typer.Argument(
            metavar="NUMBER",
            help="The number: +E.164, or national format with the profile's region set.",
            show_default=False,
        ),
    ]
    window_days: Annotated[
        int | None,
        typer.Option(
            "--window-days",
            metavar="N",
            min=1,
            help="Window of the opt-out and traffic metrics, in days (the service's default: 7).",
        ),
    ] = None
    # As typed: relative dates (today, -7d) are read in the profile's zone, so run parses them.
    start: Annotated[
        str | None,
        typer.Option(
            "--start",
            "--since",
            metavar="DATE",
            help="First day of the window: YYYY-MM-DD, today, yesterday, -7d, monday or "
            "'last monday' (in the profile's timezone).",
        ),
    ] = None
    end: Annotated[
        str | None,
        typer.Option(
            "--end",
            metavar="DATE",
            help="Last day of the window (inclusive), in the forms of --start.",
        ),
    ] = None


def run(opts: Options, ctx: Context) -> None:

    operation = curated(ctx, "GET", "/phone-numbers/{phoneNumber}/status")
    # A contract that addresses numbers by an identifier ({phoneNumberId}) gets it as typed.
    named_by_id = any(p.where == "path" and is_identifier(p.name) for p in operation.parameters)
    number = opts.number if named_by_id else to_e164(opts.number, region=ctx.settings.get("region"))
    columns = output_columns(ctx, operation, summary_columns())
    query = window_query(ctx, window_days=opts.window_days, start=opts.start, end=opts.end)
    data = require_object(
        ctx.client().call_json(
            operation,
            path_params={"phoneNumber": number},
            params=query,
        ),
        what="a phone number's status",
        required=("number",),
    )

    emit_object(ctx, data, columns=columns, view=view_of(render_status))


def summary_columns() -> list[Column]:
    """One flat row for csv/tsv/value: the numbers a script checks before sending."""

    return [
        Column("number"),
        Column("messagesPossible", kind="number"),
        Column("callsPossible", kind="number"),
        Column("outboundCapacity.capacityAvailable", kind="bool"),
        Column("outboundCapacity.healthStatus"),
        Column("outboundCapacity.smsApproved", kind="bool"),
        Column("outboundCapacity.smsRamping", kind="bool"),
        Column("outboundCapacity.voiceRamping", kind="bool"),
        Column("outboundCapacity.smsRemainingThisMinute", kind="number"),
        Column("outboundCapacity.smsRemainingThisHour", kind="number"),
        Column("outboundCapacity.smsRemainingToday", kind="number"),
        Column("outboundCapacity.voiceRemainingThisMinute", kind="number"),
        Column("outboundCapacity.voiceRemainingThisHour", kind="number"),
        Column("outboundCapacity.voiceRemainingToday", kind="number"),
        Column("smsWarmup.status"),
        Column("smsWarmup.healthStatus"),
        Column("smsWarmup.progressPercent", kind="number"),
        Column("optOutMetrics.optOutRatePercent", kind="number"),
        Column("optOutMetrics.optOutCount", kind="number"),
        Column("trafficMetrics.windowDays", kind="number"),
        Column("trafficMetrics.smsSentCount", kind="number"),
        Column("trafficMetrics.smsFailedCount", kind="number"),
    ]


EPILOG = (
    "Examples:\n\n"
    "  leadctl numbers status +14155550123\n\n"
    "  leadctl numbers status '(415) 555-0123' --window-days 30\n\n"
    "  leadctl numbers status +14155550123 -o json | jq .outboundCapacity\n\n"
    "  leadctl numbers status +14155550123 -o csv >> capacity-log.csv"
)


HELP = """Show a phone number's sending capacity, warmup, opt-outs, traffic and recent events.

    On a terminal: capacity gauges per channel and period, the warmup progress, the
    opt-out rate, a traffic sparkline and the recent events. `-o json` prints the
    service's JSON unchanged; csv/tsv/value print one summary row.

    NUMBER is normalised to E.164 before sending. A national number (no leading +) uses
    the profile's region (`leadctl profile set region US`); an invalid number is refused
    (exit 2) and nothing is sent.

    leadctl assumes the service names the window's query parameters windowDays,
    startDate and endDate; if it calls them something else, set the names in the
    profile: phone_status_window_days_param, phone_status_start_param,
    phone_status_end_param.
    """

command = verb_command(Options, run, help=HELP)


def render_status(ctx: Context, data: dict[str, Any]) -> RenderableType:
    """The terminal view: capacity gauges, warmup, opt-outs, a traffic sparkline, events."""
    from leadctl.views.number_status import render_number_status

    return render_number_status(data, now=ctx.clock.now(), width=ctx.ios.terminal_width())
