"""What the end-to-end tests of ``status-changes`` (test_update_e2e.py, test_delete_e2e.py)
share: a lead with a status-change history on the session sandbox, and reading it back."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any

from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

Env = dict[str, str]


@dataclass(frozen=True)
class LeadWithHistory:
    lead_id: str
    change_id: str


def rpc(sandbox: SandboxProcess, method: str, params: dict[str, Any]) -> Any:
    with sandbox.client() as client:
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        answer = client.post("/a2a", json=body).json()
    return answer["result"]


def reread_lead(org_env: Env, lead_id: str) -> dict[str, Any]:
    """The lead and its history, read back through `leadctl api`."""
    envelope = {"jsonrpc": "2.0", "id": 1, "method": "leads.get", "params": {"id": lead_id}}
    result = run_in_process(
        ["api", "POST", "/a2a", "--input", "-"], env=org_env, stdin=json.dumps(envelope)
    )
    assert result.exit_code == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)["result"]
    return found


def new_lead(sandbox: SandboxProcess) -> LeadWithHistory:
    """A new lead, once intake accepted it and gave it its first status change."""
    with sandbox.client() as client:
        response = client.post(
            "/leads",
            json={
                "firstName": "Status",
                "lastName": uuid.uuid4().hex[:10],
                "phone": "+15125550199",
            },
        )
        response.raise_for_status()
        lead_id = response.json()["id"]
    deadline = time.monotonic() + 10
    while True:
        found = rpc(sandbox, "leads.get", {"id": lead_id})
        if found["currentStatusChangeId"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert found["processingStatus"] == "Accepted"
    return LeadWithHistory(lead_id, found["currentStatusChangeId"])
