"""Runs that advance one step each time their automation's runs are read, for watching.

``POST /_sandbox/runs {"outcome", "steps"}`` (control, tests only) starts one, Running at
its first step, under an automation id of its own (no automation lists it, so no other read
of the demo data changes). Every GET /automations/{id}/runs of that id first moves the run
one step on: the current step's action completes and the next becomes current; the read
that reaches the last step ends the run as told (Completed, or Failed at its last step, or
Cancelled). A watcher therefore sees exactly ``steps`` states after the first read,
whatever its timing: no clock and no background thread decide anything.
"""

from __future__ import annotations

import copy
import sqlite3
import uuid
from datetime import datetime
from typing import Any

from leadctl_sandbox import seed_data
from leadctl_sandbox.db import dumps, insert, loads
from leadctl_sandbox.runs import run_event, started_run
from leadctl_sandbox.times import iso
from leadctl_sandbox.webhooks import RUN_STATUS_CHANGED, Event

OUTCOMES = ("Completed", "Failed", "Cancelled")
MAX_STEPS = 20
NAME = "Watched run"
TRIGGER = ("Manual", "Started by the sandbox")
FAILURE = ("CARRIER_REJECTED", "The carrier rejected the message.")


def _steps(count: int) -> tuple[tuple[str, str, str], ...]:
    """``count`` steps named after the demo's new-lead automation, numbered past its end."""
    demo = seed_data.AUTOMATIONS[0][3]
    return tuple(
        demo[i] if i < len(demo) else (f"Step {i + 1}", "Notify", "Notify user")
        for i in range(count)
    )


def start(
    conn: sqlite3.Connection, org_id: str, *, outcome: str, steps: int, at: datetime
) -> dict[str, Any]:
    """A new scripted run in ``org_id``; returns it as GET /automations/{id}/runs lists it."""
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}")
    if not 1 <= steps <= MAX_STEPS:
        raise ValueError(f"steps must be from 1 to {MAX_STEPS}")
    automation_id = str(uuid.uuid4())
    lead = {"org_id": org_id, "id": str(uuid.uuid4())}
    plan = _steps(steps)
    step_ids = [str(uuid.uuid4()) for _ in plan]
    run = started_run(lead, automation_id, NAME, TRIGGER, plan, step_ids, at)
    insert(
        conn,
        "automation_runs",
        {
            "id": run["id"],
            "org_id": org_id,
            "automation_id": automation_id,
            "started_at": run["startedAt"],
            "body": dumps(run),
        },
    )
    insert(
        conn,
        "scripted_runs",
        {
            "run_id": run["id"],
            "automation_id": automation_id,
            "outcome": outcome,
            "steps": steps,
            "reached": 0,
            "step_ids": dumps(step_ids),
        },
    )
    return run


def advance(
    conn: sqlite3.Connection, automation_id: str, at: datetime, events: list[Event] | None
) -> None:
    """Move each unfinished scripted run of ``automation_id`` one step on."""
    rows = conn.execute(
        "SELECT s.run_id, s.outcome, s.steps, s.reached, s.step_ids, r.body FROM scripted_runs s "
        "JOIN automation_runs r ON r.id = s.run_id "
        "WHERE s.automation_id = ? AND s.reached < s.steps",
        (automation_id,),
    ).fetchall()
    for row in rows:
        run = loads(row["body"])
        reached = row["reached"] + 1
        plan = (_steps(row["steps"]), loads(row["step_ids"]))
        _step(run, plan, reached, row["outcome"], at)
        conn.execute("UPDATE automation_runs SET body = ? WHERE id = ?", (dumps(run), run["id"]))
        conn.execute(
            "UPDATE scripted_runs SET reached = ? WHERE run_id = ?", (reached, row["run_id"])
        )
        if events is not None:
            events.append(Event(RUN_STATUS_CHANGED, at, copy.deepcopy(run)))


def _step(
    run: dict[str, Any],
    plan: tuple[tuple[tuple[str, str, str], ...], list[str]],
    order: int,
    outcome: str,
    at: datetime,
) -> None:
    """Step ``order`` (1-based) ends: completed, or as the outcome says when it is the last."""
    steps, step_ids = plan
    name, action_type, action_display = steps[order - 1]
    last = order == len(steps)
    status = "Completed"
    if last and outcome == "Failed":
        status = "Failed"
    elif last and outcome == "Cancelled":
        status = "Skipped"
    action_id = str(uuid.uuid4())
    failed = status == "Failed"
    summary = f"{name}: {status.lower()}"
    run["actions"].append(
        {
            "id": action_id,
            "stepId": step_ids[order - 1],
            "stepDisplayName": name,
            "actionType": action_type,
            "actionTypeDisplay": action_display,
            "status": status,
            "statusDisplay": status,
            "userSummary": summary,
            "safeReason": FAILURE[1] if failed else None,
            "failureCode": FAILURE[0] if failed else None,
            "stepOrder": order,
            "retryCount": 0,
            "scheduledAt": iso(at),
            "startedAt": iso(at),
            "completedAt": iso(at) if status == "Completed" else None,
            "failedAt": iso(at) if failed else None,
            "skippedAt": iso(at) if status == "Skipped" else None,
            "nextRetryAt": None,
        }
    )
    run["events"].append(
        run_event(step_ids[order - 1], action_id, f"Action{status}", status, summary, at)
    )
    run.update(lastExecutionAt=iso(at), updatedAt=iso(at), lastActionSummary=summary)
    if not last:
        run.update(
            currentStep={"id": step_ids[order], "name": steps[order][0]},
            currentStepOrder=order + 1,
            nextExecutionAt=iso(at),
        )
        return
    run.update(
        status=outcome,
        statusDisplay=outcome,
        currentStep=None,
        currentStepOrder=None,
        nextExecutionAt=None,
    )
    if outcome == "Completed":
        run["completedAt"] = iso(at)
    elif outcome == "Failed":
        run.update(failedAt=iso(at), lastErrorCode=FAILURE[0], lastErrorMessage=FAILURE[1])
    else:
        run["cancelledAt"] = iso(at)
    run["events"].append(
        run_event(None, None, f"Run{outcome}", outcome, f"Run {outcome.lower()}", at)
    )
