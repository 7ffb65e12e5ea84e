"""Every retry-safe read under faults: it ends with exactly the data of a clean run, or
with the right exit code once the retry budget is spent, having sent at most
``--max-retries`` + 1 attempts.

Nothing in this module writes to its sandbox, so a clean run and a run under faults must
print the same bytes. The cases run concurrently where they use different paths
(tests/faults/support.py: run_cases); each parametrized test checks one case.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.faults.support import (
    BURST,
    DROP,
    LOST,
    OVER_429,
    OVER_BUDGET,
    PAGING_OVER_429,
    SLOW,
    STORM,
    FaultCase,
    Outcome,
    Scenario,
    env_for,
    no_traceback,
    run_cases,
)
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

Info = dict[str, Any]


@dataclass(frozen=True)
class Read:
    id: str
    args: Callable[[Info], list[str]]
    method: str
    path: Callable[[Info], str]
    # This command's Retry-After pair in its 429 storm: together they cover 0-2 s.
    retry_after: tuple[int, int]
    login: bool = False
    ndjson: bool = False
    # Fields the service computes from its clock, left out when comparing with the clean
    # run: the capacity counters' next resets move on every minute, and what was used this
    # minute, hour or day (and so what is still possible) starts over at each boundary, which
    # a run crossing the hour met between the clean read and the faulted one.
    clock_fields: tuple[str, ...] = ()


# The windows the service counts outbound traffic in (numbers status's capacity).
PERIODS = ("ThisMinute", "ThisHour", "Today")

READS = (
    Read(
        "lead-statuses list",
        lambda _: ["lead-statuses", "list"],
        "GET",
        lambda _: "/lead-statuses",
        (0, 1),
    ),
    Read(
        "numbers status",
        lambda info: [
            *("numbers", "status", info["phoneNumbers"][0]),
            *("--start", "2026-11-01", "--end", "2026-11-07"),
        ],
        "GET",
        lambda info: f"/phone-numbers/{info['phoneNumbers'][0]}/status",
        (2, 0),
        clock_fields=(
            *(f"{what}{period}" for what in ("Used", "Remaining") for period in PERIODS),
            "ResetsAt",
            "Possible",
        ),
    ),
    Read(
        "automations runs",
        lambda info: ["automations", "runs", info["automations"][0]["id"]],
        "GET",
        lambda info: f"/automations/{info['automations'][0]['id']}/runs",
        (0, 0),
    ),
    Read(
        "notifications announcements --all",
        lambda _: ["notifications", "announcements", "--all", "--page-size", "5"],
        "POST",
        lambda _: "/notifications/announcements",
        (1, 0),
    ),
    Read(
        "leads list --all -o ndjson",
        lambda _: ["leads", "list", "--all", "--page-size", "100", "-o", "ndjson"],
        "POST",
        lambda _: "/leads/all/my",
        (0, 2),
        ndjson=True,
    ),
    Read(
        "api GET",
        lambda info: ["api", "GET", f"/automations/{info['automations'][1]['id']}/runs"],
        "GET",
        lambda info: f"/automations/{info['automations'][1]['id']}/runs",
        (1, 1),
    ),
    Read(
        "auth login (its check)",
        lambda _: ["-p", "faulted", "auth", "login", "--with-token", "--insecure-storage"],
        "GET",
        lambda _: "/lead-statuses",
        (0, 1),
        login=True,
    ),
)


def cases() -> list[tuple[Read, Scenario]]:
    """Each read meets every kind of fault, and one way of running out of retries (the
    ways rotate over the commands, so each exit code is met by several of them)."""
    found = []
    for index, read in enumerate(READS):
        found += [(read, scenario) for scenario in (STORM, BURST, DROP, SLOW)]
        over = OVER_BUDGET[index % len(OVER_BUDGET)]
        found.append((read, PAGING_OVER_429 if over is OVER_429 and "--all" in read.id else over))
    found.append((READS[1], LOST))
    # One command meets them all.
    found += [(READS[1], scenario) for scenario in OVER_BUDGET if (READS[1], scenario) not in found]
    return found


CASES = cases()


def case_id(read: Read, scenario: Scenario) -> str:
    return f"{read.id}: {scenario.id}"


@pytest.fixture(scope="module")
def info(sandbox: SandboxProcess) -> Info:
    return sandbox.info()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fault-reads")


def read_env(sandbox: SandboxProcess, workdir: Path, name: str) -> dict[str, str]:
    """Each run its own dirs: `auth login` writes a config and pulls the contract."""
    return env_for(sandbox, home=workdir / name.replace(" ", "_").replace(":", ""))


@dataclass(frozen=True)
class Clean:
    stdout: str
    # Requests the read needs without faults: more than one when it follows pages.
    requests: int


@pytest.fixture(scope="module")
def clean(sandbox: SandboxProcess, info: Info, workdir: Path) -> dict[str, Clean]:
    """Each read without faults."""
    runs = run_cases(
        sandbox,
        [
            FaultCase(
                read.id,
                read.method,
                read.path(info),
                (),
                ["--max-retries", "0", *read.args(info)],
                read_env(sandbox, workdir, f"clean {read.id}"),
                stdin=sandbox.credentials.org if read.login else None,
                settle=False,
            )
            for read in READS
        ],
    )
    for outcome in runs.values():
        assert outcome.result.exit_code == 0, outcome.result.stderr
    return {name: Clean(run.result.stdout, run.attempts) for name, run in runs.items()}


@pytest.fixture(scope="module")
def outcomes(
    sandbox: SandboxProcess, info: Info, workdir: Path, clean: dict[str, Clean]
) -> dict[str, Outcome]:
    org = sandbox.credentials.org
    fault_cases = []
    for read, scenario in CASES:
        name = case_id(read, scenario)
        env = read_env(sandbox, workdir, name)
        fault_cases.append(
            FaultCase(
                name,
                read.method,
                read.path(info),
                scenario.actions(True, read.retry_after),
                [*scenario.options(), *read.args(info)],
                env,
                stdin=org if read.login else None,
                observe=_saved_observer(env, org) if read.login else None,
                # A hung request's abandonment is known for sure once its hang ended.
                settle=scenario is SLOW,
            )
        )
    return run_cases(sandbox, fault_cases)


def _saved_observer(env: dict[str, str], org: str) -> Callable[[Any, Any], dict[str, Any]]:
    def observe(_prepared: Any, _result: Any) -> dict[str, Any]:
        path = Path(env["LEADCTL_CONFIG_DIR"]) / "credentials" / "faulted"
        saved = path.read_text(encoding="utf-8").strip() == org if path.exists() else None
        return {"saved": saved}

    return observe


def parse(read: Read, stdout: str) -> Any:
    if read.ndjson:
        return [json.loads(line) for line in stdout.splitlines()]
    return without_clock(json.loads(stdout), read.clock_fields) if stdout else None


def without_clock(value: Any, suffixes: tuple[str, ...]) -> Any:
    if isinstance(value, dict):
        return {
            key: without_clock(item, suffixes)
            for key, item in value.items()
            if not (suffixes and key.endswith(suffixes))
        }
    if isinstance(value, list):
        return [without_clock(item, suffixes) for item in value]
    return value


@pytest.mark.parametrize(("read", "scenario"), CASES, ids=[case_id(*case) for case in CASES])
def test_read_under_faults(
    outcomes: dict[str, Outcome],
    clean: dict[str, Clean],
    read: Read,
    scenario: Scenario,
) -> None:
    outcome = outcomes[case_id(read, scenario)]
    result = outcome.result
    expected_exit = scenario.exit_code(True)
    assert result.exit_code == expected_exit, result.stderr
    assert no_traceback(result)
    assert outcome.leftover_faults == 0
    if read.ndjson and expected_exit:
        # -o ndjson was asked for: the error is one JSON object, the problem and exitCode.
        assert json.loads(result.stderr.splitlines()[-1])["exitCode"] == expected_exit
    else:
        assert scenario.says(True, read.retry_after) in result.stderr
    extra_pages = clean[read.id].requests - 1 if expected_exit == 0 else 0
    assert outcome.attempts == scenario.attempts(True, read.retry_after) + extra_pages
    if expected_exit == 0:
        # Exactly the right data: what the clean run printed, byte for byte unless the
        # service's clock moved a field on in between.
        if not read.clock_fields:
            assert result.stdout == clean[read.id].stdout
        assert parse(read, result.stdout) == parse(read, clean[read.id].stdout)
    else:
        assert result.stdout == ""
    if read.login:
        # Saved only once the check succeeded; never saved unchecked.
        assert outcome.seen["saved"] is (True if expected_exit == 0 else None)
    if scenario is STORM:
        # Retry-After is honoured exactly: the waits add up, and each one is announced.
        assert result.seconds >= sum(read.retry_after)
        assert result.stderr.count("429 rate limited") == 2
    if scenario is SLOW:
        # One timeout, then the retry: the client gave up on the hung request (closed its
        # connection) before the service's 3 s were over, rather than waiting for the answer,
        # and the next request was the retry that succeeded. Timed by the sandbox within the
        # hang, not by the wall clock of a whole run, which a loaded machine stretches.
        hung, retry = outcome.requests[:2]
        assert hung["fault"] == "hang=3"
        assert gave_up_within_the_hang(hung, 3)
        assert retry["fault"] is None
        assert retry["status"] == 200


def test_slow_reads_beyond_the_budget_fail_within_it(sandbox: SandboxProcess) -> None:
    outcome = run_cases(
        sandbox,
        [
            FaultCase(
                "slow twice",
                "GET",
                "/lead-statuses",
                ["hang=3", "hang=3"],
                ["--max-retries", "1", "--timeout", "1", "lead-statuses", "list"],
                env_for(sandbox),
            )
        ],
    )["slow twice"]
    result = outcome.result
    assert result.exit_code == 8, result.stderr
    assert result.stdout == ""
    assert "timed out waiting for the service (after 2 attempts)" in result.stderr
    assert outcome.attempts == 2
    # The budget bounds the wait: each attempt was given up within its hang, none waited out.
    assert [entry["fault"] for entry in outcome.requests] == ["hang=3", "hang=3"]
    assert all(gave_up_within_the_hang(entry, 3) for entry in outcome.requests)


def gave_up_within_the_hang(entry: dict[str, Any], hang_seconds: float) -> bool:
    """The client closed the hung request's connection while the sandbox still held it."""
    abandoned = entry["abandonedAfterMs"]
    return abandoned is not None and abandoned < hang_seconds * 1000
