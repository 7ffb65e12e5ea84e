"""Demo activity: phone numbers with traffic, automations with runs, announcements."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from leadctl_sandbox import seed_data as data
from leadctl_sandbox.db import dumps, insert
from leadctl_sandbox.times import iso

if TYPE_CHECKING:
    from leadctl_sandbox.seed import Seeder

# number, warmup status, progress, sms approved, health
PHONE_NUMBERS = (
    ("+15125550100", "Completed", 100.0, True, "healthy"),
    ("+15125550101", "In Progress", 60.0, True, "healthy"),
    ("+17375550102", "Not Started", 0.0, False, "unknown"),
)
OTHER_ORG_NUMBER = "+13125550199"
LIMITS = {
    "Completed": {"sms": {"minute": 30, "hour": 600, "day": 5000},
                  "voice": {"minute": 10, "hour": 200, "day": 1500}},
    "In Progress": {"sms": {"minute": 6, "hour": 120, "day": 600},
                    "voice": {"minute": 4, "hour": 60, "day": 400}},
    "Not Started": {"sms": {"minute": 1, "hour": 10, "day": 50},
                    "voice": {"minute": 2, "hour": 30, "day": 200}},
}  # fmt: skip
PHONE_DAYS = 35
RUN_STATUSES = (
    "Completed",
    "Completed",
    "Completed",
    "Running",
    "Waiting",
    "Failed",
    "Cancelled",
    "Skipped",
)


def seed_activity(s: Seeder, org: str, other: str, users: list[str]) -> list[str]:
    """Seed the activity of both organizations; returns the main one's automation ids."""
    contacts = [
        f"+1{s.rng.choice(data.AREA_CODES)}555{s.rng.randrange(10000):04d}" for _ in range(60)
    ]
    for number, status, progress, approved, health in PHONE_NUMBERS:
        number_id = _phone_number(s, org, number, status, progress, approved, health)
        if status != "Not Started":
            _traffic(s, number_id, number, contacts, busy=status == "Completed")
    _phone_number(s, other, OTHER_ORG_NUMBER, "Completed", 100.0, True, "healthy")
    automation_ids = []
    for name, trigger, trigger_display, steps in data.AUTOMATIONS:
        automation_id = s.new_id()
        automation_ids.append(automation_id)
        insert(s.conn, "automations", {"id": automation_id, "org_id": org, "name": name})
        for _ in range(s.rng.randint(4, 8)):
            run = _run(s, org, automation_id, name, trigger, trigger_display, steps)
            insert(
                s.conn,
                "automation_runs",
                {
                    "id": run["id"],
                    "org_id": org,
                    "automation_id": automation_id,
                    "started_at": run["startedAt"],
                    "body": dumps(run),
                },
            )
    insert(s.conn, "automations", {"id": s.new_id(), "org_id": other, "name": "Welcome"})
    _announcements(s, org, users)
    return automation_ids


def _phone_number(
    s: Seeder, org: str, number: str, status: str, progress: float, approved: bool, health: str
) -> str:
    number_id = s.new_id()
    insert(
        s.conn,
        "phone_numbers",
        {
            "id": number_id,
            "org_id": org,
            "number": number,
            "warmup": dumps(
                {
                    "status": status,
                    "healthStatus": "Not Evaluated" if status == "Not Started" else "Healthy",
                    "healthScore": 0.0
                    if status == "Not Started"
                    else round(s.rng.uniform(82, 99), 1),
                    "progressPercent": progress,
                    "warmupEnabled": status != "Completed",
                }
            ),
            "limits": dumps(LIMITS[status]),
            "sms_approved": int(approved),
            "sms_ramping": int(status == "In Progress"),
            "voice_ramping": int(status == "In Progress"),
            "health_status": health,
            "health_reason": "" if health == "healthy" else "Not enough traffic to evaluate yet.",
            "created_at": iso(s.ago(120 if status == "Completed" else 10)),
        },
    )
    return number_id


