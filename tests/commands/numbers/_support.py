"""What the tests of ``numbers`` share."""

from __future__ import annotations

import re
from typing import Any

from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, run_cli, token_env

NUMBER = "+14155550123"

STATUS_URL = f"{BASE_URL}/phone-numbers/%2B14155550123/status"


def number_status() -> dict[str, Any]:
    """A PhoneNumberStatus as the reference describes it, at the test clock's noon UTC."""
    capacity: dict[str, Any] = {
        "capacityAvailable": True,
        "phoneNumberId": "pn_1",
        "phoneNumber": NUMBER,
        "healthStatus": "Healthy",
        "healthReason": "All limits normal",
        "smsApproved": True,
        "smsRamping": True,
        "voiceRamping": False,
        "someFutureField": {"kept": True},
    }
    counters = {
        "sms": {"ThisMinute": (9, 10), "ThisHour": (120, 200), "Today": (150, 1000)},
        "voice": {"ThisMinute": (0, 5), "ThisHour": (4, 60), "Today": (60, 60)},
    }
    resets = {"Minutely": "12:00:42", "Hourly": "12:14:00", "Daily": "23:59:59"}
    for channel, periods in counters.items():
        for period, (used, limit) in periods.items():
            capacity[f"{channel}Used{period}"] = used
            capacity[f"{channel}Limit{period}"] = limit
            capacity[f"{channel}Remaining{period}"] = limit - used
        for infix, clock in resets.items():
            capacity[f"{channel}{infix}ResetsAt"] = f"2026-11-21T{clock}Z"
    trend = [
        {
            "startAt": f"2026-11-{day:02d}T00:00:00Z",
            "endAt": f"2026-11-{day + 1:02d}T00:00:00Z",
            "label": f"Nov {day}",
            "smsSentCount": sent,
            "smsFailedCount": failed,
            "mmsSentCount": 0,
            "mmsFailedCount": 0,
            "callPlacedCount": 3,
            "callFailedCount": 0,
        }
        for day, sent, failed in [
            (15, 0, 0),
            (16, 10, 1),
            (17, 40, 0),
            (18, 80, 2),
            (19, 120, 0),
            (20, 60, 1),
            (21, 30, 0),
        ]
    ]
    return {
        "number": NUMBER,
        "messagesPossible": 1,
        "callsPossible": 0,
        "smsWarmup": {
            "phoneNumberId": "pn_1",
            "phoneNumber": NUMBER,
            "status": "In Progress",
            "healthStatus": "Good",
            "healthScore": 82,
            "progressPercent": 45.5,
            "warmupEnabled": True,
            "uiState": {
                "label": "Warming up",
                "tone": "info",
                "description": "Daily limits grow as the number builds reputation.",
            },
        },
        "outboundCapacity": capacity,
        "optOutMetrics": {
            "windowDays": 7,
            "windowStartedAt": "2026-11-14T12:00:00Z",
            "distinctContactedCount": 250,
            "optOutCount": 3,
            "optOutRatePercent": 1.2,
        },
        "trafficMetrics": {
            "windowDays": 7,
            "windowStartedAt": "2026-11-14T12:00:00Z",
            "smsSentCount": 340,
            "smsFailedCount": 4,
            "mmsSentCount": 2,
            "mmsFailedCount": 0,
            "callPlacedCount": 21,
            "callFailedCount": 1,
            "callConnectedCount": 15,
            "callShortCount": 2,
            "callInvalidNumberCount": 1,
            "trend": trend,
        },
        "recentEvents": [
            {
                "id": "ev_1",
                "label": "SMS sent",
                "eventType": "sms.outbound",
                "direction": "Outbound",
                "fromPhoneNumber": NUMBER,
                "toPhoneNumber": "+14155550199",
                "textPreview": "Hi Ada, thanks for your interest in solar panels!",
                "createdAt": "2026-11-21T11:58:00Z",
                "isOptOut": False,
            },
            {
                "id": "ev_2",
                "label": "SMS received",
                "eventType": "sms.inbound",
                "direction": "Inbound",
                "fromPhoneNumber": "+14155550199",
                "toPhoneNumber": NUMBER,
                "textPreview": "STOP",
                "createdAt": "2026-11-21T11:59:30Z",
                "isOptOut": True,
            },
        ],
    }


def stub(httpx_mock: HTTPXMock, url: str = STATUS_URL, **kwargs: Any) -> None:
    httpx_mock.add_response(method="GET", url=url, json=kwargs.pop("json", number_status()))


def set_profile(*pairs: tuple[str, str]) -> None:
    for key, value in pairs:
        result = run_cli(["profile", "set", key, value])
        assert result.exit_code == 0, result.stderr


def view(httpx_mock: HTTPXMock, *extra: str, env: dict[str, str] | None = None, **kw: Any) -> str:
    stub(httpx_mock, json=kw.pop("data", number_status()))
    # A person's terminal pages long output; here the view must land on stdout.
    merged = {**token_env(), "LEADCTL_PAGER": "cat", **(env or {})}
    result = run_cli(["numbers", "status", NUMBER, *extra], env=merged, **kw)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def spark_line(out: str, label: str) -> str:
    """The sparkline characters on the line that starts with ``label``."""
    line = next(line for line in out.splitlines() if line.startswith(label))
    return "".join(ch for ch in line if ch in "▁▂▃▄▅▆▇█")


def squeeze(blocks: str) -> str:
    """One character per bucket: the view widens each bucket to several columns."""
    return re.sub(r"(.)\1*", r"\1", blocks)
