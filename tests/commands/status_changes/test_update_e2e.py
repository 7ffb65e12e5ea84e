"""``status-changes update``: the installed leadctl against the session sandbox
(``delete``: test_delete_e2e.py beside this file).

Each test makes its own lead (intake creates its first status change), so nothing here
depends on, or disturbs, what other tests do with the shared server.

Each guarantee meets the installed leadctl (exit codes, stdout against stderr, the process's
TZ, the terminal); reading the lead back, a profile's setup and a table's rows past the first
run in-process (``run_in_process``: the same command tree and socket).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.commands.status_changes.e2e_support import Env, LeadWithHistory, reread_lead
from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e


def puts_for(sandbox: SandboxProcess, change_id: str) -> list[dict[str, Any]]:
    path = f"/lead-status-changes/{change_id}"
    return [r for r in sandbox.requests() if r["path"] == path and r["method"] == "PUT"]


# -- update -------------------------------------------------------------------------------


def test_updating_the_current_entry_updates_the_lead_status(
    sandbox: SandboxProcess, org_env: Env, lead: LeadWithHistory
) -> None:
    before = reread_lead(org_env, lead.lead_id)
    assert before["status"]["name"] == "New"
    result = run_leadctl(
        [
            "status-changes",
            "update",
            lead.change_id,
            "--category",
            "qualified",
            "--outcome",
            "Appointment Set",
            "--notes",
            "booked by e2e",
            "--appointment-start-at",
            "2026-11-23T10:00:00-05:00",
            "--appointment-end-at",
            "2026-11-23T15:30:00Z",
            # No offset: the system zone of the leadctl process.
            "--callback-at",
            "2026-11-22T09:00",
            "--task-due-at",
            "2026-11-22",
        ],
        env={**org_env, "TZ": "America/New_York"},
    )
    assert result.exit_code == 0, result.stderr
    entry = json.loads(result.stdout)
    assert entry["id"] == lead.change_id
    assert entry["leadId"] == lead.lead_id
    assert entry["category"] == "Qualified"
    assert entry["outcome"] == "Appointment Set"
    assert entry["notes"] == "booked by e2e"
    assert entry["appointmentStartAt"].startswith("2026-11-23T15:00:00")
    assert entry["callbackAt"].startswith("2026-11-22T14:00:00")
    (put,) = puts_for(sandbox, lead.change_id)
    assert put["body"] == {
        "category": "Qualified",
        "outcome": "Appointment Set",
        "notes": "booked by e2e",
        "callbackAt": "2026-11-22T14:00:00Z",
        "taskDueAt": "2026-11-22T05:00:00Z",
        "appointmentStartAt": "2026-11-23T15:00:00Z",
        "appointmentEndAt": "2026-11-23T15:30:00Z",
    }

    after = reread_lead(org_env, lead.lead_id)
    assert after["currentStatusChangeId"] == lead.change_id
    assert after["status"]["name"] == "Appointment Set"
    (history,) = after["statusChanges"]
    assert history["category"] == "Qualified"
    assert history["appointmentEndAt"].startswith("2026-11-23T15:30:00")


def test_a_profile_timezone_applies_to_local_times(
    sandbox: SandboxProcess, org_env: Env, lead: LeadWithHistory
) -> None:
    for key, value in (("base_url", sandbox.base_url), ("timezone", "Asia/Tokyo")):
        made = run_in_process(["-p", "tokyo", "profile", "set", key, value])
        assert made.exit_code == 0, made.stderr
    result = run_leadctl(
        [
            "-p",
            "tokyo",
            "status-changes",
            "update",
            lead.change_id,
            "--callback-at",
            "2026-11-22T09:00",
        ],
        env={"LEADCTL_TOKEN": org_env["LEADCTL_TOKEN"], "TZ": "America/New_York"},
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["callbackAt"].startswith("2026-11-22T00:00:00")


def test_update_on_a_terminal_shows_the_entry(org_env: Env, lead: LeadWithHistory) -> None:
    result = run_leadctl_tty(
        [
            "status-changes",
            "update",
            lead.change_id,
            "--reason",
            "shown",
            "--follow-up-status",
            "Open",
        ],
        env={**org_env, "NO_COLOR": "1"},
    )
    assert result.exit_code == 0, result.stderr
    for word in (lead.change_id, lead.lead_id, "category", "reason", "shown", "followUpStatus"):
        assert word in result.stdout
    assert "\x1b[" not in result.stdout


BAD_UPDATES = [
    (["--category", "Won"], "is not a category"),
    (["--callback-at", "next tuesday"], "--callback-at 'next tuesday'"),
    (
        [
            "--appointment-start-at",
            "2026-11-23T15:00Z",
            "--appointment-end-at",
            "2026-11-23T14:00Z",
        ],
        "before it starts",
    ),
    ([], "nothing to update"),
]


@pytest.mark.parametrize(("args", "message"), BAD_UPDATES)
def test_bad_update_input_sends_nothing(
    sandbox: SandboxProcess, org_env: Env, lead: LeadWithHistory, args: list[str], message: str
) -> None:
    run = run_leadctl if args is BAD_UPDATES[0][0] else run_in_process
    result = run(["status-changes", "update", lead.change_id, *args], env=org_env)
    assert result.exit_code == 2
    assert message in result.stderr
    assert puts_for(sandbox, lead.change_id) == []
