"""POST /sms, POST /sms/all, GET /sms/{id}, POST /sms/{id}/cancel (assumed operations of the
Sms group).

A message is Queued (or Scheduled for a future sendAt) and is sent lazily, like lead intake:
every SMS request first settles the messages whose time has come. Sending takes the
intake delay; a message to a number ending in 0000 fails as unreachable.
"""

from __future__ import annotations

import sqlite3
import uuid
from datetime import datetime, timedelta
from typing import Any

from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import DATETIME, Collection, Field, collection_json, fetch_page
from leadctl_sandbox.problems import ApiProblem, validation_problem
from leadctl_sandbox.times import iso, parse_datetime

UNREACHABLE_SUFFIX = "0000"
MESSAGES = Collection(
    select="SELECT * FROM sms_messages",
    scope="org_id = ?",
    fields={
        "id": Field("id"),
        "to": Field("to_number"),
        "from": Field("from_number"),
        "body": Field("body"),
        "status": Field("status"),
        "createdAt": Field("created_at", DATETIME),
        "sendAt": Field("send_at", DATETIME),
        "sentAt": Field("sent_at", DATETIME),
    },
    search_fields=("body", "to"),
    default_order=(("createdAt", "desc"),),
)


def settle(conn: sqlite3.Connection, now: datetime) -> None:
    due = conn.execute(
        "SELECT id, to_number FROM sms_messages WHERE status IN ('Queued', 'Scheduled') "
        "AND process_at <= ?",
        (iso(now),),
    ).fetchall()
    for row in due:
        if row["to_number"].endswith(UNREACHABLE_SUFFIX):
            conn.execute(
                "UPDATE sms_messages SET status = 'Failed', failure_reason = ? WHERE id = ?",
                ("the recipient is unreachable", row["id"]),
            )
        else:
            conn.execute(
                "UPDATE sms_messages SET status = 'Sent', sent_at = process_at WHERE id = ?",
                (row["id"],),
            )


def message_json(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "to": row["to_number"],
        "from": row["from_number"],
        "body": row["body"],
        "status": row["status"],
        "sendAt": row["send_at"],
        "sentAt": row["sent_at"],
        "cancelledAt": row["cancelled_at"],
        "failureReason": row["failure_reason"],
        "createdAt": row["created_at"],
    }


def _refuse_read_only(call: Call) -> None:
    if call.principal.read_only:
        raise ApiProblem(403, "The user's role is read-only.")


def _sender(call: Call, wanted: str | None) -> str:
    numbers = [
        row["number"]
        for row in call.conn.execute(
            "SELECT number FROM phone_numbers WHERE org_id = ? ORDER BY number",
            (call.principal.org_id,),
        )
    ]
    if wanted is None:
        if not numbers:
            raise validation_problem({"from": ["the organization has no number to send from"]})
        return str(numbers[0])
    if wanted not in numbers:
        raise validation_problem({"from": ["is not one of the organization's numbers"]})
    return wanted


def send(call: Call) -> Reply:
    _refuse_read_only(call)
    body = call.body
    sender = _sender(call, body.get("from"))
    send_at = parse_datetime(body["sendAt"]) if body.get("sendAt") else None
    scheduled = send_at is not None and send_at > call.now
    start = send_at if scheduled and send_at is not None else call.now
    process_at = start + timedelta(seconds=call.settings.intake_delay)
    message_id = str(uuid.uuid4())
    call.conn.execute(
        "INSERT INTO sms_messages (id, org_id, to_number, from_number, body, status, send_at, "
        "process_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            message_id,
            call.principal.org_id,
            body["to"],
            sender,
            body["body"],
            "Scheduled" if scheduled else "Queued",
            iso(send_at) if send_at is not None else None,
            iso(process_at),
            iso(call.now),
        ),
    )
    return Reply(202, message_json(_load(call, message_id)))


def _load(call: Call, message_id: str) -> sqlite3.Row:
    settle(call.conn, call.now)
    row: sqlite3.Row | None = call.conn.execute(
        "SELECT * FROM sms_messages WHERE id = ? AND org_id = ?",
        (message_id, call.principal.org_id),
    ).fetchone()
    if row is None:
        raise ApiProblem(404, f"No message {message_id!r} in this organization.")
    return row


def list_messages(call: Call) -> Reply:
    settle(call.conn, call.now)
    page = fetch_page(
        call.conn, MESSAGES, call.body, scope_params=(call.principal.org_id,), secret=call.secret
    )
    return Reply(200, collection_json([message_json(row) for row in page.rows], page))


def get(call: Call) -> Reply:
    return Reply(200, message_json(_load(call, call.path["id"])))


def cancel(call: Call) -> Reply:
    _refuse_read_only(call)
    row = _load(call, call.path["id"])
    if row["status"] == "Scheduled":
        call.conn.execute(
            "UPDATE sms_messages SET status = 'Cancelled', cancelled_at = ? WHERE id = ?",
            (iso(call.now), row["id"]),
        )
        row = _load(call, row["id"])
    elif row["status"] != "Cancelled":
        raise ApiProblem(
            400, f"Only a scheduled message can be cancelled; this one is {row['status']}."
        )
    return Reply(200, message_json(row))
