"""POST /lead-status-changes/all and GET /lead-status-changes/{id} (assumed reads; the
reference shows the update and delete only). A deleted entry is in neither."""

from __future__ import annotations

import sqlite3
from typing import Any

from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import DATETIME, Collection, Field, collection_json, fetch_page
from leadctl_sandbox.problems import ApiProblem
from leadctl_sandbox.render import lead_name, status_change_json

STATUS_CHANGES = Collection(
    select="SELECT * FROM status_changes",
    scope="org_id = ? AND deleted_at IS NULL",
    fields={
        "id": Field("id"),
        "leadId": Field("lead_id"),
        "type": Field("type"),
        "outcome": Field("outcome"),
        "category": Field("category"),
        "notes": Field("notes"),
        "reason": Field("reason"),
        "changeSource": Field("change_source"),
        "changedByAutomationId": Field("changed_by_automation_id"),
        "changedAt": Field("changed_at", DATETIME),
        "createdAt": Field("created_at", DATETIME),
        "updatedAt": Field("updated_at", DATETIME),
    },
    search_fields=("notes", "reason", "outcome"),
    default_order=(("changedAt", "asc"),),
)

# The neighbours in the lead's history (changed_at, seq), as the lead's history links them.
_NEIGHBOUR = (
    "SELECT id, type, outcome FROM status_changes WHERE lead_id = ? AND deleted_at IS NULL "
    "AND (changed_at, seq) {op} (?, ?) ORDER BY changed_at {dir}, seq {dir} LIMIT 1"
)
_PREVIOUS = _NEIGHBOUR.format(op="<", dir="DESC")
_FOLLOWING = _NEIGHBOUR.format(op=">", dir="ASC")


def change_json(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    key = (row["lead_id"], row["changed_at"], row["seq"])
    lead = conn.execute(
        "SELECT first_name, last_name, email, phone FROM leads WHERE id = ?", (row["lead_id"],)
    ).fetchone()
    return status_change_json(
        row,
        lead_name=lead_name(lead) if lead is not None else "",
        previous=conn.execute(_PREVIOUS, key).fetchone(),
        following=conn.execute(_FOLLOWING, key).fetchone(),
    )


def list_status_changes(call: Call) -> Reply:
    page = fetch_page(
        call.conn,
        STATUS_CHANGES,
        call.body,
        scope_params=(call.principal.org_id,),
        secret=call.secret,
    )
    return Reply(200, collection_json([change_json(call.conn, row) for row in page.rows], page))


def get_status_change(call: Call) -> Reply:
    row = call.conn.execute(
        "SELECT * FROM status_changes WHERE id = ? AND org_id = ? AND deleted_at IS NULL",
        (call.path["id"], call.principal.org_id),
    ).fetchone()
    if row is None:
        raise ApiProblem(404, f"No lead status change {call.path['id']!r}.")
    return Reply(200, change_json(call.conn, row))
