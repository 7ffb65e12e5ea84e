"""GET /phone-numbers/{phoneNumber}/status, computed from the number's own recorded traffic.

Capacity counters count outbound SMS/MMS (sms) and outbound calls (voice) in the current
UTC minute, hour and day against the number's limits; opt-out and traffic metrics cover the
requested window, with one trend bucket per day.
"""

from __future__ import annotations

import math
import sqlite3
from datetime import datetime, timedelta
from typing import Any

from leadctl_sandbox.db import loads
from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.problems import ApiProblem, validation_problem
from leadctl_sandbox.times import iso, parse_date, start_of_day

DEFAULT_WINDOW_DAYS = 7
MAX_WINDOW_DAYS = 365
RECENT_EVENTS = 10
_UI_STATES = {
    "Not Started": ("Not Started", "neutral", "SMS warmup has not started for this number."),
    "In Progress": ("Warming up", "info", "Sending limits grow as the number builds reputation."),
    "Completed": ("Warmed up", "success", "The number sends at its full limits."),
    "Paused": ("Paused", "warning", "Warmup is paused; limits stay where they are."),
}


def get_status(call: Call) -> Reply:
    number = call.conn.execute(
        "SELECT * FROM phone_numbers WHERE number = ? AND org_id = ?",
        (call.path["phoneNumber"], call.principal.org_id),
    ).fetchone()
    if number is None:
        raise ApiProblem(403, "The number is not a phone number of the current organization.")
    start, end = _window(call)
    events = call.conn.execute(
        "SELECT * FROM phone_events WHERE phone_number_id = ? AND created_at >= ? "
        "AND created_at < ? ORDER BY created_at",
        (number["id"], iso(start), iso(end)),
    ).fetchall()
    window_days = max(1, math.ceil((end - start).total_seconds() / 86400))
    capacity = _capacity(call.conn, number, call.now)
    sms_remaining = [capacity[f"smsRemaining{p}"] for p in ("ThisMinute", "ThisHour", "Today")]
    voice_remaining = [capacity[f"voiceRemaining{p}"] for p in ("ThisMinute", "ThisHour", "Today")]
    return Reply(
        200,
        {
            "number": number["number"],
            "messagesPossible": min(sms_remaining) if number["sms_approved"] else 0,
            "callsPossible": min(voice_remaining),
            "smsWarmup": _warmup(number),
            "outboundCapacity": capacity,
            "optOutMetrics": _opt_outs(events, start, window_days),
            "trafficMetrics": _traffic(events, start, end, window_days),
            "recentEvents": _recent(call.conn, number["id"]),
        },
    )


def _window(call: Call) -> tuple[datetime, datetime]:
    try:
        return _window_bounds(call)
    except OverflowError:
        raise validation_problem(
            {"startDate": ["the window reaches outside the representable dates"]}
        ) from None


def _window_bounds(call: Call) -> tuple[datetime, datetime]:
    days = call.query.get("windowDays", DEFAULT_WINDOW_DAYS)
    start_text, end_text = call.query.get("startDate"), call.query.get("endDate")
    start_day = parse_date(start_text) if start_text else None
    end_day = parse_date(end_text) if end_text else None
    end = start_of_day(end_day) + timedelta(days=1) if end_day else call.now
    if start_day is not None:
        start = start_of_day(start_day)
        if start_day > (end_day or call.now.date()):
            where = "endDate" if end_day else "today"
            raise validation_problem({"startDate": [f"must not be after {where}"]})
    else:
        start = end - timedelta(days=days)
    if end - start > timedelta(days=MAX_WINDOW_DAYS):
        raise validation_problem(
            {"startDate": [f"the window must be at most {MAX_WINDOW_DAYS} days"]}
        )
    return start, end


def _warmup(number: sqlite3.Row) -> dict[str, Any]:
    warmup = loads(number["warmup"])
    label, tone, description = _UI_STATES.get(warmup["status"], _UI_STATES["Not Started"])
    return {
        "phoneNumberId": number["id"],
        "phoneNumber": number["number"],
        "status": warmup["status"],
        "healthStatus": warmup["healthStatus"],
        "healthScore": warmup["healthScore"],
        "progressPercent": warmup["progressPercent"],
        "warmupEnabled": warmup["warmupEnabled"],
        "uiState": {"label": label, "tone": tone, "description": description},
    }


