"""``leadctl status-changes delete`` in process.

``leadctl status-changes update`` and ``delete``, in process against pytest-httpx stubs."""

from __future__ import annotations

import json

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.status_changes._support import CHANGE_URL
from tests.support.cli import ORG_KEY, run_cli, token_env


def test_delete_with_yes_sends_delete_and_confirms_on_stderr(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="DELETE", url=CHANGE_URL, status_code=204)
    result = run_cli(["status-changes", "delete", "chg_1", "--yes"], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert request.method == "DELETE"
    assert request.url == CHANGE_URL
    assert request.content == b""
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert result.stdout == ""
    assert result.stderr == "deleted status change chg_1\n"


def test_delete_quiet_prints_nothing(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="DELETE", url=CHANGE_URL, status_code=204)
    result = run_cli(["status-changes", "delete", "chg_1", "--yes", "-q"], env=token_env())
    assert result.exit_code == 0
    assert result.stdout == result.stderr == ""


def test_delete_without_a_terminal_needs_yes(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["status-changes", "delete", "chg_1"], env=token_env())
    assert result.exit_code == 2
    assert "confirmation needed" in result.stderr
    assert httpx_mock.get_requests() == []


def test_delete_asks_on_a_terminal(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="DELETE", url=CHANGE_URL, status_code=204)
    result = run_cli(["status-changes", "delete", "chg_1"], env=token_env(), tty=True, stdin="y\n")
    assert result.exit_code == 0, result.stderr
    assert "Delete status change chg_1? [y/N]" in result.stderr
    assert "deleted status change chg_1" in result.stderr
    assert result.stdout == ""


def test_delete_declined_is_exit_10_and_sends_nothing(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["status-changes", "delete", "chg_1"], env=token_env(), tty=True, stdin="n\n")
    assert result.exit_code == 10
    assert httpx_mock.get_requests() == []


def test_delete_dry_run_does_not_prompt(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["--dry-run", "status-changes", "delete", "chg_1"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("curl")
    assert "-X DELETE" in result.stdout
    assert httpx_mock.get_requests() == []


def test_delete_not_found_is_exit_5(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="DELETE",
        url=CHANGE_URL,
        status_code=404,
        json={"title": "Not Found", "status": 404, "detail": "No lead status change 'chg_1'."},
        headers={"Content-Type": "application/problem+json"},
    )
    result = run_cli(["status-changes", "delete", "chg_1", "--yes"], env=token_env())
    assert result.exit_code == 5
    assert "error: 404 Not Found" in result.stderr
    assert "deleted" not in result.stderr


def test_delete_is_retried_after_a_5xx(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="DELETE", url=CHANGE_URL, status_code=502)
    httpx_mock.add_response(method="DELETE", url=CHANGE_URL, status_code=204)
    result = run_cli(["status-changes", "delete", "chg_1", "--yes"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert len(httpx_mock.get_requests()) == 2


def test_delete_prints_a_json_body_under_json_output(httpx_mock: HTTPXMock) -> None:
    body = {"id": "chg_1", "deleted": True}
    httpx_mock.add_response(method="DELETE", url=CHANGE_URL, status_code=200, json=body)
    httpx_mock.add_response(method="DELETE", url=CHANGE_URL, status_code=200, json=body)
    as_json = run_cli(["status-changes", "delete", "chg_1", "--yes", "-o", "json"], env=token_env())
    as_table = run_cli(
        ["status-changes", "delete", "chg_1", "--yes", "-o", "table"], env=token_env()
    )
    assert as_json.exit_code == 0, as_json.stderr
    assert json.loads(as_json.stdout) == body
    assert as_table.exit_code == 0, as_table.stderr
    assert as_table.stdout == ""


def test_delete_run_with_yes_deletes_and_says_so_on_stderr(httpx_mock: HTTPXMock) -> None:
    from leadctl.commands.status_changes import delete
    from tests.support.run_context import direct_context, stderr_of, stdout_of

    httpx_mock.add_response(method="DELETE", url=CHANGE_URL, status_code=204)
    ctx = direct_context()
    delete.run(delete.Options(change_id="chg_1", yes=True), ctx)
    request = httpx_mock.get_request()
    assert request is not None and request.method == "DELETE"
    assert stdout_of(ctx) == ""
    assert stderr_of(ctx) == "deleted status change chg_1\n"


@pytest.mark.parametrize(
    ("output", "shown"), [("json", True), ("ndjson", True), ("csv", False), ("value", False)]
)
def test_delete_run_shows_a_json_answer_only_where_json_is_printed_as_received(
    httpx_mock: HTTPXMock, output: str, shown: bool
) -> None:
    from leadctl.commands.status_changes import delete
    from tests.support.run_context import direct_context, stderr_of, stdout_of

    body = {"id": "chg_1", "deleted": True}
    httpx_mock.add_response(method="DELETE", url=CHANGE_URL, status_code=200, json=body)
    ctx = direct_context(output=output)
    delete.run(delete.Options(change_id="chg_1", yes=True), ctx)
    assert (json.loads(stdout_of(ctx)) if shown else stdout_of(ctx)) == (body if shown else "")
    assert stderr_of(ctx) == "deleted status change chg_1\n"
