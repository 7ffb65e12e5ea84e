"""Issue 22.1 (--debug traces, retry lines) and 22.4 (a Latin-1 header byte, deep JSON):
what the service puts in its status line, headers and body is shown safely, and no odd
byte crashes a command."""

from __future__ import annotations

import json

import pytest

from tests.hostile.checks import HOSTILE, acted_on
from tests.support.hostile_server import HostileServer, json_response, response
from tests.support.terminal import run_in_pipes, run_on_terminal

pytestmark = pytest.mark.e2e

ESCAPING_STATUS_LINE = b"Busy \x1b[2J\x1b]0;owned\x07 now"


def test_debug_shows_the_status_line_headers_and_body_safely(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    hostile.answer(
        response(
            200,
            reason=ESCAPING_STATUS_LINE,
            headers=[
                ("Content-Type", "application/json"),
                ("X-Csi", b"\x1b[31mred"),
                ("X-Bidi", "\u202etxt.exe\u200b".encode()),
            ],
            body=json.dumps([{"id": "st_1", "name": HOSTILE}]),
        ),
        path="/lead-statuses",
    )
    done = run_on_terminal(["lead-statuses", "list", "--debug", "-o", "json"], env=hostile_env)
    assert done.exit_code == 0, done.stderr
    assert acted_on(done.stderr) == []
    assert "< 200 Busy \\x1b[2J\\x1b]0;owned\\x07 now" in done.stderr
    assert "x-csi: \\x1b[31mred" in done.stderr
    assert "x-bidi: \\u202etxt.exe\\u200b" in done.stderr
    assert "\\u001b[2J" in done.stderr or "\\x1b[2J" in done.stderr  # the body's HOSTILE


def test_retry_lines_quote_the_status_line_safely(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    busy = response(503, reason=ESCAPING_STATUS_LINE, headers=[("Retry-After", "0")])
    hostile.answer(busy, path="/lead-statuses", times=2)
    hostile.answer(json_response([]), path="/lead-statuses")
    done = run_on_terminal(["lead-statuses", "list", "-o", "json"], env=hostile_env)
    assert done.exit_code == 0, done.stderr
    retries = [line for line in done.stderr.splitlines() if line.startswith("retrying")]
    assert retries == ["retrying in 0s: 503 Busy \\x1b[2J\\x1b]0;owned\\x07 now"] * 2
    assert acted_on(done.stderr) == []


@pytest.mark.parametrize(
    "args",
    [
        ["lead-statuses", "list", "-o", "json"],
        ["lead-statuses", "list"],
        ["lead-statuses", "list", "--debug"],
        ["api", "GET", "/lead-statuses", "--include"],
    ],
)
def test_a_latin1_header_byte_breaks_no_command(
    hostile: HostileServer, hostile_env: dict[str, str], args: list[str]
) -> None:
    hostile.answer(
        response(
            200,
            headers=[("Content-Type", "application/json"), ("X-Cafe", b"caf\xe9")],
            body=json.dumps([{"id": "st_1", "name": "Open"}]),
        ),
        path="/lead-statuses",
    )
    done = run_on_terminal(args, env=hostile_env)
    assert done.exit_code == 0, done.stderr
    assert "Traceback" not in done.stderr and "unexpected" not in done.stderr
    assert "st_1" in done.stdout
    if "--include" in args:
        assert "x-cafe: café" in done.stdout


DEEP = b'[{"id": "st_1", "name": ' + b"[" * 5000 + b"]" * 5000 + b"}]"


@pytest.mark.parametrize(
    "args",
    [
        ["lead-statuses", "list", "-o", "json"],
        ["lead-statuses", "list"],
        ["lead-statuses", "list", "--debug", "-o", "json"],
    ],
)
def test_deep_json_in_an_answer_is_a_service_failure_not_a_crash(
    hostile: HostileServer, hostile_env: dict[str, str], args: list[str]
) -> None:
    hostile.answer(json_response(DEEP), path="/lead-statuses")
    done = run_in_pipes(args, env=hostile_env)
    assert done.exit_code == 8, done.stderr
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert "nested too deeply" in done.stderr
    if "--debug" in args:
        assert "< [{" in done.stderr  # the trace still shows the start of the body


def test_deep_json_from_api_on_a_terminal_is_shown_as_received(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    hostile.answer(json_response(DEEP), path="/deep")
    done = run_on_terminal(["api", "GET", "/deep"], env=hostile_env)
    assert done.exit_code == 0, done.stderr
    assert done.stdout.startswith('[{"id": "st_1", "name": [[[[')