def _capacity(conn: sqlite3.Connection, number: sqlite3.Row, now: datetime) -> dict[str, Any]:
    limits = loads(number["limits"])
    minute = now.replace(second=0, microsecond=0)
    hour = minute.replace(minute=0)
    day = hour.replace(hour=0)
    periods = {
        "ThisMinute": (minute, minute + timedelta(minutes=1), "MinutelyResetsAt", "minute"),
        "ThisHour": (hour, hour + timedelta(hours=1), "HourlyResetsAt", "hour"),
        "Today": (day, day + timedelta(days=1), "DailyResetsAt", "day"),
    }
    out: dict[str, Any] = {
        "phoneNumberId": number["id"],
        "phoneNumber": number["number"],
        "healthStatus": number["health_status"],
        "healthReason": number["health_reason"],
        "smsApproved": bool(number["sms_approved"]),
        "smsRamping": bool(number["sms_ramping"]),
        "voiceRamping": bool(number["voice_ramping"]),
    }
    channels = {"sms": "channel IN ('sms', 'mms')", "voice": "channel = 'call'"}
    for prefix, condition in channels.items():
        for period, (begin, reset, reset_name, limit_key) in periods.items():
            used = conn.execute(
                f"SELECT COUNT(*) AS n FROM phone_events WHERE phone_number_id = ? "
                f"AND direction = 'outbound' AND {condition} AND created_at >= ? "
                "AND created_at <= ?",
                (number["id"], iso(begin), iso(now)),
            ).fetchone()["n"]
            limit = int(limits[prefix][limit_key])
            out[f"{prefix}Used{period}"] = used
            out[f"{prefix}Limit{period}"] = limit
            out[f"{prefix}Remaining{period}"] = max(0, limit - used)
            out[f"{prefix}{reset_name}"] = iso(reset)
    out["capacityAvailable"] = bool(number["sms_approved"]) and all(
        out[f"smsRemaining{p}"] > 0 for p in periods
    )
    return out


def _opt_outs(events: list[sqlite3.Row], start: datetime, window_days: int) -> dict[str, Any]:
    contacted = {e["to_number"] for e in events if e["direction"] == "outbound"}
    opt_outs = sum(1 for e in events if e["direction"] == "inbound" and e["is_opt_out"])
    rate = round(100.0 * opt_outs / len(contacted), 2) if contacted else 0.0
    return {
        "windowDays": window_days,
        "windowStartedAt": iso(start),
        "distinctContactedCount": len(contacted),
        "optOutCount": opt_outs,
        "optOutRatePercent": rate,
    }


_TREND_COUNTS = (
    "smsSentCount",
    "smsFailedCount",
    "mmsSentCount",
    "mmsFailedCount",
    "callPlacedCount",
    "callFailedCount",
)


def _counts(events: list[sqlite3.Row]) -> dict[str, int]:
    counts = dict.fromkeys(
        (*_TREND_COUNTS, "callConnectedCount", "callShortCount", "callInvalidNumberCount"), 0
    )
    for event in events:
        if event["direction"] != "outbound":
            continue
        channel, outcome = event["channel"], event["outcome"]
        if channel in ("sms", "mms"):
            counts[f"{channel}{'Sent' if outcome == 'sent' else 'Failed'}Count"] += 1
            continue
        counts["callPlacedCount"] += 1
        if outcome in ("connected", "short"):
            counts["callConnectedCount"] += 1
        if outcome == "short":
            counts["callShortCount"] += 1
        if outcome in ("failed", "invalid"):
            counts["callFailedCount"] += 1
        if outcome == "invalid":
            counts["callInvalidNumberCount"] += 1
    return counts


def _traffic(
    events: list[sqlite3.Row], start: datetime, end: datetime, window_days: int
) -> dict[str, Any]:
    trend = []
    bucket_start = start
    while bucket_start < end:
        bucket_end = min(bucket_start + timedelta(days=1), end)
        low, high = iso(bucket_start), iso(bucket_end)
        inside = [e for e in events if low <= e["created_at"] < high]
        counts = _counts(inside)
        trend.append(
            {
                "startAt": low,
                "endAt": high,
                "label": bucket_start.strftime("%b %d"),
                **{name: counts[name] for name in _TREND_COUNTS},
            }
        )
        bucket_start = bucket_end
    return {
        "windowDays": window_days,
        **_counts(events),
        "windowStartedAt": iso(start),
        "trend": trend,
    }


_LABELS = {
    ("sms", "sent"): "SMS sent",
    ("sms", "failed"): "SMS failed",
    ("sms", "received"): "SMS received",
    ("mms", "sent"): "MMS sent",
    ("mms", "failed"): "MMS failed",
    ("mms", "received"): "MMS received",
    ("call", "connected"): "Call connected",
    ("call", "short"): "Short call",
    ("call", "failed"): "Call failed",
    ("call", "invalid"): "Invalid number",
    ("call", "received"): "Inbound call",
}


def _recent(conn: sqlite3.Connection, number_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT * FROM phone_events WHERE phone_number_id = ? ORDER BY created_at DESC LIMIT ?",
        (number_id, RECENT_EVENTS),
    )
    return [
        {
            "id": row["id"],
            "label": "Opt-out received"
            if row["is_opt_out"]
            else _LABELS.get((row["channel"], row["outcome"]), row["outcome"]),
            "eventType": f"{row['channel']}.{row['outcome']}",
            "direction": row["direction"],
            "fromPhoneNumber": row["from_number"],
            "toPhoneNumber": row["to_number"],
            "textPreview": row["text_preview"],
            "createdAt": row["created_at"],
            "isOptOut": bool(row["is_opt_out"]),
        }
        for row in rows
    ]