def _traffic(s: Seeder, number_id: str, number: str, contacts: list[str], *, busy: bool) -> None:
    scale = 1.0 if busy else 0.5
    events: list[tuple[datetime, str, str, str, str]] = []
    for day in range(PHONE_DAYS):
        base = s.ago(day + 1)
        per_day = {
            ("sms", "outbound"): int(s.rng.randint(4, 14) * scale),
            ("mms", "outbound"): s.rng.randint(0, 2),
            ("call", "outbound"): int(s.rng.randint(2, 7) * scale),
            ("sms", "inbound"): s.rng.randint(1, 4),
        }
        for (channel, direction), count in per_day.items():
            for _ in range(count):
                at = base + timedelta(seconds=s.rng.uniform(0, 86400))
                events.append((at, channel, direction, *_outcome(s, channel, direction)))
    # A little traffic in the last hour, so the minute/hour/day counters are not all zero.
    for minutes in (1.5, 7, 18, 33, 52):
        events.append((s.ago(minutes=minutes), "sms", "outbound", "sent", ""))
    events.append((s.ago(minutes=25), "call", "outbound", "connected", ""))
    for at, channel, direction, outcome, text in events:
        if at > s.now:
            continue
        contact = s.rng.choice(contacts)
        opt_out = direction == "inbound" and text == "STOP"
        preview = text or (
            s.rng.choice(data.SMS_TEXTS).format(name=s.rng.choice(data.FIRST_NAMES))
            if channel != "call"
            else ""
        )
        insert(
            s.conn,
            "phone_events",
            {
                "id": s.new_id(),
                "phone_number_id": number_id,
                "channel": channel,
                "direction": direction,
                "outcome": outcome,
                "from_number": number if direction == "outbound" else contact,
                "to_number": contact if direction == "outbound" else number,
                "text_preview": preview,
                "is_opt_out": int(opt_out),
                "created_at": iso(at),
            },
        )


def _outcome(s: Seeder, channel: str, direction: str) -> tuple[str, str]:
    """(outcome, text): text is set only for inbound messages."""
    if direction == "inbound":
        text = "STOP" if s.rng.random() < 0.08 else s.rng.choice(data.INBOUND_TEXTS)
        return "received", text
    if channel == "call":
        roll = s.rng.random()
        if roll < 0.6:
            return "connected", ""
        if roll < 0.75:
            return "short", ""
        return ("failed" if roll < 0.9 else "invalid"), ""
    return ("sent" if s.rng.random() < 0.94 else "failed"), ""


def _run(
    s: Seeder,
    org: str,
    automation_id: str,
    name: str,
    trigger: str,
    trigger_display: str,
    steps: tuple[tuple[str, str, str], ...],
) -> dict[str, Any]:
    status = s.rng.choice(RUN_STATUSES)
    started = s.ago(s.rng.uniform(0.1, 30))
    step_ids = [s.new_id() for _ in steps]
    reached = len(steps) if status in ("Completed", "Skipped") else s.rng.randint(1, len(steps))
    actions: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = [
        _event(s, None, None, "RunStarted", "Started", f"Run started: {trigger_display}", started)
    ]
    at = started
    for order in range(reached):
        step_name, action_type, action_display = steps[order]
        last = order == reached - 1
        action_status = "Completed"
        if last and status == "Failed":
            action_status = "Failed"
        elif last and status in ("Running", "Waiting"):
            action_status = "Scheduled"
        elif status == "Skipped":
            action_status = "Skipped"
        action = _action(
            s, step_ids[order], step_name, action_type, action_display, order + 1, action_status, at
        )
        actions.append(action)
        events.append(
            _event(
                s,
                step_ids[order],
                action["id"],
                f"Action{action_status}",
                action_status,
                action["userSummary"],
                at,
                action["failureCode"],
            )
        )
        at += timedelta(minutes=s.rng.uniform(1, 600))
    done = status in ("Completed", "Failed", "Cancelled", "Skipped")
    if done:
        events.append(
            _event(
                s,
                None,
                None,
                f"Run{status}",
                status,
                f"Run {status.lower()}",
                at,
                "STOP_REQUESTED" if status == "Cancelled" else None,
            )
        )
    current = None if done else {"id": step_ids[reached - 1], "name": steps[reached - 1][0]}
    return {
        "id": s.new_id(),
        "organizationId": org,
        "leadId": s.new_id(),
        "automation": {"id": automation_id, "name": name},
        "triggerType": trigger,
        "triggerDisplay": trigger_display,
        "status": status,
        "statusDisplay": status,
        "currentStep": current,
        "currentStepOrder": None if done else reached,
        "nextExecutionAt": None if done else iso(at + timedelta(hours=2)),
        "lastExecutionAt": iso(at),
        "startedAt": iso(started),
        "updatedAt": iso(at),
        "completedAt": iso(at) if status == "Completed" else None,
        "failedAt": iso(at) if status == "Failed" else None,
        "cancelledAt": iso(at) if status == "Cancelled" else None,
        "nextRetryAt": iso(at + timedelta(minutes=30)) if status == "Failed" else None,
        "retryCount": 1 if status == "Failed" else 0,
        "maxRetryCount": 3,
        "lastErrorCode": "CARRIER_REJECTED" if status == "Failed" else None,
        "lastErrorMessage": "The carrier rejected the message." if status == "Failed" else None,
        "skipReasonCode": "LEAD_OPTED_OUT" if status == "Skipped" else None,
        "skipReasonDisplay": "The lead opted out of SMS." if status == "Skipped" else None,
        "lastActionSummary": actions[-1]["userSummary"] if actions else None,
        "actions": actions,
        "events": events,
    }


