"""``leadctl automations runs``, installed, against the sandbox over 127.0.0.1.

Each output form and exit code meets the installed program; filters and lookups that only
vary the data (a status in capitals, no match, an unknown automation) run in-process
(``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def automation(sandbox: SandboxProcess) -> dict[str, Any]:
    """The demo "New lead welcome" automation and its run history, read directly."""
    found = next(a for a in sandbox.info()["automations"] if a["name"] == "New lead welcome")
    with sandbox.client() as api:
        history = api.get(f"/automations/{found['id']}/runs").json()
    assert history["runs"], "the demo automation has runs"
    return {"id": found["id"], "history": history}


def busiest_run(automation: dict[str, Any]) -> dict[str, Any]:
    """The run with the most to show: actions, with events of its own and of the run."""
    runs: list[dict[str, Any]] = automation["history"]["runs"]
    return max(runs, key=lambda run: (len(run["actions"]), len(run["events"])))


def test_piped_json_is_the_services_object(automation: dict[str, Any], org_env: Any) -> None:
    result = run_leadctl(["automations", "runs", automation["id"]], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == automation["history"]


def test_status_filters_case_insensitively_keeping_the_shape(
    automation: dict[str, Any], org_env: Any
) -> None:
    runs = automation["history"]["runs"]
    wanted = runs[0]["status"]
    result = run_in_process(
        ["automations", "runs", automation["id"], "--status", wanted.upper()], env=org_env
    )
    assert result.exit_code == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed["automationId"] == automation["id"]
    assert printed["runs"] == [run for run in runs if run["status"] == wanted]


def test_status_with_no_match_is_an_empty_success(automation: dict[str, Any], org_env: Any) -> None:
    result = run_in_process(
        ["automations", "runs", automation["id"], "--status", "NoSuchState", "-o", "ndjson"],
        env=org_env,
    )
    assert result.exit_code == 0
    assert result.stdout == ""


def test_csv_has_a_row_per_run(automation: dict[str, Any], org_env: Any) -> None:
    result = run_leadctl(
        ["automations", "runs", automation["id"], "-o", "csv", "--columns", "id,status"],
        env=org_env,
    )
    assert result.exit_code == 0, result.stderr
    rows = result.stdout.splitlines()
    assert rows[0] == "id,status"
    assert rows[1:] == [f"{run['id']},{run['status']}" for run in automation["history"]["runs"]]


def test_terminal_table(automation: dict[str, Any], org_env: Any) -> None:
    result = run_leadctl_tty(
        ["automations", "runs", automation["id"]], env={**org_env, "NO_COLOR": "1"}
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"Automation {automation['id']} · New lead welcome")
    assert lines[1].split()[:4] == ["run", "status", "lead", "step"]
    for run in automation["history"]["runs"]:
        row = next(line for line in lines if line.startswith(run["id"][:8]))
        assert run["statusDisplay"] in row
        if run["lastErrorCode"]:
            below = lines[lines.index(row) + 1]
            assert below.strip().startswith(f"↳ {run['lastErrorCode']}")


def test_terminal_table_with_status(automation: dict[str, Any], org_env: Any) -> None:
    wanted = automation["history"]["runs"][0]["status"]
    result = run_leadctl_tty(
        ["automations", "runs", automation["id"], "--status", wanted.lower()],
        env={**org_env, "NO_COLOR": "1"},
    )
    assert result.exit_code == 0, result.stderr
    rows = [line for line in result.stdout.splitlines()[2:] if not line.startswith(" ")]
    assert rows and all(f" {wanted} " in row for row in rows)


def test_one_run_as_json(automation: dict[str, Any], org_env: Any) -> None:
    run = busiest_run(automation)
    result = run_leadctl(["automations", "runs", automation["id"], "--run", run["id"]], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == run


def test_one_run_as_a_tree_on_a_terminal(automation: dict[str, Any], org_env: Any) -> None:
    run = busiest_run(automation)
    result = run_leadctl_tty(
        ["automations", "runs", automation["id"], "--run", run["id"][:8]],
        env={**org_env, "NO_COLOR": "1"},
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith(f"Run {run['id']}  {run['statusDisplay']}")
    assert "├── " in out and "└── " in out
    lines = out.splitlines()
    steps = [
        next(i for i, line in enumerate(lines) if f"── {a['stepOrder']}. " in line)
        for a in sorted(run["actions"], key=lambda a: a["stepOrder"])
    ]
    assert steps == sorted(steps)
    # An action's event hangs one level below it.
    first = sorted(run["actions"], key=lambda a: a["stepOrder"])[0]
    own = [e for e in run["events"] if e["actionId"] == first["id"]]
    if own:
        assert lines[steps[0] + 1].startswith(("│   └── ", "│   ├── ", "    └── ", "    ├── "))
        assert own[0]["eventType"] in "\n".join(lines[steps[0] + 1 :])


def test_unknown_run_is_exit_5(automation: dict[str, Any], org_env: Any) -> None:
    result = run_leadctl(
        ["automations", "runs", automation["id"], "--run", "no-such-run"], env=org_env
    )
    assert result.exit_code == 5
    assert result.stdout == ""
    assert "no run 'no-such-run'" in result.stderr


def test_unknown_automation_has_no_runs(org_env: Any) -> None:
    result = run_in_process(["automations", "runs", "no-such-automation"], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"automationId": "no-such-automation", "runs": []}


def test_bad_input_sends_nothing(sandbox: SandboxProcess, org_env: Any) -> None:
    sandbox.clear_requests()
    result = run_leadctl(
        ["automations", "runs", "x", "--status", "Failed", "--run", "y"], env=org_env
    )
    assert result.exit_code == 2
    assert sandbox.requests() == []


# -- --watch: a sandbox run that moves one step on per read (leadctl_sandbox/scripted_runs.py)


def test_a_watched_run_that_completes_exits_0_with_one_line_per_change(
    sandbox: SandboxProcess, org_env: Any
) -> None:
    started = sandbox.start_run("Completed", steps=3)
    result = run_leadctl(
        ["automations", "runs", started["automationId"], "--run", started["run"]["id"], "--watch"],
        env=org_env,
    )
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout  # piped: no redraw
    states = [json.loads(line) for line in result.stdout.splitlines()]
    # Each read moves the run one step on: step 2, step 3, then the end.
    assert [(s["status"], s["currentStepOrder"]) for s in states] == [
        ("Running", 2),
        ("Running", 3),
        ("Completed", None),
    ]
    assert {s["id"] for s in states} == {started["run"]["id"]}


def test_a_watched_run_that_fails_exits_6_naming_its_error(
    sandbox: SandboxProcess, org_env: Any
) -> None:
    started = sandbox.start_run("Failed", steps=2)
    # No --run: the newest run of the automation (its only one).
    result = run_leadctl(
        ["automations", "runs", started["automationId"], "--watch", "-o", "table"], env=org_env
    )
    assert result.exit_code == 6
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert "  Running  step 2. Wait 1 day  Send welcome SMS: completed" in lines[0]
    assert lines[1].endswith("  Failed  CARRIER_REJECTED: The carrier rejected the message.")
    assert result.stderr == (
        f"error: run {started['run']['id']} ended Failed: "
        "CARRIER_REJECTED: The carrier rejected the message.\n"
    )


def test_a_watched_run_is_redrawn_in_place_on_a_terminal(
    sandbox: SandboxProcess, org_env: Any
) -> None:
    started = sandbox.start_run("Cancelled", steps=2)
    result = run_leadctl_tty(
        ["automations", "runs", started["automationId"], "--watch"],
        env={**org_env, "NO_COLOR": "1"},
    )
    assert result.exit_code == 6
    out = result.stdout
    assert "\x1b[1A\x1b[2K" in out  # the live tree was erased to be drawn again
    final = out.rsplit("\x1b[2K", 1)[1]  # what stays on the screen: the whole last state
    assert final.startswith(f"Run {started['run']['id']}  Cancelled")
    assert "2. Wait 1 day · Wait  Skipped" in final
