"""`leadctl notifications announcements`: the installed CLI against the sandbox.

Each output form, the cursor a terminal shows and each refusal meet the installed program;
the reads a test compares against (every announcement, the raw API answer) and following
the cursor run in-process (``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

Env = dict[str, str]


def plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def all_announcements(env: Env) -> list[dict[str, Any]]:
    result = run_in_process(["notifications", "announcements", "--all", "-o", "ndjson"], env=env)
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_json_is_the_services_items_and_count_matches(org_env: Env) -> None:
    listed = all_announcements(org_env)
    raw = run_in_process(
        ["api", "POST", "/notifications/announcements", "--paginate", "-o", "ndjson"],
        env=org_env,
    )
    assert listed == [json.loads(line) for line in raw.stdout.splitlines()]
    count = run_leadctl(["notifications", "announcements", "--count"], env=org_env)
    assert count.exit_code == 0, count.stderr
    assert int(count.stdout) == len(listed) == len({a["id"] for a in listed}) > 5
    assert any(a["isRead"] is False for a in listed)
    assert any(a["isRead"] is True for a in listed)


def test_terminal_table_marks_exactly_the_unread_ones(org_env: Env) -> None:
    listed = all_announcements(org_env)
    result = run_leadctl_tty(["notifications", "announcements", "--all"], env=org_env, columns=100)
    assert result.exit_code == 0, result.stderr
    lines = plain(result.stdout).splitlines()
    assert lines[0].split() == ["name", "message", "createdAt"]
    rows = [line for line in lines[1:] if line.strip()]
    assert len(rows) == len(listed)
    assert all(len(line) <= 100 for line in lines)
    marked = [row.startswith("●") for row in rows]
    assert marked == [a["isRead"] is False for a in listed]


def test_limit_and_cursor_resume_without_gap_or_repeat(
    sandbox: SandboxProcess, org_env: Env
) -> None:
    ids = [a["id"] for a in all_announcements(org_env)]
    sandbox.clear_requests()
    first = run_leadctl(
        ["notifications", "announcements", "--page-size", "4", "--limit", "6", "-o", "ndjson"],
        env=org_env,
    )
    assert [json.loads(line)["id"] for line in first.stdout.splitlines()] == ids[:6]
    bodies = [r["body"] for r in sandbox.requests() if r["operationId"] == "listAnnouncements"]
    assert bodies == [
        {"pageSize": 4},
        {"pageSize": 4, "continuationToken": bodies[1]["continuationToken"]},
    ]

    shown = run_leadctl_tty(
        ["notifications", "announcements", "--page-size", "4", "--limit", "8"], env=org_env
    )
    cursor = re.search(r"--cursor (\S+)", shown.stderr)
    assert cursor is not None, shown.stderr
    rest = run_in_process(
        [
            "notifications",
            "announcements",
            "--page-size",
            "4",
            "--cursor",
            cursor.group(1),
            "--all",
            "-o",
            "value",
            "--columns",
            "id",
        ],
        env=org_env,
    )
    assert rest.exit_code == 0, rest.stderr
    assert rest.stdout.split() == ids[8:]


def test_bad_input_and_source_keys_send_nothing(
    sandbox: SandboxProcess, org_env: Env, source_env: Env
) -> None:
    sandbox.clear_requests()
    bad = run_leadctl(["notifications", "announcements", "--count", "--all"], env=org_env)
    assert bad.exit_code == 2
    refused = run_leadctl(["notifications", "announcements"], env=source_env)
    assert refused.exit_code == 4
    assert bad.stdout == refused.stdout == ""
    assert sandbox.requests() == []
