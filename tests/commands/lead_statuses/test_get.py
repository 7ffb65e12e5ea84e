"""``leadctl lead-statuses get`` in process.

`leadctl lead-statuses get`: one status by id or by name, from GET /lead-statuses."""

from __future__ import annotations

import json

import pytest
from pytest_httpx import HTTPXMock

from leadctl.commands.lead_statuses.get import Options, run
from leadctl.errors import NotFound, UsageError
from tests.commands.lead_statuses._support import STATUSES, URL
from tests.support.cli import run_cli, token_env
from tests.support.run_context import direct_context, stdout_of


def test_a_name_in_any_case_finds_the_status_and_json_is_it_as_sent(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    result = run_cli(["lead-statuses", "get", "wON", "-o", "json"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == STATUSES[0]  # futureField included


def test_an_id_wins_over_a_name_and_value_prints_the_chosen_column(
    httpx_mock: HTTPXMock,
) -> None:
    statuses = [*STATUSES, {"id": "x1", "name": "st_new"}]
    httpx_mock.add_response(method="GET", url=URL, json=statuses)
    result = run_cli(
        ["lead-statuses", "get", "st_new", "-o", "value", "--columns", "name"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "New\n"


def test_a_shared_name_is_exit_2_naming_both_ids(httpx_mock: HTTPXMock) -> None:
    statuses = [*STATUSES, {"id": "st_won_2", "name": "won", "category": "Converted"}]
    httpx_mock.add_response(method="GET", url=URL, json=statuses)
    result = run_cli(["lead-statuses", "get", "Won"], env=token_env())
    assert result.exit_code == 2
    assert "st_won, st_won_2" in result.stderr
    assert result.stdout == ""


def test_an_unknown_name_is_exit_5_with_the_closest_name(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    result = run_cli(["lead-statuses", "get", "wonn"], env=token_env())
    assert result.exit_code == 5
    assert "'wonn'" in result.stderr and "did you mean 'Won'?" in result.stderr


def test_run_directly_shows_the_fields_of_the_status_in_a_table(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    ctx = direct_context(output="table")
    run(Options(status="legacy"), ctx)
    rows = {line.split()[0]: line.split()[1:] for line in stdout_of(ctx).splitlines() if line}
    assert rows["id"] == ["st_old"]
    assert rows["category"] == ["Lost"]


@pytest.mark.parametrize(("wanted", "error"), [("nope", NotFound), ("TIE", UsageError)])
def test_run_directly_raises_what_the_command_reports(
    httpx_mock: HTTPXMock, wanted: str, error: type[Exception]
) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=[*STATUSES, {"id": "t2", "name": "Tie"}])
    with pytest.raises(error):
        run(Options(status=wanted), direct_context(output="json"))
