"""The sandbox profile is always the embedded sandbox (issue 23 point 1, issue 22 point 5).

Settings keep it the sandbox and its published contract, `profile set` never changes the
current profile, `profile unset` leaves nothing behind, and neither the environment nor a
flag points it at another service; any other profile named with -p is warned when the
environment overrides its own base URL.

Each guarantee meets the installed leadctl (argv, the environment and exit codes as the shell
sees them); setting up (a lead's id, `profile use`, a profile's base URL), the rows of a table
past the first and a test's further commands run in-process (``run_in_process``: the same
command tree, the same embedded sandbox on its loopback socket, the same dirs).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from leadctl.config.settings import load_config
from tests.support.e2e import base_env, run_leadctl
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess, sandbox_server

pytestmark = pytest.mark.e2e

SANDBOX = ["-p", "sandbox"]
IGNORED_NOTE = "the sandbox profile is the embedded sandbox: ignored"


@pytest.fixture(scope="module")
def served() -> Iterator[SandboxProcess]:
    """Another service, as `sandbox serve` or a production shell would export it."""
    with sandbox_server() as server:
        yield server


def a_lead_id(*extra: str, env: dict[str, str] | None = None) -> str:
    listed = run_in_process([*extra, "leads", "list", "--limit", "1", "-o", "json"], env=env)
    assert listed.exit_code == 0, listed.stderr
    lead_id: str = json.loads(listed.stdout)[0]["id"]
    return lead_id


def config_text(home: Path) -> str:
    path = home / "config" / "config.toml"
    return path.read_text(encoding="utf-8") if path.exists() else ""


SETTINGS = [("timezone", "America/Chicago"), ("region", "US"), ("output", "json")]


@pytest.mark.parametrize(("key", "value"), SETTINGS)
def test_a_setting_keeps_the_sandbox_and_its_commands(
    isolated_env: Path, key: str, value: str
) -> None:
    run = run_leadctl if (key, value) == SETTINGS[0] else run_in_process
    lead_id = a_lead_id(*SANDBOX)
    made = run([*SANDBOX, "profile", "set", key, value])
    assert made.exit_code == 0, made.stderr
    assert load_config(base_env()).current_profile is None  # `profile use` changes that

    got = run([*SANDBOX, "leads", "get", lead_id, "-o", "json"])
    assert got.exit_code == 0, got.stderr
    assert json.loads(got.stdout)["id"] == lead_id
    shown = run([*SANDBOX, "contract", "show", "-o", "json"])
    assert json.loads(shown.stdout)["source"] == "published by the sandbox"

    removed = run([*SANDBOX, "profile", "unset", key])
    assert removed.exit_code == 0, removed.stderr
    assert "sandbox" not in config_text(isolated_env)  # no empty [profiles.sandbox] left


def test_the_current_profile_sandbox_has_its_commands_from_the_first_run(
    isolated_env: Path,
) -> None:
    lead_id = a_lead_id(*SANDBOX)
    assert run_in_process(["profile", "use", "sandbox"]).exit_code == 0
    # No contract compiled yet (a cleared cache): a generated verb finds it all the same.
    shutil.rmtree(isolated_env / "cache")
    got = run_leadctl(["leads", "get", lead_id, "-o", "json"])
    assert got.exit_code == 0, got.stderr


def test_the_environment_never_points_the_sandbox_elsewhere(served: SandboxProcess) -> None:
    served.clear_requests()
    env = served.env()  # LEADCTL_BASE_URL and LEADCTL_TOKEN of another service
    own = a_lead_id(*SANDBOX)
    result = run_leadctl([*SANDBOX, "leads", "get", own, "-o", "json"], env=env)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["id"] == own
    assert served.requests() == []
    notes = [line for line in result.stderr.splitlines() if IGNORED_NOTE in line]
    assert len(notes) == 1, result.stderr
    assert "LEADCTL_BASE_URL" in notes[0] and "LEADCTL_TOKEN" in notes[0]
    assert env["LEADCTL_TOKEN"] not in result.stderr

    quiet = run_in_process([*SANDBOX, "-q", "leads", "get", own, "-o", "json"], env=env)
    assert quiet.exit_code == 0, quiet.stderr
    assert quiet.stderr == ""
    # The current profile is the sandbox too, not only -p.
    assert run_in_process(["profile", "use", "sandbox"]).exit_code == 0
    current = run_leadctl(["leads", "get", own, "-o", "json"], env=env)
    assert current.exit_code == 0, current.stderr
    assert IGNORED_NOTE in current.stderr
    assert served.requests() == []


def test_no_flag_or_setting_points_the_sandbox_elsewhere(served: SandboxProcess) -> None:
    flag = run_leadctl([*SANDBOX, "--base-url", served.base_url, "lead-statuses", "list"])
    assert flag.exit_code == 2
    assert "-p sandbox is always the embedded sandbox" in flag.stderr
    setting = run_in_process([*SANDBOX, "profile", "set", "base_url", served.base_url])
    assert setting.exit_code == 2
    assert "another profile" in setting.stderr
    assert served.requests() == [] or all(
        r["path"].startswith("/_sandbox") for r in served.requests()
    )


def test_an_old_base_url_of_the_sandbox_profile_is_ignored(
    isolated_env: Path, served: SandboxProcess
) -> None:
    # What an older leadctl let `profile set base_url` write.
    config = isolated_env / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text(
        f'[profiles.sandbox]\nbase_url = "{served.base_url}"\n', encoding="utf-8"
    )
    served.clear_requests()
    result = run_leadctl([*SANDBOX, "lead-statuses", "list", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    assert served.requests() == []
    assert "profile unset base_url" in result.stderr


def test_a_named_profile_overridden_by_the_environment_is_warned(
    served: SandboxProcess,
) -> None:
    elsewhere = "http://127.0.0.1:9"  # the profile's own, never contacted here
    made = run_in_process(["-p", "prod", "profile", "set", "base_url", elsewhere])
    assert made.exit_code == 0, made.stderr
    env = served.env()
    result = run_leadctl(["-p", "prod", "-q", "lead-statuses", "list", "-o", "json"], env=env)
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, result.stderr
    assert served.base_url in warnings[0] and elsewhere in warnings[0]
    # The same URL, or the profile not named on the line: nothing to warn about.
    assert run_in_process(["profile", "use", "prod"]).exit_code == 0
    current = run_in_process(["lead-statuses", "list", "-o", "json"], env=env)
    assert current.exit_code == 0 and "warning" not in current.stderr
    same = run_in_process(["-p", "prod", "profile", "set", "base_url", served.base_url])
    assert same.exit_code == 0
    again = run_in_process(["-p", "prod", "lead-statuses", "list", "-o", "json"], env=env)
    assert again.exit_code == 0 and "warning" not in again.stderr
