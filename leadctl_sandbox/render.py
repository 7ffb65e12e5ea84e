"""Rows as the JSON resources of the contract (Source, Lead, LeadStatusChange, Tag, ...)."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from leadctl_sandbox.db import Record, loads

Json = dict[str, Any]


def tag_json(row: Record) -> Json:
    return {
        "id": row["id"],
        "name": row["name"],
        "normalizedName": row["normalized_name"],
        "color": row["color"],
    }


def org_tags(conn: sqlite3.Connection, org_id: str) -> dict[str, Json]:
    rows = conn.execute("SELECT * FROM tags WHERE org_id = ? ORDER BY name", (org_id,))
    return {row["id"]: tag_json(row) for row in rows}


def user_pair(conn: sqlite3.Connection, user_id: str | None) -> Json | None:
    if user_id is None:
        return None
    row = conn.execute(
        "SELECT id, first_name, last_name, email FROM users WHERE id = ?", (user_id,)
    ).fetchone()
    if row is None:
        return None
    return {"id": row["id"], "name": display_name(row)}


def display_name(row: Record) -> str:
    name = " ".join(part for part in (row["first_name"], row["last_name"]) if part)
    return name or str(row["email"] or "")


def source_json(conn: sqlite3.Connection, row: Record) -> Json:
    org = conn.execute("SELECT id, name FROM organizations WHERE id = ?", (row["org_id"],))
    org_row = org.fetchone()
    creator = conn.execute("SELECT email FROM users WHERE id = ?", (row["created_by_user_id"],))
    creator_row = creator.fetchone()
    tags = org_tags(conn, row["org_id"])
    default_ids: list[str] = loads(row["default_tag_ids"])
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "enabled": bool(row["enabled"]),
        "apiKeyPreview": row["key_preview"],
        "apiKeyRotatedAt": row["api_key_rotated_at"],
        "firstLeadReceivedAt": row["first_lead_received_at"],
        "lastLeadReceivedAt": row["last_lead_received_at"],
        "user": user_pair(conn, row["user_id"]),
        "createdByUser": user_pair(conn, row["created_by_user_id"]),
        "createdByUserEmail": creator_row["email"] if creator_row else "",
        "modifiedByUser": user_pair(conn, row["modified_by_user_id"]),
        "organization": {"id": org_row["id"], "name": org_row["name"]},
        "costPerLead": row["cost_per_lead"],
        "allowedStates": loads(row["allowed_states"]),
        "allowedProducts": loads(row["allowed_products"]),
        "requiresConsentCertificate": bool(row["requires_consent_certificate"]),
        "complianceApproved": bool(row["compliance_approved"]),
        "defaultTagIds": default_ids,
        "defaultTags": [tags[tag_id] for tag_id in default_ids if tag_id in tags],
        "createdAt": row["created_at"],
        "modifiedAt": row["modified_at"],
    }


def lead_name(row: Record) -> str:
    name = " ".join(part for part in (row["first_name"], row["last_name"]) if part)
    return name or str(row["email"] or row["phone"] or "")


@functools.lru_cache(maxsize=4096)
def _tag_ids(text: str) -> tuple[str, ...]:
    # Lists are read by the hundred per page, and few distinct tag combinations exist.
    return tuple(loads(text))


def lead_json(row: Record, tags: Mapping[str, Json]) -> Json:
    tag_ids = _tag_ids(row["tag_ids"])
    status = None
    if row["status_id"] is not None:
        status = {"id": row["status_id"], "name": row["status_name"]}
    return {
        "id": row["id"],
        "organizationId": row["org_id"],
        "firstName": row["first_name"],
        "lastName": row["last_name"],
        "email": row["email"],
        "phone": row["phone"],
        "state": row["state"],
        "product": row["product"],
        "sourceId": row["source_id"],
        "status": status,
        "currentStatusChangeId": row["current_status_change_id"],
        "tags": [tags[tag_id] for tag_id in tag_ids if tag_id in tags],
        "processingStatus": row["processing_status"],
        "processingError": row["processing_error"],
        "consentCertificate": row["consent_certificate"],
        "createdAt": row["created_at"],
        "modifiedAt": row["modified_at"],
    }


def status_change_json(
    row: Record,
    *,
    lead_name: str,
    previous: Record | None,
    following: Record | None,
) -> Json:
    return {
        "id": row["id"],
        "leadId": row["lead_id"],
        "leadName": lead_name,
        "type": row["type"],
        "outcome": row["outcome"],
        "category": row["category"],
        "oldLeadStatusChangeId": previous["id"] if previous else None,
        "oldLeadStatusChangeType": previous["type"] if previous else None,
        "oldLeadStatusChangeOutcome": previous["outcome"] if previous else None,
        "newLeadStatusChangeId": following["id"] if following else None,
        "notes": row["notes"],
        "reason": row["reason"],
        "changedByUserId": row["changed_by_user_id"],
        "changedByAutomationId": row["changed_by_automation_id"],
        "changedAt": row["changed_at"],
        "changeSource": row["change_source"],
        "timestamp": row["changed_at"],
        "createdAt": row["created_at"],
        "updatedAt": row["updated_at"],
        "followUpStatus": row["follow_up_status"],
        "callbackAt": row["callback_at"],
        "taskDueAt": row["task_due_at"],
        "appointmentStartAt": row["appointment_start_at"],
        "appointmentEndAt": row["appointment_end_at"],
        "appointmentNotes": row["appointment_notes"],
        "assignedToUserId": row["assigned_to_user_id"],
        "relatedCallEventId": row["related_call_event_id"],
        "isMissedCallFollowUp": bool(row["is_missed_call_follow_up"]),
        "sourceId": row["source_id"],
    }


def history_json(lead_row: Record, history: Sequence[Record]) -> list[Json]:
    """Every remaining status change of a lead, linked to its neighbours."""
    name = lead_name(lead_row)
    out = []
    for index, row in enumerate(history):
        previous = history[index - 1] if index > 0 else None
        following = history[index + 1] if index + 1 < len(history) else None
        out.append(status_change_json(row, lead_name=name, previous=previous, following=following))
    return out
