"""What the tests of ``leads`` share."""

from __future__ import annotations

import json
from typing import Any

from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL

LIST_URL = f"{BASE_URL}/leads/all/my"

CREATE_URL = f"{BASE_URL}/leads"

SOURCE_KEY = "srckey_0123456789abcdefXYZ"

LEAD_A = {
    "id": "lead_a",
    "firstName": "Ada",
    "lastName": "Lovelace",
    "phone": "+15125550143",
    "email": "ada@example.test",
    "state": "TX",
    "status": {"id": "st_new", "name": "New"},
    "processingStatus": "Accepted",
    "createdAt": "2026-11-20T09:30:00Z",
    "futureField": {"kept": True},
}

LEAD_B = {
    "id": "lead_b",
    "firstName": "Grace",
    "lastName": "Hopper",
    "phone": "+12025550187",
    "state": "CA",
    "status": None,
    "processingStatus": "Pending",
    "createdAt": "2026-11-21T10:00:00Z",
}

LEAD_C = {"id": "lead_c", "state": "TX", "processingStatus": "Rejected", "createdAt": "2026-11-21"}


def sent_json(httpx_mock: HTTPXMock) -> list[Any]:
    return [json.loads(request.content) for request in httpx_mock.get_requests()]


BAD_LIST_INPUT = [
    (["--range", "createdAt=>2026-01-01"], "'=>' is not an operator"),
    (["--range", "createdAt>>2026-01-01"], "'>>' is not an operator"),
    (["--range", "createdAt<>2026-01-01"], "'<>' is not an operator"),
    (["--range", ">=2026-01-01"], "no field name before '>='"),
    (["--range", "createdAt>="], "no value after '>='"),
    (["--range", "createdAt"], "no operator"),
    (["--range", "createdAt=2026"], "'=' alone is not a range operator"),
    (["--range", "createdAt>=2026-02-30"], "--range 'createdAt>=2026-02-30': day is out of range"),
    (["--range", "createdAt>=2026-13-01"], "month must be in 1..12"),
    (["--range", "created At>1"], "'created At' is not a field name"),
    (["--range", "a>1", "--range", "a>2"], "a already has a greaterThan bound"),
    (["--filter", "state"], "expected KEY=VALUE"),
    (["--filter", "=TX"], "expected KEY=VALUE"),
    (["--filter", "bad field=1"], "'bad field' is not a field name"),
    (["--filter", "x=[1,"], "invalid JSON"),
    (["--filter", 'x="a"b"'], "invalid JSON"),
    (["--search-field", "firstName"], "--search-field narrows --search"),
    (["--search", "a", "--search-field", "first name"], "not a field name"),
    (["--order-by", "-"], "'' is not a field name"),
    (["--order-by", ""], "'' is not a field name"),
    (["--count", "--all"], "--count prints only the total"),
    (["--count", "--limit", "3"], "--count prints only the total"),
    (["--cursor", " "], "--cursor must not be empty"),
    (["--page-size", "0"], "--page-size"),
    (["--limit", "0"], "--limit"),
    (["--bogus"], "--bogus"),
]


def add_pages(httpx_mock: HTTPXMock, query: dict[str, Any]) -> None:
    """Three pages of one query; each next page only for the token and the same query."""
    pages = [([LEAD_A], "t1"), ([LEAD_B], "t2"), ([LEAD_C], None)]
    token = None
    for items, next_token in pages:
        body = dict(query)
        if token is not None:
            body["continuationToken"] = token
        httpx_mock.add_response(
            method="POST",
            url=LIST_URL,
            match_json=body,
            json={"items": items, "continuationToken": next_token},
        )
        token = next_token


CREATED = {
    "id": "lead_new",
    "processingStatus": "Pending",
    "firstName": "Ada",
    "phone": "+15125550143",
    "createdAt": "2026-11-21T12:00:00Z",
    "unknownField": 1,
}

BAD_CREATE_INPUT = [
    ([], "nothing to send"),
    (["--data", "[1, 2]"], "--data must be a JSON object, not an array"),
    (["--data", '"lead"'], "--data must be a JSON object, not a string"),
    (["--data", "{nope"], "--data: invalid JSON"),
    (["--data", "@/nonexistent/lead.json"], "cannot read"),
    (["--field", "firstName"], "--field 'firstName': expected KEY=VALUE"),
    (["--field", "tags=[1,"], "invalid JSON"),
    (["--field", "phone=+call me"], "is not a phone number"),
    (["--field", "phone=+1 512 555 014"], "not a valid phone number"),
    (["--field", "phone=(512) 555-0143"], "no region is set"),
    (["--field", "phone=5125550143"], "no region is set"),
]
