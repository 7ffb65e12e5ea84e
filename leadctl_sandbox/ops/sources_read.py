"""POST /sources/all and GET /sources/{id} (assumed reads of the Sources group)."""

from __future__ import annotations

from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import BOOL, DATETIME, Collection, Field, collection_json, fetch_page
from leadctl_sandbox.problems import ApiProblem
from leadctl_sandbox.render import source_json

SOURCES = Collection(
    select="SELECT * FROM sources",
    scope="org_id = ?",
    fields={
        "id": Field("id"),
        "name": Field("name"),
        "description": Field("description"),
        "enabled": Field("enabled", BOOL),
        "createdAt": Field("created_at", DATETIME),
        "modifiedAt": Field("modified_at", DATETIME),
        "lastLeadReceivedAt": Field("last_lead_received_at", DATETIME),
    },
    search_fields=("name", "description"),
    default_order=(("createdAt", "asc"),),
)


def list_sources(call: Call) -> Reply:
    page = fetch_page(
        call.conn, SOURCES, call.body, scope_params=(call.principal.org_id,), secret=call.secret
    )
    return Reply(200, collection_json([source_json(call.conn, row) for row in page.rows], page))


def get_source(call: Call) -> Reply:
    row = call.conn.execute(
        "SELECT * FROM sources WHERE id = ? AND org_id = ?",
        (call.path["id"], call.principal.org_id),
    ).fetchone()
    if row is None:
        raise ApiProblem(404, f"No source {call.path['id']!r} in this organization.")
    return Reply(200, source_json(call.conn, row))
