"""The leads table as a pageable collection, and the indexes that keep each sort O(page).

Apart from the leads handlers (``ops/leads.py``): opening the state creates the indexes,
and a command that reads lead statuses must not load intake and rendering for that.
"""

from __future__ import annotations

import sqlite3

from leadctl_sandbox.paging import DATETIME, TAGS, Collection, Field, sort_index_names, sort_indexes

LEADS = Collection(
    select="SELECT * FROM leads",
    scope="org_id = ?",
    fields={
        "id": Field("id", not_null=True),
        "firstName": Field("first_name", sort_column="sort_first_name"),
        "lastName": Field("last_name", sort_column="sort_last_name"),
        "email": Field("email", sort_column="sort_email"),
        "phone": Field("phone", sort_column="sort_phone"),
        "state": Field("state", sort_column="sort_state"),
        "product": Field("product", sort_column="sort_product"),
        "sourceId": Field("source_id"),
        "status.id": Field("status_id"),
        "status.name": Field("status_name", sort_column="sort_status_name"),
        "processingStatus": Field("processing_status", not_null=True),
        "tags": Field("tag_ids", TAGS),
        "createdAt": Field("created_at", DATETIME, not_null=True),
        "modifiedAt": Field("modified_at", DATETIME, sort_column="sort_modified_at"),
    },
    search_fields=("firstName", "lastName", "email", "phone"),
    default_order=(("createdAt", "desc"),),
    table="leads",
    # Every sort LeadRequestDataOptions offers: paging is O(page) whichever is chosen.
    indexed_sorts=(
        "createdAt", "modifiedAt", "firstName", "lastName", "email", "phone", "state",
        "product", "processingStatus", "status.name", "id",
    ),
)  # fmt: skip


def create_sort_indexes(conn: sqlite3.Connection) -> None:
    for statement in sort_indexes(LEADS):
        conn.execute(statement)


def drop_sort_indexes(conn: sqlite3.Connection) -> None:
    """Before a bulk insert: building an index once afterwards is faster than keeping it."""
    for name in sort_index_names(LEADS):
        conn.execute(f"DROP INDEX IF EXISTS {name}")
