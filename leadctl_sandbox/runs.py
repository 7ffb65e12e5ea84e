"""Automation runs that happen while the sandbox serves, so their changes can be delivered.

The demo runs are seeded history and never change. With ``--webhook-url``, a lead that
intake accepts starts a run of each of the organization's new-lead automations (the demo's
"New lead welcome"): it starts Running at its first step, which completes at once, and then
Waiting at the next one (its first wait is a day: the sandbox goes no further). Each status
is an ``automation_run.status_changed`` event; the run reads back as GET
/automations/{id}/runs lists it.
"""

from __future__ import annotations

import copy
import sqlite3
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from leadctl_sandbox import seed_data
from leadctl_sandbox.db import dumps, insert
from leadctl_sandbox.times import iso
from leadctl_sandbox.webhooks import RUN_STATUS_CHANGED, Event

NEW_LEAD_TRIGGER = "NewLead"
FIRST_WAIT = timedelta(days=1)


def start_new_lead_runs(
    conn: sqlite3.Connection, lead: sqlite3.Row, at: datetime, events: list[Event]
) -> None:
    for name, trigger, trigger_display, steps in seed_data.AUTOMATIONS:
        if trigger != NEW_LEAD_TRIGGER:
            continue
        row = conn.execute(
            "SELECT id FROM automations WHERE org_id = ? AND name = ?", (lead["org_id"], name)
        ).fetchone()
        if row is None:
            continue
        step_ids = [str(uuid.uuid4()) for _ in steps]
        run = started_run(lead, row["id"], name, (trigger, trigger_display), steps, step_ids, at)
        insert(
            conn,
            "automation_runs",
            {
                "id": run["id"],
                "org_id": lead["org_id"],
                "automation_id": row["id"],
                "started_at": run["startedAt"],
                "body": dumps(run),
            },
        )
        events.append(Event(RUN_STATUS_CHANGED, at, copy.deepcopy(run)))
        _wait_at_second_step(run, steps, step_ids, at)
        conn.execute("UPDATE automation_runs SET body = ? WHERE id = ?", (dumps(run), run["id"]))
        events.append(Event(RUN_STATUS_CHANGED, at, copy.deepcopy(run)))


def started_run(
    lead: sqlite3.Row | Mapping[str, Any],
    automation_id: str,
    name: str,
    triggered_by: tuple[str, str],
    steps: tuple[tuple[str, str, str], ...],
    step_ids: list[str],
    at: datetime,
) -> dict[str, Any]:
    trigger, trigger_display = triggered_by
    return {
        "id": str(uuid.uuid4()),
        "organizationId": lead["org_id"],
        "leadId": lead["id"],
        "automation": {"id": automation_id, "name": name},
        "triggerType": trigger,
        "triggerDisplay": trigger_display,
        "status": "Running",
        "statusDisplay": "Running",
        "currentStep": {"id": step_ids[0], "name": steps[0][0]},
        "currentStepOrder": 1,
        "nextExecutionAt": iso(at),
        "lastExecutionAt": iso(at),
        "startedAt": iso(at),
        "updatedAt": iso(at),
        "completedAt": None,
        "failedAt": None,
        "cancelledAt": None,
        "nextRetryAt": None,
        "retryCount": 0,
        "maxRetryCount": 3,
        "lastErrorCode": None,
        "lastErrorMessage": None,
        "skipReasonCode": None,
        "skipReasonDisplay": None,
        "lastActionSummary": None,
        "actions": [],
        "events": [
            run_event(None, None, "RunStarted", "Started", f"Run started: {trigger_display}", at)
        ],
    }


def _wait_at_second_step(
    run: dict[str, Any],
    steps: tuple[tuple[str, str, str], ...],
    step_ids: list[str],
    at: datetime,
) -> None:
    step_name, action_type, action_display = steps[0]
    action_id = str(uuid.uuid4())
    summary = f"{step_name}: completed"
    action: dict[str, Any] = {
        "id": action_id,
        "stepId": step_ids[0],
        "stepDisplayName": step_name,
        "actionType": action_type,
        "actionTypeDisplay": action_display,
        "status": "Completed",
        "statusDisplay": "Completed",
        "userSummary": summary,
        "safeReason": None,
        "failureCode": None,
        "stepOrder": 1,
        "retryCount": 0,
        "scheduledAt": iso(at),
        "startedAt": iso(at),
        "completedAt": iso(at),
        "failedAt": None,
        "skippedAt": None,
        "nextRetryAt": None,
    }
    run["actions"].append(action)
    run["events"].append(
        run_event(step_ids[0], action_id, "ActionCompleted", "Completed", summary, at)
    )
    waiting_on = 1 if len(steps) > 1 else 0
    run.update(
        status="Waiting",
        statusDisplay="Waiting",
        currentStep={"id": step_ids[waiting_on], "name": steps[waiting_on][0]},
        currentStepOrder=waiting_on + 1,
        nextExecutionAt=iso(at + FIRST_WAIT),
        lastActionSummary=summary,
    )


def run_event(
    step_id: str | None,
    action_id: str | None,
    event_type: str,
    status: str,
    summary: str,
    at: datetime,
) -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()),
        "stepId": step_id,
        "actionId": action_id,
        "eventType": event_type,
        "status": status,
        "statusDisplay": status,
        "summary": summary,
        "reasonCode": None,
        "occurredAt": iso(at),
    }
