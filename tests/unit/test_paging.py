"""Paging rules of the reference, interrupts, and the paging options."""

from __future__ import annotations

import inspect
import json
import signal
import sys
import threading
from types import FrameType
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

from leadctl.config.credentials import Credential, CredentialKind
from leadctl.contract.operations import bundled_operation
from leadctl.errors import BadResponse
from leadctl.http.client import Client, RetryPolicy
from leadctl.http.paging import Pager, PageRequest
from tests.support.cli import BASE_URL, ORG_KEY, run_cli, token_env

LEADS = bundled_operation("POST", "/leads/all/my")
URL = f"{BASE_URL}/leads/all/my"


def make_client() -> Client:
    credential = Credential(ORG_KEY, CredentialKind.ORG, "test")
    return Client(
        base_url=BASE_URL,
        credential=lambda: credential,
        policy=RetryPolicy(max_retries=0),
        sleep=lambda _s: None,
    )


def page(items: list[Any], token: str | None, total: int | None = None) -> dict[str, Any]:
    return {"items": items, "pageSize": 2, "totalCount": total, "continuationToken": token}


def bodies(httpx_mock: HTTPXMock) -> list[dict[str, Any]]:
    return [json.loads(r.content) for r in httpx_mock.get_requests()]


def test_follows_tokens_until_none_and_keeps_filters(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1}, {"id": 2}], "t1"))
    httpx_mock.add_response(url=URL, json=page([], "t2"))  # empty page is not the end
    httpx_mock.add_response(url=URL, json=page([{"id": 3}], "t3"))  # short page neither
    httpx_mock.add_response(url=URL, json=page([{"id": 4}], None))
    query = {"search": "ada", "filters": [{"field": "state", "value": "TX"}]}
    pager = Pager(make_client(), LEADS, query, PageRequest(page_size=2, all_pages=True))
    assert [item["id"] for item in pager] == [1, 2, 3, 4]
    sent = bodies(httpx_mock)
    assert "continuationToken" not in sent[0]
    assert [b.get("continuationToken") for b in sent[1:]] == ["t1", "t2", "t3"]
    for body in sent:
        assert body["search"] == "ada"
        assert body["filters"] == [{"field": "state", "value": "TX"}]
        assert body["pageSize"] == 2
    assert pager.next_cursor is None


def test_default_is_one_page_and_reports_the_next_cursor(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1}], "next-1"))
    pager = Pager(make_client(), LEADS, {}, PageRequest())
    assert [item["id"] for item in pager] == [1]
    assert pager.next_cursor == "next-1"


def test_cursor_resumes_and_limit_spans_pages(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 3}, {"id": 4}], "t2"))
    httpx_mock.add_response(url=URL, json=page([{"id": 5}, {"id": 6}], "t3"))
    pager = Pager(make_client(), LEADS, {}, PageRequest(cursor="t1", limit=3))
    assert [item["id"] for item in pager] == [3, 4, 5]
    assert bodies(httpx_mock)[0]["continuationToken"] == "t1"


def test_limit_with_all_stops_at_the_limit_and_fetches_nothing_ahead(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1}, {"id": 2}], "t1"))
    httpx_mock.add_response(url=URL, json=page([{"id": 3}, {"id": 4}], "t2"))
    pager = Pager(make_client(), LEADS, {}, PageRequest(page_size=2, limit=4, all_pages=True))
    assert [item["id"] for item in pager] == [1, 2, 3, 4]
    # The limit ends on a page boundary: no third page was asked for, and the cursor of
    # the next page is exact.
    assert len(httpx_mock.get_requests()) == 2
    assert pager.next_cursor == "t2"


@pytest.mark.parametrize(
    "token",
    [
        " padded token ",
        "a+b/c==",
        "100%25+done%2F",
        "tab\there\nnewline",
        "line\nbreak\r\n",
        "ünï+cödé/=",
    ],
)
def test_the_continuation_token_goes_back_byte_for_byte(httpx_mock: HTTPXMock, token: str) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1}], token))
    httpx_mock.add_response(url=URL, json=page([{"id": 2}], None))
    pager = Pager(make_client(), LEADS, {"search": "ada"}, PageRequest(all_pages=True))
    assert [item["id"] for item in pager] == [1, 2]
    first, second = bodies(httpx_mock)
    assert second["continuationToken"] == token
    assert {k: v for k, v in second.items() if k != "continuationToken"} == first


def test_a_repeated_token_is_a_bad_response_not_a_loop(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1}], "same"))
    httpx_mock.add_response(url=URL, json=page([{"id": 2}], "same"))
    pager = Pager(make_client(), LEADS, {}, PageRequest(all_pages=True))
    with pytest.raises(BadResponse):
        list(pager)


def test_a_body_without_items_list_is_a_bad_response(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json={"items": "nope"})
    with pytest.raises(BadResponse):
        list(Pager(make_client(), LEADS, {}, PageRequest()))


def fetched_ahead(httpx_mock: HTTPXMock, items: list[Any]) -> threading.Event:
    """Stub the page fetched ahead by the pager's thread; the event says it was asked for.

    A test whose fetch-ahead is discarded waits for it before it ends: a request still on
    its way would otherwise reach the next test's stubs (pytest-httpx patches the transport
    for the whole process) and take a response meant for that test.
    """
    requested = threading.Event()

    def respond(request: httpx.Request) -> httpx.Response:
        requested.set()
        return httpx.Response(200, json=page(items, None))

    httpx_mock.add_callback(respond, url=URL)
    return requested


