"""The whole operator loop with nothing but ``--profile sandbox``: the installed leadctl, the
embedded sandbox, the contract it publishes. Every id a command takes comes from a list
shown before it, as the README tour does it.

Reads with no curated command are the generated ones the sandbox's contract gives
(`sources list`, `automations list`, `numbers list`, `leads get`, `status-changes list`);
nothing here needs `leadctl api`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.e2e import Completed, run_leadctl

pytestmark = pytest.mark.e2e


def sandbox(*args: str) -> Completed:
    result = run_leadctl(["--profile", "sandbox", *args], env={"COLUMNS": "120"})
    assert result.exit_code == 0, (args, result.stderr)
    assert "Traceback" not in result.stderr
    return result


def sandbox_json(*args: str) -> Any:
    return json.loads(sandbox(*args, "-o", "json").stdout)


def test_the_operator_loop_with_only_the_sandbox_profile() -> None:
    # Sources: list, update one, rotate its key.
    sources = sandbox_json("sources", "list")
    web = next(s for s in sources if s["name"] == "Website form")
    updated = sandbox_json("sources", "update", web["id"], "--name", "Website form (tour)")
    assert updated["name"] == "Website form (tour)"
    rotated = sandbox("sources", "rotate", web["id"], "--yes", "--secret-only")
    secret = rotated.stdout.strip()
    assert secret.startswith("src_") and secret not in rotated.stderr
    after = sandbox_json("sources", "get", web["id"])
    assert after["name"] == "Website form (tour)"
    assert after["apiKeyRotatedAt"] is not None
    assert after["apiKeyPreview"].endswith(secret[-4:])

    # Automations: list, then one run as a tree.
    automations = sandbox_json("automations", "list")
    busy = next(a for a in automations if a["runCount"] > 0)
    runs = sandbox_json("automations", "runs", busy["id"])["runs"]
    run = runs[0]
    tree = sandbox("automations", "runs", busy["id"], "--run", run["id"], "-o", "table").stdout
    assert f"Run {run['id']}" in tree
    assert "├── " in tree or "└── " in tree
    assert run["actions"][0]["stepDisplayName"] in tree

    # Numbers: list, then one's status.
    numbers = sandbox_json("numbers", "list")
    status = sandbox_json("numbers", "status", numbers[0]["number"])
    assert status["number"] == numbers[0]["number"]
    assert sandbox_json("numbers", "get", numbers[0]["id"]) == numbers[0]

    # A lead, its status changes, update one and delete one.
    # One with a history: the newest lead may still be in intake, with none yet.
    leads = sandbox_json("leads", "list", "--limit", "20")
    lead = next(lead for lead in leads if lead.get("currentStatusChangeId"))
    assert sandbox_json("leads", "get", lead["id"]) == lead
    changes = sandbox_json("status-changes", "list", "--filter", f"leadId={lead['id']}", "--all")
    assert changes and {c["leadId"] for c in changes} == {lead["id"]}
    assert lead["currentStatusChangeId"] == changes[-1]["id"]
    change = changes[-1]
    noted = sandbox_json("status-changes", "update", change["id"], "--notes", "Called back")
    assert noted["notes"] == "Called back"
    assert sandbox_json("status-changes", "get", change["id"])["notes"] == "Called back"
    deleted = sandbox("status-changes", "delete", change["id"], "--yes")
    assert f"deleted status change {change['id']}" in deleted.stderr
    gone = run_leadctl(["--profile", "sandbox", "status-changes", "get", change["id"]])
    assert gone.exit_code == 5
    left = sandbox_json("status-changes", "list", "--filter", f"leadId={lead['id']}", "--all")
    assert change["id"] not in {c["id"] for c in left}
