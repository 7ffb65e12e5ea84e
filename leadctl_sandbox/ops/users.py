"""PUT /users/compliance: the caller's own compliance settings."""

from __future__ import annotations

import sqlite3
from typing import Any

from leadctl_sandbox.db import dumps, loads
from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.problems import ApiProblem
from leadctl_sandbox.render import display_name
from leadctl_sandbox.times import iso


def update_compliance(call: Call) -> Reply:
    user_id = call.principal.user_id
    row = call.conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if row is None:
        raise ApiProblem(403, "The credential has no user.")
    compliance = loads(row["compliance"]) or {}
    update = call.body.get("compliance")
    if update is not None:
        compliance.update(update)
    source = call.body.get("source")
    call.conn.execute(
        "UPDATE users SET compliance = ?, compliance_source = COALESCE(?, compliance_source), "
        "modified_at = ? WHERE id = ?",
        (dumps(compliance), source, iso(call.now), user_id),
    )
    return Reply(200, user_json(call.conn, str(user_id)))


def user_json(conn: sqlite3.Connection, user_id: str) -> dict[str, Any]:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    org = conn.execute(
        "SELECT id, name, billing_state FROM organizations WHERE id = ?", (row["org_id"],)
    ).fetchone()
    compliance = loads(row["compliance"])
    if compliance is not None:
        compliance.setdefault("consentCertificates", None)
    return {
        "email": row["email"],
        "firstName": row["first_name"],
        "lastName": row["last_name"],
        "phone": row["phone"],
        "timeZoneId": row["time_zone_id"],
        "billingPlan": row["billing_plan"],
        "subscriptionStatus": row["subscription_status"],
        "billingState": loads(org["billing_state"]),
        "roles": loads(row["roles"]),
        "identities": loads(row["identities"]),
        "currentOrganization": {"id": org["id"], "name": org["name"]},
        "compliance": compliance,
        "notificationPreferences": loads(row["notification_preferences"]),
        "mobileDevicePreferences": loads(row["mobile_device_preferences"]),
        "lastLoggedInAt": row["last_logged_in_at"],
        "personalDataDeletionRequestedAt": None,
        "personalDataDeletedAt": None,
        "personalDataDeletionStatus": None,
        "personalDataDeletionReason": None,
        "name": display_name(row),
        "id": row["id"],
        "createdAt": row["created_at"],
        "modifiedAt": row["modified_at"],
    }
