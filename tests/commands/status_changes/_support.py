"""What the tests of ``status-changes`` share."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx

from tests.support.cli import BASE_URL

CHANGE_URL = f"{BASE_URL}/lead-status-changes/chg_1"

ENTRY = {
    "id": "chg_1",
    "leadId": "lead_1",
    "leadName": "Ada Lovelace",
    "type": "Call",
    "outcome": "Appointment set",
    "category": "Qualified",
    "notes": "wants a quote",
    "reason": None,
    "followUpStatus": "Scheduled",
    "callbackAt": "2026-11-21T14:00:00.000Z",
    "taskDueAt": None,
    "appointmentStartAt": "2026-11-23T15:00:00.000Z",
    "appointmentEndAt": "2026-11-23T15:30:00.000Z",
    "appointmentNotes": None,
    "changeSource": "API",
    "updatedAt": "2026-11-21T12:00:00.000Z",
    "futureField": [1, 2],
}


def sent_json(request: httpx.Request) -> Any:
    return json.loads(request.content)


def write_profile(text: str) -> None:
    config_dir = Path(os.environ["LEADCTL_CONFIG_DIR"])
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "config.toml").write_text(text, encoding="utf-8")
