"""``leadctl api request`` in process.

``leadctl api``'s ``send(request, ctx)`` called directly: the request it sends, what it prints."""

from __future__ import annotations

import json

import pytest
from pytest_httpx import HTTPXMock

from leadctl.commands.api.request import Request, send
from leadctl.errors import UsageError
from tests.support.cli import BASE_URL
from tests.support.run_context import direct_context, stdout_of


def test_fields_become_the_query_of_a_get_and_the_body_prints_raw(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="GET",
        url=f"{BASE_URL}/lead-statuses?active=true&name=New",
        json=[{"id": "st_1", "name": "New"}],
        match_headers={"X-Trace": "abc"},
    )
    ctx = direct_context()
    send(
        Request(
            "get",
            "/lead-statuses",
            raw_fields=("name=New",),
            typed_fields=("active=true",),
            headers=("X-Trace: abc",),
        ),
        ctx,
    )
    assert json.loads(stdout_of(ctx)) == [{"id": "st_1", "name": "New"}]


def test_a_csv_of_a_page_prints_its_items(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=f"{BASE_URL}/leads/all/my",
        match_json={"pageSize": 2},
        json={"items": [{"id": "l_1"}, {"id": "l_2"}], "continuationToken": None},
    )
    ctx = direct_context(output="csv", columns=["id"])
    send(Request("POST", "/leads/all/my", typed_fields=("pageSize=2",)), ctx)
    assert stdout_of(ctx) == "id\nl_1\nl_2\n"


def test_a_credential_header_is_refused_before_sending() -> None:
    with pytest.raises(UsageError, match="leadctl sets this header itself"):
        send(Request("GET", "/user", headers=("Authorization: Bearer x",)), direct_context())
