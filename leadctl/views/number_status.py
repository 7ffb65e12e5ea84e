"""``numbers status`` for a person: capacity gauges, warmup, opt-outs, a traffic sparkline
and the recent events, in one screen.

The reference does not enumerate status words and any field may be missing, so every
lookup here tolerates absence and odd types: a view must never crash on data that
``-o json`` would print happily.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from leadctl.output.cells import format_datetime
from leadctl.views.timefmt import relative, short
from leadctl.views.widgets import (
    MISSING,
    clip,
    count,
    flag,
    gauge,
    merge_buckets,
    number,
    safe,
    sparkline,
    status_style,
    usage_style,
)

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

CHANNELS = (("sms", "SMS"), ("voice", "Voice"))
# (counter suffix, reset-time infix, label)
PERIODS = (
    ("ThisMinute", "Minutely", "this minute"),
    ("ThisHour", "Hourly", "this hour"),
    ("Today", "Daily", "today"),
)
# Opt-out rates at which carriers start to look closely; above the second, filtering is likely.
OPT_OUT_WARN_PERCENT = 1.0
OPT_OUT_ALERT_PERCENT = 3.0
PREVIEW_LIMIT = 60
MAX_STRETCH = 4


def _obj(data: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    value = data.get(key)
    return value if isinstance(value, dict) else None


def render_number_status(data: Mapping[str, Any], *, now: datetime, width: int) -> RenderableType:
    from rich.console import Group

    parts: list[RenderableType] = [*_header(data)]
    capacity = _obj(data, "outboundCapacity")
    parts += _section("Outbound capacity", _capacity(capacity, now=now, width=width))
    parts += _section("SMS warmup", _warmup(_obj(data, "smsWarmup"), width=width))
    optout = _obj(data, "optOutMetrics")
    parts += _section(_optout_title(optout), _optout(optout))
    traffic = _obj(data, "trafficMetrics")
    parts += _section(_traffic_title(traffic), _traffic(traffic, width=width))
    events = data.get("recentEvents")
    parts += _section("Recent events", _events(events, now=now))
    return Group(*parts)


def _section(title: str, body: RenderableType) -> list[RenderableType]:
    from rich.rule import Rule
    from rich.text import Text

    return [Text(""), Rule(Text(title, style="bold"), align="left", style="dim"), body]


def _missing(what: str) -> Text:
    from rich.text import Text

    return Text(f"{what}: not reported by the service", style="dim")


# -- header ------------------------------------------------------------------------------


def _header(data: Mapping[str, Any]) -> list[RenderableType]:
    from rich.text import Text

    capacity = _obj(data, "outboundCapacity") or {}
    title = Text.assemble(
        (safe(data.get("number") or capacity.get("phoneNumber") or "?"), "bold"), "  "
    )
    available = capacity.get("capacityAvailable")
    if available is True:
        title.append("● capacity available", style="bold green")
    elif available is False:
        title.append("● no capacity: sends are refused", style="bold red")
    else:
        title.append("● capacity not reported", style="dim")
    health = capacity.get("healthStatus")
    if health is not None:
        title.append("   health ")
        title.append(safe(health), style=status_style(health) or "bold")
        reason = capacity.get("healthReason")
        if reason:
            title.append(f": {safe(reason)}")
    flags = Text("  ").join(
        [
            flag(capacity.get("smsApproved"), "SMS approved", "SMS not approved"),
            flag(capacity.get("smsRamping"), "SMS ramping", "SMS not ramping", good=False),
            flag(capacity.get("voiceRamping"), "voice ramping", "voice not ramping", good=False),
        ]
    )
    possible = Text.assemble(
        "messages possible ",
        (count(data.get("messagesPossible")), "bold"),
        "   calls possible ",
        (count(data.get("callsPossible")), "bold"),
    )
    return [title, flags, possible]


# -- capacity ----------------------------------------------------------------------------


def _capacity(capacity: dict[str, Any] | None, *, now: datetime, width: int) -> RenderableType:
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
        for index, (suffix, infix, label) in enumerate(PERIODS):
            used = number(capacity.get(f"{prefix}Used{suffix}"))
            limit = number(capacity.get(f"{prefix}Limit{suffix}"))
            remaining = number(capacity.get(f"{prefix}Remaining{suffix}"))
            if remaining is None and used is not None and limit is not None:
                remaining = max(0.0, limit - used)
            resets = relative(capacity.get(f"{prefix}{infix}ResetsAt"), now)
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


def _warmup(warmup: dict[str, Any] | None, *, width: int) -> RenderableType:
    from rich.console import Group
    from rich.text import Text

    if warmup is None:
        return _missing("SMS warmup")
    status = warmup.get("status")
    health = warmup.get("healthStatus")
    line = Text.assemble("status ", (safe(status) or MISSING, status_style(status) or "bold"))
    line.append("   health ")
    line.append(safe(health) or MISSING, style=status_style(health) or "bold")
    score = number(warmup.get("healthScore"))
    if score is not None:
        line.append(f" (score {count(score)})")
    enabled = warmup.get("warmupEnabled")
    if enabled is not None:
        line.append("   warmup ")
        line.append("enabled" if enabled else "disabled", style="green" if enabled else "dim")
    progress = number(warmup.get("progressPercent"))
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
    ui = warmup.get("uiState")
    if isinstance(ui, dict) and (ui.get("label") or ui.get("description")):
        tone = ui.get("tone")
        state = Text.assemble((safe(ui.get("label")), status_style(tone) or "bold"))
        if ui.get("description"):
            state.append(" · " if ui.get("label") else "")
            state.append(safe(ui.get("description")))
        parts.append(state)
    return Group(*parts)


# -- opt-outs ----------------------------------------------------------------------------


def _optout_title(optout: dict[str, Any] | None) -> str:
    days = number((optout or {}).get("windowDays"))
    return f"Opt-outs · last {count(days)} days" if days is not None else "Opt-outs"


def _optout(optout: dict[str, Any] | None) -> RenderableType:
    from rich.text import Text

    if optout is None:
        return _missing("opt-out metrics")
    rate = number(optout.get("optOutRatePercent"))
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
        f"   {count(optout.get('optOutCount'))} opted out of "
        f"{count(optout.get('distinctContactedCount'))} contacted"
    )
    started = optout.get("windowStartedAt")
    if started:
        line.append(f"   since {format_datetime(str(started))}", style="dim")
    return line


# -- traffic -----------------------------------------------------------------------------


def _traffic_title(traffic: dict[str, Any] | None) -> str:
    days = number((traffic or {}).get("windowDays"))
    return f"Traffic · last {count(days)} days" if days is not None else "Traffic"


_TREND_SERIES = (
    ("smsSentCount", "SMS sent", "smsSentCount", "green"),
    ("smsFailedCount", "SMS failed", "smsFailedCount", "red"),
    ("callPlacedCount", "calls placed", "callPlacedCount", "cyan"),
)


def _traffic(traffic: dict[str, Any] | None, *, width: int) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if traffic is None:
        return _missing("traffic metrics")
    trend = [b for b in traffic.get("trend") or [] if isinstance(b, dict)]
    parts: list[RenderableType] = []
    if trend:
        room = max(8, width - 44)
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        per = 1
        spark_width = 0
        for key, label, total_key, style in _TREND_SERIES:
            if not any(key in bucket for bucket in trend):
                continue
            raw = [number(bucket.get(key)) or 0.0 for bucket in trend]
            values, per = merge_buckets(raw, room)
            # A week of days as seven characters is hard to read: widen each block.
            stretch = max(1, min(MAX_STRETCH, room // len(values)))
            line = "".join(block * stretch for block in sparkline(values))
            spark_width = len(line)
            total = number(traffic.get(total_key))
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
        (count(traffic.get("smsSentCount")), "bold"),
        " sent · ",
        (count(traffic.get("smsFailedCount")), "bold"),
        " failed   MMS ",
        (count(traffic.get("mmsSentCount")), "bold"),
        " sent · ",
        (count(traffic.get("mmsFailedCount")), "bold"),
        " failed",
    )
    calls = Text.assemble(
        "calls ",
        (count(traffic.get("callPlacedCount")), "bold"),
        " placed · ",
        (count(traffic.get("callConnectedCount")), "bold"),
        " connected · ",
        (count(traffic.get("callFailedCount")), "bold"),
        " failed · ",
        (count(traffic.get("callShortCount")), "bold"),
        " short · ",
        (count(traffic.get("callInvalidNumberCount")), "bold"),
        " invalid number",
    )
    parts += [messages, calls]
    return Group(*parts)


def _bucket_name(bucket: Mapping[str, Any]) -> str:
    label = bucket.get("label")
    if isinstance(label, str) and label.strip():
        return safe(label)
    start = bucket.get("startAt")
    return format_datetime(str(start)) if start else "?"


def _axis(trend: list[dict[str, Any]], spark_width: int) -> Text:
    from rich.text import Text

    first, last = _bucket_name(trend[0]), _bucket_name(trend[-1])
    if len(trend) == 1:
        return Text(first, style="dim")
    gap = spark_width - len(first) - len(last)
    if gap < 1:
        return Text(clip(f"{first} … {last}", max(spark_width, 1)), style="dim")
    return Text(first + " " * gap + last, style="dim")


# -- recent events -----------------------------------------------------------------------


def _direction(value: Any) -> Text:
    from rich.text import Text

    text = safe(value)
    lowered = text.lower()
    if lowered.startswith("out"):
        return Text("→ out", style="cyan")
    if lowered.startswith("in"):
        return Text("← in", style="magenta")
    return Text(text)


def _events(events: Any, *, now: datetime) -> RenderableType:
    from rich.table import Table
    from rich.text import Text

    if not isinstance(events, list):
        return _missing("recent events")
    rows = [event for event in events if isinstance(event, dict)]
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
        opted_out = event.get("isOptOut") is True
        table.add_row(
            Text(short(event.get("createdAt"), now)),
            _direction(event.get("direction")),
            Text(safe(event.get("label") or event.get("eventType"))),
            Text(
                f"{safe(event.get('fromPhoneNumber')) or '?'} → "
                f"{safe(event.get('toPhoneNumber')) or '?'}"
            ),
            Text(
                clip(safe(event.get("textPreview")), PREVIEW_LIMIT),
                style="italic",
                no_wrap=True,
                overflow="ellipsis",
            ),
            Text("OPT-OUT", style="bold red") if opted_out else Text(""),
        )
    return table