def _action(
    s: Seeder,
    step_id: str,
    step_name: str,
    action_type: str,
    action_display: str,
    order: int,
    status: str,
    at: datetime,
) -> dict[str, Any]:
    failed = status == "Failed"
    return {
        "id": s.new_id(),
        "stepId": step_id,
        "stepDisplayName": step_name,
        "actionType": action_type,
        "actionTypeDisplay": action_display,
        "status": status,
        "statusDisplay": status,
        "userSummary": f"{step_name}: {status.lower()}",
        "safeReason": "The carrier rejected the message." if failed else None,
        "failureCode": "CARRIER_REJECTED" if failed else None,
        "stepOrder": order,
        "retryCount": 1 if failed else 0,
        "scheduledAt": iso(at),
        "startedAt": None if status == "Scheduled" else iso(at),
        "completedAt": iso(at + timedelta(seconds=2)) if status == "Completed" else None,
        "failedAt": iso(at + timedelta(seconds=2)) if failed else None,
        "skippedAt": iso(at) if status == "Skipped" else None,
        "nextRetryAt": iso(at + timedelta(minutes=30)) if failed else None,
    }


def _event(
    s: Seeder,
    step_id: str | None,
    action_id: str | None,
    event_type: str,
    status: str,
    summary: str,
    at: datetime,
    reason: str | None = None,
) -> dict[str, Any]:
    return {
        "id": s.new_id(),
        "stepId": step_id,
        "actionId": action_id,
        "eventType": event_type,
        "status": status,
        "statusDisplay": status,
        "summary": summary,
        "reasonCode": reason,
        "occurredAt": iso(at),
    }


def _announcements(s: Seeder, org: str, users: list[str]) -> None:
    count = len(data.ANNOUNCEMENTS)
    for index, (name, message, url, button) in enumerate(data.ANNOUNCEMENTS):
        created = s.ago((count - index) * 6 + s.rng.uniform(0, 3))
        announcement_id = s.new_id()
        insert(
            s.conn,
            "announcements",
            {
                "id": announcement_id,
                "org_id": org,
                "name": name,
                "message": message,
                "action_url": url,
                "action_button_text": button,
                "created_at": iso(created),
                "modified_at": iso(created),
            },
        )
        # The older announcements were read by some users, the newest by nobody yet.
        for user in users:
            if index < count - 4 and s.rng.random() < 0.8:
                read = created + timedelta(hours=s.rng.uniform(1, 48))
                insert(
                    s.conn,
                    "announcement_reads",
                    {"announcement_id": announcement_id, "user_id": user, "read_at": iso(read)},
                )
