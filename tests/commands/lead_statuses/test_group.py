"""``leadctl lead-statuses``, what its verbs share.

`leadctl lead-statuses list`: the request, display order, swatches, archived marks."""

from __future__ import annotations

import json

from pytest_httpx import HTTPXMock

from tests.commands.lead_statuses._support import STATUSES, URL
from tests.support.cli import run_cli, token_env


def test_no_color_means_no_escape_and_no_swatch(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=URL, json=STATUSES)
    result = run_cli(["--no-color", "lead-statuses", "list"], env=token_env(), tty=True)
    assert result.exit_code == 0, result.stderr
    assert "\x1b[" not in result.stdout
    assert "■" not in result.stdout
    assert "#22c55e" in result.stdout


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
