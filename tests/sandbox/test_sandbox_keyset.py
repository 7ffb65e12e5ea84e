"""Paging at O(page): every sort leads offer is a keyset seek on an index, in either
direction, and walking the pages gives every lead once, in the sort's order."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from leadctl_sandbox.db import transaction
from leadctl_sandbox.lead_collection import LEADS
from leadctl_sandbox.paging import fetch_page
from leadctl_sandbox.published import published_contract
from leadctl_sandbox.seed_bulk import seed_bulk_leads
from leadctl_sandbox.state import SandboxState, open_state
from leadctl_sandbox.times import utcnow

BULK = 600
COLUMNS = {
    "createdAt": "created_at",
    "modifiedAt": "modified_at",
    "firstName": "first_name",
    "lastName": "last_name",
    "email": "email",
    "phone": "phone",
    "state": "state",
    "product": "product",
    "processingStatus": "processing_status",
    "status.name": "status_name",
    "id": "id",
}


def lead_sorts() -> list[str]:
    schema = published_contract()["components"]["schemas"]["LeadRequestDataOptions"]
    order_by = schema["allOf"][1]["properties"]["orderBy"]
    return list(order_by["items"]["properties"]["field"]["enum"])


@pytest.fixture(scope="module")
def state() -> Iterator[SandboxState]:
    opened = open_state(None, seed=5)
    with transaction(opened.conn, immediate=True):
        seed_bulk_leads(opened.conn, org_id=opened.org_id, count=BULK, seed=5, now=utcnow())
    yield opened
    opened.close()


def second_page_sql(state: SandboxState, order: dict[str, str]) -> str:
    """The statement fetch_page runs for a page after the first (values bound, as traced)."""
    first = fetch_page(
        state.conn, LEADS, {"pageSize": 5, "orderBy": [order]},
        scope_params=(state.org_id,), secret=state.secret,
    )  # fmt: skip
    seen: list[str] = []
    state.conn.set_trace_callback(seen.append)
    try:
        fetch_page(
            state.conn, LEADS,
            {"pageSize": 5, "orderBy": [order], "continuationToken": first.continuation_token},
            scope_params=(state.org_id,), secret=state.secret,
        )  # fmt: skip
    finally:
        state.conn.set_trace_callback(None)
    (statement,) = [s for s in seen if "ORDER BY" in s]
    return statement


def test_the_published_sorts_are_the_indexed_ones() -> None:
    assert sorted(lead_sorts()) == sorted(LEADS.indexed_sorts) == sorted(COLUMNS)


@pytest.mark.parametrize("direction", ["asc", "desc"])
@pytest.mark.parametrize("field", sorted(COLUMNS))
def test_every_sort_is_a_keyset_seek_on_an_index(
    state: SandboxState, field: str, direction: str
) -> None:
    statement = second_page_sql(state, {"field": field, "direction": direction})
    plan = " | ".join(
        row["detail"] for row in state.conn.execute("EXPLAIN QUERY PLAN " + statement)
    )
    assert plan.startswith("SEARCH leads USING INDEX"), plan
    assert "TEMP B-TREE" not in plan and "SCAN" not in plan, plan


def sort_key(row: sqlite3.Row, column: str) -> str:
    value = row[column]
    return "" if value is None else str(value)


@pytest.mark.parametrize("direction", ["asc", "desc"])
@pytest.mark.parametrize("field", sorted(COLUMNS))
def test_pages_give_every_lead_once_in_order(
    state: SandboxState, field: str, direction: str
) -> None:
    column = COLUMNS[field]
    rows = state.conn.execute("SELECT * FROM leads WHERE org_id = ?", (state.org_id,))
    expected = sorted(
        ((sort_key(row, column), row["id"]) for row in rows), reverse=direction == "desc"
    )
    walked: list[tuple[str, str]] = []
    token = None
    while True:
        page = fetch_page(
            state.conn, LEADS,
            {"pageSize": 37, "orderBy": [{"field": field, "direction": direction}],
             "continuationToken": token},
            scope_params=(state.org_id,), secret=state.secret,
        )  # fmt: skip
        walked += [(sort_key(row, column), row["id"]) for row in page.rows]
        token = page.continuation_token
        if token is None:
            break
    assert len(expected) > BULK
    assert walked == expected


def test_a_mixed_direction_sort_still_pages_exactly(state: SandboxState) -> None:
    order = [{"field": "state", "direction": "asc"}, {"field": "lastName", "direction": "desc"}]
    rows = list(state.conn.execute("SELECT * FROM leads WHERE org_id = ?", (state.org_id,)))
    by_state = sorted(rows, key=lambda r: (sort_key(r, "last_name"), r["id"]), reverse=True)
    expected = [r["id"] for r in sorted(by_state, key=lambda r: sort_key(r, "state"))]
    walked: list[str] = []
    token = None
    while True:
        page = fetch_page(
            state.conn, LEADS, {"pageSize": 50, "orderBy": order, "continuationToken": token},
            scope_params=(state.org_id,), secret=state.secret,
        )  # fmt: skip
        walked += [row["id"] for row in page.rows]
        token = page.continuation_token
        if token is None:
            break
    assert walked == expected
