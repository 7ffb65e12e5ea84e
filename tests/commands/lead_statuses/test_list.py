"""``leadctl lead-statuses list`` in process.

`leadctl lead-statuses list`: the request, display order, swatches, archived marks."""

from __future__ import annotations

import json

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.lead_statuses._support import STATUSES, URL
from tests.support.cli import ORG_KEY, FakeClock, run_cli, token_env
from tests.support.keyrings import DictKeyring
from tests.support.profiles import declared_profile


def test_sends_one_get_and_json_is_the_services_array_unchanged(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    result = run_cli(["lead-statuses", "list"], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_requests()[0]
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert request.content == b""
    assert json.loads(result.stdout) == STATUSES


def test_ndjson_keeps_the_services_order(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    result = run_cli(["lead-statuses", "list", "-o", "ndjson"], env=token_env())
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [
        s["id"] for s in STATUSES
    ]


def test_csv_is_in_display_order_stable_and_unsorted_last(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    result = run_cli(
        ["lead-statuses", "list", "-o", "csv", "--columns", "id,sortOrder,isArchived"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "id,sortOrder,isArchived",
        "st_new,1,false",
        "st_tie,1,",
        "st_old,2,true",
        "st_won,3,false",
        "st_unsorted,,",
    ]


def test_table_on_a_terminal_with_swatches_and_archived_marked(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    result = run_cli(
        ["lead-statuses", "list"], env={**token_env(), "TERM": "xterm-256color"}, tty=True
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "\x1b[" in out  # colored
    assert "■" in out
    plain = next(line for line in out.splitlines() if "Legacy" in line)
    assert "yes" in plain  # archived
    names = [name for name in ("New", "Tie", "Legacy", "Won", "Unsorted") if name in out]
    assert sorted(names, key=out.index) == ["New", "Tie", "Legacy", "Won", "Unsorted"]


def test_an_answer_that_is_not_an_array_is_exit_8(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, json={"items": STATUSES})
    result = run_cli(["lead-statuses", "list"], env=token_env())
    assert result.exit_code == 8
    assert "not an array" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("status", "code"), [(401, 3), (403, 4)])
def test_error_statuses(httpx_mock: HTTPXMock, status: int, code: int) -> None:
    httpx_mock.add_response(method="GET", url=URL, status_code=status)
    result = run_cli(["lead-statuses", "list"], env=token_env())
    assert result.exit_code == code
    assert result.stdout == ""


def test_rate_limit_is_retried_after_the_given_seconds(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, status_code=429, headers={"Retry-After": "3"})
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES[:1])
    clock = FakeClock()
    result = run_cli(["lead-statuses", "list"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [3.0]
    assert json.loads(result.stdout) == STATUSES[:1]


@pytest.mark.parametrize("argv", [["--bogus"], ["extra-argument"]])
def test_bad_input_is_exit_2_and_sends_nothing(httpx_mock: HTTPXMock, argv: list[str]) -> None:
    result = run_cli(["lead-statuses", "list", *argv], env=token_env())
    assert result.exit_code == 2
    assert httpx_mock.get_requests() == []


def test_source_key_is_refused_before_sending(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    declared_profile(memory_keyring, value="srckey_abcdefghijklmnop", kind="source")
    result = run_cli(["lead-statuses", "list"])
    assert result.exit_code == 4
    assert httpx_mock.get_requests() == []
