"""`leadctl lead-statuses list`: the request, display order, swatches, archived marks."""

from __future__ import annotations

import json

import pytest
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, ORG_KEY, FakeClock, run_cli, token_env
from tests.support.keyrings import DictKeyring
from tests.support.profiles import declared_profile

URL = f"{BASE_URL}/lead-statuses"
# The service's order on purpose differs from sortOrder.
STATUSES = [
    {
        "id": "st_won",
        "name": "Won",
        "color": "#22c55e",
        "category": "Converted",
        "sortOrder": 3,
        "isArchived": False,
        "futureField": "kept",
    },
    {
        "id": "st_new",
        "name": "New",
        "color": "#3b82f6",
        "category": "Open",
        "sortOrder": 1,
        "isArchived": False,
    },
    {
        "id": "st_old",
        "name": "Legacy",
        "color": "not-a-color",
        "category": "Lost",
        "sortOrder": 2,
        "isArchived": True,
    },
    {"id": "st_unsorted", "name": "Unsorted", "category": "Open"},
    {"id": "st_tie", "name": "Tie", "color": "#ef4444", "category": "Open", "sortOrder": 1},
]


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


def test_no_color_means_no_escape_and_no_swatch(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    result = run_cli(["--no-color", "lead-statuses", "list"], env=token_env(), tty=True)
    assert result.exit_code == 0, result.stderr
    assert "\x1b[" not in result.stdout
    assert "■" not in result.stdout
    assert "#22c55e" in result.stdout


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


def test_a_narrow_terminal_keeps_the_whole_id_and_names_what_it_left_out(
    httpx_mock: HTTPXMock,
) -> None:
    uuid = "be15dcea-ae66-4be0-b81a-f0f542b275c7"
    httpx_mock.add_response(method="GET", url=URL, json=[{**STATUSES[0], "id": uuid}])
    result = run_cli(
        ["--no-color", "lead-statuses", "list"], env={**token_env(), "COLUMNS": "80"}, tty=True
    )
    assert result.exit_code == 0, result.stderr
    header, row = result.stdout.splitlines()
    assert header.split()[0] == "name" and header.split()[-1] == "id"
    assert row.split()[-1] == uuid
    assert "not shown at 80 columns: " in result.stderr


# -- run(opts, ctx) directly -------------------------------------------------------------


def test_run_orders_a_value_listing_by_sort_order_and_keeps_json_as_received(
    httpx_mock: HTTPXMock,
) -> None:
    from leadctl.commands.lead_statuses.list_ import Options, run
    from tests.support.run_context import direct_context, stdout_of

    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    as_values = direct_context(output="value", columns=["id"])
    run(Options(), as_values)
    assert stdout_of(as_values).splitlines() == [
        "st_new",
        "st_tie",
        "st_old",
        "st_won",
        "st_unsorted",
    ]
    as_json = direct_context(output="json")
    run(Options(), as_json)
    assert json.loads(stdout_of(as_json)) == STATUSES
