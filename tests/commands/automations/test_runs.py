"""``leadctl automations runs`` in process.

``leadctl automations runs``: the request, client-side filtering, the table and the tree."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.automations._support import (
    AUTOMATION,
    RUNS_URL,
    event,
    failed_run,
    history,
    other_runs,
    run,
    stub,
)
from tests.support.cli import BASE_URL, run_cli, token_env


def test_sends_one_get_with_the_id_in_the_path(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION)
    assert result.exit_code == 0, result.stderr
    (request,) = httpx_mock.get_requests()
    assert request.method == "GET"
    assert request.url.raw_path == b"/automations/aut_1/runs"
    assert request.headers["Authorization"] == "Bearer " + token_env()["LEADCTL_TOKEN"]


def test_status_filters_here_and_sends_no_query(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "--status", "FAILED")
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests()[0].url.query == b""


def test_the_id_is_percent_encoded(httpx_mock: HTTPXMock) -> None:
    stub(
        httpx_mock,
        {"automationId": "a/b c", "runs": []},
        url=f"{BASE_URL}/automations/a%2Fb%20c/runs",
    )
    result = run("a/b c")
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    "args",
    [
        [],
        [" "],
        [AUTOMATION, "--status", ""],
        [AUTOMATION, "--run", ""],
        [AUTOMATION, "--status", "Failed", "--run", "run_failed"],
        [AUTOMATION, "--bogus"],
    ],
)
def test_bad_input_is_exit_2_and_sends_nothing(httpx_mock: HTTPXMock, args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("error: ")
    assert httpx_mock.get_requests() == []


def test_help_says_status_values_are_not_known() -> None:
    result = run("--help")
    text = " ".join(result.stdout.split())
    assert "any word is accepted" in text and "case-insensitively" in text
    assert "Examples:" in text


def test_json_is_the_services_object_unchanged(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == history()


def test_json_with_status_keeps_the_shape_with_matching_runs(httpx_mock: HTTPXMock) -> None:
    body = history() | {"extra": "kept"}
    stub(httpx_mock, body)
    result = run(AUTOMATION, "--status", "completed", "-o", "json")
    assert result.exit_code == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed == body | {"runs": [other_runs()[0]]}


def test_status_matches_the_display_text_too(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "--status", "waiting FOR step", "-o", "ndjson")
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["run_wait"]


def test_an_unknown_status_is_an_empty_success(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "--status", "Exploded", tty=True)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "0 of 3 recent runs are Exploded" in result.stderr


def test_ndjson_is_one_run_per_line(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "-o", "ndjson")
    lines = result.stdout.splitlines()
    assert [json.loads(line) for line in lines] == history()["runs"]


def test_csv_has_flat_run_columns(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "-o", "csv", "--columns", "id,status,currentStep.name,retryCount")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "id,status,currentStep.name,retryCount",
        "run_failed,Failed,Send follow-up SMS,1",
        "run_done,Completed,,0",
        "run_wait,Waiting,Wait 1 day,0",
    ]


def test_csv_default_columns(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "-o", "csv")
    header = result.stdout.splitlines()[0].split(",")
    for column in ("id", "status", "leadId", "currentStep.name", "retryCount", "maxRetryCount",
                   "lastErrorCode", "startedAt", "nextRetryAt", "failedAt"):  # fmt: skip
        assert column in header


def test_terminal_table(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, tty=True, env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "\x1b" not in out
    assert "Automation aut_1 · New lead welcome · 3 recent runs" in out
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("run "))
    for title in ("status", "lead", "step", "retries", "started", "last run", "next", "ended"):
        assert title in header
    failed_at = next(i for i, line in enumerate(lines) if line.startswith("run_failed"))
    failed = lines[failed_at]
    assert re.search(r"run_failed\s+Failed\s+lead_ada\s+2\. Send follow-up SMS\s+1/3", failed)
    # Times read like every other table's: whole, in the zone shown (UTC here).
    assert re.search(
        r"1/3\s+2026-11-20 09:00 UTC\s+2026-11-21 10:00 UTC\s+retry 2026-11-21 12:30 UTC"
        r"\s+2026-11-21 10:00 UTC$",
        failed,
    ), failed
    # The last error gets a line of its own, under the status column, in full.
    error = lines[failed_at + 1]
    assert error.index("↳") == failed.index("Failed")
    assert error.endswith(
        "CARRIER_REJECTED: The carrier rejected the message because the content looked like spam."
    )
    waiting = next(line for line in lines if line.startswith("run_wait"))
    assert "Waiting for step" in waiting and "3. Wait 1 day" in waiting
    assert "2026-11-21 14:05 UTC" in waiting
    done = next(line for line in lines if line.startswith("run_done"))
    assert re.search(r"0/3\s+\S+ \S+ UTC\s+2026-11-21 09:00 UTC", done), done
    assert not lines[lines.index(done) + 1].lstrip().startswith("↳")


def test_long_ids_are_whole_and_run_takes_a_prefix(httpx_mock: HTTPXMock) -> None:
    body = history()
    body["runs"][0]["id"] = "3f2a9c1b-0d4e-4f5a-9b8c-7d6e5f4a3b2c"
    body["runs"][0]["leadId"] = "9ab3e1f2-1111-4222-8333-944455556666"
    body["runs"][1]["id"] = "3f2a0000-0d4e-4f5a-9b8c-7d6e5f4a3b2c"
    stub(httpx_mock, body)
    wide = run(AUTOMATION, tty=True, env={"NO_COLOR": "1", "COLUMNS": "120"})
    out = wide.stdout
    assert re.search(r"3f2a9c1b-0d4e-4f5a-9b8c-7d6e5f4a3b2c\s+Failed", out), out
    assert "9ab3e1f2-1111-4222-8333-944455556666  2. Send" in out
    assert "not shown at 120 columns: " in wide.stderr and "started" in wide.stderr
    httpx_mock.add_response(url=RUNS_URL, json=body)
    narrow = run(AUTOMATION, tty=True, env={"NO_COLOR": "1", "COLUMNS": "80"})
    assert "3f2a9c1b-0d4e-4f5a-9b8c-7d6e5f4a3b2c  Failed" in narrow.stdout
    # The lead id does not fit beside the run id; the narrower step after it does.
    assert "not shown at 80 columns: lead, retries" in narrow.stderr
    assert "2. Send follow-up SMS" in narrow.stdout
    httpx_mock.add_response(url=RUNS_URL, json=body)
    tree = run(AUTOMATION, "--run", "3f2a9c", tty=True, env={"NO_COLOR": "1"}).stdout
    assert tree.startswith("Run 3f2a9c1b-0d4e-4f5a-9b8c-7d6e5f4a3b2c  Failed")
    httpx_mock.add_response(url=RUNS_URL, json=body)
    ambiguous = run(AUTOMATION, "--run", "3f2a")
    assert ambiguous.exit_code == 2
    assert "matches 2 runs" in ambiguous.stderr
    httpx_mock.add_response(url=RUNS_URL, json=body)
    assert run(AUTOMATION, "--run", "3f2").exit_code == 5  # too short to be a prefix


def test_terminal_table_colors_statuses(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    out = run(AUTOMATION, tty=True).stdout
    assert re.search(r"\x1b\[[0-9;]*31mFailed", out)
    assert re.search(r"\x1b\[[0-9;]*32mCompleted", out)


def test_empty_history_says_so_on_stderr(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock, {"automationId": AUTOMATION, "runs": []})
    result = run(AUTOMATION, tty=True)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "no runs for automation aut_1" in result.stderr


def test_a_body_without_a_runs_array_is_exit_8(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock, {"automationId": AUTOMATION, "runs": "soon"})
    result = run(AUTOMATION)
    assert result.exit_code == 8
    assert result.stdout == ""


@pytest.mark.parametrize(("status", "code"), [(401, 3), (403, 4), (404, 5), (429, 7)])
def test_error_statuses(httpx_mock: HTTPXMock, status: int, code: int) -> None:
    httpx_mock.add_response(
        url=RUNS_URL,
        status_code=status,
        json={"title": "no", "detail": "not allowed here"},
        headers={"Content-Type": "application/problem+json"},
        is_reusable=True,
    )
    result = run(AUTOMATION, "--run", "run_failed")
    assert result.exit_code == code
    assert result.stdout == ""


def test_run_json_is_that_run_unchanged(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "--run", "run_failed")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == failed_run()


def test_unknown_run_is_exit_5_with_a_clear_message(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "--run", "run_nope", tty=True)
    assert result.exit_code == 5
    assert result.stdout == ""
    assert "no run 'run_nope' among the 3 recent runs of automation 'aut_1'" in result.stderr
    assert "leadctl automations runs aut_1" in result.stderr


def test_unknown_run_under_json_is_a_json_error(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "--run", "run_nope", "-o", "json")
    assert result.exit_code == 5
    assert json.loads(result.stderr)["exitCode"] == 5


def test_run_tree_on_a_terminal(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "--run", "run_failed", tty=True, env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "\x1b" not in out
    lines = out.splitlines()
    assert lines[0] == "Run run_failed  Failed"
    assert lines[1] == "automation New lead welcome (aut_1) · lead lead_ada"
    assert "trigger New lead received" in out
    assert "failed 2026-11-21 10:00 UTC (2h ago)" in out
    assert "current step 2. Send follow-up SMS" in out and "retries 1/3" in out
    assert "last error CARRIER_REJECTED: The carrier rejected the message because" in out
    # Actions in step order, each with its events; run events between them in time.
    order = [
        "RunStarted",
        "1. Send welcome SMS",
        "ActionCompleted",
        "Note",
        "2. Send follow-up SMS",
        "ActionFailed",
        "RunFailed",
    ]
    positions = [
        next(i for i, line in enumerate(lines) if "── " in line and word in line) for word in order
    ]
    assert positions == sorted(positions)
    guide = {
        word: lines[pos][: lines[pos].index(word)]
        for word, pos in zip(order, positions, strict=True)
    }
    assert guide["RunStarted"].endswith("├── Nov 20 08:59  ")
    assert guide["1. Send welcome SMS"].endswith("├── ")
    assert guide["ActionCompleted"].endswith("│   └── Nov 20 09:00  ")
    assert guide["ActionFailed"].endswith("│   └── Nov 21 10:00  ")
    assert guide["RunFailed"].endswith("└── Nov 21 10:00  ")
    assert (
        "Send SMS  Failed  retries 1  started Nov 21 10:00, failed after 2s, next retry in 30m"
        in out
    )
    assert "CARRIER_REJECTED: The carrier rejected the message." in out
    assert "[CARRIER_REJECTED]" in out and "[RETRIES_PENDING]" in out
    assert "Note summary (action act_gone)" in out  # its action is not in the run any more
    assert "completed after 2s" in out


def test_run_tree_colors(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    out = run(AUTOMATION, "--run", "run_failed", tty=True).stdout
    assert re.search(r"\x1b\[[0-9;]*31mFailed", out)
    assert re.search(r"\x1b\[[0-9;]*32mCompleted", out)


def test_run_tree_of_a_bare_run(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock, {"automationId": AUTOMATION, "runs": [{"id": "r1", "actions": None}]})
    result = run(AUTOMATION, "--run", "r1", tty=True, env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
    assert "Run r1" in result.stdout
    assert "no actions or events recorded" in result.stdout


def test_run_csv_is_one_summary_row(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "--run", "run_wait", "-o", "csv", "--columns", "id,nextExecutionAt")
    assert result.stdout.splitlines() == ["id,nextExecutionAt", "run_wait,2026-11-21T14:05:00Z"]


def test_service_text_cannot_drive_the_terminal(httpx_mock: HTTPXMock) -> None:
    body = history()
    body["runs"][0]["lastErrorMessage"] = "[red]boom[/red]\x1b[2J"
    body["runs"][0]["events"][0]["summary"] = "\x1b]0;title\x07"
    stub(httpx_mock, body)
    table = run(AUTOMATION, tty=True, env={"NO_COLOR": "1"}).stdout
    assert "\x1b" not in table and "[red]boom[/red]" in table
    httpx_mock.add_response(url=RUNS_URL, json=body)
    tree = run(AUTOMATION, "--run", "run_failed", tty=True, env={"NO_COLOR": "1"}).stdout
    assert "\x1b" not in tree and "\x07" not in tree


def test_overdue_times_and_skip_reasons(httpx_mock: HTTPXMock) -> None:
    late = other_runs()[1] | {"nextExecutionAt": "2026-11-21T10:00:00Z"}
    skipped = other_runs()[0] | {
        "id": "run_skip",
        "status": "Skipped",
        "statusDisplay": "Skipped",
        "skipReasonCode": "LEAD_OPTED_OUT",
        "skipReasonDisplay": "The lead opted out of SMS.",
    }
    stub(httpx_mock, {"automationId": AUTOMATION, "runs": [late, skipped]})
    lines = run(AUTOMATION, tty=True, env={"NO_COLOR": "1", "COLUMNS": "200"}).stdout.splitlines()
    waiting = next(line for line in lines if line.startswith("run_wait"))
    assert "due 2026-11-21 10:00 UTC" in waiting
    at = next(i for i, line in enumerate(lines) if line.startswith("run_skip"))
    assert lines[at + 1].strip() == "↳ skipped: The lead opted out of SMS."


def test_a_run_event_at_the_moment_an_action_starts_comes_first(httpx_mock: HTTPXMock) -> None:
    body = failed_run()
    body["events"] = [
        event("e1", "act_1", "ActionCompleted", "Completed", "2026-11-20T09:00:02Z"),
        event("e0", None, "RunStarted", "Started", "2026-11-20T09:00:00Z"),
    ]
    stub(httpx_mock, {"automationId": AUTOMATION, "runs": [body]})
    lines = run(AUTOMATION, "--run", "run_failed", tty=True, env={"NO_COLOR": "1"}).stdout
    tree = [line for line in lines.splitlines() if "── " in line]
    assert "RunStarted" in tree[0] and "1. Send welcome SMS" in tree[1]


def test_a_long_table_goes_through_the_pager(httpx_mock: HTTPXMock, tmp_path: Any) -> None:
    paged = tmp_path / "paged.txt"
    stub(httpx_mock)
    result = run_cli(
        ["automations", "runs", AUTOMATION],
        env={**token_env(), "LEADCTL_PAGER": f"sh -c 'cat > {paged}'", "LINES": "3"},
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert "run_failed" in paged.read_text(encoding="utf-8")


def test_table_on_a_pipe_when_asked(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run(AUTOMATION, "-o", "table")
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert result.stdout.startswith("Automation aut_1")


def test_runs_table_shows_times_in_the_local_zone_or_utc(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    env = {"NO_COLOR": "1", "COLUMNS": "200", "TZ": "America/Chicago"}
    local = run(AUTOMATION, tty=True, env=env).stdout
    failed = next(line for line in local.splitlines() if line.startswith("run_failed"))
    assert "2026-11-20 03:00 CST" in failed and "UTC" not in failed
    httpx_mock.add_response(url=RUNS_URL, json=history())
    utc = run_cli(
        ["--utc", "automations", "runs", AUTOMATION],
        env={**token_env(), "LEADCTL_PAGER": "cat", **env},
        tty=True,
    ).stdout
    assert "2026-11-20 09:00 UTC" in utc


def test_run_called_directly_filters_by_status_and_keeps_the_json_shape(
    httpx_mock: HTTPXMock,
) -> None:
    # The verb without Typer: Options as the wrapper would fill them, straight into run().
    from leadctl.commands.automations.runs import Options, run
    from tests.support.run_context import direct_context, stdout_of

    stub(httpx_mock)
    ctx = direct_context(output="json")
    run(Options(AUTOMATION, status="completed"), ctx)
    assert json.loads(stdout_of(ctx)) == {"automationId": AUTOMATION, "runs": [other_runs()[0]]}


def test_run_called_directly_finds_a_run_by_unique_prefix(httpx_mock: HTTPXMock) -> None:
    from leadctl.commands.automations.runs import Options, run
    from tests.support.run_context import direct_context, stdout_of

    stub(httpx_mock)
    ctx = direct_context(output="ndjson")
    run(Options(AUTOMATION, run_id="run_w"), ctx)
    assert json.loads(stdout_of(ctx))["id"] == "run_wait"
