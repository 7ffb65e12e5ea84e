"""GET /automations/{id}/runs: the automation's recent runs, newest first (a scripted run,
:mod:`leadctl_sandbox.scripted_runs`, moves one step on first)."""

from __future__ import annotations

import json

from leadctl_sandbox import scripted_runs
from leadctl_sandbox.ops import Call, Reply

MAX_RUNS = 50


def list_runs(call: Call) -> Reply:
    automation_id = call.path["id"]
    scripted_runs.advance(call.conn, automation_id, call.now, call.events)
    rows = call.conn.execute(
        "SELECT body FROM automation_runs WHERE automation_id = ? AND org_id = ? "
        "ORDER BY started_at DESC, id LIMIT ?",
        (automation_id, call.principal.org_id, MAX_RUNS),
    )
    # The reference lists no 404 here: an id without runs in the organization has none.
    return Reply(
        200, {"automationId": automation_id, "runs": [json.loads(r["body"]) for r in rows]}
    )
