"""POST /automations/all and GET /automations/{id} (assumed reads of the Automations group)."""

from __future__ import annotations

import sqlite3
from typing import Any

from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import Collection, Field, collection_json, fetch_page
from leadctl_sandbox.problems import ApiProblem

AUTOMATIONS = Collection(
    select="SELECT * FROM automations",
    scope="org_id = ?",
    fields={"id": Field("id"), "name": Field("name")},
    search_fields=("name",),
    default_order=(("name", "asc"),),
)


def automation_json(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    runs = conn.execute(
        "SELECT COUNT(*) AS n, MAX(started_at) AS last FROM automation_runs "
        "WHERE automation_id = ?",
        (row["id"],),
    ).fetchone()
    return {
        "id": row["id"],
        "organizationId": row["org_id"],
        "name": row["name"],
        "runCount": int(runs["n"]),
        "lastRunAt": runs["last"],
    }


def list_automations(call: Call) -> Reply:
    page = fetch_page(
        call.conn, AUTOMATIONS, call.body, scope_params=(call.principal.org_id,), secret=call.secret
    )
    return Reply(200, collection_json([automation_json(call.conn, r) for r in page.rows], page))


def get_automation(call: Call) -> Reply:
    row = call.conn.execute(
        "SELECT * FROM automations WHERE id = ? AND org_id = ?",
        (call.path["id"], call.principal.org_id),
    ).fetchone()
    if row is None:
        raise ApiProblem(404, f"No automation {call.path['id']!r} in this organization.")
    return Reply(200, automation_json(call.conn, row))
