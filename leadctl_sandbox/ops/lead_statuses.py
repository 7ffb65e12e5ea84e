"""GET /lead-statuses: the organization's active lead statuses."""

from __future__ import annotations

from leadctl_sandbox.ops import Call, Reply


def list_lead_statuses(call: Call) -> Reply:
    rows = call.conn.execute(
        "SELECT * FROM lead_statuses WHERE org_id = ? AND is_archived = 0 ORDER BY sort_order, id",
        (call.principal.org_id,),
    )
    return Reply(
        200,
        [
            {
                "id": row["id"],
                "organizationId": row["org_id"],
                "name": row["name"],
                "color": row["color"],
                "category": row["category"],
                "sortOrder": row["sort_order"],
                "isArchived": bool(row["is_archived"]),
                "modifiedAt": row["modified_at"],
            }
            for row in rows
        ],
    )
