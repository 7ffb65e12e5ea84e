"""PUT /sources/{id} (current and older form) and POST /sources/{id}/credentials/rotate."""

from __future__ import annotations

import sqlite3
from typing import Any

from leadctl_sandbox import keys
from leadctl_sandbox.db import dumps
from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.problems import ApiProblem, validation_problem
from leadctl_sandbox.render import source_json
from leadctl_sandbox.tags import ensure_tag
from leadctl_sandbox.times import iso

# Body field -> column, for fields stored as given.
_PLAIN = {"name": "name", "requiresConsentCertificate": "requires_consent_certificate"}
_LISTS = {"allowedStates": "allowed_states", "allowedProducts": "allowed_products"}
# Older-form fields where null means "leave as is".
_NULL_KEEPS = {"description": "description", "enabled": "enabled", "businessId": "business_id"}


def _load(call: Call) -> sqlite3.Row:
    row: sqlite3.Row | None = call.conn.execute(
        "SELECT * FROM sources WHERE id = ? AND org_id = ?",
        (call.path["id"], call.principal.org_id),
    ).fetchone()
    if row is None:
        raise ApiProblem(404, f"No source {call.path['id']!r} in this organization.")
    return row


def update_source(call: Call) -> Reply:
    row = _load(call)
    body: dict[str, Any] = call.body
    changes: dict[str, Any] = {}
    for name, column in _PLAIN.items():
        if name in body:
            changes[column] = body[name]
    for name, column in _LISTS.items():
        if name in body:
            changes[column] = dumps(body[name])
    for name, column in _NULL_KEEPS.items():
        if body.get(name) is not None:
            changes[column] = body[name]
    if "defaultTagIds" in body or "defaultTagNames" in body:
        changes["default_tag_ids"] = dumps(_default_tags(call, body))
    # apiKey (older form) is deliberately dropped: a key is only ever set by rotation.
    changes["modified_at"] = iso(call.now)
    changes["modified_by_user_id"] = call.principal.user_id
    assignments = ", ".join(f"{column} = ?" for column in changes)
    call.conn.execute(
        f"UPDATE sources SET {assignments} WHERE id = ?", (*changes.values(), row["id"])
    )
    return Reply(200, source_json(call.conn, _load(call)))


def _default_tags(call: Call, body: dict[str, Any]) -> list[str]:
    org_id = call.principal.org_id
    ids: list[str] = []
    unknown = []
    for tag_id in body.get("defaultTagIds") or ():
        found = call.conn.execute(
            "SELECT id FROM tags WHERE id = ? AND org_id = ?", (tag_id, org_id)
        ).fetchone()
        if found is None:
            unknown.append(tag_id)
        elif tag_id not in ids:
            ids.append(tag_id)
    if unknown:
        shown = ", ".join(repr(t) for t in unknown[:5])
        raise validation_problem({"defaultTagIds": [f"unknown tag id(s): {shown}"]})
    for name in body.get("defaultTagNames") or ():
        tag_id = ensure_tag(call.conn, org_id, name)
        if tag_id not in ids:
            ids.append(tag_id)
    return ids


def rotate_credentials(call: Call) -> Reply:
    row = _load(call)
    secret = keys.new_source_key()
    now = iso(call.now)
    call.conn.execute(
        "UPDATE sources SET key_hash = ?, key_preview = ?, key_seeded = 0, "
        "api_key_rotated_at = ?, modified_at = ?, modified_by_user_id = ? WHERE id = ?",
        (keys.key_hash(secret), keys.preview(secret), now, now, call.principal.user_id, row["id"]),
    )
    return Reply(200, {"source": source_json(call.conn, _load(call)), "secret": secret})
