"""Issue 22.1 (error lines) and 23.7: a service's problem document never reaches a terminal
raw, and a person at a terminal reads errors as text even with -o json."""

from __future__ import annotations

import json
import signal
import subprocess
import threading

import pytest

from tests.hostile.checks import HOSTILE, SHOWN, acted_on, problem
from tests.support.e2e import base_env, leadctl_executable, run_leadctl
from tests.support.hostile_server import HostileServer, json_response
from tests.support.terminal import TerminalProcess, run_on_terminal

pytestmark = pytest.mark.e2e

PROBLEM = json_response(problem(400), 400, content_type="application/problem+json")


def test_every_field_of_a_problem_document_is_shown_not_acted_on(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    hostile.answer(PROBLEM, path="/err")
    piped = run_leadctl(["api", "GET", "/err"], env=hostile_env)
    assert piped.exit_code == 6, piped.stderr
    assert acted_on(piped.stderr) == []
    lines = piped.stderr.splitlines()
    assert lines[0].startswith("error: 400 Bad " + SHOWN)
    assert any(line.startswith("  name" + SHOWN) and "message " + SHOWN in line for line in lines)
    assert lines[-1].startswith("trace id: trace-" + SHOWN)
    assert piped.stdout == ""

    hostile.answer(PROBLEM, path="/err")
    on_terminal = run_on_terminal(["api", "GET", "/err"], env=hostile_env)
    assert on_terminal.exit_code == 6
    assert acted_on(on_terminal.stderr) == [] and acted_on(on_terminal.stdout) == []
    assert SHOWN in on_terminal.stderr


def test_a_curated_command_error_quotes_the_service_safely(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    # Every request of `sources update` (the read of read-modify-write, or the PUT) fails.
    hostile.answer(PROBLEM, path="/sources/src_1", always=True)
    done = run_on_terminal(["sources", "update", "src_1", "--name", "New"], env=hostile_env)
    assert done.exit_code == 6, done.stderr
    assert acted_on(done.stderr) == []
    assert "\\u202etxt.exe" in done.stderr and "pay\\u200bpal" in done.stderr


def test_json_errors_for_programs_stay_json_with_every_character_escaped(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    hostile.answer(PROBLEM, path="/err")
    done = run_leadctl(["api", "GET", "/err", "-o", "json"], env=hostile_env)
    assert done.exit_code == 6
    assert acted_on(done.stderr) == []
    error = json.loads(done.stderr)
    assert error["title"] == f"Bad {HOSTILE}" and error["exitCode"] == 6
    assert error["errors"] == {f"name{HOSTILE}": [f"message {HOSTILE}"]}


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["api", "GET", "/missing", "-o", "json"], 5),
        (["-o", "json", "lead-statuses", "list", "--nope"], 2),
    ],
)
def test_a_person_at_a_terminal_reads_text_errors_even_with_json_output(
    hostile: HostileServer, hostile_env: dict[str, str], args: list[str], code: int
) -> None:
    missing = json_response(problem(404, "gone"), 404, content_type="application/problem+json")
    if args[0] == "api":
        hostile.answer(missing, path="/missing", times=2)
    on_terminal = run_on_terminal(args, env=hostile_env)
    assert on_terminal.exit_code == code
    assert on_terminal.stderr.startswith("error: "), on_terminal.stderr
    assert on_terminal.stdout == ""
    # The same command for a program (stderr not a terminal): one JSON object.
    piped = run_leadctl(args, env=hostile_env)
    assert piped.exit_code == code
    assert json.loads(piped.stderr)["exitCode"] == code


def test_json_errors_from_leadctl_output_follow_the_same_rule(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    hostile.answer(PROBLEM, path="/err", times=2)
    from_env = {**hostile_env, "LEADCTL_OUTPUT": "ndjson"}
    assert run_on_terminal(["api", "GET", "/err"], env=from_env).stderr.startswith("error: 400")
    assert json.loads(run_leadctl(["api", "GET", "/err"], env=from_env).stderr)["status"] == 400


def test_ctrl_c_is_text_for_a_person_and_json_for_a_program(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    release = threading.Event()
    hostile.answer(json_response([]), path="/slow", times=2, release=release)
    args = ["api", "GET", "/slow", "-o", "json"]

    on_terminal = TerminalProcess(args, env=hostile_env)
    hostile.wait_for_request("/slow")
    on_terminal.interrupt()
    done = on_terminal.finish()
    assert done.exit_code == 130
    assert "interrupted" in done.stderr and "{" not in done.stderr

    piped = subprocess.Popen(
        [leadctl_executable(), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=base_env(hostile_env),
    )
    hostile.wait_for_request("/slow", count=2)
    piped.send_signal(signal.SIGINT)
    _out, err = piped.communicate(timeout=60)
    release.set()
    assert piped.returncode == 130
    assert json.loads(err)["exitCode"] == 130
