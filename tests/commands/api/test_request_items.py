"""``leadctl api`` as gh and HTTPie users type it: -X/--method, request items after PATH,
--slurp with --paginate; the command line through run_cli, the service mocked."""

from __future__ import annotations

import json

import pytest
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, run_cli, token_env


def test_httpie_items_are_a_body_a_json_field_a_header_and_a_query(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(
        method="POST",
        url=f"{BASE_URL}/leads/all/my?state=TX&state=CA",
        match_json={"search": "ada", "pageSize": 3, "filter": {"a": [1, True]}},
        match_headers={"X-Trace": "abc"},
        json={"items": [], "continuationToken": None},
    )
    items = ["search=ada", "pageSize:=3", 'filter:={"a": [1, true]}', "X-Trace:abc"]
    result = run_cli(["api", "/leads/all/my", *items, "state==TX", "state==CA"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"items": [], "continuationToken": None}


@pytest.mark.parametrize("method", [["-X", "PUT"], ["--method", "put"], ["PUT"]], ids=str)
def test_the_method_by_x_as_gh_or_by_the_first_word(
    httpx_mock: HTTPXMock, method: list[str]
) -> None:
    httpx_mock.add_response(
        method="PUT", url=f"{BASE_URL}/sources/s1", match_json={"name": "Web"}, json={}
    )
    result = run_cli(["api", *method, "/sources/s1", "name=Web"], env=token_env())
    assert result.exit_code == 0, result.stderr


def test_a_query_item_alone_leaves_a_get_a_get(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/lead-statuses?name=New", json=[])
    result = run_cli(["api", "/lead-statuses", "name==New"], env=token_env())
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["/leads/all/my", "GET"], "'GET' after PATH is no request item"),
        (["search=ada", "/leads/all/my"], "request item 'search=ada' comes before PATH"),
        (["/leads/all/my", "pageSize:=three"], "pageSize:=: invalid JSON"),
        (["-X", "PUT", "POST", "/sources/s1"], "two methods"),
        (["GTE", "/lead-statuses"], "unknown method 'GTE'"),
    ],
    ids=str,
)
def test_a_misplaced_word_says_where_it_goes_before_anything_is_sent(
    words: list[str], said: str
) -> None:
    result = run_cli(["api", *words], env=token_env())
    assert result.exit_code == 2
    assert said in result.stderr
    if "GTE" not in words:
        assert "unknown method" not in result.stderr


def _page(items: list[int], token: str | None) -> dict[str, object]:
    return {"items": [{"n": n} for n in items], "continuationToken": token}


def test_slurp_makes_every_pages_items_one_array_that_jq_reads_whole(
    httpx_mock: HTTPXMock,
) -> None:
    for _run in range(2):
        httpx_mock.add_response(
            method="POST", url=f"{BASE_URL}/leads/all/my", json=_page([1, 2], "t1")
        )
        httpx_mock.add_response(
            method="POST",
            url=f"{BASE_URL}/leads/all/my",
            match_json={"continuationToken": "t1"},
            json=_page([3], None),
        )
    slurped = run_cli(
        ["api", "/leads/all/my", "--paginate", "--slurp", "--jq", "length"], env=token_env()
    )
    assert slurped.exit_code == 0, slurped.stderr
    assert slurped.stdout == "3\n"
    # Without --slurp, --jq runs on each item, as -o ndjson does.
    each = run_cli(["api", "/leads/all/my", "--paginate", "--jq", ".n"], env=token_env())
    assert each.stdout == "1\n2\n3\n"


def test_slurp_prints_one_json_array_on_a_terminal_too(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/leads/all/my", json=_page([1], None))
    result = run_cli(["api", "/leads/all/my", "--paginate", "--slurp"], env=token_env(), tty=True)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [{"n": 1}]


@pytest.mark.parametrize(
    ("flags", "said"),
    [(["--slurp"], "give both"), (["--paginate", "--slurp", "-o", "ndjson"], "one JSON array")],
    ids=str,
)
def test_slurp_without_paginate_or_with_another_format_is_refused(
    flags: list[str], said: str
) -> None:
    result = run_cli(["api", "/leads/all/my", *flags], env=token_env())
    assert result.exit_code == 2
    assert said in result.stderr
