"""GET /leads/{id}: one lead with its intake processing status (assumed)."""

from __future__ import annotations

from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.problems import ApiProblem
from leadctl_sandbox.render import lead_json, org_tags


def get_lead(call: Call) -> Reply:
    org_id = call.principal.org_id
    row = call.conn.execute(
        "SELECT * FROM leads WHERE id = ? AND org_id = ?", (call.path["id"], org_id)
    ).fetchone()
    if row is None:
        raise ApiProblem(404, f"No lead {call.path['id']!r} in this organization.")
    return Reply(200, lead_json(row, org_tags(call.conn, org_id)))
