"""Issue 22.4: odd values are exit 2 naming the problem, with nothing sent, or are handled;
never exit 1 with a traceback. The hostile server records every request, so "nothing
sent" is checked, not assumed.

The installed leadctl meets what belongs to the program: the exit codes as the shell sees
them, argv that is not ASCII, stdin, the environment, closed streams and the bytes it writes
to a pipe. The rows of a table that vary only the value (a number, a JSON document) run
in-process (``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.support.e2e import base_env, leadctl_executable
from tests.support.hostile_server import HostileServer, json_response
from tests.support.in_process import run_in_process
from tests.support.terminal import run_in_pipes, run_on_terminal

pytestmark = pytest.mark.e2e

DEEP = "[" * 5000 + "]" * 5000
HUGE = "9" * 5000


ODD_VALUES = [
    (["--timeout", "nan", "lead-statuses", "list"], "--timeout nan"),
    (["--timeout", "inf", "lead-statuses", "list"], "--timeout inf"),
    (["--timeout", "1e309", "lead-statuses", "list"], "--timeout inf"),
    (["--timeout", "1e300", "lead-statuses", "list"], "longer than a day"),
    (["--timeout", "-1", "lead-statuses", "list"], "--timeout"),
    (["api", "POST", "/leads/all/my", "-F", f"n={HUGE}"], "field 'n': a number of 5000"),
    (["api", "POST", "/leads/all/my", "-F", "n=1.0e999"], "field 'n': 1.0e999"),
    (["api", "POST", "/leads/all/my", "-F", 'n={"a":NaN}'], "NaN is not a JSON number"),
    (["leads", "create", "--data", '{"firstName":NaN}'], "NaN is not a JSON number"),
    (["leads", "create", "--data", '{"a":Infinity}'], "Infinity is not a JSON number"),
    (["leads", "create", "--data", '{"a":1,"a":2}'], "the key 'a' appears twice"),
    (["leads", "create", "--data", DEEP], "nested too deeply"),
    (["leads", "create", "--data", f'{{"a":{HUGE}}}'], "a number of 5000 digits"),
    (["a2a", "call", "x", "--params", '{"p":-Infinity}'], "-Infinity is not a JSON number"),
    (["leads", "list", "--range", "createdAt>=nan"], "createdAt is a time"),
    (["api", "GET", "/lead-statuses", "-H", "X-Note: café"], "printable ASCII"),
    (["api", "GET", "/lead-statuses", "-H", "X-Note: a\x01b"], "printable ASCII"),
]
# The first row and the argv that is not printable ASCII: the installed leadctl.
INSTALLED = (0, len(ODD_VALUES) - 2, len(ODD_VALUES) - 1)


@pytest.mark.parametrize(("args", "named"), ODD_VALUES)
def test_odd_values_are_exit_2_naming_the_problem_and_nothing_is_sent(
    hostile: HostileServer, hostile_env: dict[str, str], args: list[str], named: str
) -> None:
    installed = any(args is ODD_VALUES[row][0] for row in INSTALLED)
    done = (
        run_in_pipes(args, env=hostile_env) if installed else run_in_process(args, env=hostile_env)
    )
    assert done.exit_code == 2, done.stderr
    assert done.stderr.startswith("error: ") and named in done.stderr
    assert "Traceback" not in done.stderr
    assert hostile.requests == []


@pytest.mark.parametrize("body", ['{"a":NaN}', '{"a":1,"a":2}', DEEP])
def test_api_input_sent_as_json_must_be_json(
    hostile: HostileServer, hostile_env: dict[str, str], body: str
) -> None:
    done = subprocess.run(
        [leadctl_executable(), "api", "POST", "/leads/all/my", "--input", "-"],
        input=body.encode(),
        capture_output=True,
        env=base_env(hostile_env),
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert b"Content-Type: text/plain" in done.stderr  # how to send it as it is
    assert hostile.requests == []


@pytest.mark.parametrize("variable", [{"LEADCTL_TIMEOUT": "nan"}, {"LEADCTL_TIMEOUT": "1e309"}])
def test_a_timeout_from_the_environment_is_checked_the_same_way(
    hostile: HostileServer, hostile_env: dict[str, str], variable: dict[str, str]
) -> None:
    run = run_in_pipes if variable["LEADCTL_TIMEOUT"] == "nan" else run_in_process
    done = run(["lead-statuses", "list"], env={**hostile_env, **variable})
    assert done.exit_code == 2 and "LEADCTL_TIMEOUT" in done.stderr
    assert hostile.requests == []


def test_a_command_started_with_stdout_closed_does_nothing_and_says_why(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    # `leadctl ... >&-`: its output would be lost (or, written to whatever file took the
    # number 1, land somewhere else), so it refuses before sending anything.
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" >&-', leadctl_executable(), "lead-statuses", "list"],
        capture_output=False,
        stderr=subprocess.PIPE,
        env=base_env(hostile_env),
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(b"error: stdout is closed")
    assert hostile.requests == []


def test_a_command_started_with_stdin_or_stderr_closed_runs(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    hostile.answer(json_response([{"id": "st_1", "name": "Open"}]), path="/lead-statuses")
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" <&- 2>&-', leadctl_executable(), "lead-statuses", "list"],
        capture_output=True,
        env=base_env(hostile_env),
        timeout=60,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == [{"id": "st_1", "name": "Open"}]


def test_nan_from_the_service_is_not_json(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    # Written back out it would make -o json invalid for the next program in the pipe.
    hostile.answer(json_response(b'[{"id": "st_1", "score": NaN}]'), path="/lead-statuses")
    done = run_in_pipes(["lead-statuses", "list", "-o", "json"], env=hostile_env)
    assert done.exit_code == 8
    assert b"NaN is not a JSON number" in done.stderr_bytes
    assert done.stdout_bytes == b""


def test_a_lone_surrogate_from_the_service_is_written_escaped_never_a_crash(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    body = b'[{"id": "st_1", "name": "half \\ud800 a pair"}]'
    hostile.answer(json_response(body), path="/lead-statuses", times=3)
    piped = run_in_pipes(["lead-statuses", "list", "-o", "json"], env=hostile_env)
    assert piped.exit_code == 0, piped.stderr
    assert json.loads(piped.stdout_bytes) == [{"id": "st_1", "name": "half \ud800 a pair"}]
    csv = run_in_pipes(["lead-statuses", "list", "-o", "csv", "--columns", "name"], env=hostile_env)
    assert csv.exit_code == 0 and csv.stdout_bytes == b"name\nhalf \\ud800 a pair\n"
    table = run_on_terminal(["lead-statuses", "list", "--columns", "id,name"], env=hostile_env)
    assert table.exit_code == 0 and "half \\ud800 a pair" in table.stdout


def test_the_sandbox_refuses_fault_injection_open_to_the_network() -> None:
    done = run_in_process(
        ["sandbox", "serve", "--memory", "--port", "0", "--faults", "--allow-remote"]
    )
    assert done.exit_code == 2
    assert "--faults and --allow-remote cannot be used together" in done.stderr
