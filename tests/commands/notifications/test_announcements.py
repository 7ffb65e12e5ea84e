"""``leadctl notifications announcements`` in process.

`leadctl notifications announcements`: the request, paging, unread marks, output modes."""

from __future__ import annotations

import json

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.notifications._support import LONG, READ, UNREAD, URL, sent_json
from tests.support.cli import ORG_KEY, run_cli, token_env


def test_sends_request_data_options_and_prints_the_services_json(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=URL, json={"items": [UNREAD, READ]})
    result = run_cli(["notifications", "announcements", "--page-size", "10"], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_requests()[0]
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert sent_json(httpx_mock) == [{"pageSize": 10}]
    assert json.loads(result.stdout) == [UNREAD, READ]


def test_table_marks_unread_announcements(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST", url=URL, json={"items": [UNREAD, READ], "continuationToken": "c1"}
    )
    result = run_cli(["notifications", "announcements"], env=token_env(), tty=True)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    for header in ("name", "message", "createdAt"):
        assert header in lines[0]
    unread_line = next(line for line in lines if "New dialer" in line)
    read_line = next(line for line in lines if "Maintenance" in line)
    assert unread_line.lstrip().startswith("●")
    assert "●" not in read_line
    assert "2026-11-20 08:00 UTC" in unread_line
    assert "leadctl:unread" not in result.stdout
    assert "--cursor c1" in result.stderr


@pytest.mark.parametrize("width", ["80", "120", "200"])
def test_long_text_is_cut_to_the_terminal_so_no_column_disappears(
    httpx_mock: HTTPXMock, width: str
) -> None:
    httpx_mock.add_response(method="POST", url=URL, json={"items": [LONG, READ]})
    result = run_cli(
        ["--no-color", "notifications", "announcements"],
        env={**token_env(), "COLUMNS": width},
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(len(line) <= int(width) for line in lines)
    long_line = next(line for line in lines if "A rather long" in line)
    assert long_line.startswith("●")
    assert "…" in long_line
    assert long_line.endswith("2026-11-18 08:00 UTC")


def test_piped_table_keeps_the_whole_text(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=URL, json={"items": [LONG]})
    result = run_cli(["notifications", "announcements", "-o", "table"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert LONG["name"] in result.stdout
    assert "word word" in result.stdout and "…" not in result.stdout


def test_table_with_chosen_columns_still_works(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=URL, json={"items": [UNREAD]})
    result = run_cli(
        ["notifications", "announcements", "--columns", "id,name"], env=token_env(), tty=True
    )
    assert result.exit_code == 0, result.stderr
    assert "ann_1" in result.stdout
    assert "●" not in result.stdout


def test_csv_and_ndjson_carry_no_mark(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=URL, json={"items": [UNREAD, READ]})
    httpx_mock.add_response(method="POST", url=URL, json={"items": [UNREAD, READ]})
    csv_result = run_cli(["notifications", "announcements", "-o", "csv"], env=token_env())
    assert csv_result.stdout.splitlines()[0] == "name,message,createdAt,isRead,id"
    assert csv_result.stdout.splitlines()[1] == (
        "New dialer,Calls now ring in the browser.,2026-11-20T08:00:00Z,false,ann_1"
    )
    ndjson = run_cli(["notifications", "announcements", "-o", "ndjson"], env=token_env())
    assert [json.loads(line) for line in ndjson.stdout.splitlines()] == [UNREAD, READ]


def test_all_follows_pages_and_limit_stops_early(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=URL,
        match_json={"pageSize": 200},
        json={"items": [UNREAD], "continuationToken": "c1"},
    )
    httpx_mock.add_response(
        method="POST",
        url=URL,
        match_json={"continuationToken": "c1", "pageSize": 200},
        json={"items": [READ]},
    )
    result = run_cli(
        ["notifications", "announcements", "--all", "-o", "value", "--columns", "id"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "ann_1\nann_2\n"


def test_limit_on_a_terminal_follows_pages_with_the_mark(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=URL,
        match_json={"pageSize": 2},
        json={"items": [READ], "continuationToken": "c1"},
    )
    httpx_mock.add_response(
        method="POST",
        url=URL,
        match_json={"pageSize": 2, "continuationToken": "c1"},
        json={"items": [UNREAD, READ], "continuationToken": "c2"},
    )
    result = run_cli(["notifications", "announcements", "--limit", "2"], env=token_env(), tty=True)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("●") == 1
    assert "Maintenance" in result.stdout and "New dialer" in result.stdout


def test_cursor_resumes(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST", url=URL, match_json={"continuationToken": "c9"}, json={"items": [READ]}
    )
    result = run_cli(["notifications", "announcements", "--cursor", "c9"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [READ]


def test_count(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=URL,
        match_json={"includeCount": True, "pageSize": 1},
        json={"items": [UNREAD], "totalCount": 12},
    )
    result = run_cli(["notifications", "announcements", "--count"], env=token_env(), tty=True)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "12\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["--limit", "0"],
        ["--page-size", "0"],
        ["--count", "--all"],
        ["--cursor", ""],
        ["--search", "x"],
    ],
)
def test_bad_input_is_exit_2_and_sends_nothing(httpx_mock: HTTPXMock, argv: list[str]) -> None:
    result = run_cli(["notifications", "announcements", *argv], env=token_env(), tty=True)
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    assert httpx_mock.get_requests() == []


def test_service_failure_is_retried_then_exit_8(httpx_mock: HTTPXMock) -> None:
    for _ in range(3):
        httpx_mock.add_response(method="POST", url=URL, status_code=503)
    result = run_cli(
        ["--max-retries", "2", "notifications", "announcements"], env=token_env(), tty=True
    )
    assert result.exit_code == 8
    assert result.stdout == ""
    assert len(httpx_mock.get_requests()) == 3


def test_run_with_all_pages_follows_the_continuation_token(httpx_mock: HTTPXMock) -> None:
    from leadctl.commands.notifications.announcements import Options, run
    from leadctl.http.paging_flags import Paging
    from tests.support.run_context import direct_context, stdout_of

    httpx_mock.add_response(
        method="POST",
        url=URL,
        match_json={"pageSize": 200},
        json={"items": [UNREAD], "continuationToken": "c1"},
    )
    httpx_mock.add_response(
        method="POST",
        url=URL,
        match_json={"continuationToken": "c1", "pageSize": 200},
        json={"items": [READ]},
    )
    ctx = direct_context(output="ndjson")
    run(Options(paging=Paging(all_pages=True)), ctx)
    assert [json.loads(line) for line in stdout_of(ctx).splitlines()] == [UNREAD, READ]


def test_run_refuses_count_with_a_limit_before_sending(httpx_mock: HTTPXMock) -> None:
    from leadctl.commands.notifications.announcements import Options, run
    from leadctl.errors import UsageError
    from leadctl.http.paging_flags import Paging
    from tests.support.run_context import direct_context

    with pytest.raises(UsageError, match="--count prints only the total"):
        run(Options(paging=Paging(count=True, limit=5)), direct_context())
    assert httpx_mock.get_requests() == []
