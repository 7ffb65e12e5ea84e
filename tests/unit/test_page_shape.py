"""The collection page: one shape (leadctl.contract.shapes), one clear error naming the wrong
field, the same whether the check meets it alone or the pager does (every format)."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from leadctl.config.credentials import Credential, CredentialKind
from leadctl.contract.operations import bundled_operation
from leadctl.contract.shapes import check_page
from leadctl.errors import BadResponse
from leadctl.http.client import Client, RetryPolicy
from leadctl.http.paging import Pager, PageRequest
from tests.support.cli import BASE_URL, ORG_KEY

LEADS = bundled_operation("POST", "/leads/all/my")
URL = f"{BASE_URL}/leads/all/my"
SOURCE = "POST /leads/all/my"

# (answer, the words the error must hold: the field and what it is)
WRONG: dict[str, tuple[Any, str]] = {
    "a string": ("x", "answered with a string where a collection page"),
    "an array": ([{"id": 1}], "answered with an array where a collection page"),
    "no items": ({"pageSize": 2}, "an object that has no items: not a collection page"),
    "items a string": ({"items": "x"}, "whose items is a string, not an array"),
    "items an object": ({"items": {"id": 1}}, "whose items is an object, not an array"),
    "an item not an object": (
        {"items": [{"id": 1}, 7]},
        "whose items hold a number where each should be an object",
    ),
    "token a number": (
        {"items": [], "continuationToken": 5},
        "whose continuationToken is a number, not a string",
    ),
}


def make_client() -> Client:
    credential = Credential(ORG_KEY, CredentialKind.ORG, "test")
    return Client(
        base_url=BASE_URL,
        credential=lambda: credential,
        policy=RetryPolicy(max_retries=0),
        sleep=lambda _s: None,
    )


@pytest.mark.parametrize("case", list(WRONG))
def test_a_wrong_page_is_one_error_naming_the_field(case: str) -> None:
    data, words = WRONG[case]
    with pytest.raises(BadResponse) as raised:
        check_page(data, source=SOURCE)
    assert str(raised.value).startswith(f"{SOURCE} answered with")
    assert words in str(raised.value)
    assert raised.value.hint == "run with --debug to see the response"


@pytest.mark.parametrize("case", list(WRONG))
def test_the_pager_gives_that_same_error(httpx_mock: HTTPXMock, case: str) -> None:
    data, _words = WRONG[case]
    with pytest.raises(BadResponse) as expected:
        check_page(data, source=SOURCE)
    httpx_mock.add_response(url=URL, json=data)
    with pytest.raises(BadResponse) as paged:
        list(Pager(make_client(), LEADS, {}, PageRequest()))
    assert str(paged.value) == str(expected.value)


def test_lenient_where_nothing_depends_on_the_field() -> None:
    page = check_page(
        {"items": None, "continuationToken": "", "totalCount": "many", "pageSize": True},
        source=SOURCE,
    )
    assert page.items == []  # items is nullable in the reference
    assert page.continuation_token is None  # an empty token ends paging
    assert page.total_count is None and page.page_size is None  # not integers: not sent
