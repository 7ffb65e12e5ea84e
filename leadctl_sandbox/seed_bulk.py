"""Many plain leads at once, for load tests and benchmarks (``sandbox serve --leads N``).

They belong to the demo organization, are Accepted, have no status history and no tags,
and were created at spread-out times over the past year: what listing and paging need,
made in one executemany so that 100 000 take seconds. Same seed, same leads.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from leadctl_sandbox import seed_data as data
from leadctl_sandbox.times import iso

_SPREAD_MS = 365 * 86400 * 1000
_PENDING_INDEX = "CREATE INDEX IF NOT EXISTS leads_pending ON leads (processing_status, process_at)"
_COLUMNS = (
    "id", "org_id", "first_name", "last_name", "email", "phone", "state", "product",
    "source_id", "tag_ids", "processing_status", "process_at", "created_at", "modified_at",
)  # fmt: skip


def seed_bulk_leads(
    conn: sqlite3.Connection, *, org_id: str, count: int, seed: int, now: datetime
) -> None:
    """Insert ``count`` leads; the caller holds the write transaction.

    The leads' sort indexes are dropped for the insert and built once afterwards (a sort of
    the finished table is many times faster than keeping them up to date row by row), and the
    ids rise in insertion order (a random 96-bit tail after a rising 32-bit head) so the
    primary key grows at its end: a million leads take well under a minute.
    """
    from leadctl_sandbox.lead_collection import create_sort_indexes, drop_sort_indexes

    # A big page cache for the index builds (sorting a million keys), kept for the paging.
    conn.execute("PRAGMA cache_size = -262144")
    drop_sort_indexes(conn)
    conn.execute("DROP INDEX IF EXISTS leads_pending")
    marks = ", ".join("?" for _ in _COLUMNS)
    conn.executemany(
        f"INSERT INTO leads ({', '.join(_COLUMNS)}) VALUES ({marks})",
        _rows(org_id, count, random.Random(f"bulk-{seed}"), now),
    )
    conn.execute(_PENDING_INDEX)
    create_sort_indexes(conn)


def _rows(org_id: str, count: int, rng: random.Random, now: datetime) -> Iterator[tuple[Any, ...]]:
    first_names, last_names = data.FIRST_NAMES, data.LAST_NAMES
    area_codes, states, products = data.AREA_CODES, data.STATES, data.PRODUCTS
    bits = rng.getrandbits
    n_first, n_last, n_area = len(first_names), len(last_names), len(area_codes)
    n_states, n_products = len(states), len(products)
    # Times as text straight from a millisecond offset: the day's prefix comes from a table,
    # so no datetime is made per lead (iso() of each would be a third of the whole cost).
    start = now.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=366)
    days = [iso(start + timedelta(days=d))[:11] for d in range(368)]
    now_ms = int((now - start).total_seconds() * 1000)
    span = _SPREAD_MS - 60_000
    head = rng.randrange(0, 2**32 - count - 1)
    for number in range(count):
        # One draw of random bits per lead, cut into its choices (a slight modulo bias is
        # of no matter for demo data); a second for the id's random tail.
        r = bits(128)
        first = first_names[r % n_first]
        r //= n_first
        last = last_names[r % n_last]
        r //= n_last
        area = area_codes[r % n_area]
        r //= n_area
        state = states[r % n_states]
        r //= n_states
        product = products[r % n_products]
        r //= n_products
        line = r % 10000
        r //= 10000
        day, ms = divmod(now_ms - 60_000 - r % span, 86_400_000)
        second, milli = divmod(ms, 1000)
        minute, sec = divmod(second, 60)
        hour, minute = divmod(minute, 60)
        created = f"{days[day]}{hour:02d}:{minute:02d}:{sec:02d}.{milli:03d}Z"
        tail = bits(96)
        # A version 4 UUID whose first 32 bits rise with the insertion order.
        lead_id = (
            f"{head + number:08x}-{tail >> 80:04x}-4{(tail >> 68) & 0xFFF:03x}-"
            f"{0x8000 | ((tail >> 48) & 0x3FFF):04x}-{tail & 0xFFFFFFFFFFFF:012x}"
        )
        yield (
            lead_id,
            org_id,
            first,
            last,
            # The number makes every e-mail unique, so a search finds exactly one lead.
            f"{first}.{last}.{number}@bulk.example".lower(),
            f"+1{area}555{line:04d}",
            state,
            product,
            None,
            "[]",
            "Accepted",
            created,
            created,
            created,
        )