def test_ctrl_c_while_writing_finishes_the_page_then_stops(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1}, {"id": 2}, {"id": 3}], "t1"))
    # Fetched ahead while page 1 is written, then discarded: its items are never shown.
    page_2_requested = fetched_ahead(httpx_mock, [{"id": 4}])
    pager = Pager(make_client(), LEADS, {}, PageRequest(all_pages=True))
    seen = []
    for item in pager:
        seen.append(item["id"])
        if item["id"] == 1:
            signal.raise_signal(signal.SIGINT)
    assert seen == [1, 2, 3]
    assert pager.interrupted
    assert pager.next_cursor == "t1"
    assert "--cursor t1" in str(pager.interruption_error().hint)
    assert page_2_requested.wait(5)


def test_ctrl_c_just_before_the_next_fetch_stops_before_that_page(
    httpx_mock: HTTPXMock,
) -> None:
    """The main thread runs a signal handler between any two bytecodes: here, after the
    pager checked for a Ctrl-C at the end of page 1 and before it waits for page 2. The
    handler then only asks to stop between pages; page 2 must still not be written."""
    httpx_mock.add_response(url=URL, json=page([{"id": 1}], "t1"))
    page_2_requested = fetched_ahead(httpx_mock, [{"id": 2}])
    lines, first = inspect.getsourcelines(Pager._items)
    marks = [first + n for n, line in enumerate(lines) if "self._fetching = True" in line]
    assert len(marks) == 1
    raised: list[int] = []

    def trace(frame: FrameType, event: str, _arg: Any) -> Any:
        if frame.f_code is not Pager._items.__code__:
            return None
        if event == "line" and frame.f_lineno == marks[0] and frame.f_locals["pending"]:
            raised.append(frame.f_lineno)  # the 2nd page's turn: page 1 is written
            signal.raise_signal(signal.SIGINT)
        return trace

    pager = Pager(make_client(), LEADS, {}, PageRequest(all_pages=True))
    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        seen = [item["id"] for item in pager]
    finally:
        sys.settrace(previous)
    assert raised == marks
    assert seen == [1]
    assert pager.interrupted
    assert pager.next_cursor == "t1"
    assert page_2_requested.wait(5)


def test_ctrl_c_during_a_fetch_resumes_from_that_page(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1}], "t1"))

    def interrupt(request: httpx.Request) -> httpx.Response:
        signal.raise_signal(signal.SIGINT)
        return httpx.Response(200, json=page([{"id": 2}], None))

    httpx_mock.add_callback(interrupt, url=URL)
    pager = Pager(make_client(), LEADS, {}, PageRequest(all_pages=True))
    assert [item["id"] for item in pager] == [1]
    assert pager.interrupted
    assert pager.next_cursor == "t1"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_during_the_first_fetch_says_nothing_was_written(httpx_mock: HTTPXMock) -> None:
    def interrupt(request: httpx.Request) -> httpx.Response:
        signal.raise_signal(signal.SIGINT)
        return httpx.Response(200, json=page([{"id": 1}], None))

    httpx_mock.add_callback(interrupt, url=URL)
    pager = Pager(make_client(), LEADS, {}, PageRequest(all_pages=True))
    assert list(pager) == []
    error = pager.interruption_error()
    assert "nothing was written" in str(error)
    assert "every item was written" not in str(error)


def test_api_paginate_streams_every_page_as_one_array(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1, "x": {"y": 1}}], "t1"))
    httpx_mock.add_response(url=URL, json=page([{"id": 2}], None))
    result = run_cli(
        ["api", "POST", "/leads/all/my", "-F", "pageSize=1", "--paginate"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [{"id": 1, "x": {"y": 1}}, {"id": 2}]
    assert bodies(httpx_mock)[1] == {"pageSize": 1, "continuationToken": "t1"}


def test_api_paginate_ndjson(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1}], "t1"))
    httpx_mock.add_response(url=URL, json=page([{"id": 2}], None))
    result = run_cli(
        ["api", "POST", "/leads/all/my", "--paginate", "-o", "ndjson"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == [{"id": 1}, {"id": 2}]


def test_the_next_page_is_fetched_while_the_current_one_is_written(
    httpx_mock: HTTPXMock,
) -> None:
    second_page_requested = threading.Event()

    def second(request: httpx.Request) -> httpx.Response:
        second_page_requested.set()
        return httpx.Response(200, json=page([{"id": 2}], None))

    httpx_mock.add_response(url=URL, json=page([{"id": 1}], "t1"))
    httpx_mock.add_callback(second, url=URL)
    pager = Pager(make_client(), LEADS, {}, PageRequest(all_pages=True))
    items = iter(pager)
    assert next(items)["id"] == 1
    # While item 1 is still being handled, page 2 is already on its way (one page ahead).
    assert second_page_requested.wait(5)
    assert [item["id"] for item in items] == [2]


def test_no_page_is_fetched_ahead_when_the_limit_is_reached(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, json=page([{"id": 1}, {"id": 2}], "t1"))
    pager = Pager(make_client(), LEADS, {}, PageRequest(limit=2))
    assert [item["id"] for item in pager] == [1, 2]
    assert len(httpx_mock.get_requests()) == 1
