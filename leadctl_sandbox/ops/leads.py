"""POST /leads (intake, completes later) and POST /leads/all/my (the organization's leads)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from leadctl_sandbox import intake
from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import DATETIME, TAGS, Collection, Field, collection_json, fetch_page
from leadctl_sandbox.render import lead_json, org_tags

LEADS = Collection(
    select="SELECT * FROM leads",
    scope="org_id = ?",
    fields={
        "id": Field("id"),
        "firstName": Field("first_name"),
        "lastName": Field("last_name"),
        "email": Field("email"),
        "phone": Field("phone"),
        "state": Field("state"),
        "product": Field("product"),
        "sourceId": Field("source_id"),
        "status.id": Field("status_id"),
        "status.name": Field("status_name"),
        "processingStatus": Field("processing_status"),
        "tags": Field("tag_ids", TAGS),
        "createdAt": Field("created_at", DATETIME),
        "modifiedAt": Field("modified_at", DATETIME),
    },
    search_fields=("firstName", "lastName", "email", "phone"),
    default_order=(("createdAt", "desc"),),
)


def create_lead(call: Call) -> Reply:
    lead_id = intake.receive(
        call.conn, call.principal, call.body, now=call.now, delay=call.settings.intake_delay
    )
    row = call.conn.execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone()
    return Reply(202, lead_json(row, org_tags(call.conn, call.principal.org_id)))


def list_my_leads(call: Call) -> Reply:
    return Reply(200, search_leads(call.conn, call.principal.org_id, call.body, call.secret))


def search_leads(
    conn: sqlite3.Connection, org_id: str, options: Mapping[str, Any], secret: bytes
) -> dict[str, Any]:
    page = fetch_page(conn, LEADS, options, scope_params=(org_id,), secret=secret)
    tags = org_tags(conn, org_id)
    return collection_json([lead_json(row, tags) for row in page.rows], page)
