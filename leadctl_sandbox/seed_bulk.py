"""Many plain leads at once, for load tests and benchmarks (``sandbox serve --leads N``).

They belong to the demo organization, are Accepted, have no status history and no tags,
and were created at spread-out times over the past year: what listing and paging need,
made in one executemany so that 100 000 take seconds. Same seed, same leads.
"""

from __future__ import annotations

import random
import sqlite3
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from leadctl_sandbox import seed_data as data
from leadctl_sandbox.times import iso

_SPREAD_SECONDS = 365 * 86400
_COLUMNS = (
    "id", "org_id", "first_name", "last_name", "email", "phone", "state", "product",
    "source_id", "tag_ids", "processing_status", "process_at", "created_at", "modified_at",
)  # fmt: skip


def seed_bulk_leads(
    conn: sqlite3.Connection, *, org_id: str, count: int, seed: int, now: datetime
) -> None:
    """Insert ``count`` leads; the caller holds the write transaction."""
    # The listing's default order (newest first, then id) as an index: without it every
    # page of 100 000 leads is a full scan and sort (350 ms a page instead of 1.5 ms).
    conn.execute(
        "CREATE INDEX IF NOT EXISTS leads_by_default_order ON leads "
        "(org_id, COALESCE(created_at, '') DESC, COALESCE(id, ''))"
    )
    marks = ", ".join("?" for _ in _COLUMNS)
    conn.executemany(
        f"INSERT INTO leads ({', '.join(_COLUMNS)}) VALUES ({marks})",
        _rows(org_id, count, random.Random(f"bulk-{seed}"), now),
    )


def _rows(org_id: str, count: int, rng: random.Random, now: datetime) -> Iterator[tuple[Any, ...]]:
    first_names, last_names = data.FIRST_NAMES, data.LAST_NAMES
    for number in range(count):
        first = rng.choice(first_names)
        last = rng.choice(last_names)
        created = iso(now - timedelta(seconds=rng.uniform(60, _SPREAD_SECONDS)))
        yield (
            str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            org_id,
            first,
            last,
            # The number makes every e-mail unique, so a search finds exactly one lead.
            f"{first}.{last}.{number}@bulk.example".lower(),
            f"+1{rng.choice(data.AREA_CODES)}555{rng.randrange(0, 10000):04d}",
            rng.choice(data.STATES),
            rng.choice(data.PRODUCTS),
            None,
            "[]",
            "Accepted",
            created,
            created,
            created,
        )
