"""POST /leads (intake, completes later) and POST /leads/all/my (the organization's leads)."""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Mapping
from typing import Any

from leadctl_sandbox import intake
from leadctl_sandbox.lead_collection import LEADS
from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import collection_json, fetch_page
from leadctl_sandbox.render import lead_json, org_tags
from leadctl_sandbox.webhooks import LEAD_CREATED, Event


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
