"""``leadctl numbers status``, installed, against the sandbox over 127.0.0.1.

Each guarantee meets the installed leadctl (exit codes 0, 2, 4 and 6 with stdout and stderr
apart, the terminal); profile settings, a table's rows past the first and a test's second
command run in-process (``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

# The sandbox's demo organization owns these (tests/support/sandbox_server.py info()).
WARMING = "+15125550101"
OTHER_ORGS = "+13125550199"


def status_requests(sandbox: SandboxProcess) -> list[dict[str, Any]]:
    return [r for r in sandbox.requests() if r.get("operationId") == "getPhoneNumberStatus"]


def profile_set(key: str, value: str) -> None:
    # The config dir is this test's own (tests/conftest.py). Setting up: in-process.
    result = run_in_process(["profile", "set", key, value])
    assert result.exit_code == 0, result.stderr


def test_numbers_are_the_demo_organizations(sandbox: SandboxProcess) -> None:
    assert WARMING in sandbox.info()["phoneNumbers"]
    assert OTHER_ORGS in sandbox.info()["otherOrganizationPhoneNumbers"]


def test_e164_input_piped_prints_the_services_json(
    sandbox: SandboxProcess, org_env: dict[str, str]
) -> None:
    result = run_leadctl(["numbers", "status", WARMING], env=org_env)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["number"] == WARMING
    with sandbox.client() as api:
        direct = api.get("/phone-numbers/%2B15125550101/status").json()
    # The same document, key for key (counters may tick between the two reads).
    assert list(data) == list(direct)
    assert list(data["outboundCapacity"]) == list(direct["outboundCapacity"])
    assert data["smsWarmup"] == direct["smsWarmup"]
    assert data["trafficMetrics"]["windowDays"] == 7


def test_national_input_with_the_profile_region(
    sandbox: SandboxProcess, org_env: dict[str, str]
) -> None:
    profile_set("region", "US")
    sandbox.clear_requests()
    result = run_leadctl(["numbers", "status", "(512) 555-0101"], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["number"] == WARMING
    (request,) = status_requests(sandbox)
    assert request["path"] == f"/phone-numbers/{WARMING}/status"


def test_national_input_without_a_region_is_exit_2_and_sends_nothing(
    sandbox: SandboxProcess, org_env: dict[str, str]
) -> None:
    sandbox.clear_requests()
    result = run_leadctl(["numbers", "status", "512-555-0101"], env=org_env)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "'512-555-0101'" in result.stderr
    assert "leadctl profile set region US" in result.stderr
    assert sandbox.requests() == []


INVALID = ["+1512555010", "+999 555 0101", "call me maybe"]


@pytest.mark.parametrize("typed", INVALID)
def test_invalid_numbers_are_exit_2_naming_the_input_and_send_nothing(
    sandbox: SandboxProcess, org_env: dict[str, str], typed: str
) -> None:
    sandbox.clear_requests()
    run = run_leadctl if typed == INVALID[0] else run_in_process
    result = run(["numbers", "status", typed], env=org_env)
    assert result.exit_code == 2
    assert repr(typed) in result.stderr
    assert "Traceback" not in result.stderr
    assert sandbox.requests() == []


def test_window_parameters_reach_the_service(
    sandbox: SandboxProcess, org_env: dict[str, str]
) -> None:
    sandbox.clear_requests()
    result = run_leadctl(["numbers", "status", WARMING, "--window-days", "3"], env=org_env)
    assert result.exit_code == 0, result.stderr
    traffic = json.loads(result.stdout)["trafficMetrics"]
    assert traffic["windowDays"] == 3 and len(traffic["trend"]) == 3
    result = run_in_process(
        ["numbers", "status", WARMING, "--start", "2026-01-01", "--end", "2026-01-10"],
        env=org_env,
    )
    assert result.exit_code == 0, result.stderr
    metrics = json.loads(result.stdout)["optOutMetrics"]
    assert metrics["windowStartedAt"].startswith("2026-01-01T00:00:00")
    assert metrics["windowDays"] == 10
    queries = [r["query"] for r in status_requests(sandbox)]
    assert queries == ["windowDays=3", "startDate=2026-01-01&endDate=2026-01-10"]


def test_the_profile_renames_the_window_parameters(
    sandbox: SandboxProcess, org_env: dict[str, str]
) -> None:
    profile_set("phone_status_window_days_param", "days")
    profile_set("phone_status_end_param", "until")
    sandbox.clear_requests()
    result = run_leadctl(
        ["numbers", "status", WARMING, "--window-days", "3", "--end", "2026-01-10"], env=org_env
    )
    assert result.exit_code == 0, result.stderr
    (request,) = status_requests(sandbox)
    assert request["query"] == "days=3&until=2026-01-10"
    # The sandbox knows only the contract's names: it fell back to its default window.
    assert json.loads(result.stdout)["trafficMetrics"]["windowDays"] == 7


def test_bad_window_input_is_exit_2_and_sends_nothing(
    sandbox: SandboxProcess, org_env: dict[str, str]
) -> None:
    sandbox.clear_requests()
    for run, flags in (
        (run_leadctl, ["--start", "2026-01-10", "--end", "2026-01-01"]),
        (run_in_process, ["--window-days", "0"]),
        (run_in_process, ["--end", "2026-02-30"]),
    ):
        result = run(["numbers", "status", WARMING, *flags], env=org_env)
        assert result.exit_code == 2, flags
    assert sandbox.requests() == []


def test_a_window_the_service_refuses_is_exit_6(org_env: dict[str, str]) -> None:
    result = run_leadctl(["numbers", "status", WARMING, "--window-days", "400"], env=org_env)
    assert result.exit_code == 6
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")


def test_another_organizations_number_is_exit_4(org_env: dict[str, str]) -> None:
    result = run_leadctl(["numbers", "status", OTHER_ORGS], env=org_env)
    assert result.exit_code == 4
    assert result.stdout == ""


def test_csv_is_one_summary_row(org_env: dict[str, str]) -> None:
    result = run_leadctl(["numbers", "status", WARMING, "-o", "csv"], env=org_env)
    assert result.exit_code == 0, result.stderr
    header, row = result.stdout.splitlines()
    values = dict(zip(header.split(","), row.split(","), strict=True))
    assert values["number"] == WARMING
    assert values["smsWarmup.status"] == "In Progress"
    assert values["outboundCapacity.capacityAvailable"] in ("true", "false")


def test_terminal_view(org_env: dict[str, str]) -> None:
    result = run_leadctl_tty(["numbers", "status", WARMING], env={**org_env, "NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "\x1b[" not in out
    assert out.startswith(WARMING)
    assert re.search(r"SMS\s+this minute\s+[█░]+\s+\d+ / \d+", out)
    assert re.search(r"today\s+[█░]+\s+[\d,]+ / [\d,]+\s+[\d,]+\s+resets in \d", out)
    assert "status In Progress" in out and "%" in out
    assert re.search(r"SMS sent\s+[▁▂▃▄▅▆▇█]{7,}", out)
    assert "Recent events" in out and "→" in out


def test_terminal_view_in_color(org_env: dict[str, str]) -> None:
    result = run_leadctl_tty(["numbers", "status", WARMING], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert re.search(r"\x1b\[[0-9;]*m█", result.stdout)  # gauges are colored
