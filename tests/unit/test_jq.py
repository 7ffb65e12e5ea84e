"""``--jq EXPR``: gh's semantics, checked against the real jq program."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.lead_statuses._support import STATUSES
from tests.support.cli import BASE_URL, run_cli, token_env

STATUSES_URL = f"{BASE_URL}/lead-statuses"
LIST_URL = f"{BASE_URL}/leads/all/my"

EXPRESSIONS = [
    ".[].name",
    ".[] | {id, sortOrder}",
    "map(select(.isArchived)) | length",
    ".[0]",
    "[.[].id]",
    '.[] | "\\(.name)\\t\\(.category)"',
    ".[] | .sortOrder",
    'first(.[] | select(.category == "Lost")) | .color',
]


def real_jq(expression: str, value: Any) -> str:
    program = shutil.which("jq")
    if program is None:
        pytest.skip("not installed: jq (.ci/run installs it)")
    # gh's --jq is jq's -r (strings raw) with compact JSON for everything else.
    done = subprocess.run(
        [program, "-r", "-c", expression],
        input=json.dumps(value),
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_output_matches_the_jq_program(httpx_mock: HTTPXMock, expression: str) -> None:
    httpx_mock.add_response(method="GET", url=STATUSES_URL, json=STATUSES)

    result = run_cli(["--jq", expression, "lead-statuses", "list"], env=token_env())

    assert result.exit_code == 0, result.stderr
    assert result.stdout == real_jq(expression, STATUSES)


def test_jq_wins_over_another_output_format(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=STATUSES_URL, json=STATUSES)

    result = run_cli(["-o", "csv", "--jq", ".[].id", "lead-statuses", "list"], env=token_env())

    assert result.stdout.splitlines() == [status["id"] for status in STATUSES]


def test_with_all_the_expression_runs_on_each_streamed_item(httpx_mock: HTTPXMock) -> None:
    pages = [([{"id": "a", "n": 1}], "t1"), ([{"id": "b", "n": 2}, {"id": "c", "n": 3}], None)]
    for items, token in pages:
        httpx_mock.add_response(
            method="POST", url=LIST_URL, json={"items": items, "continuationToken": token}
        )

    result = run_cli(
        ["--jq", "select(.n > 1) | .id", "leads", "list", "--all", "--page-size", "2"],
        env=token_env(),
    )

    assert result.exit_code == 0, result.stderr
    assert result.stdout == "b\nc\n"


@pytest.mark.parametrize(
    ("flags", "env"),
    [(["-o", "ndjson"], {}), ([], {"LEADCTL_OUTPUT": "ndjson"})],
    ids=["flag", "env"],
)
def test_with_ndjson_the_expression_runs_on_each_item(
    httpx_mock: HTTPXMock, flags: list[str], env: dict[str, str]
) -> None:
    httpx_mock.add_response(method="GET", url=STATUSES_URL, json=STATUSES)

    result = run_cli([*flags, "--jq", ".id", "lead-statuses", "list"], env={**token_env(), **env})

    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [status["id"] for status in STATUSES]


def test_jq_reads_the_fields_columns_picked(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=STATUSES_URL, json=STATUSES)

    result = run_cli(
        [
            "-o",
            "ndjson",
            "--columns",
            "id,name",
            "--jq",
            'keys | join(",")',
            "lead-statuses",
            "list",
        ],
        env=token_env(),
    )

    assert result.exit_code == 0, result.stderr
    assert set(result.stdout.splitlines()) == {"id,name"}


def test_one_object_is_filtered_whole(httpx_mock: HTTPXMock) -> None:
    body = {"automationId": "aut_1", "runs": [{"id": "r1", "status": "Failed"}]}
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/automations/aut_1/runs", json=body)

    result = run_cli(["--jq", ".runs[].status", "automations", "runs", "aut_1"], env=token_env())

    assert result.stdout == real_jq(".runs[].status", body)


def test_api_output_is_filtered(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=STATUSES_URL, json=STATUSES)

    result = run_cli(["--jq", ".[1].name", "api", "GET", "/lead-statuses"], env=token_env())

    assert result.stdout == "New\n"


def test_a_bad_expression_is_exit_2_before_anything_is_sent(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["lead-statuses", "list", "--jq", ".["], env=token_env())

    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: --jq '.[':")
    assert httpx_mock.get_requests() == []


def test_a_runtime_error_is_exit_2(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=STATUSES_URL, json=STATUSES)

    result = run_cli(["--jq", ".[] | .name.first", "lead-statuses", "list"], env=token_env())

    assert result.exit_code == 2
    assert result.stderr.startswith("error: --jq: ")


def test_api_table_honours_columns_without_paginate(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=STATUSES_URL, json=STATUSES)

    result = run_cli(
        ["-o", "table", "--columns", "id,name", "api", "GET", "/lead-statuses"], env=token_env()
    )

    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["id", "name"]
    assert [line.split()[0] for line in lines[1:]] == [status["id"] for status in STATUSES]


def test_api_columns_are_checked_against_the_answer(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=STATUSES_URL, json=STATUSES)

    result = run_cli(
        ["-o", "csv", "--columns", "id,nam", "api", "GET", "/lead-statuses"], env=token_env()
    )

    assert result.exit_code == 2
    assert "unknown field in --columns: nam" in result.stderr
    assert "known fields: id, name, color" in result.stderr
