"""``--since`` on a generated read that takes a time window (issue 34 point 3), through the
command line against the validating mock of the trait contract: ``GET /analytics`` takes
``startAt``/``endAt``/``days``, and ``--since`` says its start as people say it."""

from __future__ import annotations

import pytest

from tests.support.cli import run_cli
from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv

pytestmark = pytest.mark.e2e

# The test clock (tests/support/cli.FakeClock) reads Saturday 2026-11-21 12:00 UTC.
ZONE = {"TZ": "America/Chicago"}


@pytest.mark.parametrize(
    ("since", "start_at"),
    [
        ("last monday", "2026-11-16T06:00:00Z"),  # midnight in Chicago, sent as UTC
        ("saturday", "2026-11-21T06:00:00Z"),  # today is a Saturday: today
        ("last saturday", "2026-11-14T06:00:00Z"),
        ("-7d", "2026-11-14T12:00:00Z"),
        ("yesterday 09:00", "2026-11-20T15:00:00Z"),
    ],
)
def test_since_sends_the_windows_start_as_utc(
    trait_mock: ContractMock, trait_env: CredentialEnv, since: str, start_at: str
) -> None:
    result = run_cli(["analytics", "get-overview", "--since", since], env={**trait_env, **ZONE})

    assert result.exit_code == 0, result.stderr
    (request,) = trait_mock.requests_to("GET", "/analytics")
    assert request.query == {"startAt": [start_at]}
    assert trait_mock.violations() == []


def test_since_and_the_start_flag_together_are_exit_2_before_any_request(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    result = run_cli(
        ["analytics", "get-overview", "--since", "-7d", "--start-at", "2026-11-01"],
        env={**trait_env, **ZONE},
    )

    assert result.exit_code == 2
    assert "--since and --start-at" in result.stderr
    assert trait_mock.requests_to("GET", "/analytics") == []


def test_a_read_with_a_since_parameter_of_its_own_keeps_it(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    result = run_cli(["events", "--help"], env=trait_env)
    verb = next(line.split()[0] for line in result.stdout.splitlines() if "recent" in line.lower())
    shown = run_cli(["events", verb, "--help"], env=trait_env).stdout

    assert shown.count("--since") == 1
    assert "'last monday'" not in shown


def test_the_terminal_view_says_the_window_it_shows(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    terminal = {**trait_env, **ZONE, "COLUMNS": "80", "NO_COLOR": "1", "LEADCTL_PAGER": "cat"}

    asked = run_cli(["analytics", "get-overview", "--since", "last monday"], env=terminal, tty=True)
    default = run_cli(["analytics", "get-overview"], env=terminal, tty=True)

    assert asked.exit_code == 0, asked.stderr
    assert asked.stdout.splitlines()[0] == "window: since 2026-11-16 00:00 CST"
    assert not any(line.startswith("window:") for line in default.stdout.splitlines())
    days = run_cli(["analytics", "get-overview", "--days", "7"], env=terminal, tty=True)
    assert days.stdout.splitlines()[0] == "window: last 7 days"
