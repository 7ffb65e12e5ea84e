"""Organization tags: looked up by normalized name, created on first use."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import uuid

PALETTE = ("#e11d48", "#f59e0b", "#10b981", "#0ea5e9", "#6366f1", "#a855f7", "#64748b", "#84cc16")


def normalize(name: str) -> str:
    return re.sub(r"\s+", "-", name.strip().lower())


def color_for(name: str) -> str:
    digest = hashlib.sha256(normalize(name).encode("utf-8")).digest()
    return PALETTE[digest[0] % len(PALETTE)]


def ensure_tag(
    conn: sqlite3.Connection, org_id: str, name: str, *, tag_id: str | None = None
) -> str:
    normalized = normalize(name)
    row = conn.execute(
        "SELECT id FROM tags WHERE org_id = ? AND normalized_name = ?", (org_id, normalized)
    ).fetchone()
    if row is not None:
        return str(row["id"])
    new_id = tag_id or str(uuid.uuid4())
    conn.execute(
        "INSERT INTO tags (id, org_id, name, normalized_name, color) VALUES (?, ?, ?, ?, ?)",
        (new_id, org_id, name.strip() or normalized, normalized, color_for(name)),
    )
    return new_id
