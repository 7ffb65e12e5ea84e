"""The sandbox's SQLite database: connection settings, schema, and the meta table.

Nested resource parts that are only ever read and written whole (run consoles, billing
state, compliance) are stored as JSON text; everything that is filtered or sorted on is a
column.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

# 2: the leads have an index per sort (ops/leads.py), created with the schema.
SCHEMA_VERSION = "2"
DB_FILE = "sandbox.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS organizations (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, billing_state TEXT NOT NULL,
    created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, email TEXT NOT NULL, first_name TEXT,
    last_name TEXT, phone TEXT, time_zone_id TEXT, roles TEXT NOT NULL, billing_plan TEXT,
    subscription_status TEXT, identities TEXT NOT NULL, compliance TEXT, compliance_source TEXT,
    notification_preferences TEXT, mobile_device_preferences TEXT, last_logged_in_at TEXT,
    created_at TEXT NOT NULL, modified_at TEXT);
CREATE TABLE IF NOT EXISTS org_keys (
    key_hash TEXT PRIMARY KEY, org_id TEXT NOT NULL, user_id TEXT NOT NULL,
    preview TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tags (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL,
    normalized_name TEXT NOT NULL, color TEXT NOT NULL, UNIQUE (org_id, normalized_name));
CREATE TABLE IF NOT EXISTS sources (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL,
    enabled INTEGER NOT NULL, key_hash TEXT NOT NULL UNIQUE, key_preview TEXT NOT NULL,
    key_seeded INTEGER NOT NULL, api_key_rotated_at TEXT, first_lead_received_at TEXT,
    last_lead_received_at TEXT, user_id TEXT NOT NULL, created_by_user_id TEXT NOT NULL,
    modified_by_user_id TEXT, cost_per_lead REAL NOT NULL, allowed_states TEXT NOT NULL,
    allowed_products TEXT NOT NULL, requires_consent_certificate INTEGER NOT NULL,
    compliance_approved INTEGER NOT NULL, default_tag_ids TEXT NOT NULL, business_id TEXT,
    created_at TEXT NOT NULL, modified_at TEXT);
CREATE TABLE IF NOT EXISTS lead_statuses (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL, color TEXT NOT NULL,
    category TEXT NOT NULL, sort_order INTEGER NOT NULL, is_archived INTEGER NOT NULL,
    modified_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS leads (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, first_name TEXT, last_name TEXT, email TEXT,
    phone TEXT, state TEXT, product TEXT, source_id TEXT, status_id TEXT, status_name TEXT,
    current_status_change_id TEXT, tag_ids TEXT NOT NULL, processing_status TEXT NOT NULL,
    processing_error TEXT, process_at TEXT, consent_certificate TEXT,
    created_at TEXT NOT NULL, modified_at TEXT,
    -- Sort keys of the nullable columns (null sorts as ''), computed, never stored: an index
    -- on a column (unlike one on an expression) serves a row-value keyset seek.
    sort_first_name TEXT GENERATED ALWAYS AS (COALESCE(first_name, '')) VIRTUAL,
    sort_last_name TEXT GENERATED ALWAYS AS (COALESCE(last_name, '')) VIRTUAL,
    sort_email TEXT GENERATED ALWAYS AS (COALESCE(email, '')) VIRTUAL,
    sort_phone TEXT GENERATED ALWAYS AS (COALESCE(phone, '')) VIRTUAL,
    sort_state TEXT GENERATED ALWAYS AS (COALESCE(state, '')) VIRTUAL,
    sort_product TEXT GENERATED ALWAYS AS (COALESCE(product, '')) VIRTUAL,
    sort_status_name TEXT GENERATED ALWAYS AS (COALESCE(status_name, '')) VIRTUAL,
    sort_modified_at TEXT GENERATED ALWAYS AS (COALESCE(modified_at, '')) VIRTUAL);
CREATE INDEX IF NOT EXISTS leads_pending ON leads (processing_status, process_at);
CREATE TABLE IF NOT EXISTS status_changes (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, lead_id TEXT NOT NULL, seq INTEGER NOT NULL,
    type TEXT NOT NULL, outcome TEXT NOT NULL, category TEXT NOT NULL, notes TEXT, reason TEXT,
    changed_by_user_id TEXT, changed_by_automation_id TEXT, changed_at TEXT NOT NULL,
    change_source TEXT NOT NULL, follow_up_status TEXT, callback_at TEXT, task_due_at TEXT,
    appointment_start_at TEXT, appointment_end_at TEXT, appointment_notes TEXT,
    assigned_to_user_id TEXT, related_call_event_id TEXT,
    is_missed_call_follow_up INTEGER NOT NULL, source_id TEXT, created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL, deleted_at TEXT);
CREATE INDEX IF NOT EXISTS status_changes_by_lead ON status_changes (lead_id, changed_at, seq);
CREATE TABLE IF NOT EXISTS phone_numbers (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, number TEXT NOT NULL UNIQUE,
    warmup TEXT NOT NULL, limits TEXT NOT NULL, sms_approved INTEGER NOT NULL,
    sms_ramping INTEGER NOT NULL, voice_ramping INTEGER NOT NULL, health_status TEXT NOT NULL,
    health_reason TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS phone_events (
    id TEXT PRIMARY KEY, phone_number_id TEXT NOT NULL, channel TEXT NOT NULL,
    direction TEXT NOT NULL, outcome TEXT NOT NULL, from_number TEXT NOT NULL,
    to_number TEXT NOT NULL, text_preview TEXT NOT NULL, is_opt_out INTEGER NOT NULL,
    created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS phone_events_by_number ON phone_events (phone_number_id, created_at);
CREATE TABLE IF NOT EXISTS automations (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS automation_runs (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, automation_id TEXT NOT NULL,
    started_at TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS runs_by_automation ON automation_runs (automation_id, started_at);
CREATE TABLE IF NOT EXISTS scripted_runs (
    run_id TEXT PRIMARY KEY, automation_id TEXT NOT NULL, outcome TEXT NOT NULL,
    steps INTEGER NOT NULL, reached INTEGER NOT NULL, step_ids TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS announcements (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL, message TEXT NOT NULL,
    action_url TEXT NOT NULL, action_button_text TEXT NOT NULL, created_at TEXT NOT NULL,
    modified_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sms_messages (
    id TEXT PRIMARY KEY, org_id TEXT NOT NULL, to_number TEXT NOT NULL,
    from_number TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL, send_at TEXT,
    process_at TEXT NOT NULL, sent_at TEXT, cancelled_at TEXT, failure_reason TEXT,
    created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS sms_due ON sms_messages (status, process_at);
CREATE TABLE IF NOT EXISTS announcement_reads (
    announcement_id TEXT NOT NULL, user_id TEXT NOT NULL, read_at TEXT NOT NULL,
    PRIMARY KEY (announcement_id, user_id));
"""


class Record(Protocol):
    """A row by column name: sqlite3.Row, or a dict of column values."""

    def __getitem__(self, key: str) -> Any: ...


def connect(path: Path | None) -> sqlite3.Connection:
    """A connection to the state file (created 0600 in a 0700 dir), or to a fresh memory db.

    The connection is shared by the server thread and, for seeding, the thread that opened
    it; it is never used by two threads at once.
    """
    if path is None:
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    else:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not path.exists():
            # Create it private before SQLite opens it: it holds the signing secret.
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        conn = sqlite3.connect(
            str(path), check_same_thread=False, isolation_level=None, timeout=10.0
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys=OFF")
    return conn


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection, *, immediate: bool = False) -> Iterator[None]:
    """One atomic unit of work; IMMEDIATE takes the write lock up front (for seeding)."""
    conn.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def create_schema(conn: sqlite3.Connection) -> None:
    conn.executescript(SCHEMA)


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row["value"])


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def insert(conn: sqlite3.Connection, table: str, values: dict[str, Any]) -> None:
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    conn.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", tuple(values.values()))


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)
