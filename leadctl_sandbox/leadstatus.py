"""A lead's status history and the current status it implies.

The lead's current status change is its latest remaining one; its status is the active
LeadStatus named like that change's outcome, else the first active one of its category.
"""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from leadctl_sandbox.db import Record


def history(conn: sqlite3.Connection, lead_id: str) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT * FROM status_changes WHERE lead_id = ? AND deleted_at IS NULL "
        "ORDER BY changed_at, seq",
        (lead_id,),
    ).fetchall()


def pick_status(
    conn: sqlite3.Connection, org_id: str, outcome: str, category: str
) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(
        "SELECT id, name FROM lead_statuses WHERE org_id = ? AND is_archived = 0 "
        "AND name = ? COLLATE NOCASE ORDER BY sort_order LIMIT 1",
        (org_id, outcome),
    ).fetchone()
    if row is None:
        row = conn.execute(
            "SELECT id, name FROM lead_statuses WHERE org_id = ? AND is_archived = 0 "
            "AND category = ? ORDER BY sort_order LIMIT 1",
            (org_id, category),
        ).fetchone()
    return row


def refresh_lead(conn: sqlite3.Connection, lead_id: str, now: str) -> None:
    """Recompute the lead's current status change and status from its remaining history."""
    lead = conn.execute("SELECT org_id FROM leads WHERE id = ?", (lead_id,)).fetchone()
    if lead is None:
        return
    remaining = history(conn, lead_id)
    current = remaining[-1] if remaining else None
    status = (
        pick_status(conn, lead["org_id"], current["outcome"], current["category"])
        if current is not None
        else None
    )
    conn.execute(
        "UPDATE leads SET current_status_change_id = ?, status_id = ?, status_name = ?, "
        "modified_at = ? WHERE id = ?",
        (
            current["id"] if current else None,
            status["id"] if status else None,
            status["name"] if status else None,
            now,
            lead_id,
        ),
    )


def append_change(
    conn: sqlite3.Connection,
    lead: Record,
    *,
    change_id: str | None = None,
    type_: str,
    outcome: str,
    category: str,
    change_source: str,
    changed_at: str,
    **extra: Any,
) -> str:
    """Record a new status change as the lead's latest; the caller refreshes the lead."""
    seq_row = conn.execute(
        "SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM status_changes WHERE lead_id = ?",
        (lead["id"],),
    ).fetchone()
    values: dict[str, Any] = {
        "id": change_id or str(uuid.uuid4()),
        "org_id": lead["org_id"],
        "lead_id": lead["id"],
        "seq": seq_row["next"],
        "type": type_,
        "outcome": outcome,
        "category": category,
        "changed_at": changed_at,
        "change_source": change_source,
        "is_missed_call_follow_up": 0,
        "source_id": lead["source_id"],
        "created_at": changed_at,
        "updated_at": changed_at,
        **extra,
    }
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    conn.execute(f"INSERT INTO status_changes ({columns}) VALUES ({marks})", tuple(values.values()))
    return str(values["id"])
