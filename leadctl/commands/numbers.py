"""``leadctl numbers``: what an organization phone number can do right now."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.output import Column

app = typer.Typer(help="Inspect phone numbers: capacity, warmup, traffic.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    # A Typer app with one command would otherwise become that command, and
    # `leadctl numbers VERB` would read VERB as an argument.
    pass


# The reference says the three window parameters exist but not what they are called: these
# are the contract's assumed names (x-leadctl-assumed), each overridable per profile.
WINDOW_PARAMS = (
    ("window_days", "phone_status_window_days_param", "windowDays"),
    ("start", "phone_status_start_param", "startDate"),
    ("end", "phone_status_end_param", "endDate"),
)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DAYS_AGO = re.compile(r"-(\d{1,5})d")
DATE_FORMS = "YYYY-MM-DD (e.g. 2026-11-01), today, yesterday or -7d"


def parse_date(raw: str, option: str, *, today: date | None = None) -> date:
    """A calendar date from ``YYYY-MM-DD``, or relative to ``today`` (``today``,
    ``yesterday``, ``-7d``); anything else is a usage error naming the flag."""
    text = raw.strip().lower()
    if _ISO_DATE.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    elif today is not None:
        ago = _DAYS_AGO.fullmatch(text)
        if text in ("today", "yesterday") or ago:
            days = int(ago.group(1)) if ago else (0 if text == "today" else 1)
            return today - timedelta(days=days)
    raise UsageError(f"{option} {raw!r} is not a date", hint=f"use {DATE_FORMS}")


def _today(ctx: Context) -> date:
    """Today in the profile's timezone, else the system's."""
    zone = ctx.input_zone()
    now = ctx.clock.now()
    return (now.astimezone(zone) if zone is not None else now.astimezone()).date()


def window_query(
    ctx: Context, *, window_days: int | None, start: str | None, end: str | None
) -> dict[str, Any]:
    """The window's query parameters under the profile's (or the assumed) names."""
    today = _today(ctx) if start is not None or end is not None else None
    start_day = parse_date(start, "--start", today=today) if start is not None else None
    end_day = parse_date(end, "--end", today=today) if end is not None else None
    if start_day and end_day and end_day < start_day:
        raise UsageError(
            f"--end {end_day.isoformat()} is before --start {start_day.isoformat()}",
            hint="the window runs from --start to --end, both inclusive",
        )
    if window_days is not None and start_day and end_day:
        raise UsageError(
            "--window-days cannot be combined with both --start and --end",
            hint="--start and --end already fix the window; give --window-days with at most "
            "one of them",
        )
    values: dict[str, Any] = {
        "window_days": window_days,
        "start": start_day.isoformat() if start_day else None,
        "end": end_day.isoformat() if end_day else None,
    }
    query: dict[str, Any] = {}
    for field, key, assumed in WINDOW_PARAMS:
        if values[field] is None:
            continue
        name = str(ctx.settings.get(key) or assumed)
        if name in query:
            raise UsageError(
                f"two window parameters are both named {name!r} in profile "
                f"{ctx.settings.profile!r}",
                hint=f"check `leadctl profile show`; fix one with `leadctl profile set {key} NAME`",
            )
        query[name] = values[field]
    return query


def summary_columns() -> list[Column]:
    """One flat row for csv/tsv/value: the numbers a script checks before sending."""
    from leadctl.output import Column

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


@app.command(
    "status",
    epilog="Examples:\n\n"
    "  leadctl numbers status +14155550123\n\n"
    "  leadctl numbers status '(415) 555-0123' --window-days 30\n\n"
    "  leadctl numbers status +14155550123 -o json | jq .outboundCapacity\n\n"
    "  leadctl numbers status +14155550123 -o csv >> capacity-log.csv",
)
def status(
    typer_ctx: typer.Context,
    number: Annotated[
        str,
        typer.Argument(
            metavar="NUMBER",
            help="The number: +E.164, or national format with the profile's region set.",
            show_default=False,
        ),
    ],
    window_days: Annotated[
        int | None,
        typer.Option(
            "--window-days",
            metavar="N",
            min=1,
            help="Window of the opt-out and traffic metrics, in days (the service's default: 7).",
        ),
    ] = None,
    start: Annotated[
        str | None,
        typer.Option(
            "--start",
            metavar="DATE",
            help="First day of the window: YYYY-MM-DD, today, yesterday or -7d (in the "
            "profile's timezone).",
        ),
    ] = None,
    end: Annotated[
        str | None,
        typer.Option(
            "--end",
            metavar="DATE",
            help="Last day of the window (inclusive): YYYY-MM-DD, today, yesterday or -7d.",
        ),
    ] = None,
) -> None:
    """Show a phone number's sending capacity, warmup, opt-outs, traffic and recent events.

    On a terminal: capacity gauges per channel and period, the warmup progress, the
    opt-out rate, a traffic sparkline and the recent events. `-o json` prints the
    service's JSON unchanged; csv/tsv/value print one summary row.

    NUMBER is normalised to E.164 before sending. A national number (no leading +) uses
    the profile's region (`leadctl profile set region US`); an invalid number is refused
    (exit 2) and nothing is sent.

    The API docs do not name the three window query parameters. leadctl assumes
    windowDays, startDate and endDate (the project's contract); if the service calls them
    something else, set the names in the profile: phone_status_window_days_param,
    phone_status_start_param, phone_status_end_param.
    """
    ctx = get_context(typer_ctx)
    from leadctl.phone import to_e164

    e164 = to_e164(number, region=ctx.settings.get("region"))
    query = window_query(ctx, window_days=window_days, start=start, end=end)
    from leadctl.operations import curated
    from leadctl.shapes import require_object

    data = require_object(
        ctx.client().call_json(
            curated(ctx, "GET", "/phone-numbers/{phoneNumber}/status"),
            path_params={"phoneNumber": e164},
            params=query,
        ),
        what="a phone number's status",
        required=("number",),
    )
    _print(ctx, data)


def _print(ctx: Context, data: Any) -> None:
    from leadctl.output import emit_object

    if ctx.output_format == "table" and not ctx.options.columns and isinstance(data, dict):
        from leadctl.views.console import show
        from leadctl.views.number_status import render_number_status

        show(
            ctx.ios,
            render_number_status(data, now=ctx.clock.now(), width=ctx.ios.terminal_width()),
        )
        return
    emit_object(ctx, data, columns=summary_columns())
