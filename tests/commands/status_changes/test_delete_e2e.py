"""``status-changes delete``: the installed leadctl against the session sandbox, the way
test_update_e2e.py beside this file says (each test makes its own lead).
"""

from __future__ import annotations

import pytest

from tests.commands.status_changes.e2e_support import Env, LeadWithHistory, reread_lead
from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e


# -- delete -------------------------------------------------------------------------------


def test_a_deleted_entry_disappears(
    sandbox: SandboxProcess, org_env: Env, lead: LeadWithHistory
) -> None:
    result = run_leadctl(["status-changes", "delete", lead.change_id, "--yes"], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"deleted status change {lead.change_id}\n"

    after = reread_lead(org_env, lead.lead_id)
    assert lead.change_id not in [entry["id"] for entry in after["statusChanges"]]
    # It was the lead's only entry: no current entry, no status.
    assert after["currentStatusChangeId"] is None
    assert after["status"] is None

    again = run_leadctl(["status-changes", "delete", lead.change_id, "--yes"], env=org_env)
    assert again.exit_code == 5
    assert "404" in again.stderr
    update = run_in_process(
        ["status-changes", "update", lead.change_id, "--notes", "too late"], env=org_env
    )
    assert update.exit_code == 5


def test_delete_without_a_terminal_needs_yes(
    sandbox: SandboxProcess, org_env: Env, lead: LeadWithHistory
) -> None:
    result = run_leadctl(["status-changes", "delete", lead.change_id], env=org_env)
    assert result.exit_code == 2
    assert "--yes" in result.stderr
    assert reread_lead(org_env, lead.lead_id)["currentStatusChangeId"] == lead.change_id


def test_delete_on_a_terminal_prints_nothing_on_stdout(org_env: Env, lead: LeadWithHistory) -> None:
    result = run_leadctl_tty(["status-changes", "delete", lead.change_id, "--yes"], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert f"deleted status change {lead.change_id}" in result.stderr
    assert reread_lead(org_env, lead.lead_id)["statusChanges"] == []


def test_a_lost_delete_answer_is_retried_and_the_retry_sees_404(
    sandbox: SandboxProcess, org_env: Env, lead: LeadWithHistory
) -> None:
    # The first DELETE is carried out but its answer is lost; DELETE is retry-safe, so
    # leadctl repeats it and the repeat finds nothing: reported as gone but unconfirmed.
    sandbox.add_fault(f"/lead-status-changes/{lead.change_id}", "drop-after", method="DELETE")
    result = run_leadctl(["status-changes", "delete", lead.change_id, "--yes"], env=org_env)
    assert result.exit_code == 5
    assert "retrying in" in result.stderr
    assert "is gone, but leadctl cannot confirm it deleted it" in result.stderr
    assert "answer was lost" in result.stderr
    assert reread_lead(org_env, lead.lead_id)["statusChanges"] == []
