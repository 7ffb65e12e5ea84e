"""POST /leads (intake, completes later) and POST /leads/all/my (the organization's leads)."""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Mapping
from typing import Any

from leadctl_sandbox import intake
from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import (
    DATETIME,
    TAGS,
    Collection,
    Field,
    collection_json,
    fetch_page,
    sort_index_names,
    sort_indexes,
)
from leadctl_sandbox.render import lead_json, org_tags
from leadctl_sandbox.webhooks import LEAD_CREATED, Event

LEADS = Collection(
    select="SELECT * FROM leads",
    scope="org_id = ?",
    fields={
        "id": Field("id", not_null=True),
        "firstName": Field("first_name", sort_column="sort_first_name"),
        "lastName": Field("last_name", sort_column="sort_last_name"),
        "email": Field("email", sort_column="sort_email"),
        "phone": Field("phone", sort_column="sort_phone"),
        "state": Field("state", sort_column="sort_state"),
        "product": Field("product", sort_column="sort_product"),
        "sourceId": Field("source_id"),
        "status.id": Field("status_id"),
        "status.name": Field("status_name", sort_column="sort_status_name"),
        "processingStatus": Field("processing_status", not_null=True),
        "tags": Field("tag_ids", TAGS),
        "createdAt": Field("created_at", DATETIME, not_null=True),
        "modifiedAt": Field("modified_at", DATETIME, sort_column="sort_modified_at"),
    },
    search_fields=("firstName", "lastName", "email", "phone"),
    default_order=(("createdAt", "desc"),),
    table="leads",
    # Every sort LeadRequestDataOptions offers: paging is O(page) whichever is chosen.
    indexed_sorts=(
        "createdAt", "modifiedAt", "firstName", "lastName", "email", "phone", "state",
        "product", "processingStatus", "status.name", "id",
    ),
)  # fmt: skip


def create_sort_indexes(conn: sqlite3.Connection) -> None:
    for statement in sort_indexes(LEADS):
        conn.execute(statement)


def drop_sort_indexes(conn: sqlite3.Connection) -> None:
    """Before a bulk insert: building an index once afterwards is faster than keeping it."""
    for name in sort_index_names(LEADS):
        conn.execute(f"DROP INDEX IF EXISTS {name}")


def create_lead(call: Call) -> Reply:
    lead_id = intake.receive(
        call.conn, call.principal, call.body, now=call.now, delay=call.settings.intake_delay
    )
    row = call.conn.execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone()
    lead = lead_json(row, org_tags(call.conn, call.principal.org_id))
    if call.events is not None:
        call.events.append(Event(LEAD_CREATED, call.now, copy.deepcopy(lead)))
    return Reply(202, lead)


def list_my_leads(call: Call) -> Reply:
    return Reply(200, search_leads(call.conn, call.principal.org_id, call.body, call.secret))


def search_leads(
    conn: sqlite3.Connection, org_id: str, options: Mapping[str, Any], secret: bytes
) -> dict[str, Any]:
    page = fetch_page(conn, LEADS, options, scope_params=(org_id,), secret=secret)
    tags = org_tags(conn, org_id)
    return collection_json([lead_json(row, tags) for row in page.rows], page)
