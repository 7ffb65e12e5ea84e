"""POST /phone-numbers/all and GET /phone-numbers/{id} (assumed reads of the PhoneNumbers
group; the reference shows only a number's status, read by the number itself)."""

from __future__ import annotations

import sqlite3
from typing import Any

from leadctl_sandbox.db import loads
from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import BOOL, DATETIME, Collection, Field, collection_json, fetch_page
from leadctl_sandbox.problems import ApiProblem

PHONE_NUMBERS = Collection(
    select="SELECT * FROM phone_numbers",
    scope="org_id = ?",
    fields={
        "id": Field("id"),
        "number": Field("number"),
        "smsApproved": Field("sms_approved", BOOL),
        "healthStatus": Field("health_status"),
        "createdAt": Field("created_at", DATETIME),
    },
    search_fields=("number",),
    default_order=(("number", "asc"),),
)


def phone_number_json(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "organizationId": row["org_id"],
        "number": row["number"],
        "smsApproved": bool(row["sms_approved"]),
        "warmupStatus": loads(row["warmup"])["status"],
        "healthStatus": row["health_status"],
        "healthReason": row["health_reason"],
        "createdAt": row["created_at"],
    }


def list_phone_numbers(call: Call) -> Reply:
    page = fetch_page(
        call.conn,
        PHONE_NUMBERS,
        call.body,
        scope_params=(call.principal.org_id,),
        secret=call.secret,
    )
    return Reply(200, collection_json([phone_number_json(row) for row in page.rows], page))


def get_phone_number(call: Call) -> Reply:
    row = call.conn.execute(
        "SELECT * FROM phone_numbers WHERE id = ? AND org_id = ?",
        (call.path["id"], call.principal.org_id),
    ).fetchone()
    if row is None:
        raise ApiProblem(404, f"No phone number {call.path['id']!r} in this organization.")
    return Reply(200, phone_number_json(row))
