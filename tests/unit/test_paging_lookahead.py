"""``--all`` fetches one page ahead of the writer, never more: memory stays flat."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
from pytest_httpx import HTTPXMock

from leadctl.config.credentials import Credential, CredentialKind
from leadctl.contract.operations import bundled_operation
from leadctl.http.client import Client, RetryPolicy
from leadctl.http.paging import Pager, PageRequest
from tests.support.cli import BASE_URL, ORG_KEY

URL = f"{BASE_URL}/leads/all/my"
PAGES = 6
PER_PAGE = 3


def make_client() -> Client:
    credential = Credential(ORG_KEY, CredentialKind.ORG, "test")
    return Client(
        base_url=BASE_URL,
        credential=lambda: credential,
        policy=RetryPolicy(max_retries=0),
        sleep=lambda _s: None,
    )


def test_a_page_is_requested_only_once_the_page_before_it_is_being_written(
    httpx_mock: HTTPXMock,
) -> None:
    lock = threading.Lock()
    consumed = 0
    early: list[tuple[int, int]] = []

    def page(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        number = int(body.get("continuationToken", "p1")[1:])
        with lock:
            # Page n may be fetched while page n-1 is written: all of page n-2 is done.
            if consumed < (number - 2) * PER_PAGE:
                early.append((number, consumed))
        items = [{"page": number, "i": i} for i in range(PER_PAGE)]
        token = f"p{number + 1}" if number < PAGES else None
        return httpx.Response(200, json={"items": items, "continuationToken": token})

    httpx_mock.add_callback(page, url=URL, is_reusable=True)
    pager = Pager(
        make_client(), bundled_operation("POST", "/leads/all/my"), {}, PageRequest(all_pages=True)
    )
    seen: list[Any] = []
    for item in pager:
        # A slow writer: an eager pager would race ahead by several pages meanwhile.
        time.sleep(0.01)
        seen.append(item)
        with lock:
            consumed += 1

    assert len(seen) == PAGES * PER_PAGE
    assert len(httpx_mock.get_requests()) == PAGES
    assert early == []


def test_at_most_one_fetch_is_in_flight(httpx_mock: HTTPXMock) -> None:
    lock = threading.Lock()
    in_flight = 0
    most = 0

    def page(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, most
        with lock:
            in_flight += 1
            most = max(most, in_flight)
        time.sleep(0.01)
        body = json.loads(request.content)
        number = int(body.get("continuationToken", "p1")[1:])
        with lock:
            in_flight -= 1
        token = f"p{number + 1}" if number < PAGES else None
        return httpx.Response(200, json={"items": [{"n": number}], "continuationToken": token})

    httpx_mock.add_callback(page, url=URL, is_reusable=True)
    pager = Pager(
        make_client(), bundled_operation("POST", "/leads/all/my"), {}, PageRequest(all_pages=True)
    )

    assert [item["n"] for item in pager] == list(range(1, PAGES + 1))
    assert most == 1
