"""PUT and DELETE /lead-status-changes/{id}.

Updating the lead's current entry updates the lead's status; a deleted entry is gone from
every read (the lead's history, its neighbours' links, further PUT/DELETE answer 404).
"""

from __future__ import annotations

import sqlite3

from leadctl_sandbox import leadstatus
from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.problems import ApiProblem
from leadctl_sandbox.render import history_json
from leadctl_sandbox.times import iso, parse_datetime

_COLUMNS = {
    "type": "type",
    "outcome": "outcome",
    "category": "category",
    "notes": "notes",
    "reason": "reason",
    "followUpStatus": "follow_up_status",
    "callbackAt": "callback_at",
    "taskDueAt": "task_due_at",
    "appointmentStartAt": "appointment_start_at",
    "appointmentEndAt": "appointment_end_at",
    "appointmentNotes": "appointment_notes",
}
_TIMES = {"callbackAt", "taskDueAt", "appointmentStartAt", "appointmentEndAt"}


def _load(call: Call) -> sqlite3.Row:
    row: sqlite3.Row | None = call.conn.execute(
        "SELECT * FROM status_changes WHERE id = ? AND org_id = ? AND deleted_at IS NULL",
        (call.path["id"], call.principal.org_id),
    ).fetchone()
    if row is None:
        raise ApiProblem(404, f"No lead status change {call.path['id']!r}.")
    return row


def _is_current(conn: sqlite3.Connection, row: sqlite3.Row) -> bool:
    lead = conn.execute(
        "SELECT current_status_change_id FROM leads WHERE id = ?", (row["lead_id"],)
    ).fetchone()
    return lead is not None and lead["current_status_change_id"] == row["id"]


def update_status_change(call: Call) -> Reply:
    row = _load(call)
    now = iso(call.now)
    changes = {"updated_at": now}
    for name, column in _COLUMNS.items():
        if name in call.body:
            value = call.body[name]
            if name in _TIMES and value is not None:
                moment = parse_datetime(value)
                value = iso(moment) if moment is not None else value
            changes[column] = value
    assignments = ", ".join(f"{column} = ?" for column in changes)
    call.conn.execute(
        f"UPDATE status_changes SET {assignments} WHERE id = ?", (*changes.values(), row["id"])
    )
    if _is_current(call.conn, row):
        leadstatus.refresh_lead(call.conn, row["lead_id"], now)
    return Reply(200, _entry_json(call.conn, row["lead_id"], row["id"]))


def delete_status_change(call: Call) -> Reply:
    row = _load(call)
    now = iso(call.now)
    was_current = _is_current(call.conn, row)
    call.conn.execute(
        "UPDATE status_changes SET deleted_at = ?, updated_at = ? WHERE id = ?",
        (now, now, row["id"]),
    )
    if was_current:
        leadstatus.refresh_lead(call.conn, row["lead_id"], now)
    return Reply(204)


def _entry_json(conn: sqlite3.Connection, lead_id: str, change_id: str) -> dict[str, object]:
    lead = conn.execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone()
    entries = history_json(lead, leadstatus.history(conn, lead_id))
    return next(entry for entry in entries if entry["id"] == change_id)
