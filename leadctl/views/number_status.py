"""``numbers status`` for a person: capacity gauges, warmup, opt-outs, a traffic sparkline
and the recent events, in one screen.

The reference does not enumerate status words and any field may be missing: the data is
read through :class:`~leadctl.models.phone_number_status.PhoneNumberStatus`, whose lenient
fields turn absence and odd types into None, so a view never crashes on data that
``-o json`` would print happily.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from leadctl.models.phone_number_status import (
    Channel,
    OptOutMetrics,
    OutboundCapacity,
    Period,
    PhoneNumberStatus,
    RecentEvent,
    SmsWarmup,
    TrafficBucket,
    TrafficMetrics,
)
from leadctl.output.cells import format_datetime
from leadctl.views.timefmt import relative, short
from leadctl.views.widgets import (
    MISSING,
    clip,
    count,
    flag,
    gauge,
    merge_buckets,
    safe,
    sparkline,
    status_style,
    usage_style,
)

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

CHANNELS: tuple[tuple[Channel, str], ...] = (("sms", "SMS"), ("voice", "Voice"))
PERIODS: tuple[tuple[Period, str], ...] = (
    ("this_minute", "this minute"),
    ("this_hour", "this hour"),
    ("today", "today"),
)
# Opt-out rates at which carriers start to look closely; above the second, filtering is likely.
OPT_OUT_WARN_PERCENT = 1.0
OPT_OUT_ALERT_PERCENT = 3.0
PREVIEW_LIMIT = 60
MAX_STRETCH = 4


def render_number_status(data: Mapping[str, Any], *, now: datetime, width: int) -> RenderableType:
    from rich.console import Group

    status = PhoneNumberStatus.read(data)
    parts: list[RenderableType] = [*_header(status)]
    capacity = status.outbound_capacity
    parts += _section("Outbound capacity", _capacity(capacity, now=now, width=width))
    parts += _section("SMS warmup", _warmup(status.sms_warmup, width=width))
    optout = status.opt_out_metrics
    parts += _section(_optout_title(optout), _optout(optout))
    traffic = status.traffic_metrics
    parts += _section(_traffic_title(traffic), _traffic(traffic, width=width))
    parts += _section("Recent events", _events(status.recent_events, now=now))
    return Group(*parts)


def _section(title: str, body: RenderableType) -> list[RenderableType]:
    from rich.rule import Rule
    from rich.text import Text

    return [Text(""), Rule(Text(title, style="bold"), align="left", style="dim"), body]


def _missing(what: str) -> Text:
    from rich.text import Text

    return Text(f"{what}: not reported by the service", style="dim")


# -- header ------------------------------------------------------------------------------


def _header(status: PhoneNumberStatus) -> list[RenderableType]:
    from rich.text import Text

    capacity = status.outbound_capacity or OutboundCapacity()
    title = Text.assemble((safe(status.number or capacity.phone_number or "?"), "bold"), "  ")
    available = capacity.capacity_available
    if available is True:
        title.append("● capacity available", style="bold green")
    elif available is False:
        title.append("● no capacity: sends are refused", style="bold red")
    else:
        title.append("● capacity not reported", style="dim")
    health = capacity.health_status
    if health is not None:
        title.append("   health ")
        title.append(safe(health), style=status_style(health) or "bold")
        reason = capacity.health_reason
        if reason:
            title.append(f": {safe(reason)}")
    flags = Text("  ").join(
        [
            flag(capacity.sms_approved, "SMS approved", "SMS not approved"),
            flag(capacity.sms_ramping, "SMS ramping", "SMS not ramping", good=False),
            flag(capacity.voice_ramping, "voice ramping", "voice not ramping", good=False),
        ]
    )
    possible = Text.assemble(
        "messages possible ",
        (count(status.messages_possible), "bold"),
        "   calls possible ",
        (count(status.calls_possible), "bold"),
    )
    return [title, flags, possible]


# -- capacity ----------------------------------------------------------------------------


def _capacity(capacity: OutboundCapacity | None, *, now: datetime, width: int) -> RenderableType:
    from rich.table import Table
    from rich.text import Text

    if capacity is None:
        return _missing("outbound capacity")
    # The other columns take about 64 characters at most; the gauges get what is left.
    bar_width = max(6, min(24, width - 64))
    table = Table(
        box=None, pad_edge=False, show_edge=False, header_style="bold", padding=(0, 2, 0, 0)
    )
    table.add_column("channel", no_wrap=True)
    table.add_column("period", no_wrap=True)
    table.add_column("usage", no_wrap=True)
    table.add_column("used / limit", justify="right", no_wrap=True)
    table.add_column("left", justify="right", no_wrap=True)
    table.add_column("resets", no_wrap=True)
    for prefix, channel in CHANNELS:
        for index, (period, label) in enumerate(PERIODS):
            used, limit, remaining, resets_at = capacity.usage(prefix, period)
            if remaining is None and used is not None and limit is not None:
                remaining = max(0.0, limit - used)
            resets = relative(resets_at, now)
            name = Text(channel if index == 0 else "", style="bold")
            if used is None or limit is None:
                bar = Text("not reported", style="dim")
                ratio_text = Text(f"{count(used)} / {count(limit)}", style="dim")
            else:
                bar = gauge(used, limit, width=bar_width)
                ratio = 1.0 if limit <= 0 else used / limit
                ratio_text = Text(f"{count(used)} / {count(limit)}", style=usage_style(ratio))
            left = Text(count(remaining), style="red" if remaining == 0 else "")
            reset_text = _reset_words(resets)
            table.add_row(name, label, bar, ratio_text, left, reset_text)
    return table


def _reset_words(when: str | None) -> Text:
    from rich.text import Text

    if when is None:
        return Text("")
    if when == "now":
        return Text("resets now", style="dim")
    if when.startswith("in "):
        return Text(f"resets {when}", style="dim")
    # A reset time in the past: the counters were read before it and may be stale.
    return Text(f"reset {when}", style="yellow")


# -- warmup ------------------------------------------------------------------------------


def _warmup(warmup: SmsWarmup | None, *, width: int) -> RenderableType:
    from rich.console import Group
    from rich.text import Text

    if warmup is None:
        return _missing("SMS warmup")
    status = warmup.status
    health = warmup.health_status
    line = Text.assemble("status ", (safe(status) or MISSING, status_style(status) or "bold"))
    line.append("   health ")
    line.append(safe(health) or MISSING, style=status_style(health) or "bold")
    score = warmup.health_score
    if score is not None:
        line.append(f" (score {count(score)})")
    enabled = warmup.warmup_enabled
    if enabled is not None:
        line.append("   warmup ")
        line.append("enabled" if enabled else "disabled", style="green" if enabled else "dim")
    progress = warmup.progress_percent
    bar_width = 30 if width >= 90 else 16
    if progress is None:
        bar_line = Text("progress not reported", style="dim")
    else:
        shown = max(0.0, min(100.0, progress))
        bar_line = Text.assemble(
            "progress ",
            gauge(shown, 100.0, width=bar_width, style="cyan"),
            f" {count(round(progress, 1))}%",
        )
    parts: list[RenderableType] = [line, bar_line]
    ui = warmup.ui_state
    if ui is not None and (ui.label or ui.description):
        state = Text.assemble((safe(ui.label), status_style(ui.tone) or "bold"))
        if ui.description:
            state.append(" · " if ui.label else "")
            state.append(safe(ui.description))
        parts.append(state)
    return Group(*parts)


# -- opt-outs ----------------------------------------------------------------------------


def _optout_title(optout: OptOutMetrics | None) -> str:
    days = optout.window_days if optout is not None else None
    return f"Opt-outs · last {count(days)} days" if days is not None else "Opt-outs"


def _optout(optout: OptOutMetrics | None) -> RenderableType:
    from rich.text import Text

    if optout is None:
        return _missing("opt-out metrics")
    rate = optout.opt_out_rate_percent
    if rate is None:
        line = Text(f"rate {MISSING}", style="dim")
    else:
        style = (
            "red"
            if rate >= OPT_OUT_ALERT_PERCENT
            else "yellow"
            if rate >= OPT_OUT_WARN_PERCENT
            else "green"
        )
        line = Text.assemble((f"{rate:.2f}%", f"bold {style}"), " opt-out rate")
    line.append(
        f"   {count(optout.opt_out_count)} opted out of "
        f"{count(optout.distinct_contacted_count)} contacted"
    )
    started = optout.window_started_at
    if started:
        line.append(f"   since {format_datetime(started)}", style="dim")
    return line


# -- traffic -----------------------------------------------------------------------------


def _traffic_title(traffic: TrafficMetrics | None) -> str:
    days = traffic.window_days if traffic is not None else None
    return f"Traffic · last {count(days)} days" if days is not None else "Traffic"


# (the count's field, in each bucket and as the window's total; label; style)
_TREND_SERIES = (
    ("sms_sent_count", "SMS sent", "green"),
    ("sms_failed_count", "SMS failed", "red"),
    ("call_placed_count", "calls placed", "cyan"),
)


def _traffic(traffic: TrafficMetrics | None, *, width: int) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if traffic is None:
        return _missing("traffic metrics")
    trend = traffic.trend or []
    parts: list[RenderableType] = []
    if trend:
        room = max(8, width - 44)
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        per = 1
        spark_width = 0
        for key, label, style in _TREND_SERIES:
            # A series the buckets do not carry is left out; one sent as null is drawn.
            if not any(bucket.sent(key) for bucket in trend):
                continue
            raw: list[float] = [getattr(bucket, key) or 0.0 for bucket in trend]
            values, per = merge_buckets(raw, room)
            # A week of days as seven characters is hard to read: widen each block.
            stretch = max(1, min(MAX_STRETCH, room // len(values)))
            line = "".join(block * stretch for block in sparkline(values))
            spark_width = len(line)
            total: float | None = getattr(traffic, key)
            if total is None:
                total = sum(raw)
            grid.add_row(
                Text(label),
                Text(line, style=style),
                Text(f"{count(total)} total · peak {count(max(values))}", style="dim"),
            )
        note = f"{per} buckets per block" if per > 1 else ""
        grid.add_row(Text(""), _axis(trend, spark_width), Text(note, style="dim"))
        parts.append(grid)
    else:
        parts.append(Text("no trend buckets in the window", style="dim"))
    messages = Text.assemble(
        "SMS ",
        (count(traffic.sms_sent_count), "bold"),
        " sent · ",
        (count(traffic.sms_failed_count), "bold"),
        " failed   MMS ",
        (count(traffic.mms_sent_count), "bold"),
        " sent · ",
        (count(traffic.mms_failed_count), "bold"),
        " failed",
    )
    calls = Text.assemble(
        "calls ",
        (count(traffic.call_placed_count), "bold"),
        " placed · ",
        (count(traffic.call_connected_count), "bold"),
        " connected · ",
        (count(traffic.call_failed_count), "bold"),
        " failed · ",
        (count(traffic.call_short_count), "bold"),
        " short · ",
        (count(traffic.call_invalid_number_count), "bold"),
        " invalid number",
    )
    parts += [messages, calls]
    return Group(*parts)


def _bucket_name(bucket: TrafficBucket) -> str:
    label = bucket.label
    if label is not None and label.strip():
        return safe(label)
    start = bucket.start_at
    return format_datetime(start) if start else "?"


def _axis(trend: list[TrafficBucket], spark_width: int) -> Text:
    from rich.text import Text

    first, last = _bucket_name(trend[0]), _bucket_name(trend[-1])
    if len(trend) == 1:
        return Text(first, style="dim")
    gap = spark_width - len(first) - len(last)
    if gap < 1:
        return Text(clip(f"{first} … {last}", max(spark_width, 1)), style="dim")
    return Text(first + " " * gap + last, style="dim")


# -- recent events -----------------------------------------------------------------------


def _direction(value: str | None) -> Text:
    from rich.text import Text

    text = safe(value)
    lowered = text.lower()
    if lowered.startswith("out"):
        return Text("→ out", style="cyan")
    if lowered.startswith("in"):
        return Text("← in", style="magenta")
    return Text(text)


def _events(rows: list[RecentEvent] | None, *, now: datetime) -> RenderableType:
    from rich.table import Table
    from rich.text import Text

    if rows is None:
        return _missing("recent events")
    if not rows:
        return Text("no recent events", style="dim")
    table = Table(
        box=None, pad_edge=False, show_edge=False, header_style="bold", padding=(0, 2, 0, 0)
    )
    table.add_column("when", no_wrap=True)
    table.add_column("dir", no_wrap=True)
    table.add_column("event", no_wrap=True, overflow="ellipsis", max_width=24)
    table.add_column("from → to", no_wrap=True)
    # The one column that gives way on a narrow terminal; its cells stay one line.
    table.add_column("preview", overflow="ellipsis", ratio=1)
    table.add_column("", no_wrap=True)
    for event in rows:
        opted_out = event.is_opt_out is True
        table.add_row(
            Text(short(event.created_at, now)),
            _direction(event.direction),
            Text(safe(event.label or event.event_type)),
            Text(f"{safe(event.from_phone_number) or '?'} → {safe(event.to_phone_number) or '?'}"),
            Text(
                clip(safe(event.text_preview), PREVIEW_LIMIT),
                style="italic",
                no_wrap=True,
                overflow="ellipsis",
            ),
            Text("OPT-OUT", style="bold red") if opted_out else Text(""),
        )
    return table
