"""What the tests of ``automations`` share."""

from __future__ import annotations

from typing import Any

from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, run_cli, token_env

AUTOMATION = "aut_1"

RUNS_URL = f"{BASE_URL}/automations/aut_1/runs"


def action(ident: str, order: int, name: str, status: str, at: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": ident,
        "stepId": f"step_{order}",
        "stepDisplayName": name,
        "actionType": "SendSms",
        "actionTypeDisplay": "Send SMS",
        "status": status,
        "statusDisplay": status,
        "userSummary": f"{name}: {status.lower()}",
        "safeReason": None,
        "failureCode": None,
        "stepOrder": order,
        "retryCount": 0,
        "scheduledAt": at,
        "startedAt": at,
        "completedAt": None,
        "failedAt": None,
        "skippedAt": None,
        "nextRetryAt": None,
        **extra,
    }


def event(
    ident: str, action_id: str | None, kind: str, status: str, at: str, **extra: Any
) -> dict[str, Any]:
    return {
        "id": ident,
        "stepId": None,
        "actionId": action_id,
        "eventType": kind,
        "status": status,
        "statusDisplay": status,
        "summary": f"{kind} summary",
        "reasonCode": None,
        "occurredAt": at,
        **extra,
    }


def failed_run() -> dict[str, Any]:
    """A run that failed on its second step; the test clock reads 2026-11-21 12:00 UTC."""
    return {
        "id": "run_failed",
        "organizationId": "org_1",
        "leadId": "lead_ada",
        "automation": {"id": AUTOMATION, "name": "New lead welcome"},
        "triggerType": "NewLead",
        "triggerDisplay": "New lead received",
        "status": "Failed",
        "statusDisplay": "Failed",
        "currentStep": {"id": "step_2", "name": "Send follow-up SMS"},
        "currentStepOrder": 2,
        "nextExecutionAt": None,
        "lastExecutionAt": "2026-11-21T10:00:00Z",
        "startedAt": "2026-11-20T09:00:00Z",
        "updatedAt": "2026-11-21T10:00:02Z",
        "completedAt": None,
        "failedAt": "2026-11-21T10:00:02Z",
        "cancelledAt": None,
        "nextRetryAt": "2026-11-21T12:30:00Z",
        "retryCount": 1,
        "maxRetryCount": 3,
        "lastErrorCode": "CARRIER_REJECTED",
        "lastErrorMessage": (
            "The carrier rejected the message because the content looked like spam."
        ),
        "skipReasonCode": None,
        "skipReasonDisplay": None,
        "lastActionSummary": "Send follow-up SMS: failed",
        "futureField": [1, 2],
        # Deliberately out of step order: the tree must sort them.
        "actions": [
            action(
                "act_2",
                2,
                "Send follow-up SMS",
                "Failed",
                "2026-11-21T10:00:00Z",
                failedAt="2026-11-21T10:00:02Z",
                failureCode="CARRIER_REJECTED",
                safeReason="The carrier rejected the message.",
                retryCount=1,
                nextRetryAt="2026-11-21T12:30:00Z",
            ),
            action(
                "act_1",
                1,
                "Send welcome SMS",
                "Completed",
                "2026-11-20T09:00:00Z",
                completedAt="2026-11-20T09:00:02Z",
            ),
        ],
        "events": [
            event("ev_end", None, "RunFailed", "Failed", "2026-11-21T10:00:03Z",
                  reasonCode="RETRIES_PENDING"),
            event("ev_a2", "act_2", "ActionFailed", "Failed", "2026-11-21T10:00:02Z",
                  reasonCode="CARRIER_REJECTED"),
            event("ev_start", None, "RunStarted", "Started", "2026-11-20T08:59:59Z"),
            event("ev_a1", "act_1", "ActionCompleted", "Completed", "2026-11-20T09:00:02Z"),
            event("ev_orphan", "act_gone", "Note", "Info", "2026-11-20T12:00:00Z"),
        ],
    }  # fmt: skip


def other_runs() -> list[dict[str, Any]]:
    completed = failed_run() | {
        "id": "run_done",
        "leadId": "lead_bob",
        "status": "Completed",
        "statusDisplay": "Completed",
        "currentStep": None,
        "currentStepOrder": None,
        "failedAt": None,
        "nextRetryAt": None,
        "completedAt": "2026-11-21T09:00:00Z",
        "retryCount": 0,
        "lastErrorCode": None,
        "lastErrorMessage": None,
        "actions": [],
        "events": [],
    }
    waiting = completed | {
        "id": "run_wait",
        "status": "Waiting",
        "statusDisplay": "Waiting for step",
        "completedAt": None,
        "currentStep": {"id": "step_3", "name": "Wait 1 day"},
        "currentStepOrder": 3,
        "nextExecutionAt": "2026-11-21T14:05:00Z",
    }
    return [completed, waiting]


def history() -> dict[str, Any]:
    return {"automationId": AUTOMATION, "runs": [failed_run(), *other_runs()]}


def stub(httpx_mock: HTTPXMock, body: Any = None, url: str = RUNS_URL) -> None:
    httpx_mock.add_response(method="GET", url=url, json=history() if body is None else body)


def run(*args: str, tty: bool = False, env: dict[str, str] | None = None) -> Any:
    return run_cli(
        ["automations", "runs", *args],
        env={**token_env(), "LEADCTL_PAGER": "cat", "TZ": "UTC", **(env or {})},
        tty=tty,
    )
