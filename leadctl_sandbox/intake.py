"""Lead intake: a lead is received Pending and processed after a short delay.

Processing applies the source's rules (enabled, allowedStates, allowedProducts,
requiresConsentCertificate) and, on acceptance, its default tags and the initial status.
It runs lazily: every request first settles the leads whose time has come, so the outcome
does not depend on a background thread and survives restarts.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from leadctl.util.isotime import parse_rfc3339
from leadctl_sandbox import leadstatus
from leadctl_sandbox.auth import SOURCE, Principal
from leadctl_sandbox.db import Record, dumps, loads
from leadctl_sandbox.runs import start_new_lead_runs
from leadctl_sandbox.tags import ensure_tag
from leadctl_sandbox.times import iso
from leadctl_sandbox.webhooks import Event

LEAD_FIELDS = ("firstName", "lastName", "email", "phone", "state", "product", "consentCertificate")
_COLUMNS = {
    "firstName": "first_name",
    "lastName": "last_name",
    "email": "email",
    "phone": "phone",
    "state": "state",
    "product": "product",
    "consentCertificate": "consent_certificate",
}


def receive(
    conn: sqlite3.Connection,
    principal: Principal,
    body: Mapping[str, Any],
    *,
    now: datetime,
    delay: float,
) -> str:
    """Store a Pending lead and mark its source as having received it; returns its id."""
    source_id = principal.source_id if principal.kind == SOURCE else body.get("sourceId")
    tag_ids: list[str] = []
    for name in body.get("tags") or ():
        tag_id = ensure_tag(conn, principal.org_id, name)
        if tag_id not in tag_ids:
            tag_ids.append(tag_id)
    lead_id = str(uuid.uuid4())
    received = iso(now)
    values: dict[str, Any] = {_COLUMNS[name]: body.get(name) for name in LEAD_FIELDS}
    values.update(
        id=lead_id,
        org_id=principal.org_id,
        source_id=source_id,
        tag_ids=dumps(tag_ids),
        processing_status="Pending",
        process_at=iso(now + timedelta(seconds=delay)),
        created_at=received,
    )
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    conn.execute(f"INSERT INTO leads ({columns}) VALUES ({marks})", tuple(values.values()))
    conn.execute(
        "UPDATE sources SET first_lead_received_at = COALESCE(first_lead_received_at, ?), "
        "last_lead_received_at = ? WHERE id = ? AND org_id = ?",
        (received, received, source_id, principal.org_id),
    )
    return lead_id


def settle(conn: sqlite3.Connection, now: datetime, events: list[Event] | None = None) -> int:
    """Process every Pending lead whose delay has passed; returns how many. With ``events``
    (webhook deliveries are on), accepted leads start their automations' runs, whose
    changes are added there."""
    due = conn.execute(
        "SELECT * FROM leads WHERE processing_status = 'Pending' AND process_at <= ? "
        "ORDER BY process_at",
        (iso(now),),
    ).fetchall()
    for lead in due:
        _process(conn, lead, events)
    return len(due)


def _process(conn: sqlite3.Connection, lead: sqlite3.Row, events: list[Event] | None) -> None:
    at = lead["process_at"]
    source = None
    if lead["source_id"] is not None:
        source = conn.execute(
            "SELECT * FROM sources WHERE id = ? AND org_id = ?", (lead["source_id"], lead["org_id"])
        ).fetchone()
    reason = rejection_reason(lead, source)
    if reason is not None:
        conn.execute(
            "UPDATE leads SET processing_status = 'Rejected', processing_error = ?, "
            "modified_at = ? WHERE id = ?",
            (reason, at, lead["id"]),
        )
        return
    tag_ids: list[str] = loads(lead["tag_ids"])
    if source is not None:
        tag_ids += [t for t in loads(source["default_tag_ids"]) if t not in tag_ids]
    conn.execute(
        "UPDATE leads SET processing_status = 'Accepted', processing_error = NULL, tag_ids = ? "
        "WHERE id = ?",
        (dumps(tag_ids), lead["id"]),
    )
    leadstatus.append_change(
        conn,
        lead,
        type_="Created",
        outcome="New",
        category="Open",
        change_source="API",
        changed_at=at,
        notes="Lead received through intake.",
    )
    leadstatus.refresh_lead(conn, lead["id"], at)
    if events is not None:
        moment = parse_rfc3339(at)
        assert moment is not None, "process_at is stored by iso()"
        start_new_lead_runs(conn, lead, moment, events)


def rejection_reason(lead: Record, source: Record | None) -> str | None:
    if lead["source_id"] is None:
        return None
    if source is None:
        return f"unknown source {lead['source_id']!r}"
    if not source["enabled"]:
        return "the source is disabled"
    allowed_states = [s.upper() for s in loads(source["allowed_states"])]
    state = (lead["state"] or "").upper()
    if allowed_states and state not in allowed_states:
        return f"state {lead['state']!r} is not in the source's allowedStates"
    allowed_products = [p.lower() for p in loads(source["allowed_products"])]
    product = (lead["product"] or "").lower()
    if allowed_products and product not in allowed_products:
        return f"product {lead['product']!r} is not in the source's allowedProducts"
    if source["requires_consent_certificate"] and not lead["consent_certificate"]:
        return "the source requires a consent certificate"
    return None
