"""GET /phone-numbers/{phoneNumber}/status: counters and metrics from the sandbox's own data."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx

from leadctl_sandbox.db import DB_FILE
from tests.support.sandbox_server import sandbox_server

E164 = re.compile(r"^\+[1-9][0-9]{6,14}$")
WARM = "%2B15125550100"
NOT_STARTED = "%2B17375550102"


def _status(api: httpx.Client, number: str, **params: Any) -> dict[str, Any]:
    response = api.get(f"/phone-numbers/{number}/status", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_capacity_counters_add_up(api: httpx.Client) -> None:
    status = _status(api, WARM)
    assert status["number"] == "+15125550100"
    capacity = status["outboundCapacity"]
    now = datetime.now(timezone.utc).isoformat()
    for channel in ("sms", "voice"):
        for period in ("ThisMinute", "ThisHour", "Today"):
            used, limit = capacity[f"{channel}Used{period}"], capacity[f"{channel}Limit{period}"]
            assert capacity[f"{channel}Remaining{period}"] == max(0, limit - used)
        assert capacity[f"{channel}UsedThisMinute"] <= capacity[f"{channel}UsedThisHour"]
        assert capacity[f"{channel}UsedThisHour"] <= capacity[f"{channel}UsedToday"]
        for reset in ("MinutelyResetsAt", "HourlyResetsAt", "DailyResetsAt"):
            assert capacity[f"{channel}{reset}"] > now[:19]
    remaining = [capacity[f"smsRemaining{p}"] for p in ("ThisMinute", "ThisHour", "Today")]
    assert status["messagesPossible"] == min(remaining)
    assert capacity["capacityAvailable"] is True


def test_events_and_numbers_are_e164(api: httpx.Client) -> None:
    status = _status(api, WARM)
    assert len(status["recentEvents"]) == 10
    stamps = [event["createdAt"] for event in status["recentEvents"]]
    assert stamps == sorted(stamps, reverse=True)
    for event in status["recentEvents"]:
        assert E164.match(event["fromPhoneNumber"]) and E164.match(event["toPhoneNumber"])
        assert "+15125550100" in (event["fromPhoneNumber"], event["toPhoneNumber"])


def test_window_parameters_shape_the_metrics(api: httpx.Client) -> None:
    week = _status(api, WARM)["trafficMetrics"]
    month = _status(api, WARM, windowDays=30)["trafficMetrics"]
    assert (week["windowDays"], month["windowDays"]) == (7, 30)
    assert len(month["trend"]) == 30
    for name in ("smsSentCount", "callPlacedCount", "smsFailedCount"):
        assert month[name] >= week[name]
        assert sum(bucket[name] for bucket in month["trend"]) == month[name]
    end = datetime.now(timezone.utc).date() - timedelta(days=3)
    start = end - timedelta(days=4)
    ranged = _status(api, WARM, startDate=start.isoformat(), endDate=end.isoformat())
    traffic = ranged["trafficMetrics"]
    assert traffic["windowDays"] == 5
    assert traffic["windowStartedAt"].startswith(start.isoformat())
    assert traffic["trend"][-1]["endAt"].startswith((end + timedelta(days=1)).isoformat())
    assert ranged["optOutMetrics"]["windowDays"] == 5


def test_metrics_match_the_recorded_traffic(tmp_path: Path) -> None:
    data_dir = tmp_path / "state"
    with sandbox_server(data_dir=data_dir) as sandbox, sandbox.client() as api:
        status = _status(api, WARM, windowDays=10)
    traffic, opt_outs = status["trafficMetrics"], status["optOutMetrics"]
    start = traffic["windowStartedAt"]
    today = status["outboundCapacity"]["smsDailyResetsAt"]
    midnight = (datetime.fromisoformat(today[:10]) - timedelta(days=1)).date().isoformat()
    with sqlite3.connect(data_dir / DB_FILE) as conn:
        (number_id,) = conn.execute(
            "SELECT id FROM phone_numbers WHERE number = '+15125550100'"
        ).fetchone()
        rows = conn.execute(
            "SELECT channel, direction, outcome, to_number, is_opt_out FROM phone_events "
            "WHERE phone_number_id = ? AND created_at >= ?",
            (number_id, start),
        ).fetchall()
        (sent_today,) = conn.execute(
            "SELECT COUNT(*) FROM phone_events WHERE phone_number_id = ? AND created_at >= ? "
            "AND direction = 'outbound' AND channel IN ('sms', 'mms')",
            (number_id, midnight),
        ).fetchone()
    assert status["outboundCapacity"]["smsUsedToday"] == sent_today
    outbound = [r for r in rows if r[1] == "outbound"]
    assert traffic["smsSentCount"] == sum(1 for r in outbound if r[0] == "sms" and r[2] == "sent")
    assert traffic["smsFailedCount"] == sum(
        1 for r in outbound if r[0] == "sms" and r[2] == "failed"
    )
    assert traffic["callPlacedCount"] == sum(1 for r in outbound if r[0] == "call")
    assert traffic["callShortCount"] == sum(
        1 for r in outbound if r[0] == "call" and r[2] == "short"
    )
    assert opt_outs["optOutCount"] == sum(1 for r in rows if r[4])
    assert opt_outs["distinctContactedCount"] == len({r[3] for r in outbound})
    assert opt_outs["optOutCount"] > 0
    expected_rate = round(100 * opt_outs["optOutCount"] / opt_outs["distinctContactedCount"], 2)
    assert opt_outs["optOutRatePercent"] == expected_rate


def test_number_without_sms_approval_cannot_send(api: httpx.Client) -> None:
    status = _status(api, NOT_STARTED)
    assert status["messagesPossible"] == 0
    assert status["outboundCapacity"]["capacityAvailable"] is False
    assert status["outboundCapacity"]["healthStatus"] == "unknown"
    warmup = status["smsWarmup"]
    assert (warmup["status"], warmup["healthStatus"], warmup["uiState"]["label"]) == (
        "Not Started",
        "Not Evaluated",
        "Not Started",
    )
    assert status["trafficMetrics"]["smsSentCount"] == 0


def test_bad_numbers_and_windows(api: httpx.Client, info: dict[str, Any]) -> None:
    assert api.get("/phone-numbers/5125550100/status").status_code == 400
    other = info["otherOrganizationPhoneNumbers"][0].replace("+", "%2B")
    assert api.get(f"/phone-numbers/{other}/status").status_code == 403
    assert api.get("/phone-numbers/%2B15125559999/status").status_code == 403
    backwards = api.get(
        f"/phone-numbers/{WARM}/status", params={"startDate": "2025-02-01", "endDate": "2025-01-01"}
    )
    assert backwards.status_code == 400
    assert list(backwards.json()["errors"]) == ["startDate"]
